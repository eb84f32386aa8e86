// want: ok
// source: a lease keeper that renews a lock on a heartbeat, in the style of etcd/consul session keepers, written for this set
// what: the keeper renews on a ticker until its context is cancelled or a renewal
//   fails; Stop cancels and waits. Tests run in synctest bubbles with fake time.

package lease

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

type Keeper struct {
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	renews int
	lost   error
}

func Keep(ctx context.Context, every time.Duration, renew func(context.Context) error) *Keeper {
	ctx, cancel := context.WithCancel(ctx)
	k := &Keeper{cancel: cancel, done: make(chan struct{})}
	go k.loop(ctx, every, renew)
	return k
}

func (k *Keeper) loop(ctx context.Context, every time.Duration, renew func(context.Context) error) {
	defer close(k.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := renew(ctx); err != nil {
				k.mu.Lock()
				k.lost = err
				k.mu.Unlock()
				return
			}
			k.mu.Lock()
			k.renews++
			k.mu.Unlock()
		}
	}
}

func (k *Keeper) Stop() (renews int, lost error) {
	k.cancel()
	<-k.done
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.renews, k.lost
}

var errExpired = errors.New("lease expired")

func TestKeeper(t *testing.T) {
	tests := []struct {
		name       string
		failAfter  int
		run        time.Duration
		wantRenews int
		wantLost   bool
	}{
		{"healthy", -1, 35 * time.Second, 3, false},
		{"expires", 2, time.Minute, 2, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				n := 0
				renew := func(context.Context) error {
					if tc.failAfter >= 0 && n >= tc.failAfter {
						return errExpired
					}
					n++
					return nil
				}
				k := Keep(t.Context(), 10*time.Second, renew)
				time.Sleep(tc.run)
				synctest.Wait()
				renews, lost := k.Stop()
				if renews != tc.wantRenews {
					t.Errorf("renews = %d, want %d", renews, tc.wantRenews)
				}
				if (lost != nil) != tc.wantLost {
					t.Errorf("lost = %v, wantLost %v", lost, tc.wantLost)
				}
			})
		})
	}
}
