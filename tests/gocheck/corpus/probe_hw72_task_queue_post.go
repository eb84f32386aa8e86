// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a single-threaded event loop (chan func()) whose callbacks post follow-up tasks
// what: a task running on the loop posts a follow-up task with a blocking send on the loop's own
//   unbuffered queue; the only receiver is the loop itself, so it blocks, and so does main's
//   next Post
package main

import "fmt"

type Loop struct{ tasks chan func() }

func (l *Loop) Post(f func()) { l.tasks <- f }

func (l *Loop) Run(done chan<- struct{}) {
	for f := range l.tasks {
		f()
	}
	close(done)
}

func main() {
	l := &Loop{tasks: make(chan func())}
	done := make(chan struct{})
	go l.Run(done)
	l.Post(func() {
		fmt.Println("load config")
		l.Post(func() { fmt.Println("apply config") }) // BUG: posting from the loop blocks it
	})
	l.Post(func() { fmt.Println("flush") })
	close(l.tasks)
	<-done
}
