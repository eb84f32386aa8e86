// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of library-style idioms (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a test file: MakeThumbs bounds its scalers with a channel semaphore but the error path
//   returns without giving its token back and the caller fails fast; in the "two corrupt" subtest
//   both tokens are lost, so the scalers not yet admitted stay blocked on `sem <-` for ever after
//   the subtest returns (a leak unless both corrupt images happen to be admitted last)

package thumbnail

import (
	"errors"
	"fmt"
	"testing"
)

type Image struct {
	Name string
	Data []byte
}

type Thumb struct {
	Name string
	Size int
}

var errCorrupt = errors.New("corrupt image")

// scale stands in for decoding and down-sampling an image.
func scale(img Image) (Thumb, error) {
	if len(img.Data) == 0 {
		return Thumb{}, fmt.Errorf("%s: %w", img.Name, errCorrupt)
	}
	return Thumb{Name: img.Name, Size: len(img.Data) / 4}, nil
}

type outcome struct {
	thumb Thumb
	err   error
}

// MakeThumbs scales imgs with at most limit scalers at work at once and
// returns the first error it sees.
func MakeThumbs(imgs []Image, limit int) ([]Thumb, error) {
	sem := make(chan struct{}, limit)
	results := make(chan outcome, len(imgs))
	for _, img := range imgs {
		go func() {
			sem <- struct{}{}
			t, err := scale(img)
			if err != nil {
				results <- outcome{err: err}
				return // BUG: the token is never released
			}
			<-sem
			results <- outcome{thumb: t}
		}()
	}
	thumbs := make([]Thumb, 0, len(imgs))
	for range imgs {
		o := <-results
		if o.err != nil {
			return nil, o.err
		}
		thumbs = append(thumbs, o.thumb)
	}
	return thumbs, nil
}

func images(names ...string) []Image {
	var imgs []Image
	for _, n := range names {
		var data []byte
		if n[0] != '!' { // a leading '!' marks a corrupt file
			data = make([]byte, 64)
		}
		imgs = append(imgs, Image{Name: n, Data: data})
	}
	return imgs
}

func TestMakeThumbs(t *testing.T) {
	tests := []struct {
		name    string
		imgs    []Image
		wantErr bool
	}{
		{"all good", images("a.png", "b.png", "c.png", "d.png"), false},
		{"one corrupt", images("a.png", "!b.png", "c.png", "d.png"), true},
		{"two corrupt", images("a.png", "!b.png", "c.png", "!d.png", "e.png", "f.png"), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []Thumb
			t.Cleanup(func() { t.Logf("%s: %d thumbnails", tc.name, len(got)) })
			got, err := MakeThumbs(tc.imgs, 2)
			if (err != nil) != tc.wantErr {
				t.Fatalf("MakeThumbs error = %v, wantErr %v", err, tc.wantErr)
			}
			if err == nil && len(got) != len(tc.imgs) {
				t.Errorf("got %d thumbnails, want %d", len(got), len(tc.imgs))
			}
		})
	}
}
