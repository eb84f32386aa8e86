// want: ok
// source: Rosetta Code task 'Atomic updates', rewritten
// what: buckets each guarded by a mutex; an equalizer and a randomizer move values between two
//   buckets, always locking the lower index first; a display goroutine snapshots the total.
package main

import (
	"fmt"
	"math/rand"
	"sync"
)

type buckets struct {
	mu  []sync.Mutex
	val []int
}

func newBuckets(n, v int) *buckets {
	b := &buckets{mu: make([]sync.Mutex, n), val: make([]int, n)}
	for i := range b.val {
		b.val[i] = v
	}
	return b
}

func (b *buckets) transfer(from, to, amount int) {
	if from == to {
		return
	}
	lo, hi := from, to
	if lo > hi {
		lo, hi = hi, lo
	}
	b.mu[lo].Lock()
	b.mu[hi].Lock()
	if amount > b.val[from] {
		amount = b.val[from]
	}
	b.val[from] -= amount
	b.val[to] += amount
	b.mu[hi].Unlock()
	b.mu[lo].Unlock()
}

func (b *buckets) equalize(x, y int) {
	if x == y {
		return
	}
	lo, hi := min(x, y), max(x, y)
	b.mu[lo].Lock()
	defer b.mu[lo].Unlock()
	b.mu[hi].Lock()
	defer b.mu[hi].Unlock()
	d := (b.val[lo] - b.val[hi]) / 2
	b.val[lo] -= d
	b.val[hi] += d
}

func (b *buckets) total() int {
	for i := range b.mu {
		b.mu[i].Lock()
	}
	t := 0
	for _, v := range b.val {
		t += v
	}
	for i := len(b.mu) - 1; i >= 0; i-- {
		b.mu[i].Unlock()
	}
	return t
}

func main() {
	b := newBuckets(8, 100)
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { // equalizer
		defer wg.Done()
		for i := 0; i < 2000; i++ {
			b.equalize(rand.Intn(8), rand.Intn(8))
		}
	}()
	go func() { // randomizer
		defer wg.Done()
		for i := 0; i < 2000; i++ {
			b.transfer(rand.Intn(8), rand.Intn(8), rand.Intn(20))
		}
	}()
	go func() { // display
		defer wg.Done()
		for i := 0; i < 5; i++ {
			fmt.Println("total:", b.total())
		}
	}()
	wg.Wait()
	fmt.Println("final total:", b.total())
}
