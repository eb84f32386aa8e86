// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/moby/36114 the fix of moby/moby PR 36114 (a locked variant of the callee); rewritten as package main
// what: hotAddVHDsAtStart() calls hotRemoveVHDsAtStartLocked(), which expects the lock to
//   be held and does not take it again; main waits for the goroutine

package main

import "sync"

type serviceVM struct {
	sync.Mutex
}

func (svm *serviceVM) hotAddVHDsAtStart() {
	svm.Lock()
	defer svm.Unlock()
	svm.hotRemoveVHDsAtStartLocked()
}

func (svm *serviceVM) hotRemoveVHDsAtStartLocked() {}

func main() {
	s := &serviceVM{}
	done := make(chan bool)
	go func() {
		s.hotAddVHDsAtStart()
		done <- true
	}()
	<-done
}
