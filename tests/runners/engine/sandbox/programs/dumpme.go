// Hangs without deadlocking: a goroutine blocked on a channel nobody sends
// on, and a ticker goroutine that keeps the runtime's deadlock detector quiet.
// On SIGQUIT the Go runtime prints every goroutine's stack and exits 2.
package main

import (
	"fmt"
	"os"
	"time"
)

func stuckReceiver(c chan int) {
	<-c
}

func main() {
	c := make(chan int)
	go stuckReceiver(c)
	go func() {
		for {
			time.Sleep(time.Hour)
		}
	}()
	fmt.Println("hanging")
	os.Stdout.Sync()
	select {}
}
