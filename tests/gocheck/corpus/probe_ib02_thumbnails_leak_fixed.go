// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of The Go Programming Language (Donovan & Kernighan) 8.5, makeThumbnails5
// what: makeThumbnails5 starts one goroutine per file, each sending an item (file name and error)
//   on a channel buffered to len(filenames); the receiving loop still returns at the first
//   error, but every worker's send finds room in the buffer, so no goroutine is left blocked.

package main

import (
	"fmt"
	"strings"
	"time"
)

func thumbnailImageFile(infile string) (string, error) {
	if !strings.HasSuffix(infile, ".jpg") {
		return "", fmt.Errorf("%s: image: unknown format", infile)
	}
	time.Sleep(time.Millisecond)
	ext := ".jpg"
	return strings.TrimSuffix(infile, ext) + ".thumb" + ext, nil
}

// makeThumbnails5 makes thumbnails for the specified files in parallel.
// It returns the generated file names in an arbitrary order,
// or an error if any step failed.
func makeThumbnails5(filenames []string) (thumbfiles []string, err error) {
	type item struct {
		thumbfile string
		err       error
	}

	ch := make(chan item, len(filenames))
	for _, f := range filenames {
		go func(f string) {
			var it item
			it.thumbfile, it.err = thumbnailImageFile(f)
			ch <- it
		}(f)
	}

	for range filenames {
		it := <-ch
		if it.err != nil {
			return nil, it.err
		}
		thumbfiles = append(thumbfiles, it.thumbfile)
	}
	return thumbfiles, nil
}

func main() {
	files := []string{"a.jpg", "b.png", "c.jpg", "d.jpg", "e.jpg", "f.jpg"}
	if _, err := makeThumbnails5(files); err != nil {
		fmt.Println("makeThumbnails5:", err)
	}
	thumbs, err := makeThumbnails5([]string{"x.jpg", "y.jpg", "z.jpg"})
	fmt.Println(len(thumbs), err)
	time.Sleep(3 * time.Millisecond) // let the workers of the failed call finish their sends
}
