// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Go by Example "Stateful Goroutines" (state owned by one goroutine, reads and writes as request structs with response channels)
// what: a state goroutine owns a map and serves readOp and writeOp requests (each with its own
//   unbuffered response channel) until done is closed; 10 readers do 50 reads and 5 writers 20
//   writes each, counting with atomics; main waits for them, then closes done and waits for the
//   owner to stop.

package main

import (
	"fmt"
	"math/rand"
	"sync"
	"sync/atomic"
	"time"
)

type readOp struct {
	key  int
	resp chan int
}

type writeOp struct {
	key  int
	val  int
	resp chan bool
}

func main() {
	var readOps uint64
	var writeOps uint64

	reads := make(chan readOp)
	writes := make(chan writeOp)
	done := make(chan struct{})
	stopped := make(chan struct{})

	go func() {
		defer close(stopped)
		var state = make(map[int]int)
		for {
			select {
			case read := <-reads:
				read.resp <- state[read.key]
			case write := <-writes:
				state[write.key] = write.val
				write.resp <- true
			case <-done:
				return
			}
		}
	}()

	var wg sync.WaitGroup
	for r := 0; r < 10; r++ {
		wg.Add(1)
		go func(r int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(r)))
			for i := 0; i < 50; i++ {
				read := readOp{
					key:  rng.Intn(5),
					resp: make(chan int)}
				reads <- read
				<-read.resp
				atomic.AddUint64(&readOps, 1)
				time.Sleep(10 * time.Microsecond)
			}
		}(r)
	}

	for w := 0; w < 5; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(100 + w)))
			for i := 0; i < 20; i++ {
				write := writeOp{
					key:  rng.Intn(5),
					val:  rng.Intn(100),
					resp: make(chan bool)}
				writes <- write
				<-write.resp
				atomic.AddUint64(&writeOps, 1)
				time.Sleep(10 * time.Microsecond)
			}
		}(w)
	}

	wg.Wait()
	close(done)
	<-stopped

	fmt.Println("readOps:", atomic.LoadUint64(&readOps))
	fmt.Println("writeOps:", atomic.LoadUint64(&writeOps))
}
