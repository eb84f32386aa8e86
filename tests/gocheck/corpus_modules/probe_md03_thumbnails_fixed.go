// want: ok
// source: written for chanfuzz as a held-out probe of third-party concurrency modules (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed twin of the thumbnail renderer: Release is deferred first thing in every render
//   goroutine, so the skip path gives its unit back too and the closing Acquire of the full
//   weight succeeds once the last render has finished.

package main

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"golang.org/x/sync/semaphore"
)

const maxRenders = 2

type renderer struct {
	mu       sync.Mutex
	rendered []string
	skipped  []string
}

func (r *renderer) render(name string) {
	// pretend to decode, scale and encode
	r.mu.Lock()
	r.rendered = append(r.rendered, strings.TrimSuffix(name, ".jpg")+"_thumb.jpg")
	r.mu.Unlock()
}

func (r *renderer) renderAll(ctx context.Context, images []string) error {
	sem := semaphore.NewWeighted(maxRenders)
	for _, img := range images {
		if err := sem.Acquire(ctx, 1); err != nil {
			return err
		}
		go func(name string) {
			defer sem.Release(1)
			if !strings.HasSuffix(name, ".jpg") {
				r.mu.Lock()
				r.skipped = append(r.skipped, name)
				r.mu.Unlock()
				return // unsupported format
			}
			r.render(name)
		}(img)
	}
	// wait for the in-flight renders: holding the whole weight means none is left
	return sem.Acquire(ctx, maxRenders)
}

func main() {
	r := &renderer{}
	images := []string{"cat.jpg", "dog.jpg", "scan.bmp", "beach.jpg", "logo.jpg"}
	if err := r.renderAll(context.Background(), images); err != nil {
		fmt.Println("render:", err)
		return
	}
	fmt.Printf("rendered %d, skipped %d\n", len(r.rendered), len(r.skipped))
}
