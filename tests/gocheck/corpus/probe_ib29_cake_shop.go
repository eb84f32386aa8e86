// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of The Go Programming Language (Donovan & Kernighan) 8.4.4, gopl.io/ch8/cake (baker, icers and inscriber connected by buffered channels)
// what: a baker goroutine sends Cakes cakes on baked and closes it, NumIcers icer goroutines range
//   over baked and send on iced, and the inscriber (main) receives exactly Cakes cakes; the shop
//   is run with several buffer sizes and icer counts, work times drawn from a seeded rand.

package main

import (
	"fmt"
	"math/rand"
	"sync"
	"time"
)

type Shop struct {
	Cakes          int
	BakeTime       time.Duration
	BakeStdDev     time.Duration
	BakeBuf        int // buffer slots between baking and icing
	NumIcers       int
	IceTime        time.Duration
	IceStdDev      time.Duration
	IceBuf         int // buffer slots between icing and inscribing
	InscribeTime   time.Duration
	InscribeStdDev time.Duration
}

type cake int

var (
	rngMu sync.Mutex
	rng   = rand.New(rand.NewSource(1))
)

func work(d, stddev time.Duration) {
	rngMu.Lock()
	delay := d + time.Duration(rng.NormFloat64()*float64(stddev))
	rngMu.Unlock()
	time.Sleep(delay)
}

func (s *Shop) baker(baked chan<- cake) {
	for i := 0; i < s.Cakes; i++ {
		c := cake(i)
		work(s.BakeTime, s.BakeStdDev)
		baked <- c
	}
	close(baked)
}

func (s *Shop) icer(iced chan<- cake, baked <-chan cake) {
	for c := range baked {
		work(s.IceTime, s.IceStdDev)
		iced <- c
	}
}

func (s *Shop) inscriber(iced <-chan cake) {
	for i := 0; i < s.Cakes; i++ {
		c := <-iced
		work(s.InscribeTime, s.InscribeStdDev)
		_ = c
	}
}

// Work runs the simulation 'runs' times.
func (s *Shop) Work(runs int) {
	for run := 0; run < runs; run++ {
		baked := make(chan cake, s.BakeBuf)
		iced := make(chan cake, s.IceBuf)
		go s.baker(baked)
		for i := 0; i < s.NumIcers; i++ {
			go s.icer(iced, baked)
		}
		s.inscriber(iced)
	}
}

func main() {
	defaults := Shop{
		Cakes:        20,
		BakeTime:     100 * time.Microsecond,
		NumIcers:     1,
		IceTime:      100 * time.Microsecond,
		InscribeTime: 100 * time.Microsecond,
	}
	for _, change := range []func(*Shop){
		func(s *Shop) {},
		func(s *Shop) { s.BakeBuf, s.IceBuf = 10, 10 },
		func(s *Shop) {
			s.BakeStdDev, s.IceStdDev, s.InscribeStdDev = 50*time.Microsecond, 50*time.Microsecond, 50*time.Microsecond
		},
		func(s *Shop) { s.NumIcers = 5; s.IceTime = 500 * time.Microsecond },
	} {
		shop := defaults
		change(&shop)
		start := time.Now()
		shop.Work(3)
		fmt.Printf("%v\n", time.Since(start) > 0)
	}
	time.Sleep(time.Millisecond) // the last icers return once baked is drained
}
