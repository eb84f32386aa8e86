// want: ok
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a bridge channel flattens a channel of three buffered channels through or-done wrappers; the
//   consumer stops after four values and closes done, and every stage selects on done, so all goroutines end.

package main

import "fmt"

func orDone(done <-chan struct{}, c <-chan int) <-chan int {
	valStream := make(chan int)
	go func() {
		defer close(valStream)
		for {
			select {
			case <-done:
				return
			case v, ok := <-c:
				if !ok {
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

func bridge(done <-chan struct{}, chanStream <-chan (<-chan int)) <-chan int {
	valStream := make(chan int)
	go func() {
		defer close(valStream)
		for {
			var stream <-chan int
			select {
			case maybeStream, ok := <-chanStream:
				if !ok {
					return
				}
				stream = maybeStream
			case <-done:
				return
			}
			for val := range orDone(done, stream) {
				select {
				case valStream <- val:
				case <-done:
				}
			}
		}
	}()
	return valStream
}

func genStreams(done <-chan struct{}) <-chan (<-chan int) {
	chanStream := make(chan (<-chan int))
	go func() {
		defer close(chanStream)
		for i := 0; i < 3; i++ {
			stream := make(chan int, 2)
			stream <- 10 * i
			stream <- 10*i + 1
			close(stream)
			select {
			case chanStream <- stream:
			case <-done:
				return
			}
		}
	}()
	return chanStream
}

func main() {
	done := make(chan struct{})
	defer close(done)
	n := 0
	for v := range bridge(done, genStreams(done)) {
		fmt.Println(v)
		n++
		if n == 4 {
			break
		}
	}
}
