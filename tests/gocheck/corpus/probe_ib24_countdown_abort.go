// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of The Go Programming Language (Donovan & Kernighan) 8.7, countdown3 (select on a ticker and an abort channel)
// what: a fake keyboard goroutine sends on a buffered abort channel after 3 ms; main counts down
//   ten 1 ms ticks in a select on ticker.C and abort, stopping the ticker and returning on abort,
//   launching otherwise. The abort send never blocks, whichever way the race goes.

package main

import (
	"fmt"
	"time"
)

func launch() {
	fmt.Println("Lift off!")
}

func main() {
	abort := make(chan struct{}, 1)
	go func() {
		time.Sleep(3 * time.Millisecond) // stands for os.Stdin.Read(make([]byte, 1))
		abort <- struct{}{}
	}()

	fmt.Println("Commencing countdown.  Press return to abort.")
	ticker := time.NewTicker(time.Millisecond)
	for countdown := 10; countdown > 0; countdown-- {
		fmt.Println(countdown)
		select {
		case <-ticker.C:
			// Do nothing.
		case <-abort:
			fmt.Println("Launch aborted!")
			ticker.Stop()
			return
		}
	}
	ticker.Stop()
	launch()
}
