// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ENV NAMES="a.example b.example c.example d.example e.example f.example"), in the style of a DNS bulk-resolver that sized its result buffer with a constant
// what: results has a fixed buffer of maxInFlight=4; main waits for all resolvers before
//   draining, so with 5 or more names the 5th send blocks, wg.Wait never returns: deadlock
//   only when len(NAMES) > 4.
package main

import (
	"fmt"
	"hash/crc32"
	"os"
	"sort"
	"strings"
	"sync"
)

const maxInFlight = 4

type answer struct {
	name string
	addr string
}

type resolver struct {
	prefix string
}

func (r *resolver) lookup(name string) answer {
	h := crc32.ChecksumIEEE([]byte(name))
	return answer{name: name, addr: fmt.Sprintf("%s.%d.%d", r.prefix, h%256, (h>>8)%256)}
}

func main() {
	names := strings.Fields(os.Getenv("NAMES"))
	r := &resolver{prefix: "10.0"}
	results := make(chan answer, maxInFlight)
	var wg sync.WaitGroup
	for _, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- r.lookup(n)
		}()
	}
	wg.Wait()
	close(results)
	var out []answer
	for a := range results {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	for _, a := range out {
		fmt.Printf("%s\t%s\n", a.name, a.addr)
	}
}
