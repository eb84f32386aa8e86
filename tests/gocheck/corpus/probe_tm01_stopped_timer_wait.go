// want: global-deadlock
// source: written for chanfuzz as a held-out probe of timers, context.AfterFunc and sync.OnceFunc (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a cache hit stops the throttle timer, but the code still waits on its channel: a stopped
//   timer never fires

package main

import (
	"fmt"
	"time"
)

var cache = map[string]string{"a": "cached-a"}

func fetch(key string) string {
	throttle := time.NewTimer(10 * time.Millisecond)
	v, hit := cache[key]
	if hit {
		throttle.Stop()
	} else {
		v = "fresh-" + key
	}
	<-throttle.C // BUG: never fires after Stop
	return v
}

func main() {
	fmt.Println(fetch("b"))
	fmt.Println(fetch("a"))
}
