// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: STDIN "120\n45\nabc\n300"), in the style of a bulk-upload CLI with a progress-reporter goroutine
// what: fixed twin of h4_progress: done is closed with defer, so the reporter is stopped on the
//   error path too; no goroutine outlives main, whatever the input.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

type progress struct {
	updates chan int
	done    chan struct{}
}

func (p *progress) report() {
	total := 0
	for {
		select {
		case n := <-p.updates:
			total += n
			fmt.Fprintf(os.Stderr, "\ruploaded %d KiB", total)
		case <-p.done:
			fmt.Fprintln(os.Stderr)
			return
		}
	}
}

func upload(lines []string) error {
	p := &progress{updates: make(chan int), done: make(chan struct{})}
	go p.report()
	defer close(p.done)
	for _, l := range lines {
		kb, err := strconv.Atoi(l)
		if err != nil {
			return fmt.Errorf("bad size %q: %w", l, err)
		}
		p.updates <- kb
	}
	return nil
}

func main() {
	var lines []string
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := upload(lines); err != nil {
		fmt.Println("upload failed:", err)
		return
	}
	fmt.Println("upload complete")
}
