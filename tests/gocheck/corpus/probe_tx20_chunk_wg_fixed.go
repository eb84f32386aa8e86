// want: ok
// source: chunked parallel processing with a precomputed WaitGroup count, fixed version, written for this set
// what: Add uses the rounded-up chunk count, matching the one goroutine started
//   per chunk, so Wait returns after every chunk is summed.

package chunk

import (
	"sync"
	"testing"
)

// Sum adds items in parallel, one goroutine per chunk of size items.
func Sum(items []int, size int) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	wg.Add((len(items) + size - 1) / size)
	for start := 0; start < len(items); start += size {
		end := min(start+size, len(items))
		go func(part []int) {
			defer wg.Done()
			s := 0
			for _, v := range part {
				s += v
			}
			mu.Lock()
			total += s
			mu.Unlock()
		}(items[start:end])
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return total
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

func TestSum(t *testing.T) {
	tests := []struct {
		name  string
		items []int
		size  int
	}{
		{"even", seq(4), 2},
		{"odd", seq(5), 2},
		{"one chunk", seq(3), 8},
		{"singletons", seq(3), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := len(tc.items) * (len(tc.items) + 1) / 2
			if got := Sum(tc.items, tc.size); got != want {
				t.Errorf("Sum = %d, want %d", got, want)
			}
		})
	}
}
