// want: ok
// source: written for chanfuzz with the io.Pipe and net.Pipe models (round 14; not held out), modelled on tests of stream code
// what: the writer is closed and main waits for the copier.

package main

import (
	"bytes"
	"io"
)

// The copying goroutine waits for more of the pipe: nobody closes its writer.
func main() {
	r, w := io.Pipe()
	var buf bytes.Buffer
	done := make(chan struct{})
	go func() {
		io.Copy(&buf, r)
		close(done)
	}()
	w.Write([]byte("x"))
	w.Close()
	<-done
}
