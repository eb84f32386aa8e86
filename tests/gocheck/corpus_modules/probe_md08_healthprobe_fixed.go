// want: ok
// source: written for chanfuzz as a held-out probe of third-party concurrency modules (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed twin of the health checker: the degraded channel is closed through a sync.Once, so
//   however many probes fail and however they interleave, it is closed exactly once and the
//   conc.WaitGroup has no panic to re-raise.

package health

import (
	"sync"
	"testing"

	"github.com/sourcegraph/conc"
)

type Checker struct {
	degraded  chan struct{} // closed when the first dependency fails
	closeOnce sync.Once
	failures  map[string]bool
}

func NewChecker(deps []string) *Checker {
	c := &Checker{degraded: make(chan struct{}), failures: make(map[string]bool)}
	for _, d := range deps {
		c.failures[d] = false
	}
	return c
}

// probe stands in for a ping of one dependency.
func probe(dep string) bool {
	return dep != "cache" && dep != "search"
}

func (c *Checker) markDegraded() {
	c.closeOnce.Do(func() { close(c.degraded) })
}

func (c *Checker) Run(deps []string) {
	var wg conc.WaitGroup
	for _, d := range deps {
		wg.Go(func() {
			if !probe(d) {
				c.markDegraded()
			}
		})
	}
	wg.Wait()
}

func TestCheckerReportsDegraded(t *testing.T) {
	deps := []string{"postgres", "cache", "search", "queue"}
	c := NewChecker(deps)
	c.Run(deps)
	select {
	case <-c.degraded:
	default:
		t.Fatal("expected the checker to report degraded")
	}
}
