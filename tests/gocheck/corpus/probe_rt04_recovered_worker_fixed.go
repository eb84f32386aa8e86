// want: ok
// source: written for chanfuzz as a probe (round 13, language and library corners; run and confirmed, see docs/gocheck-report.md)
// what: the deferred recover sends an empty result, so every job answers once

package main

import (
	"fmt"
	"log"
)

type job struct {
	name  string
	index map[string]int
}

func run(j job, out chan<- string) {
	sent := false
	defer func() {
		if r := recover(); r != nil {
			log.Printf("job %s: %v", j.name, r)
		}
		if !sent {
			out <- ""
		}
	}()
	j.index[j.name]++
	out <- j.name
	sent = true
}

func main() {
	jobs := []job{{"a", map[string]int{}}, {"b", nil}, {"c", map[string]int{}}}
	out := make(chan string)
	for _, j := range jobs {
		go run(j, out)
	}
	for range jobs {
		fmt.Println(<-out)
	}
}
