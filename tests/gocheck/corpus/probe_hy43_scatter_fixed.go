// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ENV ENDPOINTS="us-east,,eu-west,ap-south"), in the style of a config-sync tool that fetches one setting per endpoint into a slice
// what: fixed twin of h4_scatter: wg.Add(1) is done per goroutine actually started, so blank
//   entries (and the single "" element that strings.Split returns for an empty variable) are
//   skipped safely.
package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

type setting struct {
	endpoint string
	version  int
}

func fetchSetting(ep string) setting {
	v := 0
	for _, c := range ep {
		v += int(c)
	}
	return setting{endpoint: ep, version: v % 97}
}

func main() {
	endpoints := strings.Split(os.Getenv("ENDPOINTS"), ",")
	results := make([]setting, len(endpoints))
	var wg sync.WaitGroup
	for i, ep := range endpoints {
		ep = strings.TrimSpace(ep)
		if ep == "" {
			continue
		}
		wg.Add(1)
		go func(i int, ep string) {
			defer wg.Done()
			results[i] = fetchSetting(ep)
		}(i, ep)
	}
	wg.Wait()
	for _, s := range results {
		if s.endpoint != "" {
			fmt.Printf("%s: v%d\n", s.endpoint, s.version)
		}
	}
}
