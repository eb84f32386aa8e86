// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: STDIN "user:1\nuser:2\norder:9"), in the style of a client issuing hedged requests (two replicas per key, first answer wins)
// what: fixed twin of h4_hedged: the answer channel has room for both replicas (buffer 2), so
//   the losing replica's send completes and it exits; two goroutines per key, none left
//   blocked.
package main

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"os"
	"time"
)

type answer struct {
	replica int
	value   string
}

func replicaGet(replica int, key string) answer {
	h := fnv.New32()
	h.Write([]byte(key))
	time.Sleep(time.Duration((h.Sum32()+uint32(replica))%3) * time.Millisecond)
	return answer{replica: replica, value: fmt.Sprintf("%s@r%d", key, replica)}
}

func lookup(key string) answer {
	ch := make(chan answer, 2)
	for r := 0; r < 2; r++ {
		go func(r int) {
			ch <- replicaGet(r, key)
		}(r)
	}
	return <-ch
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	n := 0
	for sc.Scan() {
		a := lookup(sc.Text())
		fmt.Printf("%s (replica %d)\n", a.value, a.replica)
		n++
	}
	fmt.Println("keys:", n)
}
