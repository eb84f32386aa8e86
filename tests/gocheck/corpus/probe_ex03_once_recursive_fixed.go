// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of ex03: init reads the map directly instead of calling Get()

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
	if c.values["zone"] == "" {
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
