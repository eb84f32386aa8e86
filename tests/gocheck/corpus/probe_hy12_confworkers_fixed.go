// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ENV CONFIG="queue=2 retries=1"; STDIN "msg-1\nmsg-2\nmsg-3\nmsg-4"), in the style of a queue consumer configured by a "key=value key=value" config string
// what: fixed twin of h4_confworkers: after parsing, a worker count below 1 defaults to 2 (and a
//   negative queue size to 0), so there is always a consumer draining the queue whatever
//   $CONFIG and stdin contain.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

type config struct {
	workers int
	queue   int
}

func parseConfig(s string) config {
	var c config
	for _, kv := range strings.Fields(s) {
		k, v, _ := strings.Cut(kv, "=")
		n, err := strconv.Atoi(v)
		if err != nil {
			continue
		}
		switch k {
		case "workers":
			c.workers = n
		case "queue":
			c.queue = n
		}
	}
	if c.workers < 1 {
		c.workers = 2
	}
	if c.queue < 0 {
		c.queue = 0
	}
	return c
}

func main() {
	cfg := parseConfig(os.Getenv("CONFIG"))
	queue := make(chan string, cfg.queue)
	var mu sync.Mutex
	handled := 0
	var wg sync.WaitGroup
	for i := 0; i < cfg.workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range queue {
				mu.Lock()
				handled++
				mu.Unlock()
				_ = m
			}
		}()
	}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		queue <- sc.Text()
	}
	close(queue)
	wg.Wait()
	fmt.Println("handled", handled, "messages")
}
