// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ARGS a b a), in the style of a downloader that starts one goroutine per distinct argument
// what: one goroutine per key of the set m and exactly len(m) receives in main; a map range
//   visits exactly len(m) keys, so every send is matched. (Reduced from
//   h4_dedupclose_fixed.)
package main

import "os"

func main() {
	m := map[string]bool{}
	for _, a := range os.Args[1:] {
		m[a] = true
	}
	out := make(chan string)
	for k := range m {
		go func() { out <- k }()
	}
	for i := 0; i < len(m); i++ {
		<-out
	}
}
