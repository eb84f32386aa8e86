// want: ok
// source: written for this corpus
// what: two goroutines increment a counter under a mutex; main waits on done

package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu sync.Mutex
	count := 0
	done := make(chan bool)
	for i := 0; i < 2; i++ {
		go func() {
			for j := 0; j < 10; j++ {
				mu.Lock()
				count++
				mu.Unlock()
			}
			done <- true
		}()
	}
	<-done
	<-done
	fmt.Println(count)
}
