// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Go by Example "Timers" and "Tickers" (a timer that fires, a timer stopped early, a ticker stopped with a done channel)
// what: timer1 fires after 1 ms; timer2 (10 ms) is stopped right away, and the goroutine that
//   waited for it also selects on a cancel channel that main closes, so it does not wait for
//   ever; a ticker goroutine prints ticks until main sends on done after 3 ms and stops the ticker.

package main

import (
	"fmt"
	"time"
)

func main() {
	timer1 := time.NewTimer(time.Millisecond)
	<-timer1.C
	fmt.Println("Timer 1 fired")

	timer2 := time.NewTimer(10 * time.Millisecond)
	cancel := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case <-timer2.C:
			fmt.Println("Timer 2 fired")
		case <-cancel:
			fmt.Println("Timer 2 wait cancelled")
		}
	}()
	stop2 := timer2.Stop()
	if stop2 {
		fmt.Println("Timer 2 stopped")
		close(cancel)
	}
	<-finished

	ticker := time.NewTicker(500 * time.Microsecond)
	done := make(chan bool)

	go func() {
		for {
			select {
			case <-done:
				return
			case t := <-ticker.C:
				fmt.Println("Tick at", t.IsZero())
			}
		}
	}()

	time.Sleep(3 * time.Millisecond)
	ticker.Stop()
	done <- true
	fmt.Println("Ticker stopped")
}
