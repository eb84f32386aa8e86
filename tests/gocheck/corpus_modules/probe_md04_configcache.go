// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of third-party concurrency modules (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a config cache coalesces concurrent loads of one key with singleflight DoChan and gives each
//   load a deadline. The shared loader starts the remote fetch in a goroutine that answers on an
//   unbuffered channel; when the deadline wins the loader's select, the caller Forgets the key and
//   nobody ever receives the fetch's answer, so the fetcher blocks for ever (only when the timer wins).

package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

type configCache struct {
	group singleflight.Group
}

// fetchRemote stands in for a slow call to the config service.
func fetchRemote(key string) string {
	time.Sleep(3 * time.Millisecond)
	return key + "=v42"
}

func (c *configCache) load(ctx context.Context, key string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Millisecond)
	defer cancel()

	ch := c.group.DoChan(key, func() (any, error) {
		answer := make(chan string)
		go func() { answer <- fetchRemote(key) }()
		select {
		case v := <-answer:
			return v, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return "", res.Err
		}
		return res.Val.(string), nil
	case <-ctx.Done():
		c.group.Forget(key) // let the next caller start a fresh load
		return "", ctx.Err()
	}
}

func main() {
	c := &configCache{}
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v, err := c.load(context.Background(), "feature-flags"); err != nil {
				fmt.Println("load:", err)
			} else {
				fmt.Println("loaded", v)
			}
		}()
	}
	wg.Wait()
}
