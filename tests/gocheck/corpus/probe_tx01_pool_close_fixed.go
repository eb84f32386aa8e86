// want: ok
// source: a worker pool's Close as in many Go libraries, written for this set
// what: Close closes the jobs channel and waits for the workers to exit
//   before closing results, so no worker outlives the test.

package pool

import (
	"sync"
	"testing"
)

type Pool struct {
	jobs    chan func() int
	results chan int
	workers sync.WaitGroup
}

func New(workers int) *Pool {
	p := &Pool{jobs: make(chan func() int), results: make(chan int, 16)}
	p.workers.Add(workers)
	for i := 0; i < workers; i++ {
		go p.worker()
	}
	return p
}

func (p *Pool) worker() {
	defer p.workers.Done()
	for job := range p.jobs {
		p.results <- job()
	}
}

func (p *Pool) Submit(job func() int) {
	p.jobs <- job
}

// Close stops accepting jobs and waits for the workers to drain.
func (p *Pool) Close() {
	close(p.jobs)
	p.workers.Wait()
	close(p.results)
}

func TestPoolSum(t *testing.T) {
	tests := []struct {
		name    string
		workers int
		jobs    int
		want    int
	}{
		{"one worker", 1, 3, 6},
		{"three workers", 3, 4, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := New(tc.workers)
			go func() {
				for i := 1; i <= tc.jobs; i++ {
					n := i
					p.Submit(func() int { return n })
				}
				p.Close()
			}()
			sum := 0
			for v := range p.results {
				sum += v
			}
			if sum != tc.want {
				t.Fatalf("sum = %d, want %d", sum, tc.want)
			}
		})
	}
}
