// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of The Go Programming Language (Donovan & Kernighan) 8.5, makeThumbnails6 (a channel of file names, a WaitGroup and a closer goroutine)
// what: a producer goroutine sends file names on an unbuffered channel and closes it; main ranges
//   over it, starting one worker per file that sends the thumbnail size on sizes; a closer
//   goroutine waits on the WaitGroup and closes sizes, and main sums the sizes until it is closed.

package main

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

func thumbnailImageFile(infile string) (string, error) {
	time.Sleep(200 * time.Microsecond)
	if !strings.HasSuffix(infile, ".jpg") {
		return "", fmt.Errorf("%s: unknown format", infile)
	}
	return strings.TrimSuffix(infile, ".jpg") + ".thumb.jpg", nil
}

func fileSize(name string) int64 { return int64(100 * len(name)) }

// makeThumbnails6 makes thumbnails for each file received from the channel.
// It returns the number of bytes occupied by the files it creates.
func makeThumbnails6(filenames <-chan string) int64 {
	sizes := make(chan int64)
	var wg sync.WaitGroup // number of working goroutines
	for f := range filenames {
		wg.Add(1)
		// worker
		go func(f string) {
			defer wg.Done()
			thumb, err := thumbnailImageFile(f)
			if err != nil {
				fmt.Println(err)
				return
			}
			sizes <- fileSize(thumb)
		}(f)
	}

	// closer
	go func() {
		wg.Wait()
		close(sizes)
	}()

	var total int64
	for size := range sizes {
		total += size
	}
	return total
}

func main() {
	filenames := make(chan string)
	go func() {
		defer close(filenames)
		for i := 0; i < 16; i++ {
			ext := ".jpg"
			if i%5 == 4 {
				ext = ".gif"
			}
			filenames <- fmt.Sprintf("img%02d%s", i, ext)
		}
	}()
	fmt.Println("total bytes:", makeThumbnails6(filenames))
}
