// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a bounded-concurrency image processing job using a buffered channel as a semaphore
// what: one goroutine per image acquires a slot in a buffered semaphore channel before working and
//   releases it with defer; results go to per-index slots, errors are joined, and main waits on the WaitGroup.
package main

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

type Image struct {
	Name string
	W, H int
}

type Thumb struct {
	Name string
	Size string
}

var ErrUnsupported = errors.New("unsupported format")

func resize(img Image, maxEdge int) (Thumb, error) {
	switch strings.ToLower(path.Ext(img.Name)) {
	case ".jpg", ".jpeg", ".png":
	default:
		return Thumb{}, fmt.Errorf("%s: %w", img.Name, ErrUnsupported)
	}
	w, h := img.W, img.H
	if w >= h && w > maxEdge {
		h, w = h*maxEdge/w, maxEdge
	} else if h > w && h > maxEdge {
		w, h = w*maxEdge/h, maxEdge
	}
	return Thumb{Name: "thumb_" + img.Name, Size: strconv.Itoa(w) + "x" + strconv.Itoa(h)}, nil
}

type Processor struct {
	sem     chan struct{}
	active  atomic.Int32
	maxSeen atomic.Int32
}

func NewProcessor(limit int) *Processor {
	return &Processor{sem: make(chan struct{}, limit)}
}

func (p *Processor) track() func() {
	n := p.active.Add(1)
	for {
		m := p.maxSeen.Load()
		if n <= m || p.maxSeen.CompareAndSwap(m, n) {
			break
		}
	}
	return func() { p.active.Add(-1) }
}

func (p *Processor) Run(images []Image) ([]Thumb, error) {
	thumbs := make([]Thumb, len(images))
	errs := make([]error, len(images))
	var wg sync.WaitGroup
	for i, img := range images {
		wg.Add(1)
		go func(i int, img Image) {
			defer wg.Done()
			p.sem <- struct{}{}
			defer func() { <-p.sem }()
			done := p.track()
			defer done()
			thumbs[i], errs[i] = resize(img, 256)
		}(i, img)
	}
	wg.Wait()
	return thumbs, errors.Join(errs...)
}

func main() {
	p := NewProcessor(2)
	images := []Image{
		{"cat.jpg", 4032, 3024}, {"logo.png", 512, 512}, {"scan.tiff", 2480, 3508},
		{"banner.jpeg", 1920, 480}, {"icon.png", 64, 64},
	}
	thumbs, err := p.Run(images)
	for _, t := range thumbs {
		if t.Name != "" {
			fmt.Println(t.Name, t.Size)
		}
	}
	if errors.Is(err, ErrUnsupported) {
		fmt.Println("skipped:", err)
	}
	fmt.Println("max concurrent:", p.maxSeen.Load())
}
