// want: global-deadlock
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on parallel tree walkers with panic-safe workers
// what: walk spawns a goroutine per child and waits for one count per child; a node whose
//   visitor panics is recovered in the goroutine, which then returns without sending, so the
//   parent waits for ever on results and so does main.

package main

import "fmt"

type Node[T any] struct {
	Val      T
	Children []*Node[T]
}

func walk[T any](n *Node[T], visit func(T) int, out chan<- int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Println("skip subtree:", r)
		}
	}()
	total := visit(n.Val)
	results := make(chan int, len(n.Children))
	for _, c := range n.Children {
		go walk(c, visit, results)
	}
	for range n.Children {
		total += <-results
	}
	out <- total
}

func main() {
	tree := &Node[string]{Val: "root", Children: []*Node[string]{
		{Val: "a", Children: []*Node[string]{{Val: "a1"}, {Val: ""}}},
		{Val: "b"},
	}}
	out := make(chan int)
	go walk(tree, func(s string) int {
		if s == "" {
			panic("empty name")
		}
		return len(s)
	}, out)
	fmt.Println(<-out)
}
