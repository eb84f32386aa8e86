// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a small job tracker whose Submit has a value receiver (go vet copylocks-free, still wrong)
// what: Submit has a pointer receiver, so pending counts both jobs and Wait receives both
package main

import "fmt"

type Tracker struct {
	pending int
	done    chan error
}

func (t *Tracker) Submit(job func() error) {
	t.pending++
	go func() { t.done <- job() }()
}

func (t *Tracker) Wait() error {
	var first error
	for i := 0; i < t.pending; i++ {
		if err := <-t.done; err != nil && first == nil {
			first = err
		}
	}
	return first
}

func main() {
	t := &Tracker{done: make(chan error)}
	for i := 0; i < 2; i++ {
		t.Submit(func() error { return nil })
	}
	fmt.Println("wait:", t.Wait())
}
