// want: partial-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (grpc/etcd-style) Get() hands a request with an unbuffered reply channel to the server
//   loop and then waits for the reply or ctx.Done() (context.WithTimeout); when the timeout
//   wins after the request was taken, the server blocks for ever sending the reply (a leak)

package main

import (
	"context"
	"fmt"
	"time"
)

type request struct {
	key   string
	reply chan string
}

type server struct {
	reqs chan request
	quit chan struct{}
}

func (s *server) loop() {
	for {
		select {
		case req := <-s.reqs:
			req.reply <- "value-of-" + req.key
		case <-s.quit:
			return
		}
	}
}

func (s *server) Get(ctx context.Context, key string) (string, error) {
	r := request{key: key, reply: make(chan string)} // BUG: unbuffered reply
	select {
	case s.reqs <- r:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	select {
	case v := <-r.reply:
		return v, nil
	case <-ctx.Done():
		return "", fmt.Errorf("get %s: %w", key, ctx.Err())
	}
}

func main() {
	s := &server{reqs: make(chan request), quit: make(chan struct{})}
	go s.loop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	v, err := s.Get(ctx, "a")
	close(s.quit)
	fmt.Println(v, err)
}
