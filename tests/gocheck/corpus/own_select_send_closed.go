// want: channel-safety
// source: written for this corpus
// what: a select with a default case still panics when its send case is on a closed channel:
//   the worker closes the channel it shares with main, then main tries a non-blocking send

package main

func main() {
	events := make(chan int, 1)
	done := make(chan bool)
	go func() {
		close(events)
		done <- true
	}()
	<-done
	select {
	case events <- 1:
	default:
	}
}
