// want: partial-deadlock
// source: pattern of many Go bug-fix commits ("fix goroutine leak on error path")
// what: fetchProfile starts a goroutine that sends the avatar on an unbuffered channel, then
//   returns early when validation fails without receiving; that goroutine blocks for ever.
package main

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

type profile struct {
	name   string
	avatar []byte
}

func loadAvatar(user string) []byte {
	time.Sleep(time.Millisecond) // simulated I/O
	return []byte("png:" + user)
}

func fetchProfile(user string) (*profile, error) {
	avatarc := make(chan []byte)
	go func() {
		avatarc <- loadAvatar(user)
	}()
	if strings.ContainsAny(user, " /") {
		return nil, errors.New("invalid user name " + user)
	}
	return &profile{name: user, avatar: <-avatarc}, nil
}

func main() {
	for _, u := range []string{"alice", "bob smith", "carol"} {
		p, err := fetchProfile(u)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Printf("%s: %d bytes of avatar\n", p.name, len(p.avatar))
	}
}
