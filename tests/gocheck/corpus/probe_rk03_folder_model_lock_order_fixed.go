// want: ok
// source: written for chanfuzz as a held-out probe of real-world bug kernels (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: fixed version of rk03: scan() updates its count under the folder lock and releases it
//   before reporting to the model, so no goroutine holds the folder lock while asking for the
//   model lock and the lock order is always model -> folder

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
	f.files++
	f.mu.Unlock()
	f.model.folderUpdated(f.id)
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
