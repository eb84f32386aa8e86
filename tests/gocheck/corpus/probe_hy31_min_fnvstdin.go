// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: STDIN "a\nb\nc"), in the style of a sharded counter hashing stdin keys with hash/fnv
// what: no concurrency bug at all: each stdin line is hashed with fnv and the shard number goes
//   through a 1-slot buffered channel that is drained immediately. (Reduced from
//   h4_shardcount*, h4_hedged*, h4_wordmr; the same code hashing os.Args elements instead of
//   sc.Text() is accepted.)
package main

import (
	"bufio"
	"hash/fnv"
	"os"
)

func shardFor(key string) int {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32() % 2)
}

func main() {
	ch := make(chan int, 1)
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		ch <- shardFor(sc.Text())
		<-ch
	}
}
