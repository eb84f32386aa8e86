// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb04: the reply channel has capacity 1, so the server's reply never
//   blocks even when the caller has given up; the server then sees quit and returns

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
	r := request{key: key, reply: make(chan string, 1)}
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
