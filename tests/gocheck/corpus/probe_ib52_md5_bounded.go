// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of the Go blog "Go Concurrency Patterns: Pipelines and cancellation" (bounded parallelism: walkFiles, digester, MD5All), over a fake file tree
// what: walkFiles sends the fake tree's paths on an unbuffered channel (selecting on done) and
//   reports its error on a channel buffered 1; five digesters range over paths and send results
//   in a select with done; a closer goroutine closes c after the digesters' WaitGroup. MD5All
//   runs twice: over the whole tree, and with an unreadable file that makes it return early,
//   its deferred close(done) releasing every stage.

package main

import (
	"crypto/md5"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"
)

type file struct {
	path string
	data string
	bad  bool
}

func walkFiles(done <-chan struct{}, tree []file) (<-chan file, <-chan error) {
	paths := make(chan file)
	errc := make(chan error, 1)
	go func() {
		// Close the paths channel after the walk returns.
		defer close(paths)
		// No select needed for this send, since errc is buffered.
		errc <- func() error {
			for _, f := range tree {
				select {
				case paths <- f:
				case <-done:
					return errors.New("walk canceled")
				}
			}
			return nil
		}()
	}()
	return paths, errc
}

type result struct {
	path string
	sum  [md5.Size]byte
	err  error
}

func digester(done <-chan struct{}, paths <-chan file, c chan<- result) {
	for f := range paths {
		time.Sleep(50 * time.Microsecond) // ioutil.ReadFile
		var err error
		if f.bad {
			err = fmt.Errorf("open %s: permission denied", f.path)
		}
		select {
		case c <- result{f.path, md5.Sum([]byte(f.data)), err}:
		case <-done:
			return
		}
	}
}

func MD5All(tree []file) (map[string][md5.Size]byte, error) {
	// MD5All closes the done channel when it returns; it may do so before
	// receiving all the values from c and errc.
	done := make(chan struct{})
	defer close(done)

	paths, errc := walkFiles(done, tree)

	// Start a fixed number of goroutines to read and digest files.
	c := make(chan result)
	var wg sync.WaitGroup
	const numDigesters = 5
	wg.Add(numDigesters)
	for i := 0; i < numDigesters; i++ {
		go func() {
			digester(done, paths, c)
			wg.Done()
		}()
	}
	go func() {
		wg.Wait()
		close(c)
	}()
	// End of pipeline.

	m := make(map[string][md5.Size]byte)
	for r := range c {
		if r.err != nil {
			return nil, r.err
		}
		m[r.path] = r.sum
	}
	// Check whether the Walk failed.
	if err := <-errc; err != nil {
		return nil, err
	}
	return m, nil
}

func main() {
	var tree []file
	for i := 0; i < 40; i++ {
		tree = append(tree, file{path: fmt.Sprintf("src/pkg%d/file%d.go", i%7, i), data: fmt.Sprint("package p", i)})
	}
	m, err := MD5All(tree)
	if err != nil {
		fmt.Println(err)
		return
	}
	var paths []string
	for path := range m {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths[:3] {
		fmt.Printf("%x  %s\n", m[path], path)
	}

	tree[6].bad = true
	_, err = MD5All(tree)
	fmt.Println("second walk:", err)
	time.Sleep(2 * time.Millisecond) // the cancelled stages return
}
