// want: global-deadlock
// source: written for chanfuzz as a held-out probe of real-world bug kernels (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: (syncthing-style) a folder's scan holds the folder lock and reports to the model, which
//   takes the model lock; the model's summary holds the model lock and asks each folder for its
//   count, which takes the folder lock: opposite lock orders (AB-BA), so when the scanner and
//   main's summary overlap both block (interleaving-dependent)

package main

import (
	"fmt"
	"sync"
)

type folder struct {
	mu    sync.Mutex
	id    string
	files int
	model *model
}

type model struct {
	mu      sync.Mutex
	folders map[string]*folder
	updates int
}

func (f *folder) scan() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files++
	f.model.folderUpdated(f.id) // BUG: calls into the model with the folder lock held
}

func (f *folder) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.files
}

func (m *model) folderUpdated(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.updates++
}

func (m *model) summary() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, f := range m.folders {
		n += f.count()
	}
	return n
}

func main() {
	m := &model{folders: make(map[string]*folder)}
	f := &folder{id: "default", model: m}
	m.folders[f.id] = f
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		f.scan()
	}()
	fmt.Println("files:", m.summary())
	wg.Wait()
}
