// want: ok
// source: written for chanfuzz with the io.Pipe and net.Pipe models (round 14; not held out), modelled on tests of stream code
// what: the body is read too: the write returns.

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
	if _, err := io.ReadFull(r, body); err != nil {
		panic(err)
	}
	fmt.Println(string(head), string(body), <-sent)
}
