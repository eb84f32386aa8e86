// want: global-deadlock
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on ledger transfers between accounts embedding sync.Mutex
// what: Transfer locks the source account, then the destination (both through the embedded
//   Mutex); two concurrent transfers in opposite directions can each hold one lock and wait for
//   the other, and main then blocks in wg.Wait: all goroutines asleep.

package main

import (
	"fmt"
	"runtime"
	"sync"
)

type Account struct {
	sync.Mutex
	ID      int
	Balance int
}

func Transfer(from, to *Account, amt int) bool {
	from.Lock()
	defer from.Unlock()
	runtime.Gosched()
	to.Lock()
	defer to.Unlock()
	if from.Balance < amt {
		return false
	}
	from.Balance -= amt
	to.Balance += amt
	return true
}

func main() {
	a := &Account{ID: 1, Balance: 100}
	b := &Account{ID: 2, Balance: 50}
	jobs := []func() bool{
		func() bool { return Transfer(a, b, 30) },
		func() bool { return Transfer(b, a, 10) },
	}
	var wg sync.WaitGroup
	ok := make([]bool, len(jobs))
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok[i] = j()
		}()
	}
	wg.Wait()
	fmt.Println(ok, a.Balance, b.Balance)
}
