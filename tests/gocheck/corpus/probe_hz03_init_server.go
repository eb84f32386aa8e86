// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a package that starts its background goroutine from init()
// what: init() starts the lookup server goroutine before main runs; main's requests are all
//   answered, and the server is left waiting on a package-level channel (reachable: not a leak)
package main

import (
	"fmt"
	"strings"
)

type lookup struct {
	key   string
	reply chan string
}

var lookups = make(chan lookup)

func init() {
	go func() {
		table := map[string]string{"GO": "golang.org", "PY": "python.org"}
		for l := range lookups {
			l.reply <- table[strings.ToUpper(l.key)]
		}
	}()
}

func resolve(k string) string {
	r := make(chan string)
	lookups <- lookup{k, r}
	return <-r
}

func main() {
	fmt.Println(resolve("go"), resolve("py"))
}
