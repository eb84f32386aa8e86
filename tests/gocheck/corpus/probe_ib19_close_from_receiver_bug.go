// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Go by Example "Closing Channels" (a jobs channel with a done channel)
// what: the worker, on a job that fails (job 3), closes the jobs channel itself to tell main to
//   stop sending; main is still sending jobs 4..10 (at most eight fit before the worker has taken
//   three), so its pending or next `jobs <- j` panics with send on closed channel.

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
	done := make(chan bool)

	go func() {
		for j := range jobs {
			if err := process(j); err != nil {
				fmt.Println("worker:", err)
				close(jobs) // tell the sender there is no point going on
				break
			}
			fmt.Println("received job", j)
		}
		done <- true
	}()

	for j := 1; j <= 10; j++ {
		jobs <- j
		fmt.Println("sent job", j)
	}
	close(jobs)
	fmt.Println("sent all jobs")

	<-done
}
