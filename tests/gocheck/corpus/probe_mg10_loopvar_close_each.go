// want: ok
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a three-clause loop starts one goroutine per replica, each closing done[i] when its sync
//   finishes; with Go 1.22's per-iteration i every goroutine closes its own channel exactly once.

package main

import (
	"fmt"
	"sync/atomic"
)

type replica struct {
	name    string
	applied atomic.Int64
}

func main() {
	replicas := []*replica{{name: "r0"}, {name: "r1"}, {name: "r2"}}
	done := make([]chan struct{}, len(replicas))
	for i := range done {
		done[i] = make(chan struct{})
	}
	for i := 0; i < len(replicas); i++ {
		go func() {
			defer close(done[i])
			for range i + 1 {
				replicas[i].applied.Add(1)
			}
		}()
	}
	for i, d := range done {
		<-d
		fmt.Println(replicas[i].name, "applied", replicas[i].applied.Load())
	}
}
