// want: ok
// source: Rosetta Code task 'Metronome', rewritten
// what: a ticker drives the beats; the metronome goroutine selects on the ticker and a stop
//   channel, stops the ticker and signals done; main stops it after eight beats' worth of time.
package main

import (
	"fmt"
	"time"
)

func metronome(bpm, perBar int, stop <-chan struct{}, done chan<- int) {
	t := time.NewTicker(time.Minute / time.Duration(bpm))
	defer t.Stop()
	beats := 0
	for {
		select {
		case <-t.C:
			beats++
			if beats%perBar == 1 {
				fmt.Println("TICK")
			} else {
				fmt.Println("tick")
			}
		case <-stop:
			done <- beats
			return
		}
	}
}

func main() {
	stop := make(chan struct{})
	done := make(chan int)
	go metronome(30000, 4, stop, done) // 2 ms a beat
	time.Sleep(16 * time.Millisecond)
	close(stop)
	fmt.Println("beats played:", <-done)
}
