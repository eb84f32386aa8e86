// want: partial-deadlock
// source: written for chanfuzz by gocheck's author (2026-12-05; confirmed with Go 1.26), not held out, in the style of returning the first error of a fan-out over input URLs (confirmed with URLS="bad1 b c")
// what: one goroutine per URL sends its error on an unbuffered channel; main returns at the first
//   error and the other senders stay blocked for ever (a leak)
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

func fetch(u string) error {
	if strings.HasPrefix(u, "bad") {
		return errors.New("bad url")
	}
	return nil
}

func firstError(urls []string) error {
	errc := make(chan error)
	for _, u := range urls {
		go func() { errc <- fetch(u) }()
	}
	for range urls {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

func main() {
	urls := strings.Fields(os.Getenv("URLS"))
	fmt.Println(firstError(urls))
}
