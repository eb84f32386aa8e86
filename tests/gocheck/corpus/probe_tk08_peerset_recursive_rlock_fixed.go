// want: ok
// source: written for chanfuzz as a held-out probe of bug kernels as test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fix of probe_tk08_peerset_recursive_rlock (go-ethereum-style peerSet): BestPeer
//   reads len(ps.peers) under the read lock it already holds instead of calling Len

package eth

import (
	"sync"
	"testing"
)

type headInfo struct {
	td   uint64
	head uint64
}

// ethPeer is served by a goroutine of its own that owns its head.
type ethPeer struct {
	id     int
	headCh chan chan headInfo
	setCh  chan headInfo
	quit   chan struct{}
}

func newEthPeer(id int, td, head uint64) *ethPeer {
	p := &ethPeer{
		id:     id,
		headCh: make(chan chan headInfo),
		setCh:  make(chan headInfo),
		quit:   make(chan struct{}),
	}
	go p.loop(headInfo{td: td, head: head})
	return p
}

func (p *ethPeer) loop(h headInfo) {
	for {
		select {
		case reply := <-p.headCh:
			reply <- h
		case nh := <-p.setCh:
			h = nh
		case <-p.quit:
			return
		}
	}
}

func (p *ethPeer) Head() (uint64, uint64) {
	reply := make(chan headInfo, 1)
	select {
	case p.headCh <- reply:
		h := <-reply
		return h.td, h.head
	case <-p.quit:
		return 0, 0
	}
}

func (p *ethPeer) Close() { close(p.quit) }

type peerSet struct {
	lock   sync.RWMutex
	peers  map[int]*ethPeer
	closed bool
}

func newPeerSet() *peerSet {
	return &peerSet{peers: map[int]*ethPeer{}}
}

func (ps *peerSet) Register(p *ethPeer) bool {
	ps.lock.Lock()
	defer ps.lock.Unlock()
	if ps.closed {
		return false
	}
	ps.peers[p.id] = p
	return true
}

func (ps *peerSet) Unregister(id int) {
	ps.lock.Lock()
	defer ps.lock.Unlock()
	if p, ok := ps.peers[id]; ok {
		p.Close()
		delete(ps.peers, id)
	}
}

func (ps *peerSet) Len() int {
	ps.lock.RLock()
	defer ps.lock.RUnlock()
	return len(ps.peers)
}

// BestPeer returns the peer with the highest total difficulty.
func (ps *peerSet) BestPeer() (*ethPeer, int) {
	ps.lock.RLock()
	defer ps.lock.RUnlock()
	var best *ethPeer
	var bestTd uint64
	for _, p := range ps.peers {
		if td, _ := p.Head(); best == nil || td > bestTd {
			best, bestTd = p, td
		}
	}
	return best, len(ps.peers)
}

func (ps *peerSet) Close() {
	ps.lock.Lock()
	defer ps.lock.Unlock()
	for _, p := range ps.peers {
		p.Close()
	}
	ps.closed = true
}

type syncer struct {
	ps     *peerSet
	synced int
}

func (s *syncer) run(rounds int) {
	for i := 0; i < rounds; i++ {
		if best, n := s.ps.BestPeer(); best != nil && n > 0 {
			if _, head := best.Head(); head > 0 {
				s.synced++
			}
		}
	}
}

func TestPeerSetSync(t *testing.T) {
	ps := newPeerSet()
	for i := 0; i < 4; i++ {
		ps.Register(newEthPeer(i, uint64(100+i), uint64(10+i)))
	}
	var wg sync.WaitGroup
	syncers := make([]*syncer, 10)
	for i := range syncers {
		syncers[i] = &syncer{ps: ps}
		wg.Add(1)
		go func(s *syncer) {
			defer wg.Done()
			s.run(50)
		}(syncers[i])
	}
	wg.Add(1)
	go func() { // peers come and go while the syncers look for the best one
		defer wg.Done()
		for i := 4; i < 54; i++ {
			ps.Register(newEthPeer(i, uint64(100+i), uint64(10+i)))
			ps.Unregister(i - 4)
		}
	}()
	wg.Wait()
	if n := ps.Len(); n != 4 {
		t.Errorf("%d peers, want 4", n)
	}
	ps.Close()
}
