"""Calls in gocheck's machine: `Calls`, the part of `machine.Machine` that finds what a
call reaches (a function of the program, a method through an interface, a closure, a
builtin, a model of library code: testify's assertions, slices' functions, pipes, a
context's methods) and runs it: a new frame, a builtin's effect on the state, or the
library's answer (library.py).

Machine inherits it; the instructions around calls are in instructions.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from generator.gocheck import gotest, pipes
from generator.gocheck import numeric as N
from generator.gocheck import values as V
from generator.gocheck.gotest import SYNCTEST_TEST
from generator.gocheck.instructions import UNKNOWN_KEYS, UNKNOWN_KEYS_COUNTED
from generator.gocheck.library import SYNC_OPS, ctx_timed
from generator.gocheck.ssa import Function, Instr
from generator.gocheck.state import (
    Frame,
    G,
    ProgramExit,
    State,
    named,
    new_slice,
)
from generator.gocheck.values import (
    CTX_CANCELED,
    CTX_DEADLINE,
    DEADLINE_CAUSE,
    NIL,
    SYNC_TAGS,
    UNKNOWN,
    Unsupported,
    Value,
    holds_sync,
    value_holds_sync,
)

MAX_FRAMES = 64

# Leak detectors a test calls (go.uber.org/goleak's VerifyNone, Find, Ignore…): they look
# for goroutines still running at the end of a test, which is what gocheck reports itself
# (a partial deadlock), and they do it by reading runtime.Stack, which it cannot follow.
# Their calls do nothing here (a result is unknown).
_GOLEAK = "go.uber.org/goleak"
_LEAK_DETECTORS = (_GOLEAK + ".",)

# testify's assertions (assert.X, require.X, and their Assertions' methods) compare values
# through reflect, which the checker cannot follow (interpreted, every one was
# unsupported), and communicate with nothing unless handed a function of the program's.
# Their calls do nothing here: assert's result is unknown, and require's t.FailNow on a
# failure is not explored (the test goes on as if the assertion held). Those that run a
# function of the test's (Eventually, Never, Panics) run plain-Go models of themselves
# that the front end puts in the checked package (`_testify_shim`); the rest of those
# stay unsupported.
_TESTIFY = ("github.com/stretchr/testify/assert", "github.com/stretchr/testify/require")
_ASSERTIONS = (*(f"{p}." for p in _TESTIFY), *(f"(*{p}.Assertions)." for p in _TESTIFY))

# Their assertions that run a function of the test's, and their models' names in the
# checked package (with whether a panic is wanted).
_TESTIFY_MODELS = {
    "Eventually": ("gocheckEventually", None), "Never": ("gocheckNever", None),
    "Panics": ("gocheckPanics", True), "PanicsWithValue": ("gocheckPanics", True),
    "PanicsWithError": ("gocheckPanics", True), "NotPanics": ("gocheckPanics", False),
}

# The packages of both: the front end does not load them from source.
MODELLED_PACKAGES = (_GOLEAK, *_TESTIFY)

# The unsafe package's builtins that view memory as another type.
_UNSAFE_VIEWS = frozenset({"SliceData", "StringData", "String", "Slice", "Add"})

# slices' functions that call a function of the program's on each item, and their models
# (toolchains/gocheck/shims/slices_funcs.go.txt) for a function that communicates; the front
# end adds the models to a package that calls one (runners.gocheck.frontend).
SLICES_MODELS = {"slices.DeleteFunc": "gocheckSlicesDeleteFunc",
                  "slices.IndexFunc": "gocheckSlicesIndexFunc",
                  "slices.ContainsFunc": "gocheckSlicesContainsFunc"}


class Calls:
    """Calls of a `Machine` (see the module docstring)."""

    def _op_Call(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        callee, args, static = self._callee(st, fr, ins)
        self._invoke(st, g, fr, callee, args, static, ins.line, ins, advance=True)

    def _callee(self, st: State, fr: Frame, ins: Instr) -> tuple[Value, list[Value], Any]:
        return self._resolve(st, fr, ins.x)

    def _resolve(self, st: State, fr: Frame, x: Any) -> tuple[Value, list[Value], Any]:
        """The function a call runs, its arguments, and its static name if known; a call
        through an interface resolves to the method of the value's dynamic type."""
        args = [self.operand(st, fr, a) for a in x["args"]]
        if x["mode"] == "invoke":
            method = x["method"]
            recv = self.operand(st, fr, x["recv"])
            if isinstance(recv, tuple) and recv[0] == "iface":
                name = f"({recv[1]}).{method}"
                if name in SYNC_OPS:
                    return ("fn", name, ()), [recv[2], *args], name
                target = self.program.methods.get(recv[1], {}).get(method)
                if target and self.program.function(target):
                    return ("fn", target, ()), [recv[2], *args], target
            return ("invoke", method, recv, x.get("iface"), x.get("escapes")), args, None
        callee = self.operand(st, fr, x["callee"])
        if isinstance(callee, tuple) and callee[0] == "fn" and \
                self.program.function(callee[1]) is None:
            model = pipes.model_of(self.program.package, callee[1], args) or \
                self._bufio_model(st, callee[1], args) or \
                self._handed_model(st, callee[1], args) or \
                self._slices_model(callee[1], args)
            if model is not None and self.program.function(model) is not None:
                return ("fn", model, ()), args, model
        return callee, args, x.get("static")

    def _bufio_model(self, st: State, name: str, args: list[Value]) -> str | None:
        """The model's method a call of a bufio or json reader's or writer's method runs
        when the receiver is a model's (one over a pipe); Unsupported for a method it
        lacks."""
        for prefix, (model, tag) in pipes.BUFFERED.items():
            if name.startswith(prefix) and args and self._model_tag(st, args[0]) == tag:
                method = f"(*{self.program.package}.{model}).{name[len(prefix):]}"
                if self.program.function(method) is None:
                    raise Unsupported(f"{name.split('/')[-1]} over a pipe or a reader or "
                                      "writer of the program's (not modelled)")
                return method
        return None

    def _handed_model(self, st: State, name: str, args: list[Value]) -> str | None:
        """The model of io.ReadFull, io.Copy, fmt.Fprintf, bufio.NewScanner and the like
        (`pipes.handed_model`) when one is handed a value of the program's with a method
        that may communicate: the model calls its Read or Write where the checker follows
        them. Where the front end added no models (`frontend._shims`), the library's runs,
        which is unsupported (`_no_communicating_methods`)."""
        model = pipes.handed_model(self.program.package, name)
        if model is None or self._communicating_method(st, args) is None:
            return None
        return model

    def _slices_model(self, name: str, args: list[Value]) -> str | None:
        """The model of slices.DeleteFunc, IndexFunc or ContainsFunc (an instance of it,
        `slices.DeleteFunc[[]chan int, chan int]`) when the function it is handed does more
        than compute: the model calls it on each item where the checker follows it (one
        that only computes runs as the library runs it, `_with_predicate`). Where the front
        end added no model (`frontend._shims`), as before."""
        model = SLICES_MODELS.get(name.split("[")[0])
        f = args[-1] if args else None
        if model is None or not (isinstance(f, tuple) and f[:1] == ("fn",)) or \
                self.program.pure(f[1]):
            return None
        return f"{self.program.package}.{model}"

    def _model_tag(self, st: State, v: Value) -> Value:
        """The first field of what `v` points to: a pipe model's says what it models."""
        if not (isinstance(v, tuple) and v[0] == "addr" and v[1] in st.objs):
            return None
        obj = V.get_path(st.objs[v[1]], v[2])
        return obj[1][0] if isinstance(obj, tuple) and obj[0] == "struct" and obj[1] else None

    def _invoke(self, st: State, g: G, fr: Frame, callee: Value, args: list[Value],
                static: str | None, line: int, ins: Instr | None, *, advance: bool) -> None:
        """Call `callee` locally; results go to `ins.res` (none for a deferred call)."""
        res = ins.res if ins is not None else None
        rtype = ins.type if ins is not None else ""

        def done(v: Value) -> None:
            if res:
                fr.regs[res] = named(st, v, rtype)
            if advance:
                fr.pc += 1

        if callee == NIL:
            raise ProgramExit("call of a nil function", line)
        kind = callee[0] if isinstance(callee, tuple) else None
        if kind == "invoke":
            _, method, recv, iface, escapes = callee
            if isinstance(recv, tuple) and recv[0] == "ctx":
                done(self._ctx_method(st, recv, method, rtype))
                return
            if isinstance(recv, tuple) and recv[0] == "iface" and recv[1] == "*testing.T":
                self._invoke(st, g, fr, ("fn", f"(*testing.T).{method}", ()),
                             [recv[2], *args], None, line, ins, advance=advance)
                return
            if isinstance(recv, tuple) and recv[0] == "iface":
                table = self.program.methods.get(recv[1], {})
                target = table.get(method)
                if target and self.program.function(target):
                    self._invoke(st, g, fr, ("fn", target, ()), [recv[2], *args], None, line,
                                 ins, advance=advance)
                    return
                if method in ("Error", "String"):
                    done(UNKNOWN)
                    return
                written = pipes.sink_write(recv[1], method, args)
                if written is not None:
                    done(written)
                    return
            if recv == NIL:
                raise ProgramExit("method call on a nil interface", line)
            if escapes or holds_sync(rtype) or self._program_has_method(method):
                raise Unsupported(f"a call of {method} through an interface the checker "
                                  "cannot resolve", line)
            done(V.unknown_of(rtype))
            return
        if kind == "builtin" and callee[1] == "recover":
            done(self._recover(g, fr))
            return
        if kind == "model" and callee[1] == "seq" and len(args) == 1:
            self._range_seq(st, g, fr, callee, args[0], line, res, advance)
            return
        if kind == "builtin":
            done(self._builtin(st, callee[1], args, line, rtype))
            return
        if kind == "fn":
            name = callee[1]
            if name.startswith(_LEAK_DETECTORS):
                done(V.unknown_of(rtype) if rtype else None)
                return
            if name.startswith(_ASSERTIONS):
                fns = [a for a in args if isinstance(a, tuple) and a[0] == "fn"
                       and self.program.function(a[1])]
                if fns:
                    shim = self._testify_shim(name, args, fns[0])
                    if shim is None:
                        raise Unsupported(f"{name.rsplit('/', 1)[-1]} runs a function of "
                                          "the program's", line)
                    self._invoke(st, g, fr, ("fn", shim[0], ()), shim[1], None, line, ins,
                                 advance=advance)
                    return
                done(V.unknown_of(rtype) if rtype else None)
                return
            if name in ("(*sync.Pool).Get", "(*sync.Pool).Put"):
                self._pool(st, g, fr, name, args, line, ins, advance=advance)
                return
            if name == f"{self.program.package}.{pipes.UNSUPPORTED}":
                raise Unsupported(args[0] if isinstance(args[0], str) else name, line)
            if name == f"{self.program.package}.{pipes.TAKEN}":
                done(pipes.taken(*args))
                return
            if name == f"{self.program.package}.{pipes.REST}":
                done(pipes.rest(*args))
                return
            fn = self.program.function(name)
            if fn is not None:
                if len(g.frames) >= MAX_FRAMES:
                    raise Unsupported("recursion deeper than the checker follows", line)
                if advance:
                    fr.pc += 1
                g.frames.append(self.frame(fn, tuple(args), callee[2], res))
                return
            if name == "runtime.Goexit":
                self.start_goexit(st, g)
                return
            printed = self._printed_methods(st, name, args)
            if name == SYNCTEST_TEST:
                # Its function runs as a subtest would, in the bubble the fake clock is of.
                done(gotest.bubble(self, st, g, args[0], args[1], line))
            elif name == gotest.M_RUN:
                gotest.main_run(self, st, g, args[0] if args else UNKNOWN, line)
                done(V.unknown_of(rtype))
            elif gotest.is_t_method(name):
                go_on, v = gotest.call(self, st, g, name, args, line, rtype)
                if go_on:
                    done(v)
            else:
                done(self._library(st, name, args, line, rtype, ins))
            # fmt and log call the Error or String method of what they print; those
            # calls run after the library's result is in, in the order of the arguments.
            for method, recv in reversed(printed):
                g.frames.append(self.frame(method, (recv,), (), None))
            return
        raise Unsupported("a call of a function value the checker cannot tell", line)

    def _testify_shim(self, name: str, args: list[Value], f: Value
                      ) -> tuple[str, list[Value]] | None:
        """The plain-Go model (toolchains/gocheck/shims/testify.go.txt, in the checked
        package) of a testify assertion that runs the test's function `f`, and its
        arguments; None when there is none. require's fails the test through t.FailNow;
        an `*Assertions` method's T is inside it, unseen, so only its result counts."""
        method = name.rsplit(".", 1)[1].removesuffix("f")
        model = _TESTIFY_MODELS.get(method)
        shim = f"{self.program.package}.{model[0]}" if model else ""
        if model is None or self.program.function(shim) is None:
            return None
        t = args[0] if "/require." in name and not name.startswith("(*") else NIL
        if method in ("Eventually", "Never"):
            return shim, [t, f, *args[2:4]]
        return shim, [t, f, model[1]]

    def _pool(self, st: State, g: G, fr: Frame, name: str, args: list[Value], line: int,
              ins: Instr | None, *, advance: bool) -> None:
        """sync.Pool: Get calls New (or gives nil without one), Put keeps nothing. Go may
        drop a pool's items at any moment, so a Get that always finds the pool empty is a
        run Go may take; one that gets back an item Put earlier is not explored."""
        def done(v: Value) -> None:
            if ins is not None and ins.res:
                fr.regs[ins.res] = v
            if advance:
                fr.pc += 1

        if name.endswith("Put"):
            done(("tuple", ()))
            return
        pool = self.load(st, args[0], line, "other")
        new = pool[1][-1] if isinstance(pool, tuple) and pool[0] == "struct" else UNKNOWN
        if new == NIL:
            done(NIL)
            return
        self.known_fn(new, line, "a sync.Pool's New")
        self._invoke(st, g, fr, new, [], None, line, ins, advance=advance)

    def _hands_over(self, reached: Iterable[tuple | None]) -> bool:
        """Whether library code given arguments that reach these values (`_reached`)
        can reach a channel, sync object or function of the program. Their types may say
        it could (a *bufio.Scanner holds a split function) while the values hold only what
        the library made itself (unknown here): then it cannot touch the program's."""
        for v in reached:
            if v is None:  # a pointer the checker cannot follow
                return True
            tag = v[0]
            if tag == "fn" and self.program.function(v[1]) is not None:
                return True
            if tag in SYNC_TAGS and tag != "fn" and not (tag == "ctx" and v[1] == NIL):
                return True  # (Background's context has nothing to wait on)
        return False

    def _reached(self, st: State, roots: list[Value]) -> Iterator[tuple | None]:
        """Every tagged value reachable from `roots` through their insides and the heap;
        None for a pointer that cannot be followed. A pointer reaches what it points to
        only (a pointer to a field reaches no sibling); a slice, its whole array."""
        todo = list(roots)
        seen: set = set()
        while todo:
            v = todo.pop()
            if type(v) is not tuple or not v:
                continue
            yield v
            tag = v[0]
            if tag == "addr" and v[1] is not None:
                if v[:3] not in seen:
                    seen.add(v[:3])
                    try:
                        todo.append(self.load(st, v, 0, "other"))
                    except (Unsupported, ProgramExit):
                        yield None
            elif tag in ("slice", "map", "iter") and v[1] is not None:
                if v[1] not in seen:
                    seen.add(v[1])
                    todo.append(st.objs.get(v[1]))
            elif tag not in ("?", "nil", "chan", "fn", "model", "ctx"):
                todo.extend(V.children(v))

    def _no_communicating_methods(self, st: State, name: str, args: list[Value],
                                  line: int) -> None:
        """A library function handed an interface value whose dynamic type has a method
        of the program that may communicate (io.TeeReader and a Read that receives) may
        call it unseen: unsupported (`_handed_model` runs a model where there is one)."""
        found = self._communicating_method(st, args)
        if found is not None:
            what = found[0].replace(self.program.package + ".", "")
            raise Unsupported(f"{name} is handed a {what} whose method {found[1]} "
                              "communicates", line)

    def _communicating_method(self, st: State, args: list[Value]) -> tuple[str, str] | None:
        """The dynamic type and the method of the first interface value among `args` with
        a method of the program's that may communicate, or None."""
        for v in self._ifaces(st, args):
            for method, target in self.program.methods.get(v[1], {}).items():
                if self.program.communicates(target):
                    return v[1], method
        return None

    def _ifaces(self, st: State, args: list[Value]) -> Iterator[Value]:
        """The interface values among a library call's arguments, those of a variadic
        slice (fmt.Println's ...any) included."""
        for a in args:
            items = self._items(st, a) if isinstance(a, tuple) and a[0] == "slice" else (a,)
            for v in items or ():
                if isinstance(v, tuple) and v[0] == "iface":
                    yield v

    def _printed_methods(self, st: State, name: str, args: list[Value]
                         ) -> list[tuple[Function, Value]]:
        """The program's Error or String methods a call of fmt or log runs on what it
        prints (a value's Error first, as fmt prefers it), with their receivers."""
        if name.split(".")[0].lstrip("(*") not in ("fmt", "log", "testing"):
            return []
        out = []
        for v in self._ifaces(st, args):
            table = self.program.methods.get(v[1], {})
            for method in ("Error", "String"):
                fn = self.program.function(table[method]) if method in table else None
                if fn is not None and fn.blocks:
                    out.append((fn, v[2]))
                    break
        return out

    def _program_has_method(self, method: str) -> bool:
        """Whether some type of the program (or a sync lock) has a method of this name
        that does more than compute (`Program.pure`): a call of it through an unknown
        interface value may then communicate, or change what the checker follows. (A
        hash.Hash64 made by hash/fnv, asked its Sum64 beside a hasher of the program's
        own that only computes, is no such call.)"""
        if method in ("Lock", "Unlock", "RLock", "RUnlock", "Wait", "Done", "Add"):
            return True
        # (A library's type made into an interface, os.Stdin's *os.File, has its methods
        # in the tables too; they are not the program's.)
        return any(method in table and table[method] in self.program.functions
                   and not self.program.pure(table[method])
                   for table in self.program.methods.values())

    def _ctx_method(self, st: State, ctx: Value, method: str, rtype: str) -> Value:
        if method == "Done":
            return ctx[1]
        if method == "Deadline":  # whether it has one is known: the time is not
            return ("tuple", (UNKNOWN, ctx_timed(ctx)))
        if method == "Err":
            # Not an error for a context that is never cancelled; an error once it is (a
            # cancel is for ever). Before that it goes both ways: this local step stands
            # for a call that may come after another goroutine's cancel.
            if ctx[1] == NIL:
                return NIL
            if not (isinstance(ctx[1], tuple) and ctx[1][0] == "chan"):
                return UNKNOWN
            closed = st.chans[ctx[1][1]][2]
            return ctx_err(closed) if closed else UNKNOWN
        if method == "Value":
            return UNKNOWN
        return V.unknown_of(rtype)

    def _builtin(self, st: State, name: str, args: list[Value], line: int,
                 rtype: str) -> Value:
        if name == "ssa:wrapnilchk":
            # A wrapper of a value method called through a pointer checks it for nil.
            if args[0] == NIL:
                raise ProgramExit("value method called through a nil pointer", line)
            return args[0]
        if name == "len":
            return self._len(st, args[0])
        if name == "cap":
            x = args[0]
            if isinstance(x, tuple) and x[0] == "chan":
                return st.chans[x[1]][0]
            if isinstance(x, tuple) and x[0] == "slice" and self._array_of(st, x) is not None:
                return self._cap_end(st, x) - x[3]
            return self._len(st, x)
        if name == "delete":
            m, k = args
            if isinstance(m, tuple) and m[0] == "map":
                _, entries, vague = st.objs[m[1]]
                if V.contains_unknown(k):
                    vague = True
                st.objs[m[1]] = ("mapv", tuple(e for e in entries if e[0] != k), vague)
            return ("tuple", ())
        if name in ("print", "println"):
            return ("tuple", ())
        if name == "clear":
            self._clear(st, args[0], line)
            return ("tuple", ())
        if name == "recover":
            return NIL
        if name in ("min", "max"):
            if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
                return (min if name == "min" else max)(args)
            return UNKNOWN
        if name == "append":
            return self._append(st, args, line)
        if name == "copy":
            return self._copy(st, args[0], args[1], line)
        if name == "panic":
            raise ProgramExit("panic", line)
        if name in _UNSAFE_VIEWS:
            # A byte-level view of a string or slice (groupcache's ByteView, zero-copy
            # conversions): what it points to is unknown, which is harmless unless it
            # reaches the program's channels, functions or sync objects.
            if self._hands_over(self._reached(st, args)):
                raise Unsupported(f"unsafe.{name} over channels, functions or sync "
                                  "objects", line)
            return UNKNOWN
        raise Unsupported(f"the builtin {name}", line)

    def _len(self, st: State, x: Value) -> Value:
        """`len(x)`; of a slice, string or map the checker cannot tell, a range up to
        len_bound (when the program has one)."""
        if x == NIL:
            return 0
        if isinstance(x, str):
            return len(x)
        if isinstance(x, tuple):
            if x[0] == "slice":
                return x[4] - x[3]
            if x[0] == "?slice":
                return x[1]
            if x[0] == "array":
                return len(x[1])
            if x[0] == "chan":
                return len(st.chans[x[1]][1])
            if x[0] == "map":
                _, entries, vague = st.objs[x[1]]
                if not vague or vague == UNKNOWN_KEYS_COUNTED or (
                        vague == UNKNOWN_KEYS and self._distinct_counts(st, x) is None):
                    return len(entries)
        if self.len_bound is None:
            return N.ranged(0, N.LEN_MAX)
        self.lengths_bounded = True
        return N.ranged(0, self.len_bound)

    def _array_of(self, st: State, s: Value) -> tuple | None:
        """The items of the whole array under slice `s`, None if the checker cannot tell."""
        if isinstance(s, tuple) and s[0] == "slice":
            arr = V.get_path(st.objs.get(s[1], UNKNOWN), s[2])
            if isinstance(arr, tuple) and arr[0] == "array":
                return arr[1]
        return None

    # Iterators of the standard library (maps.Keys, slices.All, …): a range over one
    # calls the loop body's `yield` once for each item, in the order a range over the
    # map or slice itself takes, until `yield` returns false. The frame of each call of
    # `yield` returns into ("seq", yield, the items still to come, the caller's register).

    def _seq_items(self, st: State, seq: tuple, line: int, order: tuple | None = None
                   ) -> tuple[tuple, ...]:
        """The arguments of each call of `yield` a range over iterator `seq` makes; over a
        map, in key order or in `order` (its keys)."""
        _, _, kind, src = seq
        if kind.startswith("maps."):
            mv = self._map(st, src, line, True)
            if mv is None or mv[2]:
                raise Unsupported(f"{kind} of a map whose keys the checker cannot tell", line)
            entries = mv[1]
            if order is not None:
                entries = tuple((k, dict(entries)[k]) for k in order)
            pick = {"maps.Keys": lambda k, v: (k,), "maps.Values": lambda k, v: (v,),
                    "maps.All": lambda k, v: (k, v)}[kind]
            return tuple(pick(k, v) for k, v in entries)
        items = self._items(st, src)
        if items is None:
            raise Unsupported(f"{kind} of a slice the checker cannot follow", line)
        if kind == "slices.Values":
            return tuple((v,) for v in items)
        pairs = tuple(enumerate(items))
        return pairs[::-1] if kind == "slices.Backward" else pairs

    def _range_seq(self, st: State, g: G, fr: Frame, seq: tuple, yield_: Value, line: int,
                   res: str | None, advance: bool, order: tuple | None = None) -> None:
        fn = self.known_fn(yield_, line, "a range over an iterator with a loop body")
        items = self._seq_items(st, seq, line, order)
        if advance:
            fr.pc += 1
        if not items:
            if res:
                fr.regs[res] = ("tuple", ())
            return
        g.frames.append(self.frame(fn, items[0], yield_[2], ("seq", yield_, items[1:], res)))

    def _yielded(self, st: State, g: G, ret: tuple, more: Value, line: int) -> None:
        """A call of `yield` returned `more`: call it on the next item, or end the range."""
        _, yield_, rest, res = ret
        if more is not True and more is not False:
            raise Unsupported("a loop body over an iterator whose result the checker cannot "
                              "tell", line)
        if more and rest:
            fn = self.known_fn(yield_, line, "a range over an iterator with a loop body")
            g.frames.append(self.frame(fn, rest[0], yield_[2], ("seq", yield_, rest[1:], res)))
        elif res and g.frames:
            g.frames[-1].regs[res] = ("tuple", ())

    def _collect(self, st: State, seq: tuple, sort: bool, line: int) -> Value:
        """slices.Collect or slices.Sorted of an iterator: a new slice of its items."""
        items = tuple(args[-1] for args in self._seq_items(st, seq, line))
        if sort:
            if all(isinstance(v, (int, str)) and not isinstance(v, bool) for v in items) \
                    and len({type(v) for v in items}) <= 1:
                items = tuple(sorted(items))
            elif any(value_holds_sync(v) for v in items):
                raise Unsupported("slices.Sorted of channels or sync objects", line)
            else:
                items = (UNKNOWN,) * len(items)  # an order the checker cannot tell
        return new_slice(st, items)

    def _items(self, st: State, s: Value) -> tuple | None:
        if s == NIL:
            return ()
        arr = self._array_of(st, s)
        return None if arr is None else arr[s[3] : s[4]]

    def _cap_end(self, st: State, s: tuple) -> int:
        arr = self._array_of(st, s)
        assert arr is not None
        return min(s[5], len(arr)) if len(s) > 5 else len(arr)

    def _write_items(self, st: State, s: tuple, at: int, new: tuple) -> None:
        """Write `new` into slice `s`'s array from index `at` of the array."""
        arr = self._array_of(st, s)
        assert arr is not None
        items = arr[:at] + new + arr[at + len(new):]
        st.objs[s[1]] = V.set_path(st.objs[s[1]], s[2], ("array", items))

    def _append(self, st: State, args: list[Value], line: int) -> Value:
        base, extra = args[0], args[1]
        a, b = self._items(st, base), self._items(st, extra)
        if isinstance(base, tuple) and base[0] == "?slice" and b is not None and \
                not value_holds_sync(extra):
            # (appended to, a slice from the input is as many items longer; its length
            # is a number or a range, `input_slice` and `_sub_slice`)
            n = base[1]
            return ("?slice", n + len(b) if type(n) is int else
                    N.range_binop("+", n, len(b), 64, False))
        if a is None or b is None or len(a) + len(b) > 256:
            if value_holds_sync(extra) or value_holds_sync(base):
                raise Unsupported("an append to a slice of channels the checker cannot "
                                  "follow", line)
            return UNKNOWN
        if base != NIL and base[4] + len(b) <= self._cap_end(st, base):
            # Room in the array: Go writes there, and every slice of it sees the items.
            self._write_items(st, base, base[4], b)
            return ("slice", base[1], base[2], base[3], base[4] + len(b), *base[5:])
        addr = st.new_obj(("array", a + b))
        return ("slice", addr[1], (), 0, len(a) + len(b))

    def _copy(self, st: State, dst: Value, src: Value, line: int) -> Value:
        """copy(dst, src): the items copied into dst's array; how many."""
        if dst == NIL:
            return 0
        d = self._items(st, dst)
        s = self._items(st, src) if not isinstance(src, str) else None
        if d is None:
            if value_holds_sync(src):
                raise Unsupported("a copy of channels into a slice the checker cannot follow",
                                  line)
            return UNKNOWN
        if s is None:
            if any(value_holds_sync(x) for x in d) or value_holds_sync(src):
                raise Unsupported("a copy of channels from a slice the checker cannot follow",
                                  line)
            if isinstance(src, str):
                data = tuple(src.encode())
                n = min(len(d), len(data))
                self._write_items(st, dst, dst[3], data[:n])
                return n
            self._write_items(st, dst, dst[3], (UNKNOWN,) * len(d))
            return UNKNOWN
        n = min(len(d), len(s))
        self._write_items(st, dst, dst[3], s[:n])
        return n

    def _clear(self, st: State, x: Value, line: int) -> None:
        """clear(m) empties a map; clear(s) sets a slice's items to their zero values."""
        if isinstance(x, tuple) and x[0] == "map":
            st.objs[x[1]] = ("mapv", (), False)
            return
        if x in (NIL, UNKNOWN):
            return
        items = self._items(st, x)
        if items is None:
            raise Unsupported("clear of a map or slice the checker cannot follow", line)
        self._write_items(st, x, x[3], tuple(_zero_like(v) for v in items))


def ctx_err(done_closed: Value) -> Value:
    """A context's Err: nil while its done channel is open, once it is closed the error of
    what closed it (the channel's `closed`: "deadline" for the context's deadline)."""
    if not done_closed:
        return NIL
    return CTX_DEADLINE if done_closed == DEADLINE_CAUSE else CTX_CANCELED


def _zero_like(v: Value) -> Value:
    """The zero value of the type a value has (clear), as far as the value shows it."""
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return 0
    if isinstance(v, str):
        return ""
    if not (isinstance(v, tuple) and v) or v == UNKNOWN:
        return v
    tag = v[0]
    if tag in ("struct", "array"):
        return (tag, tuple(_zero_like(x) for x in v[1]))
    sync = {"wg": "sync.WaitGroup", "mu": "sync.Mutex", "rw": "sync.RWMutex",
            "once": "sync.Once", "cond": "sync.Cond"}
    return V.zero(sync[tag]) if tag in sync else NIL
