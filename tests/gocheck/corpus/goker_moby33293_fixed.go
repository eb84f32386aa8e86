// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/moby/33293, fixed for this corpus (a buffered error channel); rewritten as package main
// what: the error channel has room for the error, so containerWait returns and main reads it

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
	errC := make(chan error, 1)
	if err := mayReturnError(fail); err != nil {
		errC <- err
		return errC
	}
	return errC
}

func main() {
	errC := containerWait(true)
	fmt.Println(<-errC)
}
