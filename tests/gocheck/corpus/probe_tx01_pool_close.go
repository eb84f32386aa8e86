// want: partial-deadlock
// source: a worker pool's Close as in many Go libraries, written for this set
// what: Close only waits for in-flight jobs and never closes the jobs channel,
//   so every worker stays blocked receiving after the tests return.

package pool

import (
	"sync"
	"testing"
	"time"
)

type Pool struct {
	jobs    chan func() int
	results chan int
	pending sync.WaitGroup
}

func New(workers int) *Pool {
	p := &Pool{jobs: make(chan func() int), results: make(chan int, 16)}
	for i := 0; i < workers; i++ {
		go p.worker()
	}
	return p
}

func (p *Pool) worker() {
	for job := range p.jobs {
		p.results <- job()
		p.pending.Done()
	}
}

func (p *Pool) Submit(job func() int) {
	p.pending.Add(1)
	p.jobs <- job
}

// Close waits for submitted jobs to finish.
func (p *Pool) Close() {
	p.pending.Wait()
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
			timeout := time.After(2 * time.Second)
			for {
				select {
				case v, ok := <-p.results:
					if !ok {
						if sum != tc.want {
							t.Fatalf("sum = %d, want %d", sum, tc.want)
						}
						return
					}
					sum += v
				case <-timeout:
					t.Fatal("timed out")
				}
			}
		})
	}
}
