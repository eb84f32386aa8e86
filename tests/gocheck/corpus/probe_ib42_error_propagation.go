// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Concurrency in Go (Cox-Buday) ch. 4, error handling (checkStatus returning a Result with Error and Response)
// what: checkStatus fetches URLs from a fake web in a goroutine and sends Results (error or
//   response) in a select with done; main stops after three errors and returns, its deferred
//   close(done) releasing the checker goroutine blocked on the next send.

package main

import (
	"fmt"
	"time"
)

type Response struct {
	Status string
	Body   string
}

type Result struct {
	Error    error
	Response *Response
}

var web = map[string]string{
	"https://www.google.com": "<html>google</html>",
	"https://golang.org":     "<html>go</html>",
}

func get(url string) (*Response, error) {
	time.Sleep(100 * time.Microsecond)
	body, ok := web[url]
	if !ok {
		return nil, fmt.Errorf("Get %q: dial tcp: lookup failed", url)
	}
	return &Response{Status: "200 OK", Body: body}, nil
}

func main() {
	checkStatus := func(done <-chan interface{}, urls ...string) <-chan Result {
		results := make(chan Result)
		go func() {
			defer close(results)

			for _, url := range urls {
				var result Result
				resp, err := get(url)
				result = Result{Error: err, Response: resp}
				select {
				case <-done:
					return
				case results <- result:
				}
			}
		}()
		return results
	}

	done := make(chan interface{})
	defer close(done)

	errCount := 0
	urls := []string{"https://golang.org", "a", "https://www.google.com", "b", "c", "d", "e"}
	for result := range checkStatus(done, urls...) {
		if result.Error != nil {
			fmt.Printf("error: %v\n", result.Error)
			errCount++
			if errCount >= 3 {
				fmt.Println("Too many errors, breaking!")
				break
			}
			continue
		}
		fmt.Printf("Response: %v\n", result.Response.Status)
	}
}
