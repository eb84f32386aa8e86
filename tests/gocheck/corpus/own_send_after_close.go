// want: channel-safety
// source: written for this corpus
// what: main closes the channel and then a goroutine it waits for sends on it

package main

func main() {
	ch := make(chan int, 1)
	done := make(chan bool)
	close(ch)
	go func() {
		ch <- 1
		done <- true
	}()
	<-done
}
