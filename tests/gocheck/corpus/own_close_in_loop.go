// want: channel-safety
// source: written for this corpus
// what: the close of the quit channel sits inside a loop with a constant bound of 2, so the
//   second iteration closes it again

package main

import "fmt"

func main() {
	quit := make(chan struct{})
	for i := 0; i < 2; i++ {
		fmt.Println("round", i)
		close(quit)
	}
	<-quit
}
