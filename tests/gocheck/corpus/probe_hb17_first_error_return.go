// want: partial-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (moby/docker-style) healthCheck() starts one goroutine per probe, each sending its
//   result on an unbuffered error channel; the collector returns on the first non-nil error,
//   leaving the remaining probes blocked on their sends (a leak, interleaving-dependent)

package main

import (
	"errors"
	"fmt"
)

func check(name string) error {
	if name == "disk" {
		return errors.New("disk: no space left")
	}
	return nil
}

func healthCheck(names []string) error {
	errc := make(chan error) // BUG: unbuffered
	for _, n := range names {
		go func(n string) {
			errc <- check(n)
		}(n)
	}
	for range names {
		if err := <-errc; err != nil {
			return fmt.Errorf("health check: %w", err)
		}
	}
	return nil
}

func main() {
	err := healthCheck([]string{"disk", "net", "mem"})
	fmt.Println(err)
}
