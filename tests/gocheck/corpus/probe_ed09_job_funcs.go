// want: global-deadlock
// source: written for chanfuzz as a held-out probe of language and library edges (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: A worker runs closures received on a chan func(); one calls the method value led.AddAll, which locks the
//   embedded Mutex and defers the unlock inside its loop, so the second item locks it again and main blocks sending.

package main

import (
	"fmt"
	"sync"
)

type Ledger struct {
	sync.Mutex
	total int
}

func (l *Ledger) AddAll(xs []int) {
	for _, x := range xs {
		l.Lock()
		defer l.Unlock()
		l.total += x
	}
}

func main() {
	jobs := make(chan func())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for job := range jobs {
			job()
		}
	}()
	led := &Ledger{}
	add := led.AddAll
	jobs <- func() { add([]int{1, 2}) }
	jobs <- func() { add([]int{3}) }
	close(jobs)
	<-done
	fmt.Println(led.total)
}
