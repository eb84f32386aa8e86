// want: partial-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/moby/17176 (moby/moby PR 17176); rewritten as package main
// what: cleanupDeletedDevices() returns early without unlocking the device set; the goroutine
//   that then locks it blocks for ever, and main gives up after a timeout and returns

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
		return nil // the lock is kept
	}
	devices.Unlock()
	return errors.New("error")
}

func main() {
	ds := &DeviceSet{}
	ds.cleanupDeletedDevices()
	doneChan := make(chan bool)
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
