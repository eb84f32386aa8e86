// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (kubernetes-style) a lazily initialised config: the sync.Once init function calls
//   Get(), which calls once.Do again; a recursive Once.Do blocks for ever on the Once's
//   internal lock (Go docs: "if f causes Do to be called, it will deadlock")

package main

import (
	"fmt"
	"sync"
)

type config struct {
	once   sync.Once
	values map[string]string
}

func (c *config) init() {
	c.values = map[string]string{"region": "eu"}
	if c.Get("zone") == "" { // BUG: re-enters once.Do
		c.values["zone"] = "a"
	}
}

func (c *config) Get(k string) string {
	c.once.Do(c.init)
	return c.values[k]
}

func main() {
	c := &config{}
	fmt.Println(c.Get("region"))
}
