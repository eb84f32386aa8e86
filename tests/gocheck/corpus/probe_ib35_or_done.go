// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Concurrency in Go (Cox-Buday) ch. 4, the or-done channel
// what: orDone wraps a channel so that ranging over it also stops when done is closed; main reads
//   a finite closed stream to the end through it, then wraps an endless generator, reads 7
//   values, closes done and waits until the wrapped channel is closed.

package main

import "fmt"

func orDone(done, c <-chan interface{}) <-chan interface{} {
	valStream := make(chan interface{})
	go func() {
		defer close(valStream)
		for {
			select {
			case <-done:
				return
			case v, ok := <-c:
				if ok == false {
					return
				}
				select {
				case valStream <- v:
				case <-done:
				}
			}
		}
	}()
	return valStream
}

func counter(done <-chan interface{}, limit int) <-chan interface{} {
	out := make(chan interface{})
	go func() {
		defer close(out)
		for i := 0; limit < 0 || i < limit; i++ {
			select {
			case out <- i:
			case <-done:
				return
			}
		}
	}()
	return out
}

func main() {
	done := make(chan interface{})
	sum := 0
	for val := range orDone(done, counter(done, 20)) {
		sum += val.(int)
	}
	fmt.Println("sum:", sum)

	endless := orDone(done, counter(done, -1))
	for i := 0; i < 7; i++ {
		fmt.Println(<-endless)
	}
	close(done)
	for range endless {
	}
}
