// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb17: the error channel has room for every probe, so no probe blocks

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
	errc := make(chan error, len(names))
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
