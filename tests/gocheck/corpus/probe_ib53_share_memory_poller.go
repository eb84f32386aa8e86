// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of the Go codewalk/blog "Share Memory By Communicating" (Poller goroutines passing *Resource between pending and complete channels, a StateMonitor goroutine)
// what: three Pollers range over pending, poll a fake URL, report its state to the StateMonitor
//   and pass the resource on complete; main re-queues each resource through a Sleep goroutine
//   until it has been polled three times, then closes pending so the Pollers return, and stops
//   the StateMonitor (which logs on a ticker) with a quit channel.

package main

import (
	"fmt"
	"sync"
	"time"
)

const (
	numPollers     = 3
	pollInterval   = 200 * time.Microsecond
	statusInterval = time.Millisecond
	maxPolls       = 3
)

var urls = []string{
	"http://www.google.com/",
	"http://golang.org/",
	"http://blog.golang.org/",
	"http://example.invalid/",
}

// State represents the last-known state of a URL.
type State struct {
	url    string
	status string
}

// StateMonitor maintains a map that stores the state of the URLs being
// polled, and prints the current state every updateInterval.
func StateMonitor(updateInterval time.Duration, quit <-chan struct{}, stopped chan<- struct{}) chan<- State {
	updates := make(chan State)
	urlStatus := make(map[string]string)
	ticker := time.NewTicker(updateInterval)
	go func() {
		defer close(stopped)
		defer ticker.Stop()
		for {
			select {
			case <-ticker.C:
				fmt.Println("Current state:", len(urlStatus), "urls")
			case s := <-updates:
				urlStatus[s.url] = s.status
			case <-quit:
				return
			}
		}
	}()
	return updates
}

// Resource represents an HTTP URL to be polled by this program.
type Resource struct {
	url      string
	errCount int
	polls    int
}

// Poll fakes an HTTP HEAD request for url and returns the status string.
func (r *Resource) Poll() string {
	r.polls++
	if r.url == "http://example.invalid/" {
		r.errCount++
		return "lookup failed"
	}
	r.errCount = 0
	return "200 OK"
}

// Sleep sleeps for an appropriate interval (dependent on error state)
// before sending the Resource to done.
func (r *Resource) Sleep(done chan<- *Resource) {
	time.Sleep(pollInterval + pollInterval*time.Duration(r.errCount))
	done <- r
}

func Poller(in <-chan *Resource, out chan<- *Resource, status chan<- State, wg *sync.WaitGroup) {
	defer wg.Done()
	for r := range in {
		s := r.Poll()
		status <- State{r.url, s}
		out <- r
	}
}

func main() {
	// Create our input and output channels.
	pending, complete := make(chan *Resource), make(chan *Resource)

	// Launch the StateMonitor.
	quit, stopped := make(chan struct{}), make(chan struct{})
	status := StateMonitor(statusInterval, quit, stopped)

	// Launch some Poller goroutines.
	var pollers sync.WaitGroup
	for i := 0; i < numPollers; i++ {
		pollers.Add(1)
		go Poller(pending, complete, status, &pollers)
	}

	// Send some Resources to the pending queue.
	go func() {
		for _, url := range urls {
			pending <- &Resource{url: url}
		}
	}()

	var sleepers sync.WaitGroup
	finished := 0
	for finished < len(urls) {
		r := <-complete
		if r.polls >= maxPolls {
			finished++
			continue
		}
		sleepers.Add(1)
		go func() {
			defer sleepers.Done()
			r.Sleep(pending)
		}()
	}
	sleepers.Wait()
	close(pending)
	pollers.Wait()
	close(quit)
	<-stopped
	fmt.Println("all resources polled", maxPolls, "times")
}
