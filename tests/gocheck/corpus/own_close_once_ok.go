// want: ok
// source: written for this corpus
// what: two goroutines may both want to close a done channel; sync.Once makes it happen once

package main

import "sync"

func main() {
	done := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			once.Do(func() { close(done) })
		}()
	}
	wg.Wait()
	<-done
}
