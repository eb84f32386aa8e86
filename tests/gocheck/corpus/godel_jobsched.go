// want: ok
// source: Godel (ICSE'18) Table 3 "jobsched" (GoInfer/Gong POPL'17 examples; dingo-hunter examples/popl17/jobsched); rewritten
// what: two workers select between a job queue and a done channel; the producer sends 20 jobs
//   and closes done. main waits for both workers with a WaitGroup instead of the original sleep.

package main

import (
	"fmt"
	"sync"
)

func worker(id int, jobQueue <-chan int, done <-chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		select {
		case jobID := <-jobQueue:
			fmt.Println(id, "executing job", jobID)
		case <-done:
			fmt.Println(id, "quits")
			return
		}
	}
}

func producer(q chan<- int, done chan struct{}) {
	for i := 0; i < 20; i++ {
		q <- i
	}
	close(done)
}

func main() {
	jobQueue := make(chan int)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go worker(1, jobQueue, done, &wg)
	go worker(2, jobQueue, done, &wg)
	producer(jobQueue, done)
	wg.Wait()
}
