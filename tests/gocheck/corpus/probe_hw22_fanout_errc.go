// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of errgroup-like fan-out written by hand with WaitGroup + error channel
// what: each failing task sends its error on an unbuffered errc, but main calls wg.Wait()
//   before reading errc; the failing goroutines never get to Done, so everyone is blocked
package main

import (
	"fmt"
	"strings"
	"sync"
)

func check(host string) error {
	if strings.HasPrefix(host, "bad") {
		return fmt.Errorf("%s unreachable", host)
	}
	return nil
}

func checkAll(hosts []string) error {
	var wg sync.WaitGroup
	errc := make(chan error) // BUG: needs room for len(hosts) errors
	for _, h := range hosts {
		wg.Add(1)
		go func(h string) {
			defer wg.Done()
			if err := check(h); err != nil {
				errc <- err
			}
		}(h)
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		return err
	}
	return nil
}

func main() {
	fmt.Println(checkAll([]string{"db1", "bad-cache", "web"}))
}
