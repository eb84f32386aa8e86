// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of sync.Once-based lazy config init (package-level Config())
// what: three goroutines race to Config(); exactly one runs load, the others wait in once.Do
//   and then see the result; the default uses the local value instead of re-entering Config
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
		c.logPath = "/var/log/" + c.addr
	}
	cfg = c
}

func main() {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = Config().addr
		}()
	}
	fmt.Println(Config().logPath)
	wg.Wait()
}
