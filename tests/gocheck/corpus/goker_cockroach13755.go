// want: partial-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/cockroach/13755 (cockroachdb/cockroach PR 13755); rewritten as package main
// what: initContextClose starts awaitDone, which waits on a cancellable context that nobody
//   ever cancels (the rows are never closed): the goroutine blocks for ever

package main

import "context"

type Rows struct {
	cancel context.CancelFunc
}

func (rs *Rows) initContextClose(ctx context.Context) {
	ctx, rs.cancel = context.WithCancel(ctx)
	go rs.awaitDone(ctx)
}

func (rs *Rows) awaitDone(ctx context.Context) {
	<-ctx.Done()
}

func main() {
	rs := &Rows{}
	rs.initContextClose(context.Background())
}
