// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ENV AUDIT=""; ARGS create-user reset-password), in the style of an admin CLI with an optional audit-log goroutine enabled by $AUDIT
// what: the audit channel is only created (and its writer started) when AUDIT is set; otherwise
//   it stays nil, and the unconditional `a.events <- ...` for the first command blocks for
//   ever on the nil channel. Deadlock with AUDIT unset/empty and at least one command
//   argument.
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

func run(cmd string) string {
	return strings.ToUpper(cmd) + " ok"
}

func main() {
	a := newAuditor(os.Getenv("AUDIT"))
	for _, cmd := range os.Args[1:] {
		out := run(cmd)
		a.events <- cmd + ": " + out
		fmt.Println(out)
	}
	a.close()
}
