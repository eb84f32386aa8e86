// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ARGS left-pad lodash left-pad react), in the style of a package downloader that expects one result per distinct package
// what: fixed twin of h4_dedupclose: a goroutine is started only once per distinct package
//   (iterating the set), so exactly len(want) sends match main's len(want) receives before
//   close.
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
	for p := range want {
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
