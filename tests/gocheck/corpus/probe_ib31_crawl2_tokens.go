// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of The Go Programming Language (Donovan & Kernighan) 8.6, crawl2 (a worklist channel, a counting semaphore of 20 tokens, and a counter n of pending sends)
// what: main keeps a worklist of link lists; for each unseen link it starts a goroutine that
//   acquires a token, fakes the fetch from a map of pages and sends the found links back on the
//   worklist; n counts the sends still due to the worklist, so the loop ends when n reaches 0.

package main

import (
	"fmt"
	"time"
)

var web = map[string][]string{
	"https://golang.org/":               {"https://golang.org/pkg/", "https://golang.org/doc/", "https://blog.golang.org/"},
	"https://golang.org/pkg/":           {"https://golang.org/", "https://golang.org/pkg/fmt/", "https://golang.org/pkg/os/"},
	"https://golang.org/pkg/fmt/":       {"https://golang.org/", "https://golang.org/pkg/"},
	"https://golang.org/pkg/os/":        {"https://golang.org/", "https://golang.org/pkg/", "https://golang.org/pkg/io/"},
	"https://golang.org/doc/":           {"https://golang.org/", "https://golang.org/doc/effective_go.html", "https://go.dev/tour/"},
	"https://blog.golang.org/":          {"https://golang.org/", "https://blog.golang.org/pipelines"},
	"https://blog.golang.org/pipelines": {"https://blog.golang.org/", "https://golang.org/pkg/sync/"},
}

// tokens is a counting semaphore used to
// enforce a limit of 20 concurrent requests.
var tokens = make(chan struct{}, 20)

func extract(url string) ([]string, error) {
	time.Sleep(200 * time.Microsecond)
	links, ok := web[url]
	if !ok {
		return nil, fmt.Errorf("getting %s: 404 Not Found", url)
	}
	return links, nil
}

func crawl(url string) []string {
	fmt.Println(url)
	tokens <- struct{}{} // acquire a token
	list, err := extract(url)
	<-tokens // release the token
	if err != nil {
		fmt.Println(err)
	}
	return list
}

func main() {
	worklist := make(chan []string)
	var n int // number of pending sends to worklist

	// Start with the command-line arguments.
	n++
	go func() { worklist <- []string{"https://golang.org/"} }()

	// Crawl the web concurrently.
	seen := make(map[string]bool)
	for ; n > 0; n-- {
		list := <-worklist
		for _, link := range list {
			if !seen[link] {
				seen[link] = true
				n++
				go func(link string) {
					worklist <- crawl(link)
				}(link)
			}
		}
	}
	fmt.Println(len(seen), "pages seen")
}
