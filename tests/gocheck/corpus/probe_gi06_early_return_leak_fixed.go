// want: ok
// source: pattern of many Go bug-fix commits ("fix goroutine leak on error path"), fixed version
// what: validation happens before the goroutine is started, and the result channel has a buffer
//   of one, so the loader can always deliver and exit even if nobody reads.
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
	if strings.ContainsAny(user, " /") {
		return nil, errors.New("invalid user name " + user)
	}
	avatarc := make(chan []byte, 1)
	go func() {
		avatarc <- loadAvatar(user)
	}()
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
