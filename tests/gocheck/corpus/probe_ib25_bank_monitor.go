// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of The Go Programming Language (Donovan & Kernighan) 9.1, bank1 (a teller monitor goroutine) with exercise 9.1's Withdraw
// what: the teller goroutine confines the balance and serves deposits, withdrawals (with a reply
//   channel) and balance reads in a select; Alice, Bob and three withdrawers run concurrently,
//   main waits for them with a WaitGroup, reads the balance and closes done to stop the teller.

package main

import (
	"fmt"
	"sync"
)

type withdrawal struct {
	amount int
	ok     chan bool
}

type Bank struct {
	deposits    chan int // send amount to deposit
	balances    chan int // receive balance
	withdrawals chan withdrawal
	done        chan struct{}
}

func (b *Bank) Deposit(amount int) { b.deposits <- amount }
func (b *Bank) Balance() int       { return <-b.balances }
func (b *Bank) Withdraw(amount int) bool {
	ok := make(chan bool)
	b.withdrawals <- withdrawal{amount, ok}
	return <-ok
}

func (b *Bank) teller(stopped chan<- struct{}) {
	defer close(stopped)
	var balance int // balance is confined to teller goroutine
	for {
		select {
		case amount := <-b.deposits:
			balance += amount
		case w := <-b.withdrawals:
			if w.amount > balance {
				w.ok <- false
				continue
			}
			balance -= w.amount
			w.ok <- true
		case b.balances <- balance:
		case <-b.done:
			return
		}
	}
}

func main() {
	b := &Bank{
		deposits:    make(chan int),
		balances:    make(chan int),
		withdrawals: make(chan withdrawal),
		done:        make(chan struct{}),
	}
	stopped := make(chan struct{})
	go b.teller(stopped)

	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // Alice
		defer wg.Done()
		b.Deposit(200)
		fmt.Println("=", b.Balance())
	}()
	go func() { // Bob
		defer wg.Done()
		b.Deposit(100)
	}()
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if !b.Withdraw(50 * (i + 1)) {
				fmt.Println("insufficient funds for withdrawal", i)
			}
		}(i)
	}
	wg.Wait()
	fmt.Println("final balance:", b.Balance())
	close(b.done)
	<-stopped
}
