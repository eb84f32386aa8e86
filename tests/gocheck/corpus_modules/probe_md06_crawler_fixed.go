// want: ok
// source: written for chanfuzz as a held-out probe of third-party concurrency modules (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed twin of the polite crawler: the feeder and the fetchers make every send in a select
//   with ctx.Done(), so once crawl has enough pages and cancels, the fetchers stop at the limiter
//   or at their send, the feeder stops offering URLs, and nothing is left blocked.

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
		defer close(jobs)
		for _, u := range urls {
			select {
			case jobs <- u:
			case <-ctx.Done():
				return
			}
		}
	}()

	for w := 0; w < 3; w++ {
		go func() {
			for u := range jobs {
				if err := limiter.Wait(ctx); err != nil {
					return // crawl cancelled
				}
				select {
				case results <- fetch(u):
				case <-ctx.Done():
					return
				}
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
