// want: ok
// source: parallel subtests waiting on a fixture, fixed version, written for this set
// what: the loader closes ready itself once the store is filled, so the parallel
//   subtests (which start after the parent body returns) can all proceed.

package fixture

import (
	"strings"
	"sync"
	"testing"
)

type Store struct {
	mu   sync.Mutex
	data map[string]string
}

func NewStore() *Store { return &Store{data: map[string]string{}} }

func (s *Store) Put(k, v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data[k] = v
}

func (s *Store) Get(k string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.data[k]
	return v, ok
}

func TestStoreLookups(t *testing.T) {
	s := NewStore()
	ready := make(chan struct{})
	go func() {
		defer close(ready)
		for _, k := range []string{"a", "b", "c"} {
			s.Put(k, strings.ToUpper(k))
		}
	}()

	cases := []struct {
		key  string
		want string
	}{
		{"a", "A"},
		{"b", "B"},
		{"c", "C"},
	}
	for _, tc := range cases {
		t.Run(tc.key, func(t *testing.T) {
			t.Parallel()
			<-ready
			got, ok := s.Get(tc.key)
			if !ok || got != tc.want {
				t.Errorf("Get(%q) = %q, %v; want %q", tc.key, got, ok, tc.want)
			}
		})
	}
}
