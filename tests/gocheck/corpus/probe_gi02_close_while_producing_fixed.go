// want: ok
// source: "closing a channel that a still-running producer sends on", fixed
// what: the collector signals the sampler through a stop channel; the sampler, the only sender,
//   closes samples itself when it stops, and the collector drains until that close.
package main

import (
	"fmt"
	"time"
)

func sampler(out chan<- float64, stop <-chan struct{}) {
	defer close(out)
	for i := 0; i < 20; i++ {
		time.Sleep(time.Millisecond)
		select {
		case out <- float64(i) * 0.5:
		case <-stop:
			return
		}
	}
}

func main() {
	samples := make(chan float64, 4)
	stop := make(chan struct{})
	go sampler(samples, stop)

	deadline := time.After(5 * time.Millisecond)
	sum, n := 0.0, 0
	for s := range samples {
		sum += s
		n++
		select {
		case <-deadline:
			if stop != nil {
				close(stop)
				stop = nil
			}
		default:
		}
	}
	fmt.Printf("collected %d samples, mean %.2f\n", n, sum/float64(max(n, 1)))
}
