// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ENV HOSTS="db1,db2,cache1"), in the style of a fleet health-check CLI (ping every host from $HOSTS concurrently)
// what: one goroutine per host sends its result on an unbuffered channel, but main calls
//   wg.Wait() before it starts receiving, so the first sender blocks, Wait never returns:
//   deadlock for any non-empty HOSTS.
package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

type probeResult struct {
	host    string
	latency time.Duration
	healthy bool
}

func probe(host string) probeResult {
	start := time.Now()
	healthy := !strings.HasPrefix(host, "down-")
	return probeResult{host: host, latency: time.Since(start), healthy: healthy}
}

func parseHosts(raw string) []string {
	var hosts []string
	for _, h := range strings.Split(raw, ",") {
		if h = strings.TrimSpace(h); h != "" {
			hosts = append(hosts, h)
		}
	}
	return hosts
}

func main() {
	hosts := parseHosts(os.Getenv("HOSTS"))
	results := make(chan probeResult)
	var wg sync.WaitGroup
	for _, h := range hosts {
		wg.Add(1)
		go func(host string) {
			defer wg.Done()
			results <- probe(host)
		}(h)
	}
	wg.Wait()
	close(results)
	unhealthy := 0
	for r := range results {
		if !r.healthy {
			unhealthy++
		}
		fmt.Printf("%-12s healthy=%v latency=%v\n", r.host, r.healthy, r.latency)
	}
	fmt.Printf("%d/%d hosts unhealthy\n", unhealthy, len(hosts))
}
