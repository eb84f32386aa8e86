// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of The Go Programming Language (Donovan & Kernighan) 8.8, du3 (parallel walkDir with a sync.WaitGroup and a counting semaphore)
// what: walkDir calls n.Done() at its end instead of deferring it, and returns early when
//   dirents fails (the fake "/proc/secret" directory is unreadable), skipping n.Done(); the
//   closer goroutine blocks for ever in n.Wait(), so fileSizes is never closed, and main blocks
//   in its select on fileSizes and the nil tick channel (verbose is off): all goroutines asleep.

package main

import (
	"fmt"
	"os"
	"path"
	"sync"
	"time"
)

type entry struct {
	name  string
	dir   bool
	bytes int64
}

// the fake file system
var tree = map[string][]entry{
	"/":         {{"usr", true, 0}, {"home", true, 0}, {"proc", true, 0}, {"vmlinuz", false, 9000}},
	"/usr":      {{"bin", true, 0}, {"lib", true, 0}},
	"/usr/bin":  {{"go", false, 15000}, {"gofmt", false, 3000}},
	"/usr/lib":  {{"libc.so", false, 2000}},
	"/home":     {{"ann", true, 0}, {"bob", true, 0}},
	"/home/ann": {{"notes.txt", false, 120}, {"photo.jpg", false, 4000}},
	"/home/bob": {{"todo.txt", false, 80}},
	"/proc":     {{"secret", true, 0}, {"version", false, 10}},
}

var sema = make(chan struct{}, 20) // counting semaphore for limiting concurrency

func dirents(dir string) ([]entry, error) {
	sema <- struct{}{}        // acquire token
	defer func() { <-sema }() // release token
	entries, ok := tree[dir]
	if !ok {
		return nil, fmt.Errorf("open %s: permission denied", dir)
	}
	return entries, nil
}

func walkDir(dir string, n *sync.WaitGroup, fileSizes chan<- int64) {
	entries, err := dirents(dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "du: %v\n", err)
		return
	}
	for _, e := range entries {
		if e.dir {
			n.Add(1)
			subdir := path.Join(dir, e.name)
			go walkDir(subdir, n, fileSizes)
		} else {
			fileSizes <- e.bytes
		}
	}
	n.Done()
}

func main() {
	verbose := false
	roots := []string{"/"}

	fileSizes := make(chan int64)
	var n sync.WaitGroup
	for _, root := range roots {
		n.Add(1)
		go walkDir(root, &n, fileSizes)
	}
	go func() {
		n.Wait()
		close(fileSizes)
	}()

	// Print the results periodically.
	var tick <-chan time.Time
	if verbose {
		tick = time.Tick(500 * time.Millisecond)
	}
	var nfiles, nbytes int64
loop:
	for {
		select {
		case size, ok := <-fileSizes:
			if !ok {
				break loop // fileSizes was closed
			}
			nfiles++
			nbytes += size
		case <-tick:
			fmt.Printf("%d files  %d bytes\n", nfiles, nbytes)
		}
	}
	fmt.Printf("%d files  %d bytes\n", nfiles, nbytes)
}
