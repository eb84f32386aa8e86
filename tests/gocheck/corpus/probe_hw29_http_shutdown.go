// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of net/http graceful shutdown in a main() (errc from ListenAndServe + signal)
// what: the serve goroutine reports its exit on an unbuffered errc; main takes the "signal" path,
//   shuts the server down and returns without reading errc, so the serve goroutine leaks on its send
package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

var errServerClosed = errors.New("http: Server closed")

type server struct {
	quit chan struct{}
}

func (s *server) ListenAndServe() error {
	<-s.quit
	return errServerClosed
}

func (s *server) Shutdown(ctx context.Context) error {
	close(s.quit)
	return nil
}

func main() {
	srv := &server{quit: make(chan struct{})}
	errc := make(chan error) // BUG: should be buffered (1)
	go func() {
		errc <- srv.ListenAndServe()
	}()

	sig := make(chan struct{}, 1)
	sig <- struct{}{} // SIGTERM arrives

	select {
	case err := <-errc:
		fmt.Println("server failed:", err)
		return
	case <-sig:
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		fmt.Println("shutdown:", err)
	}
	fmt.Println("bye")
}
