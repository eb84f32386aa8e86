// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of an unbounded channel adapter (in -> slice -> out, nil-channel select trick)
// what: when the input is closed the adapter sets in to nil, keeps delivering the queue, and
//   closes out once it is empty, so main's range ends
package main

import "fmt"

func unbounded(in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		var queue []int
		for in != nil || len(queue) > 0 {
			var send chan<- int
			var next int
			if len(queue) > 0 {
				send = out
				next = queue[0]
			}
			select {
			case v, ok := <-in:
				if !ok {
					in = nil
					continue
				}
				queue = append(queue, v)
			case send <- next:
				queue = queue[1:]
			}
		}
	}()
	return out
}

func main() {
	in := make(chan int)
	out := unbounded(in)
	for i := 0; i < 3; i++ {
		in <- i
	}
	close(in)
	sum := 0
	for v := range out {
		sum += v
	}
	fmt.Println(sum)
}
