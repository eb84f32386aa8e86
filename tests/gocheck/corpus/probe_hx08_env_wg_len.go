// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a health checker that pings every address listed in an environment variable
// what: wg.Add(len(addrs)) is called once up front and one goroutine per address calls Done;
//   the results go into a slice by index, so nothing blocks and wg.Wait returns
package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

func main() {
	addrs := strings.Fields(os.Getenv("ADDRS"))
	if len(addrs) == 0 {
		addrs = []string{"10.0.0.1", "10.0.0.2"}
	}
	healthy := make([]bool, len(addrs))
	var wg sync.WaitGroup
	wg.Add(len(addrs))
	for i, a := range addrs {
		go func() {
			defer wg.Done()
			healthy[i] = !strings.HasSuffix(a, ".0")
		}()
	}
	wg.Wait()
	fmt.Println(healthy)
}
