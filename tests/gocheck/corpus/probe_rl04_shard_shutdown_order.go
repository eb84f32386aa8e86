// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of library-style idioms (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a sharded store keeps its shards in a map[string]*shard; Close ranges over the map
//   closing each queue, but after sending the checkpoint to the dirty shard it breaks (meant:
//   continue), so whether shards are left ranging over an open queue depends on Go's random map
//   order; then the shutdown grace period expires and main returns with those shards blocked (a leak)

package main

import (
	"fmt"
	"sync"
	"time"
)

type op struct {
	kind string // "put" or "checkpoint"
	key  string
	val  int
}

// shard applies the writes for its slice of the key space.
type shard struct {
	name    string
	queue   chan op
	data    map[string]int
	applied int
}

func (s *shard) run(wg *sync.WaitGroup) {
	defer wg.Done()
	for o := range s.queue {
		switch o.kind {
		case "put":
			s.data[o.key] = o.val
			s.applied++
		case "checkpoint":
			s.applied = 0 // everything so far is now durable
		}
	}
}

// Store routes writes to shards by the first letter of the key.
type Store struct {
	shards map[string]*shard
	wg     sync.WaitGroup
}

func NewStore(names ...string) *Store {
	st := &Store{shards: make(map[string]*shard)}
	for _, n := range names {
		s := &shard{name: n, queue: make(chan op, 8), data: make(map[string]int)}
		st.shards[n] = s
		st.wg.Add(1)
		go s.run(&st.wg)
	}
	return st
}

func (st *Store) shardFor(key string) *shard {
	switch {
	case key < "h":
		return st.shards["a-g"]
	case key < "p":
		return st.shards["h-o"]
	default:
		return st.shards["p-z"]
	}
}

func (st *Store) Put(key string, val int) {
	st.shardFor(key).queue <- op{kind: "put", key: key, val: val}
}

// Close stops every shard; the dirty shard gets a final checkpoint first.
func (st *Store) Close(dirty string) {
	for name, s := range st.shards {
		if name == dirty {
			s.queue <- op{kind: "checkpoint"}
			close(s.queue)
			break // BUG: should be continue; shards later in map order are never closed
		}
		close(s.queue)
	}
}

func main() {
	st := NewStore("a-g", "h-o", "p-z")
	for i, k := range []string{"apple", "kiwi", "quince", "fig", "lime", "plum"} {
		st.Put(k, i)
	}
	st.Close("h-o")

	stopped := make(chan struct{})
	go func() {
		st.wg.Wait()
		close(stopped)
	}()
	select {
	case <-stopped:
		fmt.Println("store closed")
	case <-time.After(500 * time.Millisecond):
		fmt.Println("shutdown grace period expired; exiting anyway")
	}
}
