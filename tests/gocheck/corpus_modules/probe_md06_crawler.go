// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of third-party concurrency modules (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a polite crawler shares one rate.Limiter among three fetchers and stops once it has enough
//   pages, cancelling the context. Limiter.Wait notices the cancellation, but a fetcher already
//   past it blocks on `results <-` for ever, and a fetcher that quits on the Wait error leaves the
//   URL feeder blocked on `jobs <-`: goroutines leak when crawl returns.

package main

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/time/rate"
)

// fetch stands in for an HTTP GET of one page.
func fetch(url string) string {
	return "<html>" + url + "</html>"
}

func crawl(ctx context.Context, urls []string, enough int) []string {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	limiter := rate.NewLimiter(rate.Every(time.Millisecond), 2) // 1000 req/s, bursts of 2
	jobs := make(chan string)
	results := make(chan string)

	go func() {
		for _, u := range urls {
			jobs <- u
		}
		close(jobs)
	}()

	for w := 0; w < 3; w++ {
		go func() {
			for u := range jobs {
				if err := limiter.Wait(ctx); err != nil {
					return // crawl cancelled
				}
				results <- fetch(u)
			}
		}()
	}

	var pages []string
	for page := range results {
		pages = append(pages, page)
		if len(pages) == enough {
			break
		}
	}
	return pages
}

func main() {
	urls := []string{
		"https://example.org/", "https://example.org/a", "https://example.org/b",
		"https://example.org/c", "https://example.org/d", "https://example.org/e",
		"https://example.org/f", "https://example.org/g",
	}
	pages := crawl(context.Background(), urls, 3)
	fmt.Println("crawled", len(pages), "pages")
}
