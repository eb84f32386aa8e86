// want: global-deadlock
// source: written for chanfuzz with the io.Pipe and net.Pipe models (round 14; not held out), modelled on tests of stream code
// what: main stops scanning at "end" but keeps the reader open: the producer's next write waits
//   for a read for ever, and main waits for the producer.

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
	// the reader is not closed: "three" is never taken
	fmt.Println(<-done)
}
