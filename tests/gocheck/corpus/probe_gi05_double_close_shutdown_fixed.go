// want: ok
// source: "panic: close of closed channel" in shutdown paths, fixed with sync.Once
// what: Stop closes the quit channel through a sync.Once, so the worker's emergency Stop and
//   main's deferred Stop can both run, concurrently or not.
package main

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

type server struct {
	quit     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
}

func (s *server) Stop() {
	s.stopOnce.Do(func() { close(s.quit) })
}

func (s *server) worker(id int, jobs []int) {
	defer s.wg.Done()
	for _, j := range jobs {
		select {
		case <-s.quit:
			return
		default:
		}
		if err := handle(j); err != nil {
			fmt.Printf("worker %d: %v, shutting down\n", id, err)
			s.Stop()
			return
		}
	}
}

func handle(j int) error {
	time.Sleep(200 * time.Microsecond)
	if j < 0 {
		return errors.New("corrupt job")
	}
	return nil
}

func main() {
	s := &server{quit: make(chan struct{})}
	defer s.Stop()
	s.wg.Add(2)
	go s.worker(1, []int{1, 2, 3, 4})
	go s.worker(2, []int{5, -1, 6})
	s.wg.Wait()
	fmt.Println("workers finished")
}
