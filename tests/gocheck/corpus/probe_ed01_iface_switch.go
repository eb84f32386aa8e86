// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of language and library edges (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: Sinks in a []Sink are fed by one goroutine each through the interface method Put; main drains the
//   channel-backed ones with a type switch that misses the *chanSink wrapped in a tagged struct, so that Put leaks.

package main

import "fmt"

type Sink interface{ Put(v int) }

type chanSink struct{ ch chan int }

func (s *chanSink) Put(v int) { s.ch <- v }

type countSink struct{ n int }

func (s *countSink) Put(v int) { s.n += v }

// tagged labels another sink; Put is promoted from the embedded Sink.
type tagged struct {
	Sink
	tag string
}

func main() {
	audit := &chanSink{ch: make(chan int)}
	metrics := &chanSink{ch: make(chan int)}
	sinks := []Sink{audit, &countSink{}, tagged{Sink: metrics, tag: "metrics"}}
	for i, s := range sinks {
		go s.Put(i + 1)
	}
	// Drain every sink that is backed by a channel.
	total := 0
	for _, s := range sinks {
		switch s := s.(type) {
		case *chanSink:
			total += <-s.ch
		case *countSink:
			// counted in place, nothing to receive
		}
	}
	fmt.Println("drained", total)
}
