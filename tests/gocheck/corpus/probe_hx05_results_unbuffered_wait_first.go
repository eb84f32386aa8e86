// want: global-deadlock
// source: written for chanfuzz by gocheck's author (2026-12-05; confirmed with Go 1.26), not held out, in the style of collecting results of a goroutine per input name (confirmed with NAMES=a,b)
// what: main waits for the WaitGroup before receiving from the unbuffered results channel:
//   every sender and main block (strings.Split gives one item or more)
package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

func main() {
	names := strings.Split(os.Getenv("NAMES"), ",")
	results := make(chan string)
	var wg sync.WaitGroup
	for _, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- strings.ToUpper(n)
		}()
	}
	wg.Wait()
	close(results)
	for r := range results {
		fmt.Println(r)
	}
}
