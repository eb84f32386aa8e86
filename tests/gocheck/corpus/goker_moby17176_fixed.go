// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/moby/17176 the fix of moby/moby PR 17176 (unlock on the early return) and a buffered done channel; rewritten as package main
// what: the early return unlocks, and doneChan has room for the goroutine's report even if
//   main's timeout fires first

package main

import (
	"errors"
	"sync"
	"time"
)

type DeviceSet struct {
	sync.Mutex
	nrDeletedDevices int
}

func (devices *DeviceSet) cleanupDeletedDevices() error {
	devices.Lock()
	if devices.nrDeletedDevices == 0 {
		devices.Unlock()
		return nil
	}
	devices.Unlock()
	return errors.New("error")
}

func main() {
	ds := &DeviceSet{}
	ds.cleanupDeletedDevices()
	doneChan := make(chan bool, 1)
	go func() {
		ds.Lock()
		defer ds.Unlock()
		doneChan <- true
	}()
	select {
	case <-time.After(time.Millisecond):
	case <-doneChan:
	}
}
