// want: global-deadlock
// source: written for chanfuzz as a held-out probe of service code (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a hugo-style site build: a bufio.Scanner reads the content index, main feeds page paths
//   to a pool of min(NumCPU, 4) render workers that range over the pages channel, then calls
//   wg.Wait() before close(pages): the workers wait for more pages and main waits for the workers,
//   so every goroutine is blocked (in every interleaving)

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
)

const contentIndex = `# content/
/index.md
/about.md
/posts/first.md

/posts/second.md
/posts/third.md
# drafts are skipped
/docs/install.md
/docs/config.md
`

type page struct {
	path  string
	words int
	html  string
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func render(path string) page {
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	buf.Reset()
	title := strings.TrimSuffix(path[strings.LastIndex(path, "/")+1:], ".md")
	buf.WriteString("<h1>")
	buf.WriteString(strings.ToUpper(title[:1]) + title[1:])
	buf.WriteString("</h1>")
	return page{path: path, words: len(strings.Fields(title)), html: buf.String()}
}

func main() {
	numWorkers := min(runtime.NumCPU(), 4)
	pages := make(chan string)
	results := make(chan page, 16)

	var wg sync.WaitGroup
	for i := 0; i < numWorkers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range pages {
				results <- render(p)
			}
		}()
	}

	sc := bufio.NewScanner(strings.NewReader(contentIndex))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		pages <- line
	}
	if err := sc.Err(); err != nil {
		fmt.Println("reading index:", err)
	}
	wg.Wait() // BUG: the workers only return once pages is closed
	close(pages)
	close(results)

	var site []page
	for p := range results {
		site = append(site, p)
	}
	sort.Slice(site, func(i, j int) bool { return site[i].path < site[j].path })
	for _, p := range site {
		fmt.Println(p.path, p.html)
	}
}
