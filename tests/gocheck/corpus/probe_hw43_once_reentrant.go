// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of sync.Once-based lazy config init (package-level Config())
// what: the lazy loader fills in a default by calling Config() again from inside once.Do;
//   Once.Do is not re-entrant, so the inner call blocks on the Once's mutex for ever
package main

import (
	"fmt"
	"strings"
	"sync"
)

type config struct {
	addr    string
	logPath string
}

var (
	once sync.Once
	cfg  *config
)

func Config() *config {
	once.Do(load)
	return cfg
}

func load() {
	c := &config{}
	for _, kv := range strings.Fields("addr=:8080 log=") {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "addr":
			c.addr = v
		case "log":
			c.logPath = v
		}
	}
	if c.logPath == "" {
		c.logPath = "/var/log/" + Config().addr // BUG: re-enters once.Do
	}
	cfg = c
}

func main() {
	fmt.Println(Config().logPath)
}
