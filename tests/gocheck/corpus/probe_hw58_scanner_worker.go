// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a line-oriented importer: bufio.Scanner feeding a parser goroutine
// what: the single parser goroutine returns on the first malformed line (strconv.Atoi error),
//   so the scanner loop in main blocks for ever sending the next line
package main

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
)

func main() {
	input := "id,qty\n1,5\n2,x\n3,7\n"
	lines := make(chan string)
	errc := make(chan error, 1)
	total := 0
	go func() {
		defer close(errc)
		for l := range lines {
			_, qty, _ := strings.Cut(l, ",")
			n, err := strconv.Atoi(qty)
			if err != nil {
				errc <- fmt.Errorf("line %q: %w", l, err)
				return // BUG: stops reading lines; the sender is not told
			}
			total += n
		}
	}()
	sc := bufio.NewScanner(strings.NewReader(input))
	sc.Scan() // header
	for sc.Scan() {
		lines <- sc.Text()
	}
	close(lines)
	if err := <-errc; err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("total", total)
}
