// want: global-deadlock
// source: written for chanfuzz with the io.Pipe and net.Pipe models (round 14; not held out), modelled on tests of stream code
// what: the reader takes the 5-byte header of an 11-byte write and stops: the write returns only
//   once all of it is read, so the writer never reports, and main waits for it.

package main

import (
	"fmt"
	"io"
)

// A framed message: a 5-byte header then the body, written at once; the reader takes it
// in two reads of the sizes it wants, so the single write returns only after both.
func main() {
	r, w := io.Pipe()
	sent := make(chan int)
	go func() {
		n, _ := w.Write([]byte("hello world"))
		sent <- n
	}()
	head := make([]byte, 5)
	if _, err := io.ReadFull(r, head); err != nil {
		panic(err)
	}
	body := make([]byte, 6)
	// the body is never read: the write never returns
	fmt.Println(string(head), string(body), <-sent)
}
