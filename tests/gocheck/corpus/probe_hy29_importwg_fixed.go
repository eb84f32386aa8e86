// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: STDIN "name=alice\nage=31\ngarbage\ncity=oslo"), in the style of a CSV-ish importer that parses stdin rows concurrently
// what: fixed twin of h4_importwg: the error path just returns and relies on the deferred
//   wg.Done(), so each row goroutine calls Done exactly once and wg.Wait returns for any
//   input.
package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
)

type record struct {
	mu     sync.Mutex
	fields map[string]string
	errs   []string
}

func (r *record) parseRow(row string, wg *sync.WaitGroup) {
	defer wg.Done()
	k, v, ok := strings.Cut(row, "=")
	if !ok {
		r.mu.Lock()
		r.errs = append(r.errs, "malformed: "+row)
		r.mu.Unlock()
		return
	}
	r.mu.Lock()
	r.fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
	r.mu.Unlock()
}

func main() {
	var rows []string
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		rows = append(rows, sc.Text())
	}
	rec := &record{fields: map[string]string{}}
	var wg sync.WaitGroup
	wg.Add(len(rows))
	for _, row := range rows {
		go rec.parseRow(row, &wg)
	}
	wg.Wait()
	keys := make([]string, 0, len(rec.fields))
	for k := range rec.fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%s=%s\n", k, rec.fields[k])
	}
	for _, e := range rec.errs {
		fmt.Println("error:", e)
	}
}
