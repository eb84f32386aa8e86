// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of library-style idioms (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a generic pipeline stage Map[T, U] used twice (string->logEntry, logEntry->int) behind an
//   Emit source; the quota check returns as soon as the byte budget is exceeded and nobody drains
//   the pipeline, so Emit and both Map goroutines stay blocked sending for ever (a leak)

package main

import (
	"fmt"
	"strconv"
	"strings"
)

// Emit returns a channel that yields vs in order and is then closed.
func Emit[T any](vs ...T) <-chan T {
	out := make(chan T)
	go func() {
		defer close(out)
		for _, v := range vs {
			out <- v
		}
	}()
	return out
}

// Map applies f to every value read from in and sends the results on the returned channel,
// which is closed once in is closed.
func Map[T, U any](in <-chan T, f func(T) U) <-chan U {
	out := make(chan U)
	go func() {
		defer close(out)
		for v := range in {
			out <- f(v)
		}
	}()
	return out
}

// logEntry is one parsed line of an access log.
type logEntry struct {
	client string
	path   string
	bytes  int
}

func parseEntry(line string) logEntry {
	f := strings.Fields(line)
	if len(f) != 3 {
		return logEntry{}
	}
	n, err := strconv.Atoi(f[2])
	if err != nil {
		return logEntry{client: f[0], path: f[1]}
	}
	return logEntry{client: f[0], path: f[1], bytes: n}
}

// overQuota reports the first line at which the clients together served more than quota bytes.
func overQuota(lines []string, quota int) (int, bool) {
	entries := Map(Emit(lines...), parseEntry)
	sizes := Map(entries, func(e logEntry) int { return e.bytes })
	total, n := 0, 0
	for sz := range sizes {
		n++
		total += sz
		if total > quota {
			return n, true // BUG: the pipeline upstream is never drained or cancelled
		}
	}
	return n, false
}

func main() {
	lines := []string{
		"10.0.0.1 /index.html 5120",
		"10.0.0.2 /static/app.js 40960",
		"10.0.0.1 /api/items 2048",
		"10.0.0.3 /static/logo.png 81920",
		"10.0.0.2 /api/items?page=2 2048",
		"10.0.0.4 /index.html 5120",
		"10.0.0.3 /api/cart 1024",
	}
	if n, over := overQuota(lines, 64*1024); over {
		fmt.Printf("quota exceeded at line %d\n", n)
	} else {
		fmt.Printf("%d lines within quota\n", n)
	}
}
