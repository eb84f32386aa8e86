// want: global-deadlock
// source: written for chanfuzz as a held-out probe of test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the test stops its server with defer, but its subtests call t.Parallel: they run
//   only after TestGet's function has returned, i.e. after the deferred Stop, and block for
//   ever sending to the stopped server while TestGet waits for them (go test hangs)

package kvserver

import "testing"

type request struct {
	key   string
	reply chan string
}

type server struct {
	data map[string]string
	reqs chan request
	quit chan struct{}
	done chan struct{}
}

func startServer(data map[string]string) *server {
	s := &server{data: data, reqs: make(chan request), quit: make(chan struct{}), done: make(chan struct{})}
	go s.loop()
	return s
}

func (s *server) loop() {
	defer close(s.done)
	for {
		select {
		case r := <-s.reqs:
			r.reply <- s.data[r.key]
		case <-s.quit:
			return
		}
	}
}

func (s *server) Get(key string) string {
	r := request{key: key, reply: make(chan string, 1)}
	s.reqs <- r
	return <-r.reply
}

// Stop stops the server and waits for its loop to end.
func (s *server) Stop() {
	close(s.quit)
	<-s.done
}

func TestGet(t *testing.T) {
	srv := startServer(map[string]string{"a": "1", "b": "2", "c": "3"})
	defer srv.Stop()   // runs before the parallel subtests start
	t.Cleanup(func() { // after the subtests: the server still answers
		if got := srv.Get("a"); got != "1" {
			t.Errorf("Get(a) after the subtests = %q, want 1", got)
		}
	})
	for _, key := range []string{"a", "b", "c"} {
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			if got := srv.Get(key); got == "" {
				t.Errorf("Get(%s) = empty", key)
			}
		})
	}
}
