// want: ok
// source: written for chanfuzz as a held-out probe in the manner of real code bases (2026-12-01, third round; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: lazily loaded config via sync.OnceValue shared by handlers; a watcher goroutine closes
//   reload when done

package main

import (
	"fmt"
	"sync"
)

type Config struct {
	Workers int
	Name    string
}

var loads int

func main() {
	getConfig := sync.OnceValue(func() *Config {
		loads++
		return &Config{Workers: 2, Name: "edge"}
	})
	reload := make(chan string)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cfg := getConfig()
			if cfg.Workers != 2 {
				panic("bad config")
			}
		}()
	}
	go func() {
		defer close(reload)
		reload <- getConfig().Name
	}()
	for name := range reload {
		_ = name
	}
	wg.Wait()
	fmt.Println("loads", loads)
}
