// want: partial-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/grpc/660 (grpc/grpc-go PR 660); rewritten as package main
// what: each loop iteration starts a goroutine that reports on an unbuffered done channel; when
//   the select takes the stop case instead, that goroutine's send blocks for ever (a leak)

package main

type benchmarkClient struct {
	stop chan bool
}

func (bc *benchmarkClient) doCloseLoopUnary() {
	for {
		done := make(chan bool)
		go func() {
			done <- true
		}()
		select {
		case <-bc.stop:
			return
		case <-done:
		}
	}
}

func main() {
	bc := &benchmarkClient{stop: make(chan bool)}
	go func() {
		bc.stop <- true
	}()
	bc.doCloseLoopUnary()
}
