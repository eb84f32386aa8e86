// want: partial-deadlock
// source: Rosetta Code task 'Metronome', rewritten; the common belief that Ticker.Stop closes C
// what: main stops the ticker and expects the `for range t.C` loop to end, but Stop never closes
//   the channel, so the metronome goroutine is blocked for ever when main returns.
package main

import (
	"fmt"
	"sync/atomic"
	"time"
)

func main() {
	t := time.NewTicker(2 * time.Millisecond)
	var beats atomic.Int32
	go func() {
		for range t.C {
			n := beats.Add(1)
			if n%4 == 1 {
				fmt.Println("TICK")
			} else {
				fmt.Println("tick")
			}
		}
		fmt.Println("metronome stopped") // never reached
	}()
	time.Sleep(16 * time.Millisecond)
	t.Stop()
	time.Sleep(5 * time.Millisecond)
	fmt.Println("beats played:", beats.Load())
}
