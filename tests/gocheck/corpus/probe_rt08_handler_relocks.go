// want: global-deadlock
// source: written for chanfuzz as a probe (round 13, language and library corners; run and confirmed, see docs/gocheck-report.md)
// what: the "flush" handler takes the mutex that dispatch already holds (sync.Mutex is not
//   reentrant); only the command list decides that flush is dispatched

package main

import (
	"fmt"
	"sync"
)

type Router struct {
	mu       sync.Mutex
	handlers map[string]func(string)
	log      []string
}

func (r *Router) Handle(name string, h func(string)) { r.handlers[name] = h }

func (r *Router) dispatch(cmd, arg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if h, ok := r.handlers[cmd]; ok {
		h(arg)
	}
}

func (r *Router) flush() {
	r.mu.Lock()
	r.log = r.log[:0]
	r.mu.Unlock()
}

func main() {
	r := &Router{handlers: map[string]func(string){}}
	r.Handle("put", func(s string) { r.log = append(r.log, s) })
	r.Handle("flush", func(string) { r.flush() })
	for _, c := range [][2]string{{"put", "a"}, {"put", "b"}, {"flush", ""}} {
		r.dispatch(c[0], c[1])
	}
	fmt.Println(len(r.log))
}
