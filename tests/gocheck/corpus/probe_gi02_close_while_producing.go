// want: channel-safety
// source: "closing a channel that a still-running producer sends on" (send on closed channel panics)
// what: the collector closes the samples channel when its deadline passes, but the sampler
//   goroutine is still sending; its next send panics.
package main

import (
	"fmt"
	"time"
)

func sampler(out chan<- float64) {
	for i := 0; i < 20; i++ {
		time.Sleep(time.Millisecond)
		out <- float64(i) * 0.5
	}
}

func main() {
	samples := make(chan float64, 4)
	go sampler(samples)

	deadline := time.After(5 * time.Millisecond)
	sum, n := 0.0, 0
loop:
	for {
		select {
		case s := <-samples:
			sum += s
			n++
		case <-deadline:
			close(samples) // "we're done collecting"
			break loop
		}
	}
	fmt.Printf("collected %d samples, mean %.2f\n", n, sum/float64(max(n, 1)))
	time.Sleep(5 * time.Millisecond) // write the report
}
