// want: ok
// source: written for this corpus
// what: merging two channels: a closed input is set to nil so that its select case is off

package main

import "fmt"

func gen(n int) <-chan int {
	ch := make(chan int)
	go func() {
		for i := 0; i < n; i++ {
			ch <- i
		}
		close(ch)
	}()
	return ch
}

func main() {
	a, b := gen(2), gen(3)
	count := 0
	for a != nil || b != nil {
		select {
		case _, ok := <-a:
			if !ok {
				a = nil
				continue
			}
			count++
		case _, ok := <-b:
			if !ok {
				b = nil
				continue
			}
			count++
		}
	}
	fmt.Println(count)
}
