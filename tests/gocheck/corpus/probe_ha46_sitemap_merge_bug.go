// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a Hugo-like site build merging rendered pages from several sections
// what: merge forwards every section's pages into one channel but nothing closes that channel when
//   the forwarders finish, so main's range over it blocks after the last page with no goroutine left.
package main

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
)

type Page struct {
	Section string
	Path    string
	Words   int
}

func renderSection(name string, files []string) <-chan Page {
	out := make(chan Page)
	go func() {
		defer close(out)
		for _, f := range files {
			slug := strings.TrimSuffix(path.Base(f), ".md")
			out <- Page{Section: name, Path: "/" + name + "/" + slug + "/", Words: len(f) * 37}
		}
	}()
	return out
}

// merge fans the sections' pages into one stream.
func merge(inputs ...<-chan Page) <-chan Page {
	out := make(chan Page)
	var wg sync.WaitGroup
	for _, in := range inputs {
		wg.Add(1)
		go func(in <-chan Page) {
			defer wg.Done()
			for p := range in {
				out <- p
			}
		}(in)
	}
	return out
}

type Sitemap struct {
	entries []string
	words   int
}

func (s *Sitemap) Add(p Page) {
	s.entries = append(s.entries, p.Path)
	s.words += p.Words
}

func main() {
	posts := renderSection("posts", []string{"content/posts/hello.md", "content/posts/go-1-26.md"})
	docs := renderSection("docs", []string{"content/docs/install.md", "content/docs/config.md", "content/docs/faq.md"})
	about := renderSection("about", []string{"content/about/team.md"})

	sm := &Sitemap{}
	for p := range merge(posts, docs, about) {
		sm.Add(p)
	}
	sort.Strings(sm.entries)
	fmt.Println(strings.Join(sm.entries, "\n"))
	fmt.Println("total words:", sm.words)
}
