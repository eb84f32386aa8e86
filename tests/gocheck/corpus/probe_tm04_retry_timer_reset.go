// want: ok
// source: written for chanfuzz as a held-out probe of timers, context.AfterFunc and sync.OnceFunc (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: retries with one backoff timer: wait for it, Reset it, wait again

package main

import (
	"errors"
	"fmt"
	"time"
)

func try(attempt int) error {
	if attempt < 2 {
		return errors.New("temporary failure")
	}
	return nil
}

func main() {
	backoff := 2 * time.Millisecond
	t := time.NewTimer(backoff)
	defer t.Stop()
	for attempt := 0; attempt < 3; attempt++ {
		err := try(attempt)
		if err == nil {
			fmt.Println("succeeded on attempt", attempt)
			return
		}
		<-t.C
		t.Reset(backoff)
	}
	fmt.Println("gave up")
}
