// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ARGS a b c), in the style of a batcher over os.Args that closes its batch channel when full
// what: the 2nd argument fills the 2-slot channel, which is closed and drained; the 3rd argument
//   is then sent on the closed channel: "send on closed channel". Needs 3 arguments
//   (len(os.Args) = 4). (Reduced from h4_batchclose; the same loop over
//   strings.Fields(os.Getenv(..)) is reported correctly.)
package main

import "os"

func main() {
	cur := make(chan string, 2)
	for _, d := range os.Args[1:] {
		cur <- d
		if len(cur) == 2 {
			close(cur)
			for range cur {
			}
		}
	}
}
