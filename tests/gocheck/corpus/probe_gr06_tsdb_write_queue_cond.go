// want: global-deadlock
// source: written for chanfuzz as a held-out probe (round 13, real blocking bugs in Go projects), modelled on prometheus tsdb/chunks chunkWriteQueue + writeJobQueue (sync.Cond push/pop)
// what: writeJobQueue.close sets closed but forgets pushed.Broadcast(); the chunk-writer worker,
//
//	idle in pop() waiting on the pushed Cond, is never woken, and stop() blocks in wg.Wait for
//	it: main and the worker both blocked for ever.
package main

import (
	"errors"
	"fmt"
	"sync"
)

type chunkWriteJob struct {
	seriesRef uint64
	mint      int64
	maxt      int64
	data      []byte
	callback  func(error)
}

type writeJobQueue struct {
	mtx     sync.Mutex
	pushed  *sync.Cond
	popped  *sync.Cond
	jobs    []chunkWriteJob
	maxSize int
	closed  bool
}

func newWriteJobQueue(maxSize int) *writeJobQueue {
	q := &writeJobQueue{maxSize: maxSize}
	q.pushed = sync.NewCond(&q.mtx)
	q.popped = sync.NewCond(&q.mtx)
	return q
}

func (q *writeJobQueue) push(job chunkWriteJob) bool {
	q.mtx.Lock()
	defer q.mtx.Unlock()
	for len(q.jobs) >= q.maxSize && !q.closed {
		q.popped.Wait()
	}
	if q.closed {
		return false
	}
	q.jobs = append(q.jobs, job)
	q.pushed.Signal()
	return true
}

func (q *writeJobQueue) pop() (chunkWriteJob, bool) {
	q.mtx.Lock()
	defer q.mtx.Unlock()
	for len(q.jobs) == 0 && !q.closed {
		q.pushed.Wait()
	}
	if len(q.jobs) == 0 {
		return chunkWriteJob{}, false
	}
	job := q.jobs[0]
	q.jobs = q.jobs[1:]
	q.popped.Signal()
	return job, true
}

func (q *writeJobQueue) close() {
	q.mtx.Lock()
	defer q.mtx.Unlock()
	q.closed = true
	// BUG: missing q.pushed.Broadcast() / q.popped.Broadcast()
}

type chunkWriteQueue struct {
	jobs     *writeJobQueue
	workerWg sync.WaitGroup
	written  map[uint64]int
}

func newChunkWriteQueue(size int) *chunkWriteQueue {
	c := &chunkWriteQueue{jobs: newWriteJobQueue(size), written: make(map[uint64]int)}
	c.workerWg.Add(1)
	go func() {
		defer c.workerWg.Done()
		for {
			job, ok := c.jobs.pop()
			if !ok {
				return
			}
			c.written[job.seriesRef] += len(job.data)
			job.callback(nil)
		}
	}()
	return c
}

var errQueueClosed = errors.New("chunk write queue closed")

func (c *chunkWriteQueue) addJob(job chunkWriteJob) error {
	if !c.jobs.push(job) {
		return errQueueClosed
	}
	return nil
}

func (c *chunkWriteQueue) stop() {
	c.jobs.close()
	c.workerWg.Wait()
}

func main() {
	cwq := newChunkWriteQueue(2)
	done := make(chan error, 4)
	for ref := uint64(1); ref <= 4; ref++ {
		job := chunkWriteJob{seriesRef: ref % 2, mint: int64(ref) * 1000, maxt: int64(ref)*1000 + 999,
			data: []byte("xor-chunk"), callback: func(err error) { done <- err }}
		if err := cwq.addJob(job); err != nil {
			fmt.Println(err)
		}
	}
	for i := 0; i < 4; i++ {
		<-done // head compaction waits until every chunk is on disk
	}
	cwq.stop()
	fmt.Println("written:", cwq.written)
}
