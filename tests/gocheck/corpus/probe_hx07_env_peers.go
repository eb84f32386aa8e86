// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a cluster tool that pings the peers listed in an environment variable
// what: the peer list comes from $PEERS (split on commas, default two peers); one goroutine per
//   peer sends on a results channel with room for all of them; main waits and drains. No blocking
package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

func ping(peer string) bool { return !strings.HasPrefix(peer, "down") }

func main() {
	spec := os.Getenv("PEERS")
	if spec == "" {
		spec = "node-a:7946,node-b:7946"
	}
	peers := strings.Split(spec, ",")
	results := make(chan string, len(peers))
	var wg sync.WaitGroup
	for _, p := range peers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ping(p) {
				results <- p + " up"
			} else {
				results <- p + " down"
			}
		}()
	}
	wg.Wait()
	close(results)
	for r := range results {
		fmt.Println(r)
	}
}
