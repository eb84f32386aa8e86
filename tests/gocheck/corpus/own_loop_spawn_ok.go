// want: ok
// source: written for this corpus
// what: four workers started in a loop with a constant bound each send one result; main
//   receives four

package main

import "fmt"

func main() {
	results := make(chan int)
	for i := 0; i < 4; i++ {
		go func(id int) { results <- id * id }(i)
	}
	sum := 0
	for i := 0; i < 4; i++ {
		sum += <-results
	}
	fmt.Println(sum)
}
