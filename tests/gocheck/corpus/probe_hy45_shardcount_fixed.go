// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: STDIN "alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta"), in the style of a sharded word/key counter (hash/fnv key -> one of N shard channels)
// what: fixed twin of h4_shardcount: the shard goroutines are started before the keys are
//   routed, so a full shard buffer only makes main wait for its consumer; after the input
//   the shards are closed and waited for.
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
	var wg sync.WaitGroup
	for i := range shards {
		shards[i] = &shard{in: make(chan string, 2), counts: map[string]int{}}
		wg.Add(1)
		go shards[i].run(&wg)
	}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		key := sc.Text()
		shards[shardFor(key, numShards)].in <- key
	}
	for _, s := range shards {
		close(s.in)
	}
	wg.Wait()
	for i, s := range shards {
		fmt.Printf("shard %d: %d distinct keys\n", i, len(s.counts))
	}
}
