// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of an HTTP client retry loop with exponential backoff and a slow-attempt watchdog
// what: the watchdog stop channel is closed with a defer inside the retry loop, so every failed
//   attempt adds another deferred close of the same channel; at return the second close panics.
package main

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"
)

var ErrServerBusy = errors.New("503 service unavailable")

type flakyClient struct {
	mu       sync.Mutex
	attempts map[string]int
	failN    int
}

func (c *flakyClient) Get(url string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.attempts[url]++
	if c.attempts[url] <= c.failN {
		return "", fmt.Errorf("GET %s: %w", url, ErrServerBusy)
	}
	return "200 OK body=" + strconv.Itoa(len(url)), nil
}

func watchdog(stop <-chan struct{}, url string, attempt int) {
	select {
	case <-stop:
	case <-time.After(500 * time.Millisecond):
		fmt.Printf("attempt %d for %s is slow\n", attempt, url)
	}
}

func fetchWithRetry(c *flakyClient, url string, maxAttempts int) (string, error) {
	stop := make(chan struct{})
	backoff := time.Millisecond
	var lastErr error
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		go watchdog(stop, url, attempt)
		defer close(stop)

		body, err := c.Get(url)
		if err == nil {
			return body, nil
		}
		lastErr = err
		if !errors.Is(err, ErrServerBusy) {
			break
		}
		time.Sleep(backoff)
		backoff *= 2
	}
	return "", fmt.Errorf("giving up after %d attempts: %w", maxAttempts, lastErr)
}

func main() {
	c := &flakyClient{attempts: make(map[string]int), failN: 2}
	body, err := fetchWithRetry(c, "http://registry.local/v2/_catalog", 4)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(body)
}
