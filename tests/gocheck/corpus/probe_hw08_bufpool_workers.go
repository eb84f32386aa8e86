// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a worker pool that reuses buffers via sync.Pool (encoders, log formatters)
// what: two workers format jobs into pooled bytes.Buffers and send the strings on a results
//   channel that a closer goroutine closes after wg.Wait; main drains it. Nothing blocks
package main

import (
	"bytes"
	"fmt"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func format(id int) string {
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	b.Reset()
	fmt.Fprintf(b, "job-%d", id)
	return b.String()
}

func main() {
	jobs := make(chan int)
	results := make(chan string)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range jobs {
				results <- format(id)
			}
		}()
	}
	go func() {
		for i := 0; i < 3; i++ {
			jobs <- i
		}
		close(jobs)
	}()
	go func() { wg.Wait(); close(results) }()
	for r := range results {
		fmt.Println(r)
	}
}
