// want: channel-safety
// source: "fatal error: sync: unlock of unlocked mutex" from an explicit Unlock plus a deferred one
// what: Session.Refresh unlocks explicitly before its early return on an expired token, while a
//   deferred Unlock runs as well; the second Unlock is of an unlocked mutex.
package main

import (
	"fmt"
	"sync"
	"time"
)

type session struct {
	mu      sync.Mutex
	token   string
	expires time.Time
}

func (s *session) Refresh(now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.After(s.expires) {
		s.token = ""
		s.mu.Unlock() // left over from before the defer was added
		return fmt.Errorf("session expired at %s", s.expires.Format(time.TimeOnly))
	}
	s.expires = now.Add(time.Minute)
	return nil
}

func main() {
	now := time.Now()
	sessions := []*session{
		{token: "t1", expires: now.Add(time.Hour)},
		{token: "t2", expires: now.Add(-time.Hour)},
	}
	var wg sync.WaitGroup
	for _, s := range sessions {
		wg.Add(1)
		go func(s *session) {
			defer wg.Done()
			if err := s.Refresh(time.Now()); err != nil {
				fmt.Println("refresh:", err)
			}
		}(s)
	}
	wg.Wait()
}
