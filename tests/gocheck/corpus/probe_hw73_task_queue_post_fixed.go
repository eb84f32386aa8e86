// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a single-threaded event loop (chan func()) whose callbacks post follow-up tasks
// what: callbacks running on the loop queue follow-ups on a local slice (postLocal) that the loop
//   runs after the current task, instead of sending on the loop's own channel
package main

import "fmt"

type Loop struct {
	tasks   chan func()
	pending []func()
}

func (l *Loop) Post(f func()) { l.tasks <- f }

func (l *Loop) postLocal(f func()) { l.pending = append(l.pending, f) }

func (l *Loop) Run(done chan<- struct{}) {
	for f := range l.tasks {
		f()
		for len(l.pending) > 0 {
			next := l.pending[0]
			l.pending = l.pending[1:]
			next()
		}
	}
	close(done)
}

func main() {
	l := &Loop{tasks: make(chan func())}
	done := make(chan struct{})
	go l.Run(done)
	l.Post(func() {
		fmt.Println("load config")
		l.postLocal(func() { fmt.Println("apply config") })
	})
	l.Post(func() { fmt.Println("flush") })
	close(l.tasks)
	<-done
}
