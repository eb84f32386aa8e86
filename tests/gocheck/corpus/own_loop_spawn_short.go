// want: partial-deadlock
// source: written for this corpus
// what: four workers are started in a loop but main receives only three results: one worker
//   blocks for ever on its send

package main

import "fmt"

func main() {
	results := make(chan int)
	for i := 0; i < 4; i++ {
		go func(id int) { results <- id * id }(i)
	}
	sum := 0
	for i := 0; i < 3; i++ {
		sum += <-results
	}
	fmt.Println(sum)
}
