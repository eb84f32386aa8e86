// want: ok
// source: written for chanfuzz as a held-out probe of test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed version closes each subtest's input in a t.Cleanup, which runs when the
//   subtest returns, fails or skips (after the Goexit of t.Skip too), and reads exactly as
//   many words as it sent: every worker ends

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
			t.Cleanup(func() { close(in) })
			if len(tc.words) == 0 {
				t.Skip("nothing to convert")
			}
			for _, w := range tc.words {
				in <- w
			}
			got := make([]string, 0, len(tc.words))
			for range tc.words {
				got = append(got, <-out)
			}
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("upper(%q) = %q, want %q", tc.words, s, tc.want)
			}
		})
	}
}
