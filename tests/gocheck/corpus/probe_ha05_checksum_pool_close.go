// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a bounded worker pool computing layer checksums for an image push
// what: every worker closes the shared results channel when it runs out of jobs, so the second worker
//   to finish closes it again (or sends on it after the first close); main waits for all workers.
package main

import (
	"fmt"
	"hash/crc32"
	"sort"
	"sync"
)

type Layer struct {
	Digest string
	Data   string
}

type Sum struct {
	Digest string
	CRC    uint32
	Size   int
}

func worker(id int, jobs <-chan Layer, results chan<- Sum, wg *sync.WaitGroup) {
	defer wg.Done()
	defer close(results)
	for l := range jobs {
		results <- Sum{Digest: l.Digest, CRC: crc32.ChecksumIEEE([]byte(l.Data)), Size: len(l.Data)}
	}
}

func checksumAll(layers []Layer, workers int) []Sum {
	jobs := make(chan Layer, len(layers))
	results := make(chan Sum, len(layers))
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go worker(i, jobs, results, &wg)
	}
	for _, l := range layers {
		jobs <- l
	}
	close(jobs)

	var sums []Sum
	for s := range results {
		sums = append(sums, s)
	}
	wg.Wait()
	sort.Slice(sums, func(i, j int) bool { return sums[i].Digest < sums[j].Digest })
	return sums
}

func main() {
	layers := []Layer{
		{"sha256:1a2b", "FROM alpine:3.20"},
		{"sha256:3c4d", "RUN apk add --no-cache ca-certificates"},
		{"sha256:5e6f", "COPY ./bin/server /usr/local/bin/server"},
		{"sha256:7a8b", "ENTRYPOINT [\"/usr/local/bin/server\"]"},
	}
	sums := checksumAll(layers, 3)
	total := 0
	for _, s := range sums {
		fmt.Printf("%s crc=%08x size=%d\n", s.Digest, s.CRC, s.Size)
		total += s.Size
	}
	fmt.Println("pushed", len(sums), "layers,", total, "bytes")
}
