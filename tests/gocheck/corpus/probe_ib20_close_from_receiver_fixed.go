// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Go by Example "Closing Channels" (a jobs channel with a done channel)
// what: the worker, on a job that fails (job 3), closes a separate stop channel that it owns;
//   main, the only sender and the only closer of jobs, selects between sending the next job and
//   stop, closes jobs when it stops, and the worker drains the rest before signalling done.

package main

import (
	"fmt"
	"time"
)

func process(j int) error {
	time.Sleep(100 * time.Microsecond)
	if j == 3 {
		return fmt.Errorf("job %d: bad input", j)
	}
	return nil
}

func main() {
	jobs := make(chan int, 5)
	stop := make(chan struct{})
	done := make(chan bool)

	go func() {
		failed := false
		for j := range jobs {
			if failed {
				continue // drain
			}
			if err := process(j); err != nil {
				fmt.Println("worker:", err)
				failed = true
				close(stop) // tell the sender there is no point going on
				continue
			}
			fmt.Println("received job", j)
		}
		done <- true
	}()

send:
	for j := 1; j <= 10; j++ {
		select {
		case jobs <- j:
			fmt.Println("sent job", j)
		case <-stop:
			fmt.Println("worker stopped; not sending job", j)
			break send
		}
	}
	close(jobs)
	fmt.Println("sent all jobs")

	<-done
}
