// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a webhook dispatcher fanning deliveries out to a fixed set of workers
// what: main sends every delivery, collects exactly as many results and returns, but never closes the
//   jobs channel; the workers ranging over it stay blocked for ever.
package main

import (
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
)

type Delivery struct {
	ID      int
	URL     string
	Payload string
}

type Result struct {
	ID     int
	Status int
}

type Dispatcher struct {
	jobs    chan Delivery
	results chan Result
	sent    int64
}

func NewDispatcher(workers int) *Dispatcher {
	d := &Dispatcher{jobs: make(chan Delivery), results: make(chan Result)}
	for i := 0; i < workers; i++ {
		go d.worker(i)
	}
	return d
}

func (d *Dispatcher) worker(id int) {
	for job := range d.jobs {
		status := 200
		if !strings.HasPrefix(job.URL, "https://") {
			status = 400
		}
		atomic.AddInt64(&d.sent, int64(len(job.Payload)))
		d.results <- Result{ID: job.ID, Status: status}
	}
}

func (d *Dispatcher) DeliverAll(batch []Delivery) []Result {
	go func() {
		for _, job := range batch {
			d.jobs <- job
		}
	}()
	out := make([]Result, 0, len(batch))
	for range batch {
		out = append(out, <-d.results)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func main() {
	d := NewDispatcher(3)
	batch := []Delivery{
		{1, "https://hooks.example.com/build", `{"status":"ok"}`},
		{2, "http://legacy.example.com/notify", `{"status":"ok"}`},
		{3, "https://chat.example.com/webhook", `{"text":"deployed"}`},
		{4, "https://hooks.example.com/build", `{"status":"failed"}`},
	}
	failed := 0
	for _, r := range d.DeliverAll(batch) {
		if r.Status >= 400 {
			failed++
		}
	}
	fmt.Printf("delivered %d, failed %d, %d bytes\n", len(batch)-failed, failed, atomic.LoadInt64(&d.sent))
}
