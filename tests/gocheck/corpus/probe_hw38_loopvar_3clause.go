// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of Go 1.22+ code that captures a three-clause loop variable in a goroutine
// what: with per-iteration loop variables (go 1.22+), each goroutine closes its own stage
//   channel chans[i]; main waits on both. Under pre-1.22 semantics it could close chans[2]
//   (out of range) or one channel twice
package main

import "fmt"

func main() {
	chans := []chan struct{}{make(chan struct{}), make(chan struct{})}
	for i := 0; i < len(chans); i++ {
		go func() {
			close(chans[i])
		}()
	}
	for _, c := range chans {
		<-c
	}
	fmt.Println("all stages closed")
}
