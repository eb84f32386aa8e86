// want: ok
// source: written for chanfuzz as a held-out probe of bug kernels as test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fix of probe_tk06_odr_first_answer_leak (go-ethereum-style first-answer-wins
//   retrieval): each peer's goroutine sends in a select with the request's ctx.Done, which
//   Retrieve's deferred cancel closes, so the peers that lost the race return

package light

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

var errNoPeers = errors.New("no suitable peers")

type answer struct {
	peer int
	data []byte
}

type peer struct {
	id     int
	mu     sync.Mutex
	served int
	head   uint64
}

func (p *peer) serve(reqID uint64) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.served++
	return []byte{byte(reqID), byte(p.id)}
}

type RetrieveManager struct {
	mu      sync.Mutex
	peers   []*peer
	timeout time.Duration
	stats   map[int]int
}

func NewRetrieveManager(n int, timeout time.Duration) *RetrieveManager {
	rm := &RetrieveManager{timeout: timeout, stats: map[int]int{}}
	for i := 0; i < n; i++ {
		rm.peers = append(rm.peers, &peer{id: i, head: uint64(100 + i)})
	}
	return rm
}

func (rm *RetrieveManager) suitablePeers(minHead uint64) []*peer {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	var ps []*peer
	for _, p := range rm.peers {
		if p.head >= minHead {
			ps = append(ps, p)
		}
	}
	return ps
}

// Retrieve asks every suitable peer and returns the first answer.
func (rm *RetrieveManager) Retrieve(ctx context.Context, reqID uint64) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, rm.timeout)
	defer cancel()
	peers := rm.suitablePeers(100)
	if len(peers) == 0 {
		return nil, errNoPeers
	}
	answers := make(chan answer)
	for _, p := range peers {
		go func(p *peer) {
			data := p.serve(reqID)
			select {
			case answers <- answer{peer: p.id, data: data}:
			case <-ctx.Done(): // Retrieve has returned
			}
		}(p)
	}
	select {
	case a := <-answers:
		rm.mu.Lock()
		rm.stats[a.peer]++
		rm.mu.Unlock()
		return a.data, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func TestRetrieveFirstAnswer(t *testing.T) {
	rm := NewRetrieveManager(3, time.Second)
	ctx := context.Background()
	for id := uint64(1); id <= 2; id++ {
		data, err := rm.Retrieve(ctx, id)
		if err != nil {
			t.Fatalf("request %d: %v", id, err)
		}
		if data[0] != byte(id) {
			t.Errorf("request %d: answer for %d", id, data[0])
		}
	}
}
