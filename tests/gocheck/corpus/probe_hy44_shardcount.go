// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: STDIN "alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta"), in the style of a sharded word/key counter (hash/fnv key -> one of N shard channels)
// what: keys from stdin are routed with fnv32a(key) % 3 into per-shard channels of capacity 2,
//   but the shard goroutines are only started after all keys are enqueued; as soon as one
//   shard receives a 3rd key main blocks on the send with nobody receiving. Needs >= 3 keys
//   hashing to one shard (always true with >= 7 keys).
package main

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"os"
	"sync"
)

const numShards = 3

type shard struct {
	in     chan string
	counts map[string]int
}

func shardFor(key string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32() % uint32(n))
}

func (s *shard) run(wg *sync.WaitGroup) {
	defer wg.Done()
	for k := range s.in {
		s.counts[k]++
	}
}

func main() {
	shards := make([]*shard, numShards)
	for i := range shards {
		shards[i] = &shard{in: make(chan string, 2), counts: map[string]int{}}
	}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		key := sc.Text()
		shards[shardFor(key, numShards)].in <- key
	}
	var wg sync.WaitGroup
	for _, s := range shards {
		close(s.in)
		wg.Add(1)
		go s.run(&wg)
	}
	wg.Wait()
	for i, s := range shards {
		fmt.Printf("shard %d: %d distinct keys\n", i, len(s.counts))
	}
}
