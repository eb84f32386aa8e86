// want: ok
// source: written for chanfuzz as a held-out probe (round 13, real blocking bugs in Go projects), modelled on hashicorp/memberlist push-pull state sync / serf join fan-out
// what: fixed: a separate goroutine waits on the WaitGroup and then closes results, while
//
//	syncWithPeers drains results with range; every sender finds a receiver and nothing blocks.
package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
)

type Node struct {
	Name string
	Addr string
}

type remoteState struct {
	Incarnation uint32
	Members     []string
}

type Transport interface {
	PushPull(ctx context.Context, n *Node, local []string) (*remoteState, error)
}

type memTransport struct {
	states map[string]*remoteState
}

func (t *memTransport) PushPull(ctx context.Context, n *Node, local []string) (*remoteState, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st, ok := t.states[n.Addr]
	if !ok {
		return nil, errors.New("memberlist: connection refused: " + n.Addr)
	}
	return st, nil
}

type pushPullResult struct {
	node  *Node
	state *remoteState
	err   error
}

type Memberlist struct {
	local     []string
	peers     []*Node
	transport Transport
}

func (m *Memberlist) syncWithPeers(ctx context.Context) ([]string, error) {
	results := make(chan pushPullResult)
	var wg sync.WaitGroup
	for _, n := range m.peers {
		wg.Add(1)
		go func(n *Node) {
			defer wg.Done()
			st, err := m.transport.PushPull(ctx, n, m.local)
			results <- pushPullResult{node: n, state: st, err: err}
		}(n)
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	merged := map[string]bool{}
	for _, name := range m.local {
		merged[name] = true
	}
	var firstErr error
	for r := range results {
		if r.err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("push/pull with %s: %w", r.node.Name, r.err)
			}
			continue
		}
		for _, name := range r.state.Members {
			merged[name] = true
		}
	}
	out := make([]string, 0, len(merged))
	for name := range merged {
		out = append(out, name)
	}
	sort.Strings(out)
	return out, firstErr
}

func main() {
	tr := &memTransport{states: map[string]*remoteState{
		"10.0.0.2:7946": {Incarnation: 4, Members: []string{"node-b", "node-d"}},
		"10.0.0.3:7946": {Incarnation: 1, Members: []string{"node-c"}},
	}}
	m := &Memberlist{
		local: []string{"node-a"},
		peers: []*Node{
			{Name: "node-b", Addr: "10.0.0.2:7946"},
			{Name: "node-c", Addr: "10.0.0.3:7946"},
			{Name: "node-e", Addr: "10.0.0.5:7946"},
		},
		transport: tr,
	}
	members, err := m.syncWithPeers(context.Background())
	fmt.Println(members, err)
}
