// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: STDIN "auth\nbilling\nsearch"), in the style of an in-process RPC test harness (client + server goroutine per service)
// what: for every service name on stdin a server goroutine and a client goroutine talk over a
//   private pair of unbuffered channels (request, then reply, then the client closes the
//   request channel to stop the server); main waits for all pairs with one WaitGroup. Two
//   goroutines per item; correct for any input.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"sync"
)

type call struct {
	method string
	reply  chan string
}

func server(name string, reqs <-chan call, wg *sync.WaitGroup) {
	defer wg.Done()
	for c := range reqs {
		c.reply <- name + "." + c.method + " -> " + strings.ToUpper(c.method)
	}
}

func client(reqs chan<- call, methods []string, log *[]string, mu *sync.Mutex, wg *sync.WaitGroup) {
	defer wg.Done()
	defer close(reqs)
	for _, m := range methods {
		c := call{method: m, reply: make(chan string)}
		reqs <- c
		r := <-c.reply
		mu.Lock()
		*log = append(*log, r)
		mu.Unlock()
	}
}

func main() {
	var mu sync.Mutex
	var log []string
	var wg sync.WaitGroup
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		svc := strings.TrimSpace(sc.Text())
		reqs := make(chan call)
		wg.Add(2)
		go server(svc, reqs, &wg)
		go client(reqs, []string{"ping", "status"}, &log, &mu, &wg)
	}
	wg.Wait()
	for _, l := range log {
		fmt.Println(l)
	}
}
