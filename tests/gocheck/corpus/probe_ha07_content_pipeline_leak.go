// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a Hugo-like content pipeline (walk -> parse -> render) over unbuffered channels
// what: the build stops reading rendered pages at the first front-matter error and returns; the parse
//   stage stays blocked sending the next page and the walker stays blocked sending the next file.
package main

import (
	"errors"
	"fmt"
	"strings"
)

type File struct {
	Path string
	Body string
}

type Page struct {
	Title string
	HTML  string
	Err   error
}

var ErrFrontMatter = errors.New("invalid front matter")

func walk(files []File) <-chan File {
	out := make(chan File)
	go func() {
		defer close(out)
		for _, f := range files {
			out <- f
		}
	}()
	return out
}

func parse(in <-chan File) <-chan Page {
	out := make(chan Page)
	go func() {
		defer close(out)
		for f := range in {
			head, body, ok := strings.Cut(f.Body, "\n---\n")
			if !ok || !strings.HasPrefix(head, "title:") {
				out <- Page{Err: fmt.Errorf("%s: %w", f.Path, ErrFrontMatter)}
				continue
			}
			title := strings.TrimSpace(strings.TrimPrefix(head, "title:"))
			out <- Page{Title: title, HTML: "<p>" + body + "</p>"}
		}
	}()
	return out
}

func build(files []File) (int, error) {
	bytes := 0
	for p := range parse(walk(files)) {
		if p.Err != nil {
			return bytes, p.Err
		}
		bytes += len(p.HTML)
	}
	return bytes, nil
}

func main() {
	files := []File{
		{"content/_index.md", "title: Home\n---\nWelcome"},
		{"content/posts/draft.md", "draft: true\nWork in progress"},
		{"content/posts/release.md", "title: Release 1.2\n---\nNotes"},
		{"content/about.md", "title: About\n---\nUs"},
		{"content/contact.md", "title: Contact\n---\nMail"},
	}
	n, err := build(files)
	if err != nil {
		fmt.Println("build failed after", n, "bytes:", err)
		return
	}
	fmt.Println("built", n, "bytes")
}
