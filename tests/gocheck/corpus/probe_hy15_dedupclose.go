// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ARGS left-pad lodash left-pad react), in the style of a package downloader that expects one result per distinct package
// what: a download goroutine is started for every argument, duplicates included, but main only
//   receives len(distinct) results and then closes the results channel; the goroutine of a
//   duplicate is still sending and panics with "send on closed channel" (main waits for the
//   downloaders afterwards). Needs a duplicate argument.
package main

import (
	"fmt"
	"os"
	"sync"
)

type download struct {
	pkg  string
	size int
}

func fetch(pkg string, out chan<- download, wg *sync.WaitGroup) {
	defer wg.Done()
	out <- download{pkg: pkg, size: 1024 * len(pkg)}
}

func distinct(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func main() {
	pkgs := os.Args[1:]
	want := distinct(pkgs)
	out := make(chan download)
	var wg sync.WaitGroup
	for _, p := range pkgs {
		wg.Add(1)
		go fetch(p, out, &wg)
	}
	total := 0
	for i := 0; i < len(want); i++ {
		d := <-out
		total += d.size
	}
	close(out)
	wg.Wait()
	fmt.Printf("%d packages, %d bytes\n", len(want), total)
}
