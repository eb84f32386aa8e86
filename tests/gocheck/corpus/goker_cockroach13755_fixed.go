// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/cockroach/13755 the fix of cockroachdb/cockroach PR 13755 (close the rows); rewritten as package main
// what: main closes the rows, which cancels the context, and waits until awaitDone has seen it

package main

import "context"

type Rows struct {
	cancel context.CancelFunc
	done   chan struct{}
}

func (rs *Rows) initContextClose(ctx context.Context) {
	ctx, rs.cancel = context.WithCancel(ctx)
	go rs.awaitDone(ctx)
}

func (rs *Rows) awaitDone(ctx context.Context) {
	<-ctx.Done()
	close(rs.done)
}

func (rs *Rows) Close() {
	rs.cancel()
	<-rs.done
}

func main() {
	rs := &Rows{done: make(chan struct{})}
	rs.initContextClose(context.Background())
	rs.Close()
}
