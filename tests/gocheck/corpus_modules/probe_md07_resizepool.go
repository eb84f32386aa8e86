// want: global-deadlock
// source: written for chanfuzz as a held-out probe of third-party concurrency modules (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: an image batch job submits six resize tasks to a conc pool capped at three goroutines; each
//   task reports on an unbuffered channel that main reads only after submitting everything. The
//   three workers block on their sends, so pool.Go for the fourth task waits for a free worker for
//   ever: every goroutine is asleep, whatever the schedule.

package main

import (
	"fmt"
	"strings"

	"github.com/sourcegraph/conc/pool"
)

type resized struct {
	name  string
	width int
}

// resize stands in for decoding and scaling one image.
func resize(name string, width int) resized {
	return resized{name: strings.Replace(name, ".png", fmt.Sprintf("_%d.png", width), 1), width: width}
}

func main() {
	images := []string{"hero.png", "avatar.png", "banner.png", "icon.png", "logo.png", "bg.png"}
	out := make(chan resized)

	p := pool.New().WithMaxGoroutines(3)
	for _, img := range images {
		p.Go(func() {
			out <- resize(img, 320)
		})
	}

	var done []resized
	for range images {
		done = append(done, <-out)
	}
	p.Wait()
	fmt.Println("resized", len(done), "images")
}
