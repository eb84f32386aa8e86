// want: ok
// source: written for chanfuzz as a held-out probe of real-world bug kernels (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: fixed version of rk07: errCh has a slot for each copier, so both reports are buffered
//   even when attach() returned on the detach and nobody reads them

package main

import (
	"context"
	"fmt"
)

func copyStream(name string, src chan string) error {
	for line := range src {
		fmt.Println(name, "<-", line)
	}
	return nil
}

func attach(ctx context.Context, stdin, stdout chan string) error {
	errCh := make(chan error, 2) // one slot per copier
	go func() { errCh <- copyStream("container stdin", stdin) }()
	go func() { errCh <- copyStream("client stdout", stdout) }()
	select {
	case err := <-errCh:
		return err
	case <-ctx.Done():
		return ctx.Err() // detached: the copiers are left to finish on their own
	}
}

func main() {
	stdin := make(chan string)
	stdout := make(chan string)
	ctx, detach := context.WithCancel(context.Background())
	res := make(chan error, 1)
	go func() { res <- attach(ctx, stdin, stdout) }()
	stdin <- "ls"
	detach() // the user typed the detach keys
	fmt.Println("attach:", <-res)
	close(stdin) // the container exits: its streams end
	close(stdout)
}
