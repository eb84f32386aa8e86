// want: ok
// source: written for chanfuzz as a held-out probe of service-like programs (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: The scheduler of probe_sv02_scheduler.go fixed: main reads updates until every job has a final status,
//   so every attempt's update is received, the workers drain the closed queue and Stop's waiter always finishes.

package main

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

var (
	ErrTransient       = errors.New("transient failure")
	ErrStopped         = errors.New("scheduler: stopped")
	ErrShutdownTimeout = errors.New("scheduler: shutdown timed out")
)

// Job is a unit of work the scheduler runs, possibly more than once.
type Job interface {
	ID() int
	Run(attempt int) error
}

// flakyJob fails its first `failures` attempts with a transient error.
type flakyJob struct {
	id       int
	failures int
}

func (j flakyJob) ID() int { return j.id }

func (j flakyJob) Run(attempt int) error {
	if attempt <= j.failures {
		return fmt.Errorf("job %d attempt %d: %w", j.id, attempt, ErrTransient)
	}
	return nil
}

type Status int

const (
	StatusRetrying Status = iota
	StatusDone
	StatusFailed
)

func (s Status) String() string {
	switch s {
	case StatusRetrying:
		return "retrying"
	case StatusDone:
		return "done"
	}
	return "failed"
}

type Update struct {
	JobID   int
	Worker  int
	Attempt int
	Status  Status
	Err     error
}

type Scheduler struct {
	queue       chan Job
	updates     chan Update
	workers     int
	maxAttempts int

	mu      sync.Mutex
	stopped bool
	wg      sync.WaitGroup
}

func NewScheduler(workers, queueSize, maxAttempts int) *Scheduler {
	return &Scheduler{
		queue:       make(chan Job, queueSize),
		updates:     make(chan Update),
		workers:     workers,
		maxAttempts: maxAttempts,
	}
}

func (s *Scheduler) Start() {
	for i := 0; i < s.workers; i++ {
		s.wg.Add(1)
		go s.worker(i)
	}
}

func (s *Scheduler) Updates() <-chan Update { return s.updates }

func (s *Scheduler) Submit(j Job) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return ErrStopped
	}
	s.queue <- j
	return nil
}

func (s *Scheduler) worker(id int) {
	defer s.wg.Done()
	for j := range s.queue {
		s.runJob(id, j)
	}
}

func (s *Scheduler) runJob(worker int, j Job) {
	for attempt := 1; ; attempt++ {
		err := j.Run(attempt)
		u := Update{JobID: j.ID(), Worker: worker, Attempt: attempt, Err: err}
		switch {
		case err == nil:
			u.Status = StatusDone
		case attempt >= s.maxAttempts || !errors.Is(err, ErrTransient):
			u.Status = StatusFailed
		default:
			u.Status = StatusRetrying
		}
		s.updates <- u
		if u.Status != StatusRetrying {
			return
		}
	}
}

// Stop stops taking jobs and waits, up to a deadline, for the workers to finish.
func (s *Scheduler) Stop(timeout time.Duration) error {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return ErrStopped
	}
	s.stopped = true
	close(s.queue)
	s.mu.Unlock()

	allDone := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(allDone)
	}()
	select {
	case <-allDone:
		return nil
	case <-time.After(timeout):
		return ErrShutdownTimeout
	}
}

func main() {
	s := NewScheduler(2, 4, 3)
	s.Start()

	jobs := []Job{flakyJob{id: 1}, flakyJob{id: 2, failures: 1}, flakyJob{id: 3}}
	for _, j := range jobs {
		if err := s.Submit(j); err != nil {
			fmt.Println("submit:", err)
		}
	}

	final := make(map[int]Update)
	retries := 0
	for len(final) < len(jobs) {
		u := <-s.Updates()
		if u.Status == StatusRetrying {
			retries++
			continue
		}
		final[u.JobID] = u
	}
	fmt.Println("retries:", retries)
	for id := 1; id <= len(jobs); id++ {
		if u, ok := final[id]; ok {
			fmt.Printf("job %d: %v after %d attempt(s)\n", id, u.Status, u.Attempt)
		}
	}

	if err := s.Stop(200 * time.Millisecond); err != nil {
		fmt.Println("stop:", err)
	}
}
