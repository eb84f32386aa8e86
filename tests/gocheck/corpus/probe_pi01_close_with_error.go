// want: ok
// source: written for chanfuzz with the io.Pipe and net.Pipe models (round 14; not held out), modelled on tests of stream code
// what: a producer that fails closes its pipe writer with the error: ReadAll returns it instead of
//   waiting for more.

package main

import (
	"errors"
	"fmt"
	"io"
)

// The producer fails half-way and says so through CloseWithError: the consumer's
// ReadAll returns that error instead of waiting for more.
func produce(w *io.PipeWriter, items []string) {
	for i, it := range items {
		if i == 2 {
			w.CloseWithError(errors.New("producer failed"))
			return
		}
		fmt.Fprintln(w, it)
	}
	w.Close()
}

func main() {
	r, w := io.Pipe()
	go produce(w, []string{"a", "b", "c", "d"})
	data, err := io.ReadAll(r)
	fmt.Println(len(data), err)
}
