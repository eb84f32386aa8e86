// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ENV ENDPOINTS="us-east,,eu-west,ap-south"), in the style of a config-sync tool that fetches one setting per endpoint into a slice
// what: wg.Add(len(endpoints)) is done up front, but the loop `continue`s past blank entries
//   (e.g. "a,,b" or a trailing comma) without starting a goroutine, so the counter never
//   reaches zero and wg.Wait blocks for ever. Deadlock only when ENDPOINTS contains an empty
//   element.
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
	wg.Add(len(endpoints))
	for i, ep := range endpoints {
		ep = strings.TrimSpace(ep)
		if ep == "" {
			continue
		}
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
