// want: ok
// source: written for chanfuzz by gocheck's author (2026-12-05; confirmed with Go 1.26), not held out, in the style of returning the first error of a fan-out over input URLs
// what: the error channel is sized by len(urls): every sender finds room though main returns
//   at the first error
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
	errc := make(chan error, len(urls))
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
