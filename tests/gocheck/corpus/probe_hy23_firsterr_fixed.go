// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ARGS bad-api.yaml web.yaml worker.yaml), in the style of a deploy tool that validates every manifest in os.Args concurrently
// what: fixed twin of h4_firsterr: errc is buffered with len(manifests), so the checkers that
//   finish after main has returned on the first error can still deposit their result and
//   exit; nothing stays blocked.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

func validate(manifest string) error {
	if strings.Contains(manifest, "bad") {
		return errors.New("missing apiVersion")
	}
	time.Sleep(2 * time.Millisecond)
	if !strings.HasSuffix(manifest, ".yaml") {
		return fmt.Errorf("unsupported extension")
	}
	return nil
}

func validateAll(manifests []string) error {
	errc := make(chan error, len(manifests))
	for _, m := range manifests {
		go func(m string) {
			if err := validate(m); err != nil {
				errc <- fmt.Errorf("%s: %w", m, err)
				return
			}
			errc <- nil
		}(m)
	}
	for range manifests {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

func main() {
	manifests := os.Args[1:]
	if err := validateAll(manifests); err != nil {
		fmt.Println("validation failed:", err)
		return
	}
	fmt.Printf("%d manifests valid\n", len(manifests))
}
