// want: partial-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/moby/36114 (moby/moby PR 36114); rewritten as package main
// what: hotAddVHDsAtStart() holds the service VM's mutex and calls hotRemoveVHDsAtStart(),
//   which locks it again: the goroutine blocks on itself for ever while main returns

package main

import "sync"

type serviceVM struct {
	sync.Mutex
}

func (svm *serviceVM) hotAddVHDsAtStart() {
	svm.Lock()
	defer svm.Unlock()
	svm.hotRemoveVHDsAtStart()
}

func (svm *serviceVM) hotRemoveVHDsAtStart() {
	svm.Lock()
	defer svm.Unlock()
}

func main() {
	s := &serviceVM{}
	go s.hotAddVHDsAtStart()
}
