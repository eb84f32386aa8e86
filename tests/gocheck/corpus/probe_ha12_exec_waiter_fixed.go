// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a containerd/CRI ExecSync waiter with a timeout
// what: the result channel has room for the one status, and after killing a timed-out process ExecSync
//   reaps it by receiving that status, so the waiter goroutine always finishes.
package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

type ExitStatus struct {
	Code     int
	ExitedAt time.Time
}

type Process struct {
	ID     string
	killCh chan int
	exited chan struct{}
	mu     sync.Mutex
	status ExitStatus
}

func Start(id string) *Process {
	p := &Process{ID: id, killCh: make(chan int, 1), exited: make(chan struct{})}
	go p.run()
	return p
}

func (p *Process) run() {
	sig := <-p.killCh
	p.mu.Lock()
	p.status = ExitStatus{Code: 128 + sig, ExitedAt: time.Now()}
	p.mu.Unlock()
	close(p.exited)
}

func (p *Process) Kill(sig int) {
	select {
	case p.killCh <- sig:
	default:
	}
}

func (p *Process) wait() ExitStatus {
	<-p.exited
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.status
}

var ErrTimeout = errors.New("exec: timed out waiting for process")

func ExecSync(ctx context.Context, p *Process) (ExitStatus, error) {
	res := make(chan ExitStatus, 1)
	go func() {
		res <- p.wait()
	}()
	select {
	case st := <-res:
		return st, nil
	case <-ctx.Done():
		p.Kill(9)
		st := <-res // reap the killed process
		return st, fmt.Errorf("%w: %s: %v (exit %d)", ErrTimeout, p.ID, ctx.Err(), st.Code)
	}
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	p := Start("exec-healthcheck-1")
	st, err := ExecSync(ctx, p)
	if errors.Is(err, ErrTimeout) {
		fmt.Println("health check:", err)
		return
	}
	fmt.Println("exit code", st.Code)
}
