// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of third-party concurrency modules (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a search front end fans a query out to five shards with errgroup (WithContext, SetLimit 3)
//   and streams hits over an unbuffered channel. The consumer returns on the first shard error;
//   shards whose hit is still unsent block on `results <-` for ever (and the closer stays in Wait).
//   No leak only when the failing shard happens to report last, so the bug depends on the interleaving.

package main

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"
)

type hit struct {
	shard string
	doc   string
	err   error
}

// queryShard stands in for an RPC to one index shard.
func queryShard(ctx context.Context, shard string, q string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	time.Sleep(time.Millisecond) // round trip to the shard
	if shard == "eu-2" {
		return "", fmt.Errorf("shard %s: index unavailable", shard)
	}
	return shard + ":" + q, nil
}

func searchShards(ctx context.Context, shards []string, q string) ([]string, error) {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(3)
	results := make(chan hit)

	go func() {
		for _, s := range shards {
			g.Go(func() error {
				doc, err := queryShard(gctx, s, q)
				results <- hit{shard: s, doc: doc, err: err}
				return err
			})
		}
		g.Wait()
		close(results)
	}()

	var docs []string
	for h := range results {
		if h.err != nil {
			// fail fast: the caller retries the whole query anyway
			return nil, h.err
		}
		docs = append(docs, h.doc)
	}
	return docs, nil
}

func main() {
	shards := []string{"us-1", "us-2", "eu-1", "eu-2", "ap-1"}
	docs, err := searchShards(context.Background(), shards, "golang")
	if err != nil {
		fmt.Println("search failed:", err)
		return
	}
	fmt.Println("hits:", len(docs))
}
