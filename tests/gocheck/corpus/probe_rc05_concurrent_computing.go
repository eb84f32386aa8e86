// want: ok
// source: Rosetta Code task 'Concurrent computing', rewritten
// what: three goroutines print one word each after a random delay; main collects the words
//   in arrival order through a buffered channel and waits for all of them.
package main

import (
	"fmt"
	"math/rand"
	"sync"
	"time"
)

func main() {
	words := []string{"Enjoy", "Rosetta", "Code"}
	out := make(chan string, len(words))
	var wg sync.WaitGroup
	for _, w := range words {
		wg.Add(1)
		go func(w string) {
			defer wg.Done()
			time.Sleep(time.Duration(rand.Intn(10)) * time.Millisecond)
			out <- w
		}(w)
	}
	wg.Wait()
	close(out)
	for w := range out {
		fmt.Println(w)
	}
}
