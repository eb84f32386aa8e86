// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: STDIN "120\n45\nabc\n300"), in the style of a bulk-upload CLI with a progress-reporter goroutine
// what: the reporter goroutine runs until done is closed, but done is only closed at the end of
//   upload(); the early `return err` on the first invalid size skips the close, so the
//   reporter stays blocked in its select for ever after main returns. Leak only when some
//   stdin line is not a number.
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
	for _, l := range lines {
		kb, err := strconv.Atoi(l)
		if err != nil {
			return fmt.Errorf("bad size %q: %w", l, err)
		}
		p.updates <- kb
	}
	close(p.done)
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
