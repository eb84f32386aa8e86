// want: ok
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on routers that register handler method values in a map before Start wires the channels
// what: fixed version: reply has a pointer receiver, so the method value binds the *Router and
//   reads r.out when it runs, after Start has made the channel; main receives the reply.

package main

import (
	"fmt"
	"strings"
)

type Router struct {
	out      chan string
	handlers map[string]func(string)
}

func (r *Router) reply(msg string) { r.out <- strings.ToUpper(msg) }

func NewRouter() *Router {
	rt := &Router{handlers: make(map[string]func(string))}
	rt.handlers["echo"] = rt.reply
	return rt
}

func (r *Router) Start() { r.out = make(chan string) }

func (r *Router) Dispatch(kind, msg string) bool {
	h, ok := r.handlers[kind]
	if !ok {
		return false
	}
	go h(msg)
	return true
}

func main() {
	rt := NewRouter()
	rt.Start()
	if rt.Dispatch("echo", "hello") {
		fmt.Println(<-rt.out)
	}
}
