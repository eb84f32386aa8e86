// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a table-driven test starts an upper() worker in each t.Run subtest; the "empty" case
//   calls t.Skip before close(in), and t.Skip ends the subtest through runtime.Goexit, so
//   that case's worker stays blocked for ever ranging over its input (a leak)

package textpipe

import (
	"strings"
	"testing"
)

// upper sends the upper-case form of each word it reads from in, then closes out.
func upper(in <-chan string, out chan<- string) {
	defer close(out)
	for w := range in {
		out <- strings.ToUpper(w)
	}
}

// startUpper starts an upper worker whose output can hold n words.
func startUpper(n int) (chan<- string, <-chan string) {
	in, out := make(chan string), make(chan string, n)
	go upper(in, out)
	return in, out
}

func TestUpper(t *testing.T) {
	tests := []struct {
		name  string
		words []string
		want  string
	}{
		{"one", []string{"go"}, "GO"},
		{"two", []string{"chan", "select"}, "CHAN SELECT"},
		{"empty", nil, ""},
		{"mixed", []string{"Wait", "group"}, "WAIT GROUP"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in, out := startUpper(len(tc.words))
			if len(tc.words) == 0 {
				t.Skip("nothing to convert")
			}
			for _, w := range tc.words {
				in <- w
			}
			close(in)
			var got []string
			for w := range out {
				got = append(got, w)
			}
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("upper(%q) = %q, want %q", tc.words, s, tc.want)
			}
		})
	}
}
