// want: channel-safety
// source: a read-through cache that drops its lock while loading, a common hand-rolled pattern, written for this set
// what: the load-error branch unlocks explicitly and the deferred Unlock runs again,
//   unlocking an unlocked mutex ("fatal error: sync: unlock of unlocked mutex").

package loader

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

type Cache struct {
	mu    sync.Mutex
	m     map[string]string
	load  func(string) (string, error)
	loads int
}

func New(load func(string) (string, error)) *Cache {
	return &Cache{m: map[string]string{}, load: load}
}

func (c *Cache) Get(key string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[key]; ok {
		return v, nil
	}
	// Do not hold the lock during a slow load.
	c.mu.Unlock()
	v, err := c.load(key)
	c.mu.Lock()
	c.loads++
	if err != nil {
		c.mu.Unlock()
		return "", fmt.Errorf("load %q: %w", key, err)
	}
	c.m[key] = v
	return v, nil
}

var errNotFound = errors.New("not found")

func TestCacheGet(t *testing.T) {
	load := func(k string) (string, error) {
		if k == "missing" {
			return "", errNotFound
		}
		return "v-" + k, nil
	}
	tests := []struct {
		key     string
		want    string
		wantErr error
	}{
		{"a", "v-a", nil},
		{"a", "v-a", nil},
		{"b", "v-b", nil},
		{"missing", "", errNotFound},
	}
	c := New(load)
	for _, tc := range tests {
		t.Run(tc.key, func(t *testing.T) {
			got, err := c.Get(tc.key)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Get(%q) err = %v, want %v", tc.key, err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("Get(%q) = %q, want %q", tc.key, got, tc.want)
			}
		})
	}
}

func TestCacheConcurrent(t *testing.T) {
	c := New(func(k string) (string, error) { return k, nil })
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Get("shared"); err != nil {
				t.Errorf("Get: %v", err)
			}
		}()
	}
	wg.Wait()
}
