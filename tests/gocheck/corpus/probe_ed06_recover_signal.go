// want: global-deadlock
// source: written for chanfuzz as a held-out probe of language and library edges (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: Workers recover an index-out-of-range panic in a deferred closure that reports it on an unbuffered errc;
//   that closure runs before the deferred wg.Done, and main reads errc only after wg.Wait, so both block.

package main

import (
	"fmt"
	"sync"
)

var opcodes = []string{"nop", "load", "store"}

func decode(id, code int, out []string, errc chan<- error, wg *sync.WaitGroup) {
	defer wg.Done()
	defer func() {
		if r := recover(); r != nil {
			errc <- fmt.Errorf("worker %d: %v", id, r)
		}
	}()
	out[id] = opcodes[code]
}

func main() {
	codes := []int{1, 7, 2}
	out := make([]string, len(codes))
	errc := make(chan error)
	var wg sync.WaitGroup
	for i, c := range codes {
		wg.Add(1)
		go decode(i, c, out, errc, &wg)
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		fmt.Println(err)
	}
	fmt.Println(out)
}
