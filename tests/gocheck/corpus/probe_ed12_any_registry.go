// want: global-deadlock
// source: written for chanfuzz as a held-out probe of language and library edges (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: A plugin started through an interface finds its log sink in a map[string]any by asserting chan<- string,
//   but the value stored is a chan string, so the assertion fails, the plugin skips logging and main waits forever.

package main

import "fmt"

type Plugin interface {
	Start(reg map[string]any)
}

type logger struct{ name string }

func (l logger) Start(reg map[string]any) {
	out, ok := reg["log"].(chan<- string)
	if !ok {
		return // no log sink configured
	}
	if name, ok := reg["name"].(string); ok {
		out <- l.name + " started for " + name
	}
}

func main() {
	logs := make(chan string)
	reg := map[string]any{"log": logs, "name": "svc"}
	plugins := []Plugin{logger{name: "logger"}}
	for _, p := range plugins {
		go p.Start(reg)
	}
	fmt.Println(<-logs)
}
