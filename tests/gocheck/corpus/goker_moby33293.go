// want: global-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/moby/33293 (moby/moby PR 33293); rewritten as package main
// what: containerWait sends its error on the unbuffered channel it is about to return, before
//   anyone can receive from it: the sender blocks for ever. Called from main here, so main is
//   the blocked goroutine and Go reports the deadlock (the kernel calls it in a goroutine: a leak).

package main

import (
	"errors"
	"fmt"
)

func mayReturnError(fail bool) error {
	if fail {
		return errors.New("error")
	}
	return nil
}

func containerWait(fail bool) <-chan error {
	errC := make(chan error)
	if err := mayReturnError(fail); err != nil {
		errC <- err
		return errC
	}
	return errC
}

func main() {
	errC := containerWait(true)
	fmt.Println(errC != nil)
}
