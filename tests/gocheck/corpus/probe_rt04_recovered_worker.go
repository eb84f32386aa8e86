// want: global-deadlock
// source: written for chanfuzz as a probe (round 13, language and library corners; run and confirmed, see docs/gocheck-report.md)
// what: a worker recovers from a panic (a nil map write for one job) and returns without
//   sending its result; the collector waits for len(jobs) results

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
	defer func() {
		if r := recover(); r != nil {
			log.Printf("job %s: %v", j.name, r)
		}
	}()
	j.index[j.name]++
	out <- j.name
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
