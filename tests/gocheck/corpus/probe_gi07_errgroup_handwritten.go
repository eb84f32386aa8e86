// want: partial-deadlock
// source: hand-written errgroup replacement, a pattern fixed in many Go projects
// what: fetchAll returns on the first error it receives from the unbuffered errc; the goroutines
//   that have not reported yet block for ever on their send.
package main

import (
	"errors"
	"fmt"
	"time"
)

func fetch(url string) error {
	time.Sleep(time.Duration(len(url)) * 100 * time.Microsecond)
	if url == "http://bad" {
		return errors.New("fetch " + url + ": connection refused")
	}
	return nil
}

func fetchAll(urls []string) error {
	errc := make(chan error)
	for _, u := range urls {
		go func(u string) {
			errc <- fetch(u)
		}(u)
	}
	for range urls {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

func main() {
	urls := []string{"http://bad", "http://example.com/a", "http://example.com/bb", "http://example.org/ccc"}
	if err := fetchAll(urls); err != nil {
		fmt.Println("error:", err)
	}
	time.Sleep(5 * time.Millisecond)
	fmt.Println("shutting down")
}
