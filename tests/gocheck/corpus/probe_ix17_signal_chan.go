// want: ok
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: signal.Notify on a buffered channel, a worker that finishes and main that selects on either

package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan bool, 1)
	go func() {
		fmt.Println("working")
		done <- true
	}()
	select {
	case s := <-sigs:
		fmt.Println("signal", s)
	case <-done:
		fmt.Println("done")
	}
	signal.Stop(sigs)
}
