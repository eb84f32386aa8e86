// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of The Go Programming Language (Donovan & Kernighan) 8.6, crawl3 (20 long-lived crawler goroutines reading an unseenLinks channel) with a depth limit as in exercise 8.6
// what: twenty crawler goroutines range over unseenLinks and hand their found links back through a
//   fresh goroutine sending on worklist; main de-duplicates, counts the pending worklist sends in
//   n, stops at depth 3, then closes unseenLinks and waits for the crawlers to return.

package main

import (
	"fmt"
	"sync"
	"time"
)

type work struct {
	links []string
	depth int
}

func links(url string) []string {
	time.Sleep(100 * time.Microsecond)
	var out []string
	for i := 0; i < 3; i++ {
		out = append(out, fmt.Sprintf("%s/%d", url, (len(url)+i)%4))
	}
	return out
}

func main() {
	const maxDepth = 3
	worklist := make(chan work)    // lists of URLs, may have duplicates
	unseenLinks := make(chan work) // de-duplicated URLs (one a list)
	var n int                      // pending sends to worklist

	n++
	go func() { worklist <- work{[]string{"http://gopl.io"}, 0} }()

	// Create 20 crawler goroutines to fetch each unseen link.
	var crawlers sync.WaitGroup
	for i := 0; i < 20; i++ {
		crawlers.Add(1)
		go func() {
			defer crawlers.Done()
			for w := range unseenLinks {
				foundLinks := links(w.links[0])
				go func(d int) { worklist <- work{foundLinks, d} }(w.depth + 1)
			}
		}()
	}

	// The main goroutine de-duplicates worklist items
	// and sends the unseen ones to the crawlers.
	seen := make(map[string]bool)
	for ; n > 0; n-- {
		w := <-worklist
		if w.depth > maxDepth {
			continue
		}
		for _, link := range w.links {
			if !seen[link] {
				seen[link] = true
				n++
				unseenLinks <- work{[]string{link}, w.depth}
			}
		}
	}
	close(unseenLinks)
	crawlers.Wait()
	fmt.Println(len(seen), "links seen")
}
