// want: ok
// source: the wg.Add-inside-the-goroutine mistake seen in many code reviews, fixed version, written for this set
// what: wg.Add runs before each goroutine starts, so close(results) happens only
//   after every fetcher has sent.

package crawl

import (
	"sort"
	"strings"
	"sync"
	"testing"
)

type Fetcher interface {
	Fetch(url string) (string, error)
}

type mapFetcher map[string]string

func (m mapFetcher) Fetch(url string) (string, error) {
	return strings.ToUpper(m[url]), nil
}

type crawler struct {
	f       Fetcher
	wg      sync.WaitGroup
	results chan string
}

// fetch reports one body; the caller has already counted it in wg.
func (c *crawler) fetch(u string) {
	defer c.wg.Done()
	body, err := c.f.Fetch(u)
	if err != nil {
		return
	}
	c.results <- body
}

// FetchAll fetches every url concurrently and returns the bodies.
func FetchAll(f Fetcher, urls []string) []string {
	c := &crawler{f: f, results: make(chan string, len(urls))}
	for _, u := range urls {
		c.wg.Add(1)
		go c.fetch(u)
	}
	c.wg.Wait()
	close(c.results)
	var out []string
	for r := range c.results {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

func TestFetchAll(t *testing.T) {
	f := mapFetcher{"a": "alpha", "b": "beta", "c": "gamma", "d": "delta"}
	tests := []struct {
		name string
		urls []string
		want int
	}{
		{"none", nil, 0},
		{"two", []string{"a", "b"}, 2},
		{"four", []string{"a", "b", "c", "d"}, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := FetchAll(f, tc.urls)
			if len(got) != tc.want {
				t.Errorf("got %d results, want %d", len(got), tc.want)
			}
		})
	}
}
