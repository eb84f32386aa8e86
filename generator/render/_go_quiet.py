"""The Go renderer's quiet-channel check (option `quiet` of `go`, default on; issue #14).

Once a run's goroutines are joined (`wg.Wait()`), no goroutine but the run's
own holds a channel, and every message sent was received (the generator pairs
them; the value oracle checks it): what each channel's observers answer is
known, and so is what its operations do from here on. The run's last act is,
per channel in its declaration order, `quiet(c, prog, "c", cap, closable,
fill, wake, sel, drain)` (seeded draws, `quiet_calls`):

- `len`, `cap` and reflect's `Len`, `Cap` say 0 of `cap`; a non-blocking
  receive finds nothing, or, only on a channel some process closes
  (`closable`), finds it closed;
- `fill` (0…cap) messages go in by non-blocking sends (numbered 1, 2, … under
  the value oracle), then the observers again; a full channel refuses a
  non-blocking send and reflect's `TrySend`, an empty one gives nothing to
  `TryRecv`;
- `wake` (`quietWake`): a goroutine parks on the channel, receiving from an
  empty one or sending to a full one, plainly or in a `select` (`sel`; its
  other case a nil channel), and is woken by the other operation or by a
  close. It must get the message, or the closed channel's zero value, or its
  send must panic with "send on closed channel". Its wait must show in the
  block profile, which is on (rate 1) for just that wait, as one event more
  (none for a select's send woken by a close: selectgo records its wait on
  the way out, and that case panics first). The check sees the goroutine
  parked in its stack dump (`runtime.Stack`) before it wakes it; on a machine
  too busy for that in 1000 yields it wakes it blindly and asks the profile
  nothing. The wake costs a few hundred microseconds, so it is asked in a
  program's first run in the process only (`quietWoken`; users may ask for
  100,000 runs);
- `drain` (0…fill) messages come out in order, the channel is closed (if
  nobody did) and what is left comes out, then a closed, empty channel's
  receive completes at once with the zero value (plain, as a ready select
  case, by `TryRecv`, by `reflect.Select`), and a send or a second close
  panics with the runtime's own words.

A channel of dead select cases only is nil (`go._dead_case_channels`): it has
no room, nothing to give, and closing it panics. Before the channels,
`reflect.Select` of a default alone (and with nil channels' cases) must choose
the default and say it received nothing; asked in a process's first run only,
since no run changes that answer. A wrong answer is one line as the value
oracle's, kind `QUIET_WRONG`, and exit 65. `quiet=False` writes the files of
before the check, with no draw for it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from generator.render._common import ORACLE_EXIT, ORACLE_PREFIX, QUIET_WRONG, Lowered, Writer

# What the check's functions import.
IMPORTS = ("fmt", "os", "reflect", "runtime", "strings")

# QELEM is the channels' element type; QMSG and QIS say what message i is.
_QUIET = """\
// After a run's wg.Wait() no goroutine of it is left, and every message sent was
// received: what a channel's observers answer is known, and so is what its
// operations do from here on. Any other answer is the runtime's fault.
func quietFailed(c, by, detail string) {
	fmt.Fprintf(os.Stderr, "ORACLE_PREFIXQUIET_WRONG (%s): %s on %s\\n", by, detail, c)
	os.Exit(ORACLE_EXIT)
}

// quietMsg is the check's message i.
func quietMsg(i int) QELEM {
	return QMSG
}

// quietIs says whether v is the check's message i.
func quietIs(v QELEM, i int) bool {
	return QIS
}

// quietPanics runs f, which must panic with the runtime error want.
func quietPanics(c, by, want string, f func()) {
	defer func() {
		r := recover()
		if e, ok := r.(runtime.Error); !ok || e.Error() != want {
			quietFailed(c, by, fmt.Sprintf("wanted the panic %q, got %v", want, r))
		}
	}()
	f()
}

// quietObserved checks what len, cap and reflect's Len and Cap say of a channel of
// capacity capacity that holds n messages.
func quietObserved(c chan QELEM, name string, capacity, n int) {
	rv := reflect.ValueOf(c)
	by := ""
	switch {
	case len(c) > n:
		by = "len(), more than it holds"
	case len(c) < n:
		by = "len(), fewer than it holds"
	case cap(c) != capacity:
		by = "cap()"
	case rv.Len() != n:
		by = "reflect's Len()"
	case rv.Cap() != capacity:
		by = "reflect's Cap()"
	default:
		return
	}
	detail := fmt.Sprintf("holding %d of %d, it says len %d, cap %d (reflect: %d, %d)",
		n, capacity, len(c), cap(c), rv.Len(), rv.Cap())
	quietFailed(name, "by "+by, detail)
}

// quietNothingAsked: quietNothing asks once a process, since no run changes its answer.
var quietNothingAsked bool

// quietNothing: a select of a default alone, or with nil channels' cases, chooses the
// default and receives nothing.
func quietNothing() {
	if quietNothingAsked {
		return
	}
	quietNothingAsked = true
	var never chan QELEM
	dflt := reflect.SelectCase{Dir: reflect.SelectDefault}
	recv := reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(never)}
	send := reflect.SelectCase{
		Dir: reflect.SelectSend, Chan: reflect.ValueOf(never), Send: reflect.ValueOf(quietMsg(0)),
	}
	for _, cases := range [][]reflect.SelectCase{{dflt}, {recv, send, dflt}} {
		if chosen, _, ok := reflect.Select(cases); chosen != len(cases)-1 || ok {
			detail := fmt.Sprintf("of %d cases, the last the default, chose %d, received %v",
				len(cases), chosen, ok)
			quietFailed("a nil channel", "by reflect.Select", detail)
		}
	}
}

// quietNil checks a nil channel: no room, nothing to give, and no close.
func quietNil(c chan QELEM, name string) {
	quietObserved(c, name, 0, 0)
	select {
	case c <- quietMsg(0):
		quietFailed(name, "by a send", "a nil channel took a message")
	case <-c:
		quietFailed(name, "by a receive", "a nil channel gave something")
	default:
	}
	rv := reflect.ValueOf(c)
	if v, ok := rv.TryRecv(); v.IsValid() || ok || rv.TrySend(reflect.ValueOf(quietMsg(0))) {
		quietFailed(name, "by reflect's TryRecv or TrySend", "a nil channel answered")
	}
	quietPanics(name, "by a close", "close of nil channel", func() { close(c) })
}

// quietGot is what a parked goroutine reports: what its receive got, or what its send
// panicked with (nil: it sent).
type quietGot struct {
	v        QELEM
	ok       bool
	panicked interface{}
}

// quietRecv receives once from c, plainly or in a select whose other case (a nil
// channel) is never ready, and says what it got. Not inlined: the check finds it by name
// in stacks.
//
//go:noinline
func quietRecv(c chan QELEM, sel bool, got chan<- quietGot) {
	var g quietGot
	if sel {
		var never chan QELEM
		select {
		case g.v, g.ok = <-c:
		case <-never:
		}
	} else {
		g.v, g.ok = <-c
	}
	got <- g
}

// quietSend sends message 0 on c, plainly or in a select, and says what it panicked
// with (nil: it sent).
//
//go:noinline
func quietSend(c chan QELEM, sel bool, got chan<- quietGot) {
	defer func() { got <- quietGot{panicked: recover()} }()
	if sel {
		var never chan QELEM
		select {
		case c <- quietMsg(0):
		case never <- quietMsg(0):
		}
	} else {
		c <- quietMsg(0)
	}
}

// quietStacks holds the stack dumps of quietParked, which only the run's goroutine makes.
var quietStacks = make([]byte, 64<<10)

// quietParked yields until a goroutine running fn is parked for reason; false after
// 1000 yields (a busy machine).
func quietParked(fn, reason string) bool {
	buf := quietStacks
	// Called through a variable: a file's calls of runtime.Gosched by name are its
	// programs' own yields (schedule perturbation's, which tests and readers count).
	yield := runtime.Gosched
	for i := 0; i < 1000; i++ {
		yield()
		n := runtime.Stack(buf, true)
		for _, g := range strings.Split(string(buf[:n]), "\\n\\n") {
			if strings.Contains(g, " ["+reason) && strings.Contains(g, "\\n"+fn+"(") {
				return true
			}
		}
	}
	return false
}

// quietGotten waits for what a parked goroutine reports, first without blocking: a
// blocked check would add its own waits to the block profile, whose every record each
// look at it unwinds. After 1000 yields it blocks, so that a wake-up the runtime lost
// is a hang (Go's deadlock report, the sandbox's quiet watch), not a spin to the timeout.
func quietGotten(got <-chan quietGot) quietGot {
	yield := runtime.Gosched
	for i := 0; i < 1000; i++ {
		select {
		case g := <-got:
			return g
		default:
			yield()
		}
	}
	return <-got
}

// quietCounted is, per helper, how many of its waits the block profile held at the last
// look (none before the first: only the check ever turns block profiling on).
var quietCounted = map[string]int64{}

// quietBlocked is how many waits the block profile holds in stacks through fn.
func quietBlocked(fn string) int64 {
	n, _ := runtime.BlockProfile(nil)
	p := make([]runtime.BlockProfileRecord, n+64)
	n, ok := runtime.BlockProfile(p)
	for !ok {
		p = make([]runtime.BlockProfileRecord, 2*len(p))
		n, ok = runtime.BlockProfile(p)
	}
	var count int64
	for _, r := range p[:n] {
		for _, pc := range r.Stack() {
			if f := runtime.FuncForPC(pc); f != nil && f.Name() == fn {
				count += r.Count
				break
			}
		}
	}
	return count
}

// How quietWake wakes its parked goroutine.
const (
	quietRecvBySend = 1 + iota
	quietRecvByClose
	quietSendByRecv
	quietSendByClose
)

// quietWake parks a goroutine on c, which holds the messages want (a receive when it is
// empty, a send when it is full), wakes it as wake says, and checks what it got and the
// block profile's record of its wait. It returns whether it closed c and what c holds.
func quietWake(c chan QELEM, name string, want []int, wake int, sel bool) (bool, []int) {
	fn, reason := "main.quietRecv", "chan receive"
	if wake == quietSendByRecv || wake == quietSendByClose {
		fn, reason = "main.quietSend", "chan send"
	}
	if sel {
		reason = "select"
	}
	runtime.SetBlockProfileRate(1)
	got := make(chan quietGot, 1)
	if fn == "main.quietRecv" {
		go quietRecv(c, sel, got)
	} else {
		go quietSend(c, sel, got)
	}
	parked := quietParked(fn, reason)
	var zero QELEM
	closed := false
	switch wake {
	case quietRecvBySend:
		if parked {
			select {
			case c <- quietMsg(1):
			default:
				quietFailed(name, "by a send", "a receiver was parked, the send found none")
			}
		} else {
			c <- quietMsg(1)
		}
		if g := quietGotten(got); !g.ok || !quietIs(g.v, 1) {
			detail := fmt.Sprintf("woken by message 1, got %v (ok %v)", g.v, g.ok)
			quietFailed(name, "by a parked "+reason, detail)
		}
	case quietRecvByClose:
		close(c)
		closed = true
		if g := quietGotten(got); g.ok || g.v != zero {
			detail := fmt.Sprintf("woken by a close, got %v (ok %v)", g.v, g.ok)
			quietFailed(name, "by a parked "+reason, detail)
		}
	case quietSendByRecv:
		// The parked sender's message 0 goes in after the ones c holds.
		want = append(want, 0)
		first := want[0]
		want = want[1:]
		var v QELEM
		ok, took := false, true
		if parked {
			select {
			case v, ok = <-c:
			default:
				took = false
			}
		} else {
			v, ok = <-c
		}
		if !took || !ok || !quietIs(v, first) {
			detail := fmt.Sprintf("a sender parked, wanted message %d, got %v (ok %v, took %v)",
				first, v, ok, took)
			quietFailed(name, "by a receive", detail)
		}
		if r := quietGotten(got).panicked; r != nil {
			detail := fmt.Sprintf("woken by a receive, panicked %v", r)
			quietFailed(name, "by a parked "+reason, detail)
		}
	case quietSendByClose:
		close(c)
		closed = true
		r := quietGotten(got).panicked
		if e, ok := r.(runtime.Error); !ok || e.Error() != "send on closed channel" {
			detail := fmt.Sprintf("woken by a close, wanted the panic %q, got %v",
				"send on closed channel", r)
			quietFailed(name, "by a parked "+reason, detail)
		}
	}
	runtime.SetBlockProfileRate(0)
	// selectgo records its wait on the way out, which a send case woken by a close never
	// takes: it panics first.
	events := int64(1)
	if sel && wake == quietSendByClose {
		events = 0
	}
	// One look a wake: the count before it is the one after the last.
	before, after := quietCounted[fn], quietBlocked(fn)
	quietCounted[fn] = after
	if parked && after-before != events {
		detail := fmt.Sprintf("a goroutine parked once for %s, the block profile counts %d, not %d",
			reason, after-before, events)
		quietFailed(name, "by the block profile", detail)
	}
	return closed, want
}

// quietClosed checks a closed channel that holds the messages want: they come out, then
// a receive completes at once with the zero value, and a send or a close panics.
func quietClosed(c chan QELEM, name string, capacity int, want []int) {
	quietObserved(c, name, capacity, len(want))
	for k, i := range want {
		if v, ok := <-c; !ok || !quietIs(v, i) {
			detail := fmt.Sprintf("closed, message %d of %d left came as %v (ok %v)",
				k+1, len(want), v, ok)
			quietFailed(name, "by a receive", detail)
		}
	}
	quietObserved(c, name, capacity, 0)
	var zero QELEM
	if v, ok := <-c; ok || v != zero {
		quietFailed(name, "by a receive", "closed and empty, it gave a message")
	}
	select {
	case v, ok := <-c:
		if ok || v != zero {
			quietFailed(name, "by a select", "closed and empty, it gave a message")
		}
	default:
		quietFailed(name, "by a select", "closed, its receive case was not ready")
	}
	rv := reflect.ValueOf(c)
	if v, ok := rv.TryRecv(); ok || !v.IsValid() {
		quietFailed(name, "by reflect's TryRecv", "closed and empty, it did not answer closed")
	}
	cases := []reflect.SelectCase{
		{Dir: reflect.SelectRecv, Chan: rv}, {Dir: reflect.SelectDefault},
	}
	if chosen, _, ok := reflect.Select(cases); chosen != 0 || ok {
		detail := fmt.Sprintf("closed and empty, chose case %d, received %v", chosen, ok)
		quietFailed(name, "by reflect.Select", detail)
	}
	quietPanics(name, "by a send", "send on closed channel", func() { c <- quietMsg(0) })
	quietPanics(name, "by a close", "close of closed channel", func() { close(c) })
}

// quietKey names a channel of a program: the check wakes a parked goroutine on it in the
// program's first run in this process only.
type quietKey struct {
	prog int
	name string
}

// quietWoken holds the channels whose wake was asked. A wake costs a goroutine, stack dumps
// and a look at the block profile, a few hundred microseconds: in each run, a program run
// 100,000 times would spend most of its time there.
var quietWoken = map[quietKey]bool{}

// quiet checks channel name of program prog, which holds nothing now; closable: some process
// may have closed it.
func quiet(c chan QELEM, prog int, name string, capacity int, closable bool, fill, wake int,
	sel bool, drain int) {
	quietObserved(c, name, capacity, 0)
	select {
	case _, ok := <-c:
		if ok {
			quietFailed(name, "by a receive", "an empty channel gave a message")
		}
		if !closable {
			quietFailed(name, "by a receive", "nobody closed it, it answered closed")
		}
		quietClosed(c, name, capacity, nil)
		return
	default:
	}
	want := []int{}
	for i := 1; i <= fill; i++ {
		select {
		case c <- quietMsg(i):
			want = append(want, i)
		default:
			detail := fmt.Sprintf("message %d of %d (capacity %d) found no room", i, fill, capacity)
			quietFailed(name, "by a send", detail)
		}
	}
	quietObserved(c, name, capacity, fill)
	rv := reflect.ValueOf(c)
	if fill == capacity {
		select {
		case c <- quietMsg(0):
			quietFailed(name, "by a send", "a full channel took a message")
		default:
		}
		if rv.TrySend(reflect.ValueOf(quietMsg(0))) {
			quietFailed(name, "by reflect's TrySend", "a full channel took a message")
		}
	}
	if v, ok := rv.TryRecv(); fill == 0 && (v.IsValid() || ok) {
		quietFailed(name, "by reflect's TryRecv", "an empty channel gave something")
	} else if fill > 0 && (!ok || !quietIs(v.Interface().(QELEM), 1)) {
		quietFailed(name, "by reflect's TryRecv", "message 1 did not come first")
	} else if fill > 0 {
		want = want[1:]
		rv.Send(reflect.ValueOf(quietMsg(1))) // there is room: it goes in last
		want = append(want, 1)
	}
	closed := false
	if key := (quietKey{prog, name}); wake != 0 && !quietWoken[key] {
		quietWoken[key] = true
		closed, want = quietWake(c, name, want, wake, sel)
	}
	for k, i := range want[:drain] {
		if v, ok := <-c; !ok || !quietIs(v, i) {
			detail := fmt.Sprintf("message %d of %d came as %v (ok %v)", k+1, len(want), v, ok)
			quietFailed(name, "by a receive", detail)
		}
	}
	want = want[drain:]
	if !closed {
		quietObserved(c, name, capacity, len(want))
		close(c)
	}
	quietClosed(c, name, capacity, want)
}"""


def quiet_check_id() -> str:
    """A short name of this version of the check's code: campaigns run with another version
    ran other programs (runners.mutation_study names its campaigns with it)."""
    return hashlib.sha256(_QUIET.encode()).hexdigest()[:8]


def quiet_helpers(values: bool) -> list[str]:
    """The check's Go functions, for channels of `int` (under the value oracle) or of
    `struct{}`."""
    element, msg, same = ("int", "i", "v == i") if values else ("struct{}", "struct{}{}", "true")
    text = _QUIET
    for name, value in (
        ("ORACLE_PREFIX", ORACLE_PREFIX),
        ("QUIET_WRONG", QUIET_WRONG),
        ("ORACLE_EXIT", str(ORACLE_EXIT)),
        ("QELEM", element),
        ("QMSG", msg),
        ("QIS", same),
    ):
        text = text.replace(name, value)
    return text.split("\n")


def quiet_calls(
    w: Writer,
    lw: Lowered,
    prog: int,
    chans: Sequence[str],
    dead: frozenset[str],
    rng: random.Random,
) -> None:
    """The run's last act: every channel checked quiet and closed (module docstring)."""
    w.line("quietNothing()")
    closable = lw.closed()
    for c in chans:
        if c in dead:
            w.line(f'quietNil({c}, "{c}")')
            continue
        cap = lw.capacity(c)
        fill = rng.randint(0, cap)
        wakes = [0]
        if fill == 0:
            wakes += ["quietRecvBySend", "quietRecvByClose"]
        if fill == cap:
            wakes += ["quietSendByRecv", "quietSendByClose"]
        wake = rng.choice(wakes)
        sel = "true" if rng.random() < 0.5 else "false"
        drain = rng.randint(0, fill)
        may = "true" if c in closable else "false"
        w.line(f'quiet({c}, {prog}, "{c}", {cap}, {may}, {fill}, {wake}, {sel}, {drain})')
