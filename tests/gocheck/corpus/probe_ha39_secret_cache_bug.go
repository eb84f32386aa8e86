// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a kubelet secret/configmap cache shared by pod workers
// what: SecretCache.Get returns early on a malformed reference without unlocking its mutex; the pod
//   worker that hit it blocks on its next Get, the other workers block too, and main waits for ever.
package main

import (
	"fmt"
	"strings"
	"sync"
)

type entry struct {
	value   string
	version int
}

type SecretCache struct {
	mu      sync.Mutex
	entries map[string]entry
	hits    int
	misses  int
}

func NewSecretCache() *SecretCache {
	return &SecretCache{entries: make(map[string]entry)}
}

func loadSecret(ns, name string) string {
	return fmt.Sprintf("%s-%s-token", ns, strings.ToLower(name))
}

// Get returns the secret behind a "namespace/name" reference, loading it on a miss.
func (c *SecretCache) Get(ref string) (string, error) {
	c.mu.Lock()
	ns, name, ok := strings.Cut(ref, "/")
	if !ok || ns == "" || name == "" {
		return "", fmt.Errorf("invalid secret reference %q", ref)
	}
	e, found := c.entries[ref]
	if found {
		c.hits++
	} else {
		c.misses++
		e = entry{value: loadSecret(ns, name), version: 1}
		c.entries[ref] = e
	}
	c.mu.Unlock()
	return e.value, nil
}

type podWorker struct {
	pod  string
	refs []string
	errs []error
	env  map[string]string
}

func (w *podWorker) syncPod(cache *SecretCache) {
	w.env = make(map[string]string)
	for _, ref := range w.refs {
		v, err := cache.Get(ref)
		if err != nil {
			w.errs = append(w.errs, fmt.Errorf("pod %s: %w", w.pod, err))
			continue
		}
		w.env[ref] = v
	}
}

func main() {
	cache := NewSecretCache()
	workers := []*podWorker{
		{pod: "web-0", refs: []string{"default/db-creds", "default/api-key"}},
		{pod: "web-1", refs: []string{"default/db-creds", "default", "default/api-key"}},
		{pod: "dns-0", refs: []string{"kube-system/dns-tls"}},
	}
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func(w *podWorker) {
			defer wg.Done()
			w.syncPod(cache)
		}(w)
	}
	wg.Wait()
	for _, w := range workers {
		fmt.Println(w.pod, len(w.env), "secrets", len(w.errs), "errors")
	}
	fmt.Println("hits", cache.hits, "misses", cache.misses)
}
