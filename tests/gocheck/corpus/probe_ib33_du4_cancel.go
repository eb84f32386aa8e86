// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of The Go Programming Language (Donovan & Kernighan) 8.9, du4 (cancellation by closing a done channel, polled by cancelled() and selected on in dirents)
// what: walkDir goroutines over a generated fake tree (4^4 directories) poll cancelled(), and
//   dirents selects between acquiring a semaphore token and done; a fake keyboard goroutine
//   closes done after 1 ms. On done, main drains fileSizes until the closer goroutine (after
//   n.Wait) closes it, so every walker has returned.

package main

import (
	"fmt"
	"path"
	"strings"
	"sync"
	"time"
)

var done = make(chan struct{})

func cancelled() bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

type entry struct {
	name string
	dir  bool
	size int64
}

var sema = make(chan struct{}, 20)

// dirents returns the entries of directory dir in a fake tree of depth 4, fan-out 4.
func dirents(dir string) []entry {
	select {
	case sema <- struct{}{}: // acquire token
	case <-done:
		return nil // cancelled
	}
	defer func() { <-sema }() // release token
	time.Sleep(50 * time.Microsecond)
	var entries []entry
	depth := strings.Count(dir, "/")
	for i := 0; i < 4; i++ {
		if depth < 4 {
			entries = append(entries, entry{fmt.Sprintf("d%d", i), true, 0})
		}
		entries = append(entries, entry{fmt.Sprintf("f%d", i), false, int64(1000 * (i + 1))})
	}
	return entries
}

func walkDir(dir string, n *sync.WaitGroup, fileSizes chan<- int64) {
	defer n.Done()
	if cancelled() {
		return
	}
	for _, e := range dirents(dir) {
		if e.dir {
			n.Add(1)
			subdir := path.Join(dir, e.name)
			go walkDir(subdir, n, fileSizes)
		} else {
			fileSizes <- e.size
		}
	}
}

func main() {
	// Cancel traversal when input is detected.
	go func() {
		time.Sleep(time.Millisecond) // stands for os.Stdin.Read(make([]byte, 1))
		close(done)
	}()

	fileSizes := make(chan int64)
	var n sync.WaitGroup
	n.Add(1)
	go walkDir("/", &n, fileSizes)
	go func() {
		n.Wait()
		close(fileSizes)
	}()

	tick := time.Tick(500 * time.Microsecond)
	var nfiles, nbytes int64
loop:
	for {
		select {
		case <-done:
			// Drain fileSizes to allow existing goroutines to finish.
			for range fileSizes {
				// Do nothing.
			}
			break loop
		case size, ok := <-fileSizes:
			if !ok {
				break loop // fileSizes was closed
			}
			nfiles++
			nbytes += size
		case <-tick:
			fmt.Printf("%d files  %.1f KB\n", nfiles, float64(nbytes)/1e3)
		}
	}
	fmt.Printf("%d files  %.1f KB\n", nfiles, float64(nbytes)/1e3)
}
