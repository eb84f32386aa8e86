// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: STDIN "cat.png\ndog.jpg\nbird.gif\nfish.png"), in the style of a thumbnail batch job with a fixed pool of 3 workers
// what: main feeds one job per stdin line into an unbuffered jobs channel but never closes it;
//   the three workers stay in `range jobs` after the last job and main waits on wg.Wait()
//   for ever (also with empty stdin).
package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
)

const numWorkers = 3

type job struct {
	id   int
	path string
}

func thumbName(p string) string {
	ext := filepath.Ext(p)
	return strings.TrimSuffix(p, ext) + "_thumb" + ext
}

func worker(id int, jobs <-chan job, done *int64, wg *sync.WaitGroup) {
	defer wg.Done()
	for j := range jobs {
		fmt.Printf("worker %d: %s -> %s\n", id, j.path, thumbName(j.path))
		atomic.AddInt64(done, 1)
	}
}

func main() {
	jobs := make(chan job)
	var done int64
	var wg sync.WaitGroup
	for i := 1; i <= numWorkers; i++ {
		wg.Add(1)
		go worker(i, jobs, &done, &wg)
	}
	sc := bufio.NewScanner(os.Stdin)
	n := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		n++
		jobs <- job{id: n, path: line}
	}
	wg.Wait()
	fmt.Printf("%d/%d thumbnails written\n", atomic.LoadInt64(&done), n)
}
