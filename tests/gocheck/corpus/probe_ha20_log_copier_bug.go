// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Docker's container log Copier (stdout/stderr into a log driver)
// what: the copier closes its closed channel when both streams are drained, and Close, called by the
//   container cleanup after Wait returned, closes the same channel again: close of closed channel.
package main

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

type Message struct {
	Source    string
	Line      string
	Timestamp time.Time
}

type MemLogger struct {
	mu   sync.Mutex
	msgs []Message
}

func (l *MemLogger) Log(m *Message) error {
	if strings.TrimSpace(m.Line) == "" {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.msgs = append(l.msgs, *m)
	return nil
}

type Copier struct {
	srcs   map[string]<-chan string
	dst    *MemLogger
	copyWG sync.WaitGroup
	closed chan struct{}
}

func NewCopier(srcs map[string]<-chan string, dst *MemLogger) *Copier {
	return &Copier{srcs: srcs, dst: dst, closed: make(chan struct{})}
}

func (c *Copier) Run() {
	for name, src := range c.srcs {
		c.copyWG.Add(1)
		go c.copySrc(name, src)
	}
	go func() {
		c.copyWG.Wait()
		close(c.closed)
	}()
}

func (c *Copier) copySrc(name string, src <-chan string) {
	defer c.copyWG.Done()
	for {
		select {
		case line, ok := <-src:
			if !ok {
				return
			}
			msg := &Message{Source: name, Line: line, Timestamp: time.Now()}
			if err := c.dst.Log(msg); err != nil {
				fmt.Println("log driver:", err)
			}
		case <-c.closed:
			return
		}
	}
}

// Wait blocks until every stream has been copied.
func (c *Copier) Wait() { <-c.closed }

// Close stops the copier early, e.g. when the container is removed.
func (c *Copier) Close() { close(c.closed) }

func main() {
	stdout := make(chan string)
	stderr := make(chan string)
	logger := &MemLogger{}
	c := NewCopier(map[string]<-chan string{"stdout": stdout, "stderr": stderr}, logger)
	c.Run()

	for i, l := range []string{"starting nginx", "", "listening on :80", "ready"} {
		if i%2 == 0 {
			stdout <- l
		} else {
			stderr <- l
		}
	}
	close(stdout)
	close(stderr)
	c.Wait()
	fmt.Println("copied", len(logger.msgs), "lines")
	// container cleanup
	c.Close()
}
