// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ENV CONFIG="queue=2 retries=1"; STDIN "msg-1\nmsg-2\nmsg-3\nmsg-4"), in the style of a queue consumer configured by a "key=value key=value" config string
// what: the worker count comes from $CONFIG; when the "workers" key is missing it silently stays
//   0, so no consumer is started and main blocks on the 3rd send into the queue (capacity
//   taken from "queue", here 2). Deadlock needs workers unset and more stdin items than the
//   queue size.
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
