// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of ex10: when the input closes, relay disables it (in = nil) and keeps
//   looping until the queue is drained, then closes out; the consumer ranges over out

package main

import "fmt"

func relay(in <-chan int, out chan<- int) {
	defer close(out)
	var queue []int
	for in != nil || len(queue) > 0 {
		var outC chan<- int
		var next int
		if len(queue) > 0 {
			outC = out
			next = queue[0]
		}
		select {
		case v, ok := <-in:
			if !ok {
				in = nil
				continue
			}
			queue = append(queue, v)
		case outC <- next:
			queue = queue[1:]
		}
	}
}

func main() {
	in := make(chan int)
	out := make(chan int)
	done := make(chan int)
	go relay(in, out)
	go func() {
		sum := 0
		for v := range out {
			sum += v
		}
		done <- sum
	}()
	for i := 1; i <= 3; i++ {
		in <- i
	}
	close(in)
	fmt.Println("sum", <-done)
}
