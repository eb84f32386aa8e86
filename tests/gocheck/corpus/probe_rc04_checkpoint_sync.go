// want: ok
// source: Rosetta Code task 'Checkpoint synchronization', rewritten
// what: four workers each build one part per round; the assembler waits on a per-round
//   WaitGroup (the checkpoint) before assembling, then starts the next round.
package main

import (
	"fmt"
	"math/rand"
	"sync"
	"time"
)

func worker(id, round int, parts []string, wg *sync.WaitGroup) {
	defer wg.Done()
	time.Sleep(time.Duration(rand.Intn(5)) * time.Millisecond)
	parts[id] = fmt.Sprintf("part%d.r%d", id, round)
}

func main() {
	const workers, rounds = 4, 3
	for r := 1; r <= rounds; r++ {
		parts := make([]string, workers)
		var wg sync.WaitGroup
		wg.Add(workers)
		for w := 0; w < workers; w++ {
			go worker(w, r, parts, &wg)
		}
		wg.Wait() // checkpoint
		fmt.Printf("round %d assembled from %v\n", r, parts)
	}
}
