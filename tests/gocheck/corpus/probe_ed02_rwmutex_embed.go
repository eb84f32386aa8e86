// want: global-deadlock
// source: written for chanfuzz as a held-out probe of language and library edges (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: Store embeds *sync.RWMutex and has value receivers, so copies (view, the method value st.Put) share the
//   lock; Snapshot read-locks and then calls Len, which read-locks again: a writer queued in between blocks both.

package main

import (
	"fmt"
	"sync"
)

type Store struct {
	*sync.RWMutex
	m map[string]int
}

func (s Store) Len() int {
	s.RLock()
	defer s.RUnlock()
	return len(s.m)
}

func (s Store) Snapshot() (map[string]int, int) {
	s.RLock()
	defer s.RUnlock()
	cp := make(map[string]int, len(s.m))
	for k, v := range s.m {
		cp[k] = v
	}
	return cp, s.Len()
}

func (s Store) Put(k string, v int) {
	s.Lock()
	defer s.Unlock()
	s.m[k] = v
}

func writeAll(put func(string, int), done chan<- struct{}) {
	defer close(done)
	put("a", 1)
	put("b", 2)
}

func main() {
	st := Store{RWMutex: new(sync.RWMutex), m: map[string]int{}}
	done := make(chan struct{})
	go writeAll(st.Put, done)
	view := st // a copy, but it shares the lock and the map
	cp, n := view.Snapshot()
	<-done
	fmt.Println(len(cp), n, st.Len())
}
