// want: ok
// source: the frequent "timeout select leaks the worker" bug, fixed with a buffered channel
// what: the result channel has capacity one, so a backend that finishes after the timeout
//   deposits its result and exits instead of blocking.
package main

import (
	"errors"
	"fmt"
	"time"
)

func backend(q string, delay time.Duration) string {
	time.Sleep(delay)
	return "rows for " + q
}

func query(q string, delay time.Duration) (string, error) {
	resc := make(chan string, 1)
	go func() {
		resc <- backend(q, delay)
	}()
	select {
	case r := <-resc:
		return r, nil
	case <-time.After(5 * time.Millisecond):
		return "", errors.New("query " + q + ": timeout")
	}
}

func main() {
	delays := []time.Duration{time.Millisecond, 10 * time.Millisecond, time.Millisecond}
	for i, d := range delays {
		r, err := query(fmt.Sprint("q", i), d)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(r)
	}
	time.Sleep(10 * time.Millisecond) // flush metrics, etc.
}
