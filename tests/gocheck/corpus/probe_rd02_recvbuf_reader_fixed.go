// want: ok
// source: written for chanfuzz as a probe of library code handed a reader or writer of the program's (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed twin: the sender closes the stream after its chunk, so io.ReadFull ends with ErrUnexpectedEOF

package main

import (
	"fmt"
	"io"
)

type recvBufferReader struct {
	recv chan []byte
	last []byte
}

func (r *recvBufferReader) Read(p []byte) (int, error) {
	if len(r.last) > 0 {
		n := copy(p, r.last)
		r.last = r.last[n:]
		return n, nil
	}
	m, ok := <-r.recv
	if !ok {
		return 0, io.EOF
	}
	n := copy(p, m)
	r.last = m[n:]
	return n, nil
}

func main() {
	r := &recvBufferReader{recv: make(chan []byte)}
	go func() {
		r.recv <- []byte("hdr")
		close(r.recv)
	}()
	buf := make([]byte, 5)
	n, err := io.ReadFull(r, buf)
	fmt.Println(n, err)
}
