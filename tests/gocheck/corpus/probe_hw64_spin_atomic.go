// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of test code that spin-waits on an atomic counter with runtime.Gosched
// what: two goroutines increment an atomic counter and exit; main spins (Gosched) until it
//   reads 2, then returns; no goroutine is left
package main

import (
	"fmt"
	"runtime"
	"sync/atomic"
)

func main() {
	var started atomic.Int32
	for i := 0; i < 2; i++ {
		go func() {
			started.Add(1)
		}()
	}
	for started.Load() < 2 {
		runtime.Gosched()
	}
	fmt.Println("all started")
}
