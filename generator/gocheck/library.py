"""The standard library as gocheck's machine runs it: `LibraryModels`, the part of
`machine.Machine` that answers a call of library code (modelled, harmless, or unsupported)
and models what the library does with the program's values — text and numbers the checker
may know, errors and their wrapping, sorting by the program's comparisons, predicates the
program hands over, input scanning, sync/atomic and sync.Map.

Machine inherits it: its methods use the machine's own (`self.load`, `self.store`,
`self.run`, timers' `self._arm`…) as when they were one class. Apart here are the
catalogue of library calls and their models; machine.py keeps the interpreter of SSA
instructions and the steps others can see, state.py the state both change.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, cmp_to_key
from itertools import pairwise

from generator.gocheck import formatting, pipes, textlib
from generator.gocheck import numeric as N
from generator.gocheck import timevalues as TV
from generator.gocheck import values as V
from generator.gocheck.ssa import Instr
from generator.gocheck.state import ProgramExit, State, new_slice
from generator.gocheck.values import (
    CTX_CANCELED,
    CTX_DEADLINE,
    DEADLINE_CAUSE,
    ERROR,
    NIL,
    UNKNOWN,
    WRAPPING,
    Unsupported,
    Value,
    holds_sync,
    value_holds_sync,
)

# Library packages whose functions may be given channels or functions without running
# them: formatting and errors only look at a value.
_PRINTERS = frozenset({"fmt", "log", "errors"})

# Library functions of the printing packages that write through what they are given,
# and of the others some that only read it (`Machine._overwritten`).
_WRITERS = frozenset(
    {"fmt.Sscan", "fmt.Sscanf", "fmt.Sscanln", "fmt.Scan", "fmt.Scanf", "fmt.Scanln",
     "fmt.Fscan", "fmt.Fscanf", "fmt.Fscanln", "errors.As"}
)
_READS_ONLY = frozenset(
    {"encoding/json.Marshal", "encoding/json.MarshalIndent",
     "(*encoding/json.Encoder).Encode", "encoding/binary.Write", "encoding/binary.Size",
     "reflect.TypeOf", "reflect.DeepEqual"}
)
_READERS = ("strings.", "bytes.", "strconv.", "slices.Contains", "slices.Index",
            "slices.Equal", "slices.Max", "slices.Min", "slices.Clone", "slices.Compare",
            "slices.BinarySearch", "slices.IsSorted", "maps.Clone", "maps.Equal", "unicode.",
            "path.", "path/filepath.", "os.Getenv")

_NOOPS = frozenset(
    {"time.Sleep", "runtime.Gosched", "runtime.GC", "runtime.LockOSThread",
     "runtime.UnlockOSThread"}
)

# strconv's parsers of an integer: of text the checker cannot tell, a number within
# ±len_bound and an unknown error.
_PARSED_INTS = frozenset({"strconv.Atoi", "strconv.ParseInt"})
_SPLITS = frozenset({"strings.Split", "strings.SplitAfter"})
CPU_QUERIES = frozenset({"runtime.NumCPU", "runtime.GOMAXPROCS"})

# time.Duration's methods that give an integer count of a unit, by the unit's length.
_DURATION_UNITS = {"(time.Duration).Nanoseconds": 1, "(time.Duration).Microseconds": 1_000,
                   "(time.Duration).Milliseconds": 1_000_000}

# The ones that give a float64 count of a unit.
_DURATION_FLOATS = {"(time.Duration).Seconds": 1_000_000_000,
                    "(time.Duration).Minutes": 60_000_000_000,
                    "(time.Duration).Hours": 3_600_000_000_000}

# Random integers below their last argument, from 0: math/rand's and math/rand/v2's
# functions and methods.
_RANDOM_BELOW = frozenset(
    f"{prefix}{fn}"
    for prefix in ("math/rand.", "(*math/rand.Rand).", "math/rand/v2.", "(*math/rand/v2.Rand).")
    for fn in ("Intn", "Int31n", "Int63n", "IntN", "Int32N", "Int64N", "UintN", "Uint32N",
               "Uint64N", "N"))

# Library functions that call a function they are handed (a predicate, a comparison,
# a mapping) and return what it decided (`Machine._with_predicate`).
_PREDICATE_CALLS = frozenset({
    "slices.ContainsFunc", "slices.IndexFunc", "sort.Search", "sort.Find",
    *(f"strings.{f}" for f in ("IndexFunc", "LastIndexFunc", "ContainsFunc", "TrimFunc",
                               "TrimLeftFunc", "TrimRightFunc", "Map", "FieldsFunc")),
})

# Where `Machine.evaluate` keeps the result of the call it runs (a key no global has).
EVALUATED = "evaluated:"

# Library calls that make something whose methods block (`Machine._library`).
_BLOCKING_LIBRARY = frozenset({"io.Pipe", "net.Pipe", "os.Pipe"})  # unless modelled (pipes)

# Sorts by a comparison function of the program's (`Machine._sorted`).
_SORTS = frozenset({"sort.Slice", "sort.SliceStable"})
_SORTS_GENERIC = ("slices.SortFunc[", "slices.SortStableFunc[")

# The standard library's iterators over a map or a slice (`Machine._seq_items`).
_SEQS = ("maps.Keys[", "maps.Values[", "maps.All[", "slices.All[", "slices.Values[",
         "slices.Backward[")

SYNC_OPS = {
    "(*sync.WaitGroup).Add": "wg_add",
    "(*sync.WaitGroup).Done": "wg_done",
    "(*sync.WaitGroup).Wait": "wg_wait",
    "(*sync.WaitGroup).Go": "wg_go",
    "(*sync.Mutex).Lock": "lock",
    "(*sync.Mutex).Unlock": "unlock",
    "(*sync.Mutex).TryLock": "trylock",
    "(*sync.RWMutex).Lock": "lock",
    "(*sync.RWMutex).Unlock": "unlock",
    "(*sync.RWMutex).TryLock": "trylock",
    "(*sync.RWMutex).RLock": "rlock",
    "(*sync.RWMutex).RUnlock": "runlock",
    "(*sync.RWMutex).TryRLock": "tryrlock",
    # What RWMutex.RLocker returns: a Locker whose Lock and Unlock read-lock.
    "(*sync.rlocker).Lock": "rlock",
    "(*sync.rlocker).Unlock": "runlock",
    "(*sync.Once).Do": "once",
    "(*sync.Cond).Wait": "cond_wait",
    "(*sync.Cond).Signal": "cond_signal",
    "(*sync.Cond).Broadcast": "cond_broadcast",
    "(*time.Timer).Stop": "timer_stop",
    "(*time.Timer).Reset": "timer_reset",
    "(*time.Ticker).Stop": "ticker_stop",
    "(*time.Ticker).Reset": "ticker_reset",
}


class LibraryModels:
    """Library calls of a `Machine` (see the module docstring)."""

    def _library(self, st: State, name: str, args: list[Value], line: int, rtype: str,
                 ins: Instr | None) -> Value:
        """A call of standard-library code: modelled, harmless, or unsupported."""
        if name in _NOOPS or (name.endswith(".init") and "(" not in name):
            return ("tuple", ())
        if any(pipes.is_pipe(self.program.package, a) for a in args):
            # It would read or write the pipe out of the checker's sight (`pipes`).
            raise Unsupported(f"{name.split('/')[-1]} handed a pipe (not modelled)", line)
        if name in ("time.After", "time.Tick"):
            ch = st.new_chan(1, line)
            repeat = name == "time.Tick"
            st.spawn([], f"timer ({name}, line {line})",
                     tail=(("send", ch, UNKNOWN, repeat),), daemon=True)
            self._arm(st, args[0], repeat)
            return ch
        if name in ("time.NewTimer", "time.NewTicker"):
            ch = st.new_chan(1, line)
            repeat = name == "time.NewTicker"
            st.spawn([], f"timer ({name}, line {line})",
                     tail=(("send", ch, UNKNOWN, repeat),), daemon=True)
            self._arm(st, args[0], repeat)
            return st.new_obj(("struct", (ch,)))
        if name == "os/signal.Notify":
            # Signals come from outside, at any moment and any number of times: a source
            # like a ticker's, which the runtime (like Go's deadlock detector) never counts
            # as blocked. Stop, Ignore and Reset change only which signals come.
            st.spawn([], f"signals (signal.Notify, line {line})",
                     tail=(("send", args[0], UNKNOWN, True),), daemon=True)
            return ("tuple", ())
        if name in ("os/signal.Stop", "os/signal.Ignore", "os/signal.Reset"):
            return ("tuple", ())
        if name in CPU_QUERIES:
            return self._cpus(st, name, args)
        if name in _BLOCKING_LIBRARY:
            # What they return blocks in its own reads and writes (a pipe's Write waits
            # for a Read): taken as harmless, a deadlock on them would be called ok.
            raise Unsupported(f"{name} (not modelled: its reads and writes block)", line)
        if name == "time.AfterFunc":
            f = args[1]
            self.known_fn(f, line, f"{name} of a function")
            # The timer's C is nil; `token`, a channel nobody communicates on, names the
            # timer to its Stop and Reset (and makes them conflict with its firing).
            token = st.new_chan(0, line)
            fire = ("fire", token, f, line, name)
            st.spawn([], f"timer ({name}, line {line})", tail=(fire,), daemon=True)
            self._arm(st, args[0], False)
            return st.new_obj(("struct", (NIL, fire)))
        if name == "context.AfterFunc":
            ctx, f = args[0], args[1]
            if not (isinstance(ctx, tuple) and ctx[0] == "ctx"):
                raise Unsupported("a context the checker cannot follow", line)
            self.known_fn(f, line, f"{name} of a function")
            # Its function fires once the context is done (never for Background's, whose
            # done channel is nil); `stop` takes that back while it has not fired.
            token = st.new_chan(0, line)
            st.spawn([], f"{name} (line {line})",
                     tail=(("recv", ctx[1]), ("fire", token, f, line, name)), daemon=True)
            return ("model", "stop", ("fire", token, f, line, name))
        if name.startswith(("iter.Pull[", "iter.Pull2[")):
            # A coroutine: the sequence runs in a goroutine of its own, started by the
            # first next, and only while next or stop waits for it (`pull_started`).
            if not (isinstance(args[0], tuple) and args[0][0] == "fn"
                    and self.program.function(args[0][1])):
                raise Unsupported(f"{name.split('[')[0]} of a sequence the checker cannot "
                                  "tell", line)
            pull = st.new_obj(("pull", "new", None, None, None))
            return ("tuple", (("model", "pull_next", pull, args[0], line),
                              ("model", "pull_stop", pull, args[0], line)))
        if name == "sync.OnceFunc" or name.startswith(("sync.OnceValue[", "sync.OnceValues[")):
            # A Once of its own; OnceValue(s) keep the function's results in it.
            self.known_fn(args[0], line, f"{name.split('[')[0]} of a function")
            return ("model", "oncefunc", st.new_obj(("once", 0)), args[0])
        if name.startswith(_SEQS):
            # An iterator over a map or slice: it yields what the map or slice holds when
            # it is ranged over (`_seq_items`).
            return ("model", "seq", name.split("[")[0], args[0])
        if name.startswith(("slices.Collect[", "slices.Sorted[")) and args \
                and isinstance(args[0], tuple) and args[0][:2] == ("model", "seq"):
            return self._collect(st, args[0], name.startswith("slices.Sorted["), line)
        if name == "(*sync.RWMutex).RLocker":
            return ("iface", "*sync.rlocker", args[0])
        if name == "sync.NewCond":
            return st.new_obj(("cond", args[0], (), ()))
        if name == "errors.New":
            # An error of its own, never nil: a sentinel (`var ErrFull = errors.New(…)`)
            # equals itself and no other.
            return ("iface", "*errors.errorString", st.new_obj(("struct", (UNKNOWN,))))
        if name == "fmt.Errorf":
            # Never nil. Without %w it is an error of its own that wraps nothing, as a
            # library's error variables are; with it, one of its own wrapping those.
            if not isinstance(args[0], str):
                return WRAPPING
            if "%w" not in args[0]:
                return ERROR
            wrapped = formatting.wrapped(args[0], self._items(st, args[-1]))
            return WRAPPING if wrapped is None else \
                ("iface", "*fmt.wrapError", st.new_obj(("array", wrapped)))
        if name.startswith("maps.Copy[") and len(args) == 2:
            self._maps_copy(st, args[0], args[1], line)
            return ("tuple", ())
        if name == "errors.Is" and len(args) == 2:
            return _errors_is(*args, lambda e: self._wrapped(st, e))
        if name == "errors.As" and len(args) == 2:
            found = self._errors_as(st, args[0], args[1])
            if found is not None:
                if found is not False:
                    self.store(st, args[1][2], found, line)
                return found is not False
        if name in _DURATION_UNITS and type(args[0]) is int:
            unit = _DURATION_UNITS[name]  # an int64 division: Go truncates toward zero
            return abs(args[0]) // unit * (1 if args[0] >= 0 else -1)
        if name in _DURATION_FLOATS and type(args[0]) is int:
            return N.duration_in(args[0], _DURATION_FLOATS[name])
        if name.startswith("math.") and "(" not in name:
            return N.math_call(name, args)
        if name.startswith("(time.Time)."):
            return TV.method(name[len("(time.Time)."):], args)
        if name == "time.Now":
            return TV.now(st.fresh())
        if name in ("time.Since", "time.Until"):
            return TV.since(args[0]) if name == "time.Since" else TV.until(args[0])
        if name.split("[")[0] in _RANDOM_BELOW:
            n = N.bounds(args[-1])
            # Each gives 0 to n-1 (it panics for n <= 0, which the run would show).
            return N.ranged(0, n[1] - 1) if n and n[1] is not None and n[1] > 0 else UNKNOWN
        if name in ("context.Background", "context.TODO"):
            return ("ctx", NIL, False)
        if name in ("context.WithCancel", "context.WithTimeout", "context.WithDeadline",
                    "context.WithCancelCause", "context.WithTimeoutCause",
                    "context.WithDeadlineCause", "os/signal.NotifyContext"):
            parent = args[0]
            if not (isinstance(parent, tuple) and parent[0] == "ctx"):
                raise Unsupported("a context the checker cannot follow", line)
            done = st.new_chan(0, line)
            if parent[1] != NIL:
                st.spawn([], f"context propagation (line {line})",
                         tail=(("recv", parent[1]), ("cancel", done, ("from", parent[1]))),
                         daemon=True)
            if "Timeout" in name or "Deadline" in name:
                st.spawn([], f"context deadline (line {line})",
                         tail=(("cancel", done, DEADLINE_CAUSE),), daemon=True)
                self._arm(st, args[1] if "Timeout" in name else UNKNOWN, False)
            elif name == "os/signal.NotifyContext":  # done once a signal comes: any moment
                st.spawn([], f"signals (signal.NotifyContext, line {line})",
                         tail=(("cancel", done),), daemon=True)
            timed = "Timeout" in name or "Deadline" in name or ctx_timed(parent)
            return ("tuple", (("ctx", done, timed), ("model", "cancel", done)))
        if name == "context.Cause":
            # Nil until the context is done, then its cause or its Err: nil exactly when
            # Err is.
            ctx = args[0]
            if not (isinstance(ctx, tuple) and ctx[0] == "ctx"):
                raise Unsupported("a context the checker cannot follow", line)
            err = self._ctx_method(st, ctx, "Err", rtype)
            # (with WithCancelCause, the cause handed to cancel, which is not followed)
            return ERROR if err in (CTX_CANCELED, CTX_DEADLINE) else err
        if name in ("context.WithValue", "context.WithoutCancel"):
            return args[0] if name == "context.WithValue" else ("ctx", NIL, False)
        if name in ("fmt.Sprintf", "fmt.Sprint", "fmt.Sprintln", "strconv.Itoa"):
            text = self._formatted(st, name, args)
            if text is not None:
                return text
        if name.startswith("(*bufio.Scanner).") and self._input_scanner(st, args[0]):
            # (even its unknown results: the library is not to overwrite its count)
            return self._input_scan(st, name.rsplit(".", 1)[1], args)
        if name.startswith(("strings.", "strconv.", "(*bufio.Scanner).", "bufio.NewScanner")) \
                or name == "time.ParseDuration":
            known = self._text(st, name, args)
            if known is not UNKNOWN:
                return known
            if name in _PARSED_INTS and self.len_bound is not None:
                # A count read from the input (WORKERS=4): small, as a list from it is.
                self.lengths_bounded = True
                return ("tuple", (N.ranged(-self.len_bound, self.len_bound), UNKNOWN))
        if name.startswith(("cmp.Compare[", "cmp.Less[")) and len(args) == 2:
            ordered = _ordered(*args)
            if ordered is not None:
                return ordered if name.startswith("cmp.Compare[") else ordered < 0
        if name.startswith("slices.Reverse[") and len(args) == 1:
            # In place, calling nothing: a slice of hooks or channels stays followed.
            items = self._items(st, args[0]) if isinstance(args[0], tuple) and \
                args[0][0] == "slice" else None
            if items:
                self._write_items(st, args[0], args[0][3], items[::-1])
            return ("tuple", ())  # (items lost already hold no channel: `_scramble`)
        if name in _SORTS or name.startswith(_SORTS_GENERIC):
            self._sorted(st, name, args, line)
            return ("tuple", ())
        if name.split("[")[0] in _PREDICATE_CALLS and any(
                isinstance(a, tuple) and a[0] == "fn" and self.program.function(a[1])
                for a in args):
            return self._with_predicate(st, name.split("[")[0], args, line)
        x = ins.x if ins is not None else {}
        pkg = x.get("pkg") or name.split(".")[0].lstrip("(*")
        if pkg in ("sync", "context", "sync/atomic") and name not in SYNC_OPS:
            raise Unsupported(f"{name} (not modelled)", line)
        reached = None
        if pkg not in _PRINTERS:
            self._no_communicating_methods(st, name, args, line)
            # Not only when a parameter's type may hold one: a channel handed over as
            # `any` (reflect.ValueOf(ch), then its Recv) may block in the library as well.
            reached = list(self._reached(st, args))
            if self._hands_over(reached):
                raise Unsupported(f"{name} is handed a channel, function or sync object",
                                  line)
        elif name in ("fmt.Fprint", "fmt.Fprintf", "fmt.Fprintln"):
            # They call the writer's Write: a program's Write that communicates is unseen.
            self._no_communicating_methods(st, name, args[:1], line)
        if holds_sync(rtype):
            raise Unsupported(f"{name} returns a channel or sync object", line)
        if (pkg not in _PRINTERS and name not in _READS_ONLY) or name in _WRITERS:
            if reached is None:
                reached = list(self._reached(st, args))
            self._overwritten(st, name, reached, line)
        # strings.Split by a separator gives one item or more, whatever the text.
        least = int(name in _SPLITS and len(args) == 2 and isinstance(args[1], str)
                    and args[1] != "")
        return self._unknown_of(st, rtype, least)

    def _unknown_of(self, st: State, rtype: str, least: int = 0) -> Value:
        """A library's result the checker does not know: a slice among it has a length
        of its own, `least` up to len_bound, so that the ranges over it and its
        sub-slices agree."""
        if rtype.startswith("slice"):
            return self.input_slice(st, least)
        if rtype.startswith("tuple(") and "slice" in rtype:
            return ("tuple", tuple(self.input_slice(st) if p.startswith("slice") else UNKNOWN
                                   for p in V.split_class(rtype, "(", ")")))
        return V.unknown_of(rtype)

    def input_slice(self, st: State, least: int = 0, more: int = 0) -> Value:
        """A slice of items the checker does not know, of `least` to len_bound items,
        and `more` (os.Args: the command, then up to len_bound arguments); with no
        len_bound, of any length from `least`."""
        if self.len_bound is None:
            return ("?slice", N.named(N.ranged(least, N.LEN_MAX), st.fresh()))
        self.lengths_bounded = True
        return ("?slice", N.named(N.ranged(least, self.len_bound + more), st.fresh()))

    def _overwritten(self, st: State, name: str, reached: list[tuple | None], line: int
                     ) -> None:
        """What library code not modelled may have written through the pointers it can
        reach from its arguments (fmt.Sscan's `&n` in its `[]any`, json.Unmarshal's
        `&cfg`, errors.As's target), into the slices and maps it can reach (io.ReadFull's
        buffer, the map json.Unmarshal fills in a struct's field, http.Header's Set)
        becomes unknown: kept as it was, a loop bound `n` stayed 0 and its sends never
        happened, a deadlock the program does not have. The shapes stay (a struct's
        fields, an array's length, a map's keys, now vague) so that the program's own
        loads and stores still find them; no channel, sync object or function of the
        program's is among them (`_hands_over`). Functions that only read what they are
        given (strings.Join, bytes.Equal, maps.Clone) keep the slices and maps."""
        reads = name.startswith(_READERS)
        for v in reached:
            if v is None:
                continue
            tag = v[0]
            if tag == "addr" and v[1] is not None:
                try:
                    old = self.load(st, v, line, "other")
                except ProgramExit:
                    continue  # nil: the library's own panic, not modelled
                self.store(st, v, _unknown_like(old), line)
            elif not reads and tag in ("slice", "map") and v[1] in st.objs:
                st.objs[v[1]] = _unknown_like(st.objs[v[1]])

    def _errors_as(self, st: State, err: Value, target: Value) -> Value | None:
        """errors.As(err, target) where the target's type is one of the program's with
        methods (`*MyErr`, not an interface some error may implement): the first error
        of err's chain of that very type, False if none is, None where the checker cannot
        tell (an error it does not know, a library's that may wrap one of the program's,
        a type of the program's with an Unwrap or As method of its own)."""
        if not (type(target) is tuple and target[0] == "iface" and target[1][:1] == "*"
                and type(target[2]) is tuple and target[2][:1] == ("addr",)):
            return None
        want = target[1][1:]
        if want not in self.program.methods:
            return None
        todo = [err]
        while todo:
            e = todo.pop(0)
            if e == NIL:
                continue
            if not (type(e) is tuple and e[0] == "iface"):
                return None
            if e[1] == want:
                return e[2]
            if e[:2] == ("iface", "*fmt.wrapError"):
                inner = self._wrapped(st, e)
                if inner is None:
                    return None
                todo[:0] = list(inner)
            elif e[1] == "*errors.errorString":
                continue
            elif e[1] not in self.program.methods or \
                    {"Unwrap", "As"} & set(self.program.methods[e[1]]):
                return None
        return False

    def _wrapped(self, st: State, err: Value) -> tuple | None:
        """The errors fmt.Errorf's error `err` wraps (its %w operands), None if unknown."""
        if type(err) is tuple and err[:2] == ("iface", "*fmt.wrapError") and \
                type(err[2]) is tuple and err[2][:1] == ("addr",):
            arr = self.load(st, err[2], 0, "other")
            return arr[1] if type(arr) is tuple and arr[:1] == ("array",) else None
        return None

    def _sorted(self, st: State, name: str, args: list[Value], line: int) -> None:
        """sort.Slice(s, less) and the like: the items of `s` in an order the checker cannot
        tell, so each becomes unknown. `less` only compares: one that may communicate, or
        a slice of channels whose order would then be lost, is unsupported; a slice the
        checker lost track of stays as it is."""
        less = args[1]
        fn = self.known_fn(less, line, f"{name.split('[')[0]}'s comparison")
        if self.program.communicates(fn.name):
            raise Unsupported(f"{name.split('[')[0]} with a comparison that communicates",
                              line)
        s = args[0]
        if isinstance(s, tuple) and s[0] == "iface":  # sort.Slice's x any
            s = s[2]
        items = self._items(st, s) if s != NIL else None
        if items and self.program.pure(fn.name):
            try:
                order = self._sort_order(st, name.split("[")[0], less, items, line)
            except Unsupported:
                order = None  # a comparison the checker cannot tell: as before
            if order is not None:
                self._write_items(st, s, s[3], tuple(items[i] for i in order))
                return
        self._scramble(st, name.split("[")[0], s, line)

    def _sort_order(self, st: State, name: str, less: Value, items: tuple, line: int
                    ) -> list[int] | None:
        """The order a sort puts `items` in, by a comparison that only computes, run on
        their values (slices.SortFunc's cmp) or on their indices (sort.Slice's less reads
        the slice, unchanged in the scratch state): the same as Go's when no two items
        that differ compare equal, or the sort is stable; else None (Go's pdqsort may
        leave equal ones in an order of its own)."""
        scratch = self._scratch(st)
        generic = name.startswith("slices.")

        @cache  # the sort and the check of its neighbours ask for some pairs twice
        def compare(i: int, j: int) -> int:
            if generic:
                return self._compared(self.evaluate(scratch, less, [items[i], items[j]],
                                                    name, line), name, line)
            before = self.evaluate(scratch, less, [i, j], name, line)
            after = self.evaluate(scratch, less, [j, i], name, line)
            if not (isinstance(before, bool) and isinstance(after, bool)):
                raise Unsupported(f"{name} with a comparison whose answer the checker "
                                  "cannot tell", line)
            return -1 if before else 1 if after else 0

        order = sorted(range(len(items)), key=cmp_to_key(compare))
        stable = name in ("sort.SliceStable", "slices.SortStableFunc")
        for a, b in pairwise(order):
            c = compare(a, b)
            if c > 0 or c == 0 and not stable and items[a] != items[b]:
                return None  # (c > 0: a comparison that is no order, Go's own result)
        return order

    def _scramble(self, st: State, name: str, s: Value, line: int) -> None:
        """The items of slice `s` rearranged by library code in an order the checker
        cannot tell (a sort, slices.DeleteFunc): each becomes unknown. Channels, functions
        or sync objects among them would be lost track of: unsupported. A slice the
        checker lost track of stays as it is."""
        if s == NIL:
            return
        items = self._items(st, s)
        if items is None:
            # Items the checker lost track of already (a slice of unknown length): no
            # channel is among them, or storing it there would have been unsupported.
            return
        if any(value_holds_sync(v) for v in items):
            raise Unsupported(f"{name} of channels, functions or sync objects", line)
        if len(set(items)) > 1:
            self._write_items(st, s, s[3], (UNKNOWN,) * len(items))

    def _with_predicate(self, st: State, name: str, args: list[Value], line: int) -> Value:
        """slices.IndexFunc, sort.Search, strings.IndexFunc and the like, handed a
        function of the program's that only computes (`Program.pure`), on what the
        checker knows (the slice's items, the count, ASCII text): the library's result,
        the function run the way the library runs it (`evaluate`). Anything less is
        unsupported: an unknown answer would send the program down paths it never takes."""
        fn_at = 0 if name in ("strings.Map", "bytes.Map") else len(args) - 1
        f = args[fn_at]
        if not self.program.pure(f[1]):
            raise Unsupported(f"{name} with a function that does more than compute", line)

        scratch = self._scratch(st)  # one copy for every call the library makes

        def call(*xs: Value) -> Value:
            return self.evaluate(scratch, f, list(xs), name, line)

        def test(*xs: Value) -> bool:
            r = call(*xs)
            if not isinstance(r, bool):
                raise Unsupported(f"{name} with a function whose answer the checker "
                                  "cannot tell", line)
            return r

        if name in ("slices.ContainsFunc", "slices.IndexFunc"):
            items = self._items(st, args[0])
            if items is None:
                raise Unsupported(f"{name} over items the checker cannot tell", line)
            at = next((i for i, x in enumerate(items) if test(x)), -1)
            return at >= 0 if name == "slices.ContainsFunc" else at
        if name in ("sort.Search", "sort.Find"):
            n = args[0]
            if not isinstance(n, int) or isinstance(n, bool) or n > V.INT_LIMIT:
                raise Unsupported(f"{name} over a count the checker cannot tell", line)
            lo, hi = 0, n
            while lo < hi:  # as the sort package searches: the calls it makes, in order
                h = (lo + hi) // 2
                if name == "sort.Search" and not test(h) or \
                        name == "sort.Find" and self._compared(call(h), name, line) > 0:
                    lo = h + 1
                else:
                    hi = h
            if name == "sort.Search":
                return lo
            return ("tuple", (lo, lo < n and self._compared(call(lo), name, line) == 0))
        text = args[1 - fn_at]
        if not (isinstance(text, str) and text.isascii()) or name.startswith("bytes."):
            raise Unsupported(f"{name} on text the checker cannot tell", line)
        runes = [ord(c) for c in text]
        if name in ("strings.IndexFunc", "strings.ContainsFunc"):
            at = next((i for i, r in enumerate(runes) if test(r)), -1)
            return at >= 0 if name == "strings.ContainsFunc" else at
        if name == "strings.FieldsFunc":
            fields, start = [], None
            for i, r in enumerate(runes):
                if test(r):
                    if start is not None:
                        fields.append(text[start:i])
                    start = None
                elif start is None:
                    start = i
            if start is not None:
                fields.append(text[start:])
            return new_slice(st, tuple(fields))
        if name == "strings.LastIndexFunc":
            return next((i for i in reversed(range(len(runes))) if test(runes[i])), -1)
        if name == "strings.Map":
            out = []
            for r in runes:
                m = call(r)
                if not isinstance(m, int) or isinstance(m, bool) or m >= 128:
                    raise Unsupported(f"{name} with a mapping the checker cannot tell", line)
                if m >= 0:
                    out.append(chr(m))
            return "".join(out)
        lo, hi = 0, len(runes)
        if name in ("strings.TrimFunc", "strings.TrimLeftFunc"):
            while lo < hi and test(runes[lo]):
                lo += 1
        if name in ("strings.TrimFunc", "strings.TrimRightFunc"):
            while hi > lo and test(runes[hi - 1]):
                hi -= 1
        return text[lo:hi]

    @staticmethod
    def _compared(v: Value, name: str, line: int) -> int:
        if not isinstance(v, int) or isinstance(v, bool):
            raise Unsupported(f"{name} with a comparison whose answer the checker cannot "
                              "tell", line)
        return v

    @staticmethod
    def _scratch(st: State) -> State:
        """A copy of `st` for `evaluate`, dropped afterwards."""
        scratch = st.copy()
        seen = getattr(st.objs, "seen", None)
        if seen is not None:
            # What the function reads belongs to the step's footprint (por.Tracked).
            scratch.objs = type(st.objs)(scratch.objs, seen)
        return scratch

    def evaluate(self, scratch: State, f: Value, args: list[Value], name: str,
                 line: int) -> Value:
        """What the program's function `f` returns for `args`, run to its end on
        `scratch`, a copy of the state (`_scratch`) that is then dropped: the function only
        computes (`Program.pure`), so nothing it does outlives the call but its result,
        and one copy serves all the calls a library makes. Unsupported when it stops
        before its end (a branch on something the checker does not know)."""
        fn = self.known_fn(f, line, f"{name}'s function")
        scratch.objs.pop(EVALUATED, None)
        scratch.spawn([self.frame(fn, tuple(args), f[2], EVALUATED)], f"{name} (line {line})")
        self.run(scratch, len(scratch.gs) - 1)
        if scratch.gs[-1].frames or EVALUATED not in scratch.objs:
            raise Unsupported(f"{name} with a function whose answer the checker cannot "
                              "tell", line)
        return scratch.objs[EVALUATED]

    def _text(self, st: State, name: str, args: list[Value]) -> Value:
        """strings' functions and a bufio.Scanner on known text (`textlib`), else UNKNOWN."""
        words = textlib.strings_list(name, args)
        if words is not None:
            return new_slice(st, words)
        if name == "strings.NewReader":
            return st.new_obj(("reader", args[0])) if isinstance(args[0], str) else UNKNOWN
        if name == "strings.Join" and len(args) == 2:
            items = self._items(st, args[0]) if isinstance(args[0], tuple) else None
            return UNKNOWN if items is None else textlib.join(items, args[1])
        if name == "bufio.NewScanner":
            r = args[0]
            if isinstance(r, tuple) and r[:2] == ("iface", "*strings.Reader"):
                reader = self.load(st, r[2], 0, "other")
                if isinstance(reader, tuple) and reader[0] == "reader":
                    sc = textlib.scanner(reader[1])
                    return UNKNOWN if sc is UNKNOWN else st.new_obj(sc)
            if self.len_bound is not None and (r == UNKNOWN or isinstance(r, tuple) and
                                               r[:2] == ("iface", "*os.File")):
                # The input's lines (os.Stdin, a file, a connection): as many as a list
                # from the input has, each unknown (`_input_scan`).
                self.lengths_bounded = True
                return st.new_obj(("input scanner", 0))
            return UNKNOWN
        if name.startswith("(*bufio.Scanner)."):
            sc = self.load(st, args[0], 0, "other") if isinstance(args[0], tuple) and \
                args[0][0] == "addr" else UNKNOWN
            if not (isinstance(sc, tuple) and sc[0] == "scanner"):
                return UNKNOWN
            method = name.rsplit(".", 1)[1]
            if method == "Scan":
                more, after = textlib.scan(sc)
                self.store(st, args[0], after, 0)
                return more
            if method == "Text":
                return sc[2]
            if method == "Err":
                return NIL
            if method == "Split":
                split = args[1][1] if isinstance(args[1], tuple) and args[1][0] == "fn" else ""
                words = {"bufio.ScanLines": textlib.SCAN_LINES,
                         "bufio.ScanWords": textlib.SCAN_WORDS}.get(split)
                self.store(st, args[0], UNKNOWN if words is None else (*sc[:3], words), 0)
                return ("tuple", ())
            if method == "Buffer":
                return ("tuple", ())
            return UNKNOWN
        return textlib.strings_call(name, args)

    def _input_scanner(self, st: State, sc: Value) -> bool:
        """Whether `sc` points to a bufio.Scanner over input the checker cannot read."""
        if not (isinstance(sc, tuple) and sc[0] == "addr" and sc[1] in st.objs):
            return False
        obj = V.get_path(st.objs[sc[1]], sc[2])
        return isinstance(obj, tuple) and obj[0] == "input scanner"

    def _input_scan(self, st: State, method: str, args: list[Value]) -> Value:
        """A bufio.Scanner's method over input the checker cannot read: Scan may find a
        token (unknown) len_bound times, then it finds none; its tokens and error are
        unknown."""
        scanned = self.load(st, args[0], 0, "other")[1]
        if method == "Scan":
            if scanned >= self.len_bound:
                return False
            self.store(st, args[0], ("input scanner", scanned + 1), 0)
            return UNKNOWN
        if method in ("Split", "Buffer"):
            return ("tuple", ())
        return UNKNOWN

    def _formatted(self, st: State, name: str, args: list[Value]) -> str | None:
        """fmt.Sprintf, Sprint, Sprintln or strconv.Itoa of operands all known, else None."""
        if name == "strconv.Itoa":
            return formatting.itoa(args[0])
        items = self._items(st, args[-1])  # the ...any slice: () when nil
        if items is None:
            return None
        operands = [formatting.operand(v) for v in items]
        if name == "fmt.Sprint":
            return formatting.sprint(operands)
        if name == "fmt.Sprintln":
            return formatting.sprintln(operands)
        return formatting.sprintf(args[0], operands) if isinstance(args[0], str) else None

    def atomic(self, st: State, name: str, args: list[Value], line: int) -> Value:
        """A sync/atomic function or method: a visible step, so that a goroutine spinning
        on an atomic flag lets the others run and set it."""
        op = name.split(".")[-1]
        addr = args[0] if args else None
        if name.startswith("(*sync.Map)."):
            return self._sync_map(st, op, addr, args[1:], line)
        boolean = name.startswith("(*sync/atomic.Bool)")
        if name.startswith("(*sync/atomic."):
            # atomic.Int32 and friends: a struct whose last field holds the value.
            shape = self.load(st, addr, line, "other")
            if isinstance(shape, tuple) and shape[0] == "struct" and isinstance(addr, tuple):
                addr = ("addr", addr[1], addr[2] + (len(shape[1]) - 1,))
            if boolean:
                args = [addr, *(bool(a) if isinstance(a, int) else a for a in args[1:])]
                # A Bool never stored holds its field's zero, the uint32 0: a bool from
                # now on, or CompareAndSwap(false, …) would find 0 != false.
                held = self.load(st, addr, line, "int")
                if isinstance(held, int) and not isinstance(held, bool):
                    self.store(st, addr, held != 0, line)
        v = self._atomic_op(st, op, name, addr, args, line)
        if boolean and isinstance(v, int) and not isinstance(v, bool):
            v = v != 0
        return v

    def _sync_map_value(self, st: State, addr: Value, line: int) -> tuple:
        """The ("mapv", entries, vague) a *sync.Map points to."""
        mv = self.load(st, addr, line, "other")
        if isinstance(mv, tuple) and mv[0] == "struct":
            mv = ("mapv", (), False)  # the zero sync.Map: library code never ran on it
        if not (isinstance(mv, tuple) and mv[0] == "mapv"):
            raise Unsupported("a sync.Map the checker cannot follow", line)
        return mv

    def sync_map_orders(self, st: State, addr: Value, line: int) -> list[tuple]:
        """The orders a sync.Map.Range may visit the keys in (MAP_ORDERS_UP_TO)."""
        _, entries, vague = self._sync_map_value(st, addr, line)
        if vague:
            raise Unsupported("sync.Map.Range over a map whose keys the checker cannot tell",
                              line)
        return self.key_orders(tuple(k for k, _ in entries))

    def sync_map_range(self, st: State, gid: int, args: tuple, keys: tuple, line: int
                       ) -> None:
        """sync.Map.Range(f) visiting `keys` in this order: f is called on each entry
        still there, until it returns false (`_yielded`). The step itself reads nothing
        more: each call of f runs on the goroutine as its own code, and a Store or Delete
        by f or by others meanwhile is a step of its own (Range is no snapshot in Go
        either; an entry deleted before it is reached is not visited here)."""
        addr, f = args
        fn = self.known_fn(f, line, "a sync.Map.Range function")
        entries = dict(self._sync_map_value(st, addr, line)[1])
        items = tuple((k, entries[k]) for k in keys if k in entries)
        self.complete(st, gid, ("tuple", ()), run=False)
        if items:
            g = st.gs[gid]
            g.frames.append(self.frame(fn, items[0], f[2], ("seq", f, items[1:], None)))
        self.run(st, gid)

    def _sync_map(self, st: State, op: str, addr: Value, args: list[Value], line: int
                  ) -> Value:
        """A sync.Map method, on a map kept like a Go map: ("mapv", entries, vague). A key
        the checker cannot tell makes it vague, and then every lookup is unknown."""
        _, entries, vague = self._sync_map_value(st, addr, line)
        key = args[0] if args else None
        if op == "Clear":
            entries, vague, result = (), False, ("tuple", ())
        elif op in ("Load", "LoadOrStore", "LoadAndDelete", "Swap", "Store", "Delete"):
            old = self._sync_map_get(entries, vague, key)
            if op in ("LoadOrStore", "Swap", "Store"):
                new = old[0] if op == "LoadOrStore" and old[1] is True else args[1]
                entries, vague = self._sync_map_put(entries, vague, key, new, line,
                                                    keep=op == "LoadOrStore" and old[1])
            elif op in ("LoadAndDelete", "Delete"):
                vague = vague or V.contains_unknown(key)
                entries = tuple(e for e in entries if e[0] != key)
            result = {"Store": ("tuple", ()), "Delete": ("tuple", ())}.get(
                op, ("tuple", old))
            if op == "LoadOrStore" and old[1] is not True:
                result = ("tuple", (UNKNOWN if V.is_unknown(old[1]) else args[1], old[1]))
        elif op in ("CompareAndSwap", "CompareAndDelete"):
            # Swaps (deletes) when the key is there with a value == old; when the checker
            # cannot tell, either may have happened: the map turns vague.
            cur, there = self._sync_map_get(entries, vague, key)
            result = False if there is False else V.binop("==", cur, args[1])
            if result is True and op == "CompareAndSwap":
                entries, vague = self._sync_map_put(entries, vague, key, args[2], line,
                                                    keep=False)
            elif result is True:
                entries = tuple(e for e in entries if e[0] != key)
            elif result is not False:
                result, vague = UNKNOWN, True
        else:
            raise Unsupported(f"sync.Map.{op} (not modelled)", line)
        self.store(st, addr, ("mapv", entries, vague), line)
        return result

    @staticmethod
    def _sync_map_get(entries: tuple, vague: bool, key: Value) -> tuple[Value, Value]:
        """The value under `key` and whether it was there (both unknown when the map or
        the key is vague: a store under an unknown key may have been this one)."""
        if vague or V.contains_unknown(key):
            return UNKNOWN, UNKNOWN
        for k, v in entries:
            if k == key:
                return v, True
        return NIL, False

    @staticmethod
    def _sync_map_put(entries: tuple, vague: bool, key: Value, value: Value, line: int, *,
                      keep: Value) -> tuple[tuple, bool]:
        if keep is True:
            return entries, vague
        if V.contains_unknown(key):
            if value_holds_sync(value):
                raise Unsupported("a channel stored in a sync.Map under a key the checker "
                                  "cannot tell", line)
            return entries, True
        if V.is_unknown(keep):
            vague = True  # LoadOrStore on a vague map: stored or not, the checker cannot tell
        rest = tuple(e for e in entries if e[0] != key)
        return tuple(sorted((*rest, (key, value)), key=repr)), vague

    def _atomic_op(self, st: State, op: str, name: str, addr: Value, args: list[Value],
                   line: int) -> Value:
        if op.startswith("Load"):
            return self.load(st, addr, line, "int")
        if op.startswith("Store"):
            self.store(st, addr, args[1], line)
            return ("tuple", ())
        if op.startswith("Add"):
            v = V.binop("+", self.load(st, addr, line, "int"), args[1])
            self.store(st, addr, v, line)
            return v
        if op.startswith("Swap"):
            old = self.load(st, addr, line, "int")
            self.store(st, addr, args[1], line)
            return old
        if op.startswith("CompareAndSwap"):
            old = self.load(st, addr, line, "int")
            eq = V.binop("==", old, args[1])
            if eq is True:
                self.store(st, addr, args[2], line)
            elif V.is_unknown(eq):
                self.store(st, addr, UNKNOWN, line)
            return eq
        raise Unsupported(f"{name} (not modelled)", line)


def ctx_timed(ctx: tuple) -> Value:
    """Whether a context ("ctx", done, timed) has a deadline."""
    return ctx[2] if len(ctx) > 2 else UNKNOWN


def _ordered(a: Value, b: Value) -> int | None:
    """cmp.Compare(a, b) of two known numbers or two known strings (bytewise: ASCII only),
    else None. A NaN is left to the library."""
    if type(a) in (int, float) and type(b) in (int, float):
        if a != a or b != b:
            return None
    elif not (type(a) is str and type(b) is str and a.isascii() and b.isascii()):
        return None
    return (a > b) - (a < b)


def _sentinel(err: Value) -> bool:
    """An error made by errors.New (`Machine._library`): it wraps nothing."""
    return type(err) is tuple and err[:2] == ("iface", "*errors.errorString") and \
        type(err[2]) is tuple and err[2][:1] == ("addr",)


def _errors_is(err: Value, target: Value,
               wrapped: Callable[[Value], tuple | None]) -> Value:
    """errors.Is: false for a nil error, true for the target itself, false for another
    error of errors.New's (it wraps nothing); false for a library's error (`io.EOF`, a
    done context's `Err`) or fmt.Errorf's without %w against one the program made with
    errors.New, which neither is nor wraps; for fmt.Errorf's with %w, what its operands
    say (`wrapped` gives them); else unknown (it may wrap the target)."""
    if err == NIL:
        return target == NIL
    if err == target and _sentinel(err):
        return True
    if err in (CTX_CANCELED, CTX_DEADLINE) and (
            target in (CTX_CANCELED, CTX_DEADLINE, NIL) or _sentinel(target)):
        return err == target  # a context's error wraps nothing
    if _sentinel(err) and (_sentinel(target) or target == NIL):
        return False
    if err == ERROR and _sentinel(target):
        return False
    inner = wrapped(err)
    if inner is None:
        return UNKNOWN
    if err == target:
        return True
    answers = [_errors_is(e, target, wrapped) for e in inner if e != NIL]
    if True in answers:
        return True
    # Itself a new error: it is the target only if the target is it.
    return False if all(a is False for a in answers) and _sentinel(target) else UNKNOWN


def _unknown_like(v: Value) -> Value:
    """`v` with every datum in it unknown: a struct's fields and an array's items each
    so, a map object's values too (its keys kept, others now possible: vague), anything
    else (a number, string, pointer or interface) wholly, but for what library code
    cannot make (a timer's stop function, a function value): kept."""
    if type(v) is tuple and v and v[0] in ("struct", "array"):
        return (v[0], tuple(_unknown_like(x) for x in v[1]))
    if type(v) is tuple and v and v[0] == "mapv":
        return ("mapv", tuple((k, _unknown_like(x)) for k, x in v[1]), True)
    if type(v) is tuple and v and v[0] in ("model", "fn"):
        return v
    return UNKNOWN
