// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/grpc/660, the fix of grpc/grpc-go PR 660 (a buffered done channel); rewritten as package main
// what: the done channel has room for the one report, so the goroutine of the last iteration
//   does not block when the loop returns on stop

package main

type benchmarkClient struct {
	stop chan bool
}

func (bc *benchmarkClient) doCloseLoopUnary() {
	for {
		done := make(chan bool, 1)
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
