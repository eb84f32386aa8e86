// want: global-deadlock
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on routers that register handler method values in a map before Start wires the channels
// what: NewRouter stores rt.reply as a method value of the value-receiver Router, which binds a
//   copy of rt whose out channel is still nil; Start later sets rt.out, but the handler goroutine
//   sends on the copy's nil channel for ever and main waits on the new channel: all asleep.

package main

import (
	"fmt"
	"strings"
)

type Router struct {
	out      chan string
	handlers map[string]func(string)
}

func (r Router) reply(msg string) { r.out <- strings.ToUpper(msg) }

func NewRouter() *Router {
	rt := &Router{handlers: make(map[string]func(string))}
	rt.handlers["echo"] = rt.reply // BUG: binds a copy of *rt taken now (out == nil)
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
