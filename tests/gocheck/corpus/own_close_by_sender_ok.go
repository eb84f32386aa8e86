// want: ok
// source: written for this corpus
// what: the receiver asks the producer to stop through a separate stop channel; only the
//   producer closes the data channel, so no send can meet a closed channel

package main

import "fmt"

func main() {
	ch := make(chan int)
	stop := make(chan struct{})
	go func() {
		defer close(ch)
		for i := 0; i < 5; i++ {
			select {
			case ch <- i:
			case <-stop:
				return
			}
		}
	}()
	fmt.Println(<-ch)
	close(stop)
	for range ch {
	}
}
