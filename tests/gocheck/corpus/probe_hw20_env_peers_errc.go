// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a cluster tool that pings the peers listed in an environment variable
// what: failing peers report on an unbuffered errc that main reads only after wg.Wait, so a
//   failing ping blocks its goroutine, which never calls Done: with the default peer list (one is
//   down) every goroutine is blocked
package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

func ping(peer string) error {
	if strings.HasPrefix(peer, "down") {
		return fmt.Errorf("%s: no route to host", peer)
	}
	return nil
}

func main() {
	spec := os.Getenv("PEERS")
	if spec == "" {
		spec = "node-a:7946,down-b:7946"
	}
	peers := strings.Split(spec, ",")
	errc := make(chan error) // BUG: unbuffered, read only after wg.Wait
	var wg sync.WaitGroup
	for _, p := range peers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := ping(p); err != nil {
				errc <- err
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		fmt.Println(err)
	}
}
