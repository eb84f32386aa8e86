// want: ok
// source: written for chanfuzz with the io.Pipe and net.Pipe models (round 14; not held out), modelled on tests of stream code
// what: main closes the reader: the producer's next write fails and it ends.

package main

import (
	"bufio"
	"fmt"
	"io"
)

// A goroutine streams lines into a pipe; main stops at "end", and then must close its
// reader so that the producer's remaining writes fail instead of blocking.
func main() {
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		var err error
		for _, l := range []string{"one", "two", "end", "three"} {
			if _, err = fmt.Fprintln(w, l); err != nil {
				break
			}
		}
		w.Close()
		done <- err
	}()
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if sc.Text() == "end" {
			break
		}
		fmt.Println(sc.Text())
	}
	r.Close()
	fmt.Println(<-done)
}
