// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a two-phase cross-shard transfer (prepare barrier, then apply to the peer shard)
// what: each transfer locks its source shard, waits at the prepare barrier until every transfer has
//   prepared, then locks the destination shard; two transfers in opposite directions hold each other's lock for ever.
package main

import (
	"errors"
	"fmt"
	"sync"
)

type Shard struct {
	name     string
	mu       sync.Mutex
	balances map[string]int
}

type Transfer struct {
	From, To *Shard
	Account  string
	Amount   int
}

var ErrInsufficient = errors.New("insufficient funds")

type Coordinator struct {
	prepared sync.WaitGroup
	mu       sync.Mutex
	errs     []error
}

func (c *Coordinator) record(err error) {
	c.mu.Lock()
	c.errs = append(c.errs, err)
	c.mu.Unlock()
}

func (c *Coordinator) run(t Transfer) {
	// Phase 1: lock and validate the source shard.
	t.From.mu.Lock()
	defer t.From.mu.Unlock()
	ok := t.From.balances[t.Account] >= t.Amount
	c.prepared.Done()
	c.prepared.Wait() // every participant has voted
	if !ok {
		c.record(fmt.Errorf("%s/%s: %w", t.From.name, t.Account, ErrInsufficient))
		return
	}
	// Phase 2: apply on both shards.
	t.To.mu.Lock()
	defer t.To.mu.Unlock()
	t.From.balances[t.Account] -= t.Amount
	t.To.balances[t.Account] += t.Amount
}

func (c *Coordinator) Execute(txns []Transfer) []error {
	c.prepared.Add(len(txns))
	var done sync.WaitGroup
	for _, t := range txns {
		done.Add(1)
		go func(t Transfer) {
			defer done.Done()
			c.run(t)
		}(t)
	}
	done.Wait()
	return c.errs
}

func main() {
	east := &Shard{name: "east", balances: map[string]int{"alice": 100, "bob": 40}}
	west := &Shard{name: "west", balances: map[string]int{"alice": 10, "bob": 70}}
	c := &Coordinator{}
	errs := c.Execute([]Transfer{
		{From: east, To: west, Account: "alice", Amount: 30},
		{From: west, To: east, Account: "bob", Amount: 20},
	})
	for _, err := range errs {
		fmt.Println("aborted:", err)
	}
	fmt.Println("east", east.balances, "west", west.balances)
}
