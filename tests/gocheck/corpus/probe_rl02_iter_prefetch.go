// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of library-style idioms (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a paginated client's All method returns an iter.Seq whose pages are prefetched by a
//   goroutine feeding an unbuffered channel; the caller breaks out of the range-over-func loop
//   at the first match, yield returns false, All returns, and the prefetcher stays blocked on its
//   next send for ever (a leak)

package main

import (
	"fmt"
	"iter"
)

// Record is one row returned by the listing API.
type Record struct {
	ID    int
	Owner string
}

// Client pages through a listing endpoint; pages stands in for the server's responses.
type Client struct {
	pageSize int
	pages    [][]Record
}

// fetchPage returns page p of the listing (a network round trip in the real client).
func (c *Client) fetchPage(p int) []Record {
	if p >= len(c.pages) {
		return nil
	}
	return c.pages[p]
}

// All yields every record of the listing; the next page is fetched while the caller
// works on the current one.
func (c *Client) All() iter.Seq[Record] {
	return func(yield func(Record) bool) {
		records := make(chan Record)
		go func() {
			defer close(records)
			for p := 0; ; p++ {
				page := c.fetchPage(p)
				if len(page) == 0 {
					return
				}
				for _, r := range page {
					records <- r
				}
			}
		}()
		for r := range records {
			if !yield(r) {
				return // BUG: the prefetcher is still blocked sending the next record
			}
		}
	}
}

func newClient() *Client {
	c := &Client{pageSize: 3}
	owners := []string{"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"}
	var page []Record
	for i, o := range owners {
		page = append(page, Record{ID: 100 + i, Owner: o})
		if len(page) == c.pageSize || i == len(owners)-1 {
			c.pages = append(c.pages, page)
			page = nil
		}
	}
	return c
}

func main() {
	c := newClient()
	var found *Record
	for r := range c.All() {
		if r.Owner == "dave" {
			found = &r
			break
		}
	}
	if found != nil {
		fmt.Printf("dave owns record %d\n", found.ID)
	}
}
