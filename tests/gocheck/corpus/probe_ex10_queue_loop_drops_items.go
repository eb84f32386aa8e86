// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (grpc transport-style) an event loop buffers items in a slice and enables its output
//   case only when the queue is non-empty (nil channel otherwise); when the input closes it
//   returns at once, dropping queued items, so the consumer waiting for all three items
//   blocks for ever and main with it

package main

import "fmt"

func relay(in <-chan int, out chan<- int) {
	var queue []int
	for {
		var outC chan<- int
		var next int
		if len(queue) > 0 {
			outC = out
			next = queue[0]
		}
		select {
		case v, ok := <-in:
			if !ok {
				return // BUG: queued items are dropped
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
		for i := 0; i < 3; i++ {
			sum += <-out
		}
		done <- sum
	}()
	for i := 1; i <= 3; i++ {
		in <- i
	}
	close(in)
	fmt.Println("sum", <-done)
}
