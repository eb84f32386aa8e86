// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of The Go Programming Language (Donovan & Kernighan) 8.5, makeThumbnails4
// what: makeThumbnails4 starts one goroutine per file, each sending its error on an unbuffered
//   channel; the loop in makeThumbnails4 returns at the first non-nil error (the bad file fails
//   at once, the others take a millisecond), so the remaining five senders block for ever on
//   `errors <- err` after main has returned.

package main

import (
	"fmt"
	"strings"
	"time"
)

// thumbnailImageFile fakes the thumbnail package: decoding fails at once for a file that is
// not a JPEG, and takes a millisecond otherwise.
func thumbnailImageFile(infile string) (string, error) {
	if !strings.HasSuffix(infile, ".jpg") {
		return "", fmt.Errorf("%s: image: unknown format", infile)
	}
	time.Sleep(time.Millisecond)
	ext := ".jpg"
	return strings.TrimSuffix(infile, ext) + ".thumb" + ext, nil
}

// makeThumbnails4 makes thumbnails for the specified files in parallel.
// It returns an error if any step failed.
func makeThumbnails4(filenames []string) error {
	errors := make(chan error)

	for _, f := range filenames {
		go func(f string) {
			_, err := thumbnailImageFile(f)
			errors <- err
		}(f)
	}

	for range filenames {
		if err := <-errors; err != nil {
			return err // NOTE: incorrect: goroutine leak!
		}
	}
	return nil
}

func main() {
	files := []string{"a.jpg", "b.png", "c.jpg", "d.jpg", "e.jpg", "f.jpg"}
	if err := makeThumbnails4(files); err != nil {
		fmt.Println("makeThumbnails4:", err)
		return
	}
	fmt.Println("all thumbnails made")
}
