// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of The Go Programming Language (Donovan & Kernighan) 9.2, bank2 (binary semaphore) and bank3 (sync.Mutex with an unexported deposit for Withdraw)
// what: two bank implementations: one guards its balance with a buffered channel of capacity 1
//   used as a binary semaphore, the other with a sync.Mutex whose Withdraw calls the unexported
//   deposit while holding the lock (no re-entrant locking); eight goroutines deposit and
//   withdraw on each, and main checks the final balances after a WaitGroup.

package main

import (
	"fmt"
	"sync"
)

type Bank2 struct {
	sema    chan struct{} // a binary semaphore guarding balance
	balance int
}

func (b *Bank2) Deposit(amount int) {
	b.sema <- struct{}{} // acquire token
	b.balance = b.balance + amount
	<-b.sema // release token
}

func (b *Bank2) Balance() int {
	b.sema <- struct{}{}
	balance := b.balance
	<-b.sema
	return balance
}

type Bank3 struct {
	mu      sync.Mutex // guards balance
	balance int
}

func (b *Bank3) Withdraw(amount int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.deposit(-amount)
	if b.balance < 0 {
		b.deposit(amount)
		return false // insufficient funds
	}
	return true
}

func (b *Bank3) Deposit(amount int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.deposit(amount)
}

func (b *Bank3) Balance() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.balance
}

// This function requires that the lock be held.
func (b *Bank3) deposit(amount int) { b.balance += amount }

func main() {
	b2 := &Bank2{sema: make(chan struct{}, 1)}
	b3 := &Bank3{}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 25; j++ {
				b2.Deposit(i + 1)
				b3.Deposit(10)
				if !b3.Withdraw(5 + i) {
					fmt.Println("insufficient funds")
				}
				_ = b2.Balance()
			}
		}(i)
	}
	wg.Wait()
	fmt.Println("bank2:", b2.Balance(), "bank3:", b3.Balance())
}
