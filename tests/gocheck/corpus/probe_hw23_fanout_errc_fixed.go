// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of errgroup-like fan-out written by hand with WaitGroup + error channel
// what: errc has room for one error per host, so the senders never block; wg.Wait then
//   returns, errc is closed and the first error is returned
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
	errc := make(chan error, len(hosts))
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
	fmt.Println(checkAll([]string{"db1", "bad-cache", "bad-web"}))
}
