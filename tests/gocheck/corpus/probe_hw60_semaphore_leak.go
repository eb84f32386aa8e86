// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of bounding concurrent downloads with a buffered-channel semaphore
// what: main acquires a slot before starting each download; the goroutine releases the slot
//   only on success (the error path returns early), so after two failures main blocks on the
//   third acquire while no goroutine is left to release
package main

import (
	"fmt"
	"strings"
	"sync"
)

func fetch(url string) error {
	if strings.HasSuffix(url, ".bad") {
		return fmt.Errorf("fetch %s: 404", url)
	}
	return nil
}

func main() {
	urls := []string{"a.bad", "b.bad", "c", "d"}
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	for _, u := range urls {
		sem <- struct{}{}
		wg.Add(1)
		go func(u string) {
			defer wg.Done()
			if err := fetch(u); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
				return // BUG: slot never released
			}
			<-sem
		}(u)
	}
	wg.Wait()
	fmt.Println(len(errs), "errors")
}
