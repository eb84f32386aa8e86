// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of key-sharded workers (fnv hash of the key picks the shard channel)
// what: each key goes to shard fnv32(key)%2; every shard worker ranges over its channel until
//   main closes them all, and main waits for the workers
package main

import (
	"fmt"
	"hash/fnv"
	"sync"
)

func shardOf(key string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32() % uint32(n))
}

func main() {
	const nShards = 2
	shards := make([]chan string, nShards)
	counts := make([]int, nShards)
	var wg sync.WaitGroup
	for i := range shards {
		shards[i] = make(chan string, 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range shards[i] {
				counts[i]++
			}
		}()
	}
	for _, k := range []string{"user:1", "user:2", "order:9"} {
		shards[shardOf(k, nShards)] <- k
	}
	for _, c := range shards {
		close(c)
	}
	wg.Wait()
	fmt.Println(counts)
}
