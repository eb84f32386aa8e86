// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of merging two informer watch streams with the nil-channel select idiom
// what: the merge loop disables each watch channel by setting it to nil when it closes, but the loop
//   has no exit condition; after both streams end it blocks for ever in a select over two nil channels.
package main

import (
	"fmt"
	"sort"
	"strings"
)

type EventType string

const (
	Added    EventType = "ADDED"
	Modified EventType = "MODIFIED"
	Deleted  EventType = "DELETED"
)

type WatchEvent struct {
	Type EventType
	Kind string
	Name string
}

func watch(kind string, names []string) <-chan WatchEvent {
	ch := make(chan WatchEvent)
	go func() {
		defer close(ch)
		for i, n := range names {
			t := Added
			if i%3 == 2 {
				t = Deleted
			}
			ch <- WatchEvent{Type: t, Kind: kind, Name: n}
		}
	}()
	return ch
}

type Store struct {
	objects map[string]bool
	events  int
}

func (s *Store) apply(e WatchEvent) {
	s.events++
	key := strings.ToLower(e.Kind) + "/" + e.Name
	if e.Type == Deleted {
		delete(s.objects, key)
		return
	}
	s.objects[key] = true
}

func syncBoth(pods, services <-chan WatchEvent, s *Store) {
	for {
		select {
		case e, ok := <-pods:
			if !ok {
				pods = nil
				continue
			}
			s.apply(e)
		case e, ok := <-services:
			if !ok {
				services = nil
				continue
			}
			s.apply(e)
		}
	}
}

func main() {
	s := &Store{objects: make(map[string]bool)}
	pods := watch("Pod", []string{"web-0", "web-1", "web-0", "db-0"})
	services := watch("Service", []string{"web", "db"})
	syncBoth(pods, services, s)

	keys := make([]string, 0, len(s.objects))
	for k := range s.objects {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println(s.events, "events:", keys)
}
