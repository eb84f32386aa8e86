// want: channel-safety
// source: "sync: negative WaitGroup counter" panics reported against Go projects (Done called twice)
// what: a worker defers wg.Done() but also calls wg.Done() on its retry-exhausted error path, so
//   the counter goes negative when that path runs.
package main

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

func upload(name string, attempt int) error {
	time.Sleep(200 * time.Microsecond)
	if name == "huge.bin" {
		return errors.New("payload too large")
	}
	return nil
}

func main() {
	files := []string{"a.txt", "huge.bin", "c.txt"}
	var wg sync.WaitGroup
	for _, f := range files {
		wg.Add(1)
		go func(f string) {
			defer wg.Done()
			for attempt := 1; ; attempt++ {
				err := upload(f, attempt)
				if err == nil {
					fmt.Println("uploaded", f)
					return
				}
				if attempt == 3 {
					fmt.Println("giving up on", f, ":", err)
					wg.Done()
					return
				}
			}
		}(f)
	}
	wg.Wait()
	fmt.Println("all uploads handled")
}
