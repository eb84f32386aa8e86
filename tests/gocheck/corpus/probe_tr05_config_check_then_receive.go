// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a config-loader package test (parse, check, then collect a watcher event)
// what: the test starts a watcher goroutine that reports a reload on an unbuffered channel, checks the parsed
//   port with t.Fatalf (which never fires: the literal config has port 8080), then receives the event

package config

import (
	"strconv"
	"strings"
	"testing"
)

type Config struct {
	Host string
	Port int
}

func Parse(text string) (Config, error) {
	var c Config
	for _, line := range strings.Split(text, "\n") {
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		switch strings.TrimSpace(key) {
		case "host":
			c.Host = strings.TrimSpace(val)
		case "port":
			p, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil {
				return c, err
			}
			c.Port = p
		}
	}
	return c, nil
}

func watch(reloads chan<- string) {
	reloads <- "config.ini"
}

func TestParseAndReload(t *testing.T) {
	reloads := make(chan string)
	go watch(reloads)
	c, err := Parse("host = localhost\nport = 8080")
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if c.Port != 8080 {
		t.Fatalf("Port = %d, want 8080", c.Port)
	}
	if name := <-reloads; name != "config.ini" {
		t.Errorf("reload of %q", name)
	}
}
