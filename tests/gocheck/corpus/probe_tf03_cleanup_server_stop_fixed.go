// want: ok
// source: written for chanfuzz as a held-out probe of test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed version stops the server in a t.Cleanup registered before the checking
//   cleanup: cleanups run after the parallel subtests have finished, last registered first,
//   so the check's Get is answered and only then is the server stopped

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
	t.Cleanup(srv.Stop) // registered first, so it runs last
	t.Cleanup(func() {  // after the subtests: the server still answers
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
