// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of hashing a key to a shard channel (minimal repro of h3_sharded_workers)
// what: a key is sent to shards[len(key)%2] where the key comes from the environment; both shards
//   have buffer room, so the send never blocks; gocheck cannot index a slice of channels by an
//   unknown integer ("a load through a pointer the checker cannot follow")
package main

import "os"

func main() {
	shards := []chan string{make(chan string, 1), make(chan string, 1)}
	key := os.Getenv("KEY")
	shards[len(key)%2] <- key
}
