// want: channel-safety
// source: written for chanfuzz as a held-out probe of third-party concurrency modules (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a health checker probes four dependencies in a conc.WaitGroup and signals "degraded" by closing
//   a channel once. The close-once guard is a check-then-close select, which is not atomic: when two
//   probes fail at the same moment both see the channel open and both close it (a panic that the
//   WaitGroup re-raises from Wait). Only interleavings with the two checks before either close fail.

package health

import (
	"testing"

	"github.com/sourcegraph/conc"
)

type Checker struct {
	degraded chan struct{} // closed when the first dependency fails
	failures map[string]bool
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
	select {
	case <-c.degraded:
		// someone already raised the alarm
	default:
		close(c.degraded)
	}
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
