// want: ok
// source: written for chanfuzz as a held-out probe of third-party concurrency modules (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed twin of the shard search: the query runs under a context the consumer cancels
//   when it returns early, and every shard sends its hit in a select with gctx.Done(), so a
//   shard whose hit is no longer wanted gives up instead of blocking; the closer then leaves Wait.

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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // releases every shard still trying to report
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(3)
	results := make(chan hit)

	go func() {
		for _, s := range shards {
			g.Go(func() error {
				doc, err := queryShard(gctx, s, q)
				select {
				case results <- hit{shard: s, doc: doc, err: err}:
				case <-gctx.Done():
					return gctx.Err()
				}
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
