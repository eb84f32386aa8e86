// want: ok
// source: written for chanfuzz as a held-out probe of third-party concurrency modules (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed twin of the image batch job: the tasks go to a conc result pool capped at three
//   goroutines, which collects each task's return value itself, so no task waits on a reader
//   and Wait hands back all six results once the last task is done.

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

	p := pool.NewWithResults[resized]().WithMaxGoroutines(3)
	for _, img := range images {
		p.Go(func() resized {
			return resize(img, 320)
		})
	}

	done := p.Wait()
	for _, r := range done {
		if r.width != 320 {
			fmt.Println("unexpected width for", r.name)
		}
	}
	fmt.Println("resized", len(done), "images")
}
