// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of net/http graceful shutdown in a main() (errc from ListenAndServe + signal)
// what: same as probe_hw29_http_shutdown but after Shutdown main waits for the serve goroutine's
//   error (ErrServerClosed), so the goroutine's send always finds a receiver
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
	errc := make(chan error)
	go func() {
		errc <- srv.ListenAndServe()
	}()

	sig := make(chan struct{}, 1)
	sig <- struct{}{}

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
	if err := <-errc; !errors.Is(err, errServerClosed) {
		fmt.Println("serve:", err)
	}
	fmt.Println("bye")
}
