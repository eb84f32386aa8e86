// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ENV AUDIT=""; ARGS create-user reset-password), in the style of an admin CLI with an optional audit-log goroutine enabled by $AUDIT
// what: fixed twin of h4_auditnil: events are sent through a.log, which skips the send when
//   auditing is disabled (nil channel); with AUDIT set the writer drains the channel and
//   close() waits for it.
package main

import (
	"fmt"
	"os"
	"strings"
)

type auditor struct {
	events chan string
	done   chan struct{}
}

func newAuditor(target string) *auditor {
	a := &auditor{}
	if target == "" {
		return a
	}
	a.events = make(chan string)
	a.done = make(chan struct{})
	go func() {
		defer close(a.done)
		for e := range a.events {
			fmt.Printf("[audit->%s] %s\n", target, e)
		}
	}()
	return a
}

func (a *auditor) close() {
	if a.events != nil {
		close(a.events)
		<-a.done
	}
}

func (a *auditor) log(e string) {
	if a.events != nil {
		a.events <- e
	}
}

func run(cmd string) string {
	return strings.ToUpper(cmd) + " ok"
}

func main() {
	a := newAuditor(os.Getenv("AUDIT"))
	for _, cmd := range os.Args[1:] {
		out := run(cmd)
		a.log(cmd + ": " + out)
		fmt.Println(out)
	}
	a.close()
}
