// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Concurrency in Go (Cox-Buday) ch. 4, confinement (lexical confinement of a channel's write end in chanOwner; printData on disjoint subslices)
// what: chanOwner creates a buffered channel, writes 0..4 into it from a goroutine and closes it,
//   exposing only the read end, which consumer ranges over; then two goroutines each format a
//   disjoint half of a byte slice into their own buffer, joined with a WaitGroup.

package main

import (
	"bytes"
	"fmt"
	"sync"
)

func main() {
	chanOwner := func() <-chan int {
		results := make(chan int, 5)
		go func() {
			defer close(results)
			for i := 0; i <= 5; i++ {
				results <- i
			}
		}()
		return results
	}

	consumer := func(results <-chan int) {
		for result := range results {
			fmt.Printf("Received: %d\n", result)
		}
		fmt.Println("Done receiving!")
	}

	results := chanOwner()
	consumer(results)

	printData := func(wg *sync.WaitGroup, data []byte) {
		defer wg.Done()

		var buff bytes.Buffer
		for _, b := range data {
			fmt.Fprintf(&buff, "%c", b)
		}
		fmt.Println(buff.String())
	}

	var wg sync.WaitGroup
	wg.Add(2)
	data := []byte("golang")
	go printData(&wg, data[:3])
	go printData(&wg, data[3:])

	wg.Wait()
}
