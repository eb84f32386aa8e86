// want: ok
// source: written for chanfuzz as a probe (round 13, iter.Pull; run and confirmed, see docs/gocheck-report.md)
// what: two Pull2 iterators advanced in step; both stopped; next after the end keeps
//   answering false

package main

import (
	"fmt"
	"iter"
)

func pairs(keys []string, base int) iter.Seq2[string, int] {
	return func(yield func(string, int) bool) {
		for i, k := range keys {
			if !yield(k, base+i) {
				return
			}
		}
	}
}

func main() {
	na, sa := iter.Pull2(pairs([]string{"a", "b", "c"}, 0))
	defer sa()
	nb, sb := iter.Pull2(pairs([]string{"a", "c"}, 100))
	defer sb()
	ka, va, oka := na()
	kb, vb, okb := nb()
	for oka && okb {
		switch {
		case ka == kb:
			fmt.Println(ka, va, vb)
			ka, va, oka = na()
			kb, vb, okb = nb()
		case ka < kb:
			ka, va, oka = na()
		default:
			kb, vb, okb = nb()
		}
	}
	_, _, again := nb()
	fmt.Println(again)
}
