"""The local instructions of gocheck's machine: `LocalInstructions`, the part of
`machine.Machine` that runs the SSA instructions no other goroutine can see (jumps and
branches, arithmetic, memory, slices and maps, closures and interfaces, defers, returns,
`go`), and the choices they may leave to the search: a branch on data the checker cannot
know, a number known only as a range, the order a range visits a map's keys, the run's CPU
count (`take_branch`, `take_value`, `take_order`, `take_cpus`, which `explore` calls).

Machine inherits it; its calls are in calls.py, the steps others can see in machine.py.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from generator.gocheck import gotest, pipes
from generator.gocheck import numeric as N
from generator.gocheck import values as V
from generator.gocheck.library import CPU_QUERIES, EVALUATED
from generator.gocheck.ssa import Instr, Program
from generator.gocheck.state import (
    PANIC_VALUE,
    Frame,
    G,
    ProgramExit,
    State,
)
from generator.gocheck.values import (
    NIL,
    SYNC_TAGS,
    UNKNOWN,
    Unsupported,
    Value,
    holds_sync,
    value_holds_sync,
)

# A range over a map (over maps.Keys, Values or All, or sync.Map.Range) of 2 to this many
# entries tries every order of them, each a branch of the search: Go's order is random, and
# a loop that breaks at the first match, or sends to each entry's channel in turn, can leak
# in one order only. n! orders of a larger map would swamp the search: up to
# MAP_ENDS_UP_TO entries, the 2n-1 orders with each key first or last and the others by
# key are tried (a worker that stops at "quit" deadlocks its sender unless "quit" comes
# last: one order by key hid that), beyond it one order, by key. Either way the report
# says so (`Machine.orders_cut`).
MAP_ORDERS_UP_TO = 4
MAP_ENDS_UP_TO = 16

# How many CPUs a run has: runtime.NumCPU() and GOMAXPROCS(0) are chosen, once a run,
# among these (a branch of the search each; the report says so). Unknown, a pool of
# NumCPU() workers could have none, and its jobs were said to leak; every machine has
# at least one, and bugs that depend on the count show with one or with a few.
CPU_COUNTS = (1, 2, 4)

# A length the checker cannot tell (of a list parsed from the input, of an environment
# variable's text) is taken to be at most LEN_SMALL, or one more than the greatest count
# the program states (`ssa.Program.counts`: a buffer of 4 overflows at the fifth item).
# A program whose counts reach past LEN_BOUND_UP_TO keeps lengths unbounded: its
# behaviour may change only with lists longer than a bound the search could cover.
LEN_SMALL = 3
LEN_BOUND_UP_TO = 8

# A number known only as a range, where an instruction needs it exactly (a channel's
# buffer size, a slice's length, WaitGroup.Add's count, the index of a channel in a
# slice): each value is a way the run may go, when there are at most this many
# (`Machine.value_choice`).
VALUE_CHOICES_UP_TO = 16

_LEN = {"k": "builtin", "n": "len"}
_MIN_MAX = ({"k": "builtin", "n": "min"}, {"k": "builtin", "n": "max"})
CPUS_GLOBAL = "g:runtime.NumCPU"  # the count chosen for the run (a global of the state)
_PROCS = "g:runtime.GOMAXPROCS"  # what GOMAXPROCS(n) set, if it did

# A map's vagueness when it holds values under keys the checker cannot tell, and has lost
# none: a lookup cannot tell whether it finds one, a range visits them all.
UNKNOWN_KEYS = "keys"

# The same, once the number of distinct keys was chosen (`Machine._settle`).
UNKNOWN_KEYS_COUNTED = "counted keys"


class LocalInstructions:
    """Local instructions of a `Machine` (see the module docstring)."""

    def _op_Jump(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        self._goto(st, fr, fr.fn.blocks[fr.block].succs[0])

    def _op_If(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        cond = self.condition(st, fr, ins)
        succs = fr.fn.blocks[fr.block].succs
        self._goto(st, fr, succs[0] if cond else succs[1])

    def condition(self, st: State, fr: Frame, ins: Instr) -> Value:
        """An If's condition: a comparison of unknown integers is decided again, on what
        the branches taken since (in any goroutine) learnt of them."""
        cond = self.operand(st, fr, ins.args[0])
        if not N.is_comparison(cond):
            return cond
        now = N.decided(cond)
        return N.implied(st.facts, now) if N.is_comparison(now) and st.facts else now

    def take_branch(self, st: State, gid: int, which: bool) -> None:
        """Resolve a choice: goroutine `gid` stopped at an If on unknown data. An integer
        compared there is narrowed on each way (`numeric.refined`): a register is never
        written again in this call, so what the branch learnt of it holds from here on."""
        fr = st.gs[gid].frames[-1]
        self._narrow(st, fr, fr.instr.args[0], which)
        succs = fr.fn.blocks[fr.block].succs
        self._goto(st, fr, succs[0] if which else succs[1])

    def _narrow(self, st: State, fr: Frame, cond: dict, holds: bool) -> None:
        value = self.operand(st, fr, cond)
        if N.is_comparison(value):
            # Its named integers carry what it learnt everywhere; the registers it was
            # computed from (below, through a `!` too) would only learn it again. Of two
            # names, how they relate is kept as well (`State.facts`).
            st.add_fact(value if holds else N.negated(value))
            for name, k, new in N.learnt(value, holds):
                st.substitute(name, k, new)
            return
        ins = fr.fn.definition(cond["n"]) if cond.get("k") == "reg" else None
        if ins is None:
            return
        if ins.op == "UnOp" and ins.x["op"] == "!":
            self._narrow(st, fr, ins.args[0], not holds)
            return
        if ins.op != "BinOp" or ins.x["op"] not in N.COMPARISONS:
            return
        a, b = ins.args
        op = ins.x["op"]
        for mine, other, how in ((a, b, op), (b, a, N.mirrored(op))):
            if mine.get("k") not in ("reg", "param"):
                continue  # a parameter is never written either: an assigned one is copied
            old = self.operand(st, fr, mine)
            new = N.refined(old, how, self.operand(st, fr, other), holds)
            if new is None:
                continue
            if mine["k"] == "reg":
                fr.regs[mine["n"]] = new
            else:
                i = mine["i"]
                fr.params = (*fr.params[:i], new, *fr.params[i + 1:])

    def _op_Phi(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        # Phis are evaluated on entering their block; reaching one here means the block
        # was entered at its start (the function's entry block has none).
        fr.pc += 1

    def _op_UnOp(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x = self.operand(st, fr, ins.args[0])
        if ins.x["op"] == "*":
            self._set(st, fr, ins, self.load(st, x, ins.line, ins.type))
        elif ins.x["op"] == "-" and type(x) is float:
            self._set(st, fr, ins, -x)
        elif ins.x["op"] == "!" and N.is_comparison(x):
            self._set(st, fr, ins, N.negated(x))
        else:
            self._set(st, fr, ins, V.unop(ins.x["op"], x))

    def _op_BinOp(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        a, b = self.args(st, fr, ins)
        op, bits = ins.x["op"], ins.x.get("bits")
        scaled = ins.type == "time.Duration" and op in ("*", "/", "%")
        if bits and (ins.x["unsigned"] or scaled) and op in V.WRAPPED_OPS and \
                type(a) is int and type(b) is int:
            # A Duration is data, a number of nanoseconds (500 * time.Millisecond), not a
            # loop bound: its products stay exact however large. Sums still count
            # (`values.count`): a Duration added up round a loop must not grow for ever.
            self._set(st, fr, ins, V.exact_binop(op, a, b, bits, ins.x["unsigned"]))
            return
        if type(a) is float and type(b) is float:
            self._set(st, fr, ins, N.float_binop(op, a, b))
            return
        if N.is_range(a) or N.is_range(b) or bits and op in N.COMPARISONS and \
                (a == UNKNOWN or b == UNKNOWN):
            self._set(st, fr, ins, N.range_binop(op, a, b, bits, ins.x.get("unsigned", False)))
            return
        self._set(st, fr, ins, V.binop(op, a, b))

    def _op_MakeChan(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        size = self.operand(st, fr, ins.args[0])
        if not isinstance(size, int) or isinstance(size, bool):
            raise Unsupported("a channel whose buffer size is not a known constant", ins.line)
        self._set(st, fr, ins, st.new_chan(size, ins.line, ins.x.get("name", "")))

    def _op_Alloc(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        self._set(st, fr, ins, st.new_obj(V.zero(ins.x["elem"])))

    def _op_Store(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        addr, value = self.args(st, fr, ins)
        self.store(st, addr, value, ins.line)
        fr.pc += 1

    def _op_FieldAddr(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x = self.operand(st, fr, ins.args[0])
        self._set(st, fr, ins, self._sub_addr(x, ins.x["field"], ins.line))

    def _sub_addr(self, x: Value, index: Value, line: int) -> Value:
        if x == NIL:
            raise ProgramExit("nil pointer dereference", line)
        if isinstance(x, tuple) and x[0] == "addr" and isinstance(index, int):
            return ("addr", x[1], x[2] + (index,))
        return ("addr?",)

    def _op_Field(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x = self.operand(st, fr, ins.args[0])
        v = V.get_path(x, (ins.x["field"],))
        if V.is_unknown(v) and holds_sync(ins.type):
            raise Unsupported("a field the checker cannot follow", ins.line)
        self._set(st, fr, ins, v)

    def _op_IndexAddr(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x, i = self.args(st, fr, ins)
        if isinstance(x, tuple) and x[0] == "slice":
            oid, path, lo, hi = x[1:5]
            if isinstance(i, int) and not isinstance(i, bool):
                if not 0 <= i < hi - lo:
                    raise ProgramExit("index out of range", ins.line)
                self._set(st, fr, ins, ("addr", oid, path + (lo + i,)))
                return
            self._set(st, fr, ins, ("addr?",))
            return
        if x == NIL and ins.x.get("base", "").startswith("slice"):
            raise ProgramExit("index out of range", ins.line)
        self._set(st, fr, ins, self._sub_addr(x, i if isinstance(i, int) else None, ins.line))

    def _op_Index(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x, i = self.args(st, fr, ins)
        if isinstance(x, str) and type(i) is int:  # a byte of a known string
            data = x.encode()
            if not 0 <= i < len(data):
                raise ProgramExit("index out of range", ins.line)
            self._set(st, fr, ins, data[i])
            return
        v = V.get_path(x, (i,)) if isinstance(i, int) and not isinstance(i, bool) else UNKNOWN
        if V.is_unknown(v) and holds_sync(ins.type):
            raise Unsupported("a channel kept in an array at an index the checker cannot "
                              "tell", ins.line)
        self._set(st, fr, ins, v)

    def _op_Slice(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x, lo, hi = self.args(st, fr, ins)
        lo = 0 if lo is None else lo
        # A slice's capacity ends where its array does, or at a 3-index slice's max (a
        # sixth item, an index into the array): an append within it writes in place.
        top = self.operand(st, fr, ins.x["max"]) if "max" in ins.x else None
        result: Value = UNKNOWN
        if isinstance(x, tuple) and x[0] == "addr" and isinstance(lo, int):
            arr = V.get_path(st.objs.get(x[1], UNKNOWN), x[2])
            if isinstance(arr, tuple) and arr[0] == "array":
                hi = len(arr[1]) if hi is None else hi
                if isinstance(hi, int):
                    result = ("slice", x[1], x[2], lo, hi)
                    if isinstance(top, int):
                        result += (top,)
        elif isinstance(x, tuple) and x[0] == "slice" and isinstance(lo, int):
            oid, path, lo0, hi0 = x[1:5]
            hi = hi0 - lo0 if hi is None else hi
            if isinstance(hi, int):
                result = ("slice", oid, path, lo0 + lo, lo0 + hi, *x[5:])
                if isinstance(top, int):
                    result = result[:5] + (lo0 + top,)
        elif x == NIL and lo == 0 and hi in (None, 0):
            result = NIL
        elif isinstance(x, tuple) and x[0] == "?slice":
            result = _sub_slice(x[1], lo, x[1] if hi is None else hi, ins.line)
        elif isinstance(x, str) and x.isascii() and isinstance(lo, int) and \
                (hi is None or isinstance(hi, int)):
            hi = len(x) if hi is None else hi
            if not 0 <= lo <= hi <= len(x):
                raise ProgramExit("slice bounds out of range", ins.line)
            result = x[lo:hi]
        if top is not None and not isinstance(top, int) and isinstance(result, tuple) \
                and result[0] == "slice":
            result = UNKNOWN  # a capacity the checker cannot tell
        if V.is_unknown(result) and holds_sync(ins.x.get("base", "")):
            raise Unsupported("a slice of channels the checker cannot follow", ins.line)
        self._set(st, fr, ins, result)

    def _op_MakeSlice(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        n, cap = self.args(st, fr, ins)
        elem = ins.x["elem"]
        if isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 256:
            # The array holds the capacity: appends within it write in place, as in Go.
            size = cap if isinstance(cap, int) and n <= cap <= 256 else n
            addr = st.new_obj(("array", (V.zero(elem),) * size))
            self._set(st, fr, ins, ("slice", addr[1], (), 0, n))
            return
        if holds_sync(elem):
            raise Unsupported("a slice of channels or sync objects of unknown length", ins.line)
        self._set(st, fr, ins, UNKNOWN)

    # Maps: an object ("mapv", entries, vague) with entries sorted by key. A key the
    # checker cannot tell makes the map vague: lookups then give UNKNOWN, which is
    # unsupported when the values are channels or sync objects. Ranging visits the
    # known entries in every order for a small map, else in key order (MAP_ORDERS_UP_TO).

    def _op_MakeMap(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        addr = st.new_obj(("mapv", (), False))
        self._set(st, fr, ins, ("map", addr[1]))

    def _map(self, st: State, m: Value, line: int, holds: bool) -> tuple | None:
        if isinstance(m, tuple) and m[0] == "map":
            return st.objs[m[1]]
        if m == NIL:
            return ("mapv", (), False)
        if holds:
            raise Unsupported("a map of channels or sync objects the checker cannot follow",
                              line)
        return None

    def _op_MapUpdate(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        m, k, v = self.args(st, fr, ins)
        mv = self._map(st, m, ins.line, value_holds_sync(v))
        if m == NIL:
            raise ProgramExit("assignment to entry in nil map", ins.line)
        if mv is not None:
            _, entries, vague = mv
            st.objs[m[1]] = ("mapv", *_map_put(entries, vague, k, v, ins.line))
        fr.pc += 1

    def _maps_copy(self, st: State, dst: Value, src: Value, line: int) -> None:
        """maps.Copy(dst, src): each entry of src stored in dst as `dst[k] = v` would; a
        source the checker cannot follow leaves dst vague (its lookups unknown)."""
        smv = self._map(st, src, line, False)
        dmv = self._map(st, dst, line, False)
        if dmv is None:
            return  # a map the checker lost already: nothing more to lose
        if dst == NIL:
            # Go panics when there is an entry to store; from a map the checker lost, it
            # cannot tell whether there is, and goes on as if there were none.
            if smv is not None and smv[1]:
                raise ProgramExit("assignment to entry in nil map", line)
            return
        _, entries, vague = dmv
        if smv is None:
            st.objs[dst[1]] = ("mapv", entries, True)
            return
        for k, v in smv[1]:
            entries, vague = _map_put(entries, vague, UNKNOWN if _unknown_key(k) else k, v,
                                      line)
        st.objs[dst[1]] = ("mapv", entries, vague or smv[2])

    def _lookup(self, st: State, m: Value, k: Value, type_class: str, line: int
                ) -> tuple[Value, Value]:
        mv = self._map(st, m, line, holds_sync(type_class))
        if mv is not None and not V.contains_unknown(k):
            _, entries, vague = mv
            for ek, ev in entries:
                if ek == k:
                    return ev, True
            if not vague:
                return V.zero(type_class), False
        if holds_sync(type_class):
            raise Unsupported("a channel looked up in a map under a key the checker cannot "
                              "tell", line)
        return UNKNOWN, UNKNOWN

    def _op_Lookup(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        m, k = self.args(st, fr, ins)
        if isinstance(m, str) or ins.type == "int" and not isinstance(m, tuple):
            self._set(st, fr, ins, UNKNOWN)  # indexing a string
            return
        if ins.x.get("commaok"):
            v, ok = self._lookup(st, m, k, _first_class(ins.type), ins.line)
            self._set(st, fr, ins, ("tuple", (v, ok)))
        else:
            self._set(st, fr, ins, self._lookup(st, m, k, ins.type, ins.line)[0])

    def _op_Range(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        # The iterator: ("iter", map object, the keys still to visit, in the order taken).
        x = self.operand(st, fr, ins.args[0])
        if isinstance(x, tuple) and x[0] == "map":
            self._set(st, fr, ins, ("iter", x[1], tuple(k for k, _ in st.objs[x[1]][1])))
        elif x == NIL:
            self._set(st, fr, ins, ("iter", None, ()))
        else:
            self._set(st, fr, ins, UNKNOWN)

    def range_orders(self, st: State, fr: Frame, ins: Instr) -> list[tuple] | None:
        """The orders a range over a map at `ins` (a Range, or a call of maps.Keys, Values
        or All's iterator with the loop body) may visit its keys in, when there is a choice
        (MAP_ORDERS_UP_TO); None when the range runs locally."""
        if ins.op == "Range":
            x = self.operand(st, fr, ins.args[0])
        elif ins.x.get("static"):
            return None  # a function called by name is no iterator (a hot path: every call)
        else:
            seq, args, _ = self._resolve(st, fr, ins.x)
            if not (isinstance(seq, tuple) and seq[:2] == ("model", "seq")
                    and seq[2].startswith("maps.") and len(args) == 1):
                return None
            x = seq[3]
        if not (isinstance(x, tuple) and x[0] == "map"):
            return None
        mv = st.objs[x[1]]
        orders = self.key_orders(tuple(k for k, _ in mv[1]))
        return orders if len(orders) > 1 and not mv[2] else None

    def key_orders(self, keys: tuple) -> list[tuple]:
        """`key_orders`, noting the largest map whose orders were not all tried."""
        if len(keys) > MAP_ORDERS_UP_TO:
            self.orders_cut = max(self.orders_cut, len(keys))
        return key_orders(keys)

    def asks_cpus(self, st: State, fr: Frame, ins: Instr) -> bool:
        """Whether `ins` asks how many CPUs there are before the run has chosen: a call of
        runtime.NumCPU or GOMAXPROCS, or a subtest's t.Parallel (`go test -parallel`'s
        default is the count: gotest.PARALLEL)."""
        # The state's CPU count is looked at only for these calls: a look is a read of
        # the state that partial-order reduction counts as touching every goroutine.
        static = ins.x.get("static") if ins.op == "Call" else None
        if static not in CPU_QUERIES and static != gotest.PARALLEL_METHOD or \
                CPUS_GLOBAL in st.objs:
            return False
        if static in CPU_QUERIES:
            return True
        args = [self.operand(st, fr, a) for a in ins.x["args"]]
        return bool(args) and gotest.is_subtest(self, st, args[0])

    @staticmethod
    def parallel_limit(st: State) -> int:
        """How many tests `go test` runs at once: its -parallel flag's default, GOMAXPROCS
        when the run starts, the run's CPU count (chosen before a subtest's Parallel, unless
        the call went through a function value: then the most CPUs the checker takes)."""
        return st.objs.get(CPUS_GLOBAL, CPU_COUNTS[-1])

    @staticmethod
    def cpu_choices(st: State) -> tuple[int, ...]:
        """The CPU counts a run may still have: CPU_COUNTS, or the one another goroutine's
        question chose already."""
        return (st.objs[CPUS_GLOBAL],) if CPUS_GLOBAL in st.objs else CPU_COUNTS

    @staticmethod
    def take_cpus(st: State, n: int) -> None:
        """Resolve a choice: the run has `n` CPUs (CPU_COUNTS)."""
        st.objs[CPUS_GLOBAL] = n

    def _cpus(self, st: State, name: str, args: list[Value]) -> Value:
        """runtime.NumCPU(), or GOMAXPROCS(n): the count, after setting it when n > 0."""
        procs = st.objs.get(_PROCS, st.objs.get(CPUS_GLOBAL, UNKNOWN))
        if name == "runtime.NumCPU":
            return st.objs.get(CPUS_GLOBAL, UNKNOWN)
        if args and args[0] != 0:
            st.objs[_PROCS] = args[0] if isinstance(args[0], int) and args[0] > 0 else UNKNOWN
        return procs

    def value_choice(self, st: State, fr: Frame, ins: Instr
                     ) -> tuple[dict, Value, tuple[int, ...]] | None:
        """The operand an instruction needs exactly that is a small range (a length
        up to len_bound, `len(key) % 4`): the operand, its value and the values it may
        take there (in the bounds of the slice it indexes, and as what branches learnt
        of it and another number allow: `State.facts`). None if there is none."""
        choice = self._choice_of(st, fr, ins)
        if choice is None or not st.facts or N.name_of(choice[1]) is None:
            return choice
        operand, value, values = choice
        kept = tuple(n for n in values if N.admits(st.facts, value, n))
        # (none kept: the facts contradict each other, a path no run takes; it is
        # explored as before rather than guessed at)
        return (operand, value, kept) if kept else choice

    def _choice_of(self, st: State, fr: Frame, ins: Instr
                   ) -> tuple[dict, Value, tuple[int, ...]] | None:
        op = ins.op
        lo_min: int | None = None
        hi_max: int | None = None
        if op == "Range" or op == "Call" and ins.x.get("callee") == _LEN:
            # A map holding values under keys the checker cannot tell: how many of them
            # are distinct (`_settle`), before its length is taken or a range visits it.
            operand = ins.args[0] if op == "Range" else ins.x["args"][0]
            counts = self._distinct_counts(st, self.operand(st, fr, operand))
            return None if counts is None else (operand, None, counts)
        if op == "BinOp" or op == "Call" and ins.x.get("callee") in _MIN_MAX:
            return self._arithmetic_choice(st, fr, ins)
        if op in ("MakeChan", "MakeSlice"):
            # (a slice of a length the checker cannot tell would be unknown: a range over
            # it could not agree with the list whose length it has)
            operand, lo_min = ins.args[0], 0
        elif op == "Call":
            if ins.x.get("static") != "(*sync.WaitGroup).Add":
                return None
            operand = ins.x["args"][1]
        else:  # IndexAddr, Index: only where the item picked holds a channel, a sync
            # object or a reference (a shard's struct), not plain data
            operand = ins.args[1]
            if not N.is_range(self.operand(st, fr, operand)):
                return None
            items = self._indexed(st, self.operand(st, fr, ins.args[0]))
            if not items or not any(_followed(v) for v in items):
                return None
            lo_min, hi_max = 0, len(items) - 1
        value = self.operand(st, fr, operand)
        values = _few_values(value, lo_min, hi_max)
        return None if values is None else (operand, value, values)

    def _arithmetic_choice(self, st: State, fr: Frame, ins: Instr
                           ) -> tuple[dict, Value, tuple[int, ...]] | None:
        """An operand of arithmetic that ranges do not follow exactly (a product or a
        quotient of a small range, min or max, the sum of two ranges), when it has few
        values: each is a branch, so that the result is a number again, as related to
        the list it came from as the operand (`(len(items) + 1) / 2` batches)."""
        if ins.op == "BinOp":
            if ins.type != "int" or ins.x["op"] in N.COMPARISONS:
                return None
            operands = ins.args
            values = [self.operand(st, fr, o) for o in operands]
            if ins.x["op"] in ("+", "-") and any(type(v) is int for v in values):
                return None  # a named number plus a known one stays named
        else:
            operands = ins.x["args"]
            values = [self.operand(st, fr, o) for o in operands]
        for operand, value in zip(operands, values, strict=True):
            few = _few_values(value, None, None)
            if few is not None:
                return operand, value, few
        return None

    def _indexed(self, st: State, x: Value) -> tuple | None:
        """The items a slice, an array or a pointer to an array holds, None if the
        checker cannot tell them."""
        if isinstance(x, tuple) and x[0] == "slice":
            items = self._array_of(st, x)
            return None if items is None else items[x[3]:x[4]]
        if isinstance(x, tuple) and x[0] == "addr":
            x = V.get_path(st.objs.get(x[1], UNKNOWN), x[2])
        if isinstance(x, tuple) and x[0] == "array":
            return x[1]
        return None

    def take_value(self, st: State, gid: int, n: int) -> None:
        """Resolve a choice: the number goroutine `gid`'s instruction needs exactly is `n`;
        a named one is `n` wherever it was copied (the list's length for the loop over it
        too)."""
        fr = st.gs[gid].frames[-1]
        choice = self.value_choice(st, fr, fr.instr)
        assert choice is not None
        operand, value, _ = choice
        if value is None:
            self._settle(st, self.operand(st, fr, operand), n)
        elif N.name_of(value) is not None:
            st.substitute(value[3], value[4], n)
        elif operand["k"] == "reg":
            fr.regs[operand["n"]] = n
        elif operand["k"] == "param":
            i = operand["i"]
            fr.params = (*fr.params[:i], n, *fr.params[i + 1:])
        else:
            i = operand["i"]
            fr.free = (*fr.free[:i], n, *fr.free[i + 1:])

    def _distinct_counts(self, st: State, m: Value) -> tuple[int, ...] | None:
        """How many distinct keys map `m` may have, when it holds values under keys the
        checker cannot tell that may equal each other or a known key (a set of the input's
        words with duplicates), and more than one count is possible; else None."""
        if not (isinstance(m, tuple) and m[0] == "map"):
            return None
        _, entries, vague = st.objs[m[1]]
        if vague != UNKNOWN_KEYS:
            return None
        unknown = sum(1 for k, _ in entries if _unknown_key(k))
        least = max(len(entries) - unknown, 1)
        return tuple(range(least, len(entries) + 1)) if least < len(entries) else None

    def _settle(self, st: State, m: Value, n: int) -> None:
        """Map `m` has `n` distinct keys: the values stored first under keys the checker
        cannot tell were overwritten by later ones (or stored under a known key)."""
        _, entries, _ = st.objs[m[1]]
        drop = len(entries) - n
        kept = []
        for k, v in sorted(entries, key=lambda e: e[0][1] if _unknown_key(e[0]) else -1):
            if drop and _unknown_key(k):
                drop -= 1
                continue
            kept.append((k, v))
        st.objs[m[1]] = ("mapv", tuple(sorted(kept, key=repr)), UNKNOWN_KEYS_COUNTED)

    def take_order(self, st: State, gid: int, keys: tuple) -> None:
        """Resolve a choice: goroutine `gid`'s range over a map visits `keys` in this order."""
        g = st.gs[gid]
        fr = g.frames[-1]
        ins = fr.instr
        if ins.op == "Range":
            self._set(st, fr, ins, ("iter", self.operand(st, fr, ins.args[0])[1], keys))
            return
        seq, args, _ = self._callee(st, fr, ins)
        self._range_seq(st, g, fr, seq, args[0], ins.line, ins.res, True, keys)

    def _op_Next(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        it = self.operand(st, fr, ins.args[0])
        parts = V.split_class(ins.type, "(", ")") if ins.type.startswith("tuple(") else []
        if isinstance(it, tuple) and it[0] == "iter":
            _, oid, keys = it
            _, entries, vague = st.objs[oid] if oid is not None else ("mapv", (), False)
            now = dict(entries)
            # Go visits an entry deleted before it was reached not at all, and one added
            # during the range perhaps: here, not.
            while keys and keys[0] not in now:
                keys = keys[1:]
            if keys:
                if ins.args[0]["k"] == "reg":
                    fr.regs[ins.args[0]["n"]] = ("iter", oid, keys[1:])
                self._set(st, fr, ins, ("tuple", (True, keys[0], now[keys[0]])))
                return
            if not vague or vague in (UNKNOWN_KEYS, UNKNOWN_KEYS_COUNTED):
                self._set(st, fr, ins, ("tuple", (False, *(V.zero(p) for p in parts[1:]))))
                return
        if holds_sync(ins.type):
            raise Unsupported("a range over a map holding channels", ins.line)
        self._set(st, fr, ins, V.unknown_of(ins.type))

    def _op_Extract(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        t = self.operand(st, fr, ins.args[0])
        v = t[1][ins.x["index"]] if isinstance(t, tuple) and t[0] == "tuple" else UNKNOWN
        if V.is_unknown(v) and holds_sync(ins.type):
            raise Unsupported("a channel returned by code the checker does not model",
                              ins.line)
        self._set(st, fr, ins, v)

    def _op_MakeClosure(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        self._set(st, fr, ins, ("fn", ins.x["fn"], tuple(self.args(st, fr, ins))))

    def _op_MakeInterface(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x = self.operand(st, fr, ins.args[0])
        dyn = pipes.dynamic_type(self.program.package, ins.x["dyn"])
        model = pipes.BUFFERED.get(f"({dyn}).")
        if model is not None and self._model_tag(st, x) == model[1]:
            dyn = f"*{self.program.package}.{model[0]}"
        self._set(st, fr, ins, ("iface", dyn, x))

    def _op_Copy(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x = self.operand(st, fr, ins.args[0])
        wrong = {
            "int": not (isinstance(x, int) and not isinstance(x, bool)),
            "string": not isinstance(x, str),
            "bool": not isinstance(x, bool),
        }
        if ins.x.get("frombytes") and ins.type == "string" and not isinstance(x, str):
            x = self._bytes_text(st, x)
        elif ins.type == "float64":
            x = N.as_float(x)
        elif type(x) is float and ins.x.get("bits"):  # float to an integer type
            x = N.as_int(x, ins.x["bits"], ins.x["unsigned"])
        elif N.is_range(x):
            # The same number in another integer type (BufferCap(rand.Intn(50) + 1)), name
            # and all, where the type holds every number of its range.
            if ins.x.get("bits") and not N.fits(x, ins.x["bits"], ins.x["unsigned"]):
                x = UNKNOWN
        elif wrong.get(ins.type, False):
            x = UNKNOWN
        elif type(x) is int and ins.x.get("bits"):  # a conversion between integer types
            x = V.wrapped(x, ins.x["bits"], ins.x["unsigned"])
        self._set(st, fr, ins, x)

    def _bytes_text(self, st: State, b: Value) -> Value:
        """string(b) of a []byte whose bytes the checker knows (copied from a string, as
        a pipe's model does), else UNKNOWN."""
        if b == NIL:
            return ""
        items = self._items(st, b) if isinstance(b, tuple) and b[0] == "slice" else None
        if items is None or not all(type(i) is int and 0 <= i < 256 for i in items):
            return UNKNOWN
        try:
            return bytes(items).decode()
        except UnicodeDecodeError:
            return UNKNOWN

    def _op_TypeAssert(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x = self.operand(st, fr, ins.args[0])
        asserted = ins.x["asserted"]
        commaok = ins.x["commaok"]
        if isinstance(x, tuple) and x[:2] == PANIC_VALUE:
            x = UNKNOWN  # the panic's value has a type the checker does not know
        if isinstance(x, tuple) and x[0] == "iface":
            if ins.x["toiface"]:
                ok, v = True, x
            else:
                ok = x[1] == asserted
                v = x[2] if ok else V.zero(_first_class(ins.type))
        elif x == NIL:
            ok, v = False, NIL
        else:
            if holds_sync(ins.type):
                raise Unsupported("a type assertion on a value the checker cannot tell",
                                  ins.line)
            self._set(st, fr, ins, V.unknown_of(ins.type))
            return
        if commaok:
            self._set(st, fr, ins, ("tuple", (v, ok)))
        elif not ok:
            raise ProgramExit("interface conversion panic", ins.line)
        else:
            self._set(st, fr, ins, v)

    def _op_Defer(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        callee, args, static = self._callee(st, fr, ins)
        fr.defers = fr.defers + ((callee, tuple(args), static, ins.line),)
        fr.pc += 1

    def _op_RunDefers(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        if not fr.defers:
            fr.pc += 1
            return
        callee, args, static, line = fr.defers[-1]
        fr.defers = fr.defers[:-1]
        self._invoke(st, g, fr, callee, list(args), static, line, None, advance=False)

    def _op_Return(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        results = self.args(st, fr, ins)
        g.frames.pop()
        value = results[0] if len(results) == 1 else ("tuple", tuple(results))
        if isinstance(fr.ret, tuple) and fr.ret[0] == "seq":
            self._yielded(st, g, fr.ret, value, ins.line)
        elif isinstance(fr.ret, tuple) and fr.ret[0] == "test":
            gotest.ended(self, st, g, fr.ret[1])
        elif fr.ret == EVALUATED:
            st.objs[EVALUATED] = value
        elif isinstance(fr.ret, tuple):  # a sync.OnceValue's function: ("once", its Once)
            once = self.load(st, fr.ret[1], ins.line, "other")
            self.store(st, fr.ret[1], (*once[:5], value), ins.line)
        elif fr.ret is not None and g.frames:
            caller = g.frames[-1]
            caller.regs[fr.ret] = value

    def _op_Go(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        callee, args, static = self._callee(st, fr, ins)
        fr.pc += 1
        if isinstance(callee, tuple) and callee[0] == "fn":
            fn = self.program.function(callee[1])
            if fn is not None:
                label = f"g{len(st.gs)} ({fn.short_name}, spawned at line {ins.line})"
                st.spawn([self.frame(fn, tuple(args), callee[2], None)], label)
                self.run(st, len(st.gs) - 1)
                return
        if static == "(*sync.WaitGroup).Done" or (
                isinstance(callee, tuple) and callee[:2] == ("fn", "(*sync.WaitGroup).Done")):
            st.spawn([], f"g{len(st.gs)} (WaitGroup.Done, spawned at line {ins.line})",
                     tail=(("wg_done", args[0]),))
            return
        if isinstance(callee, tuple) and (callee[:2] == ("model", "cancel")
                                          or callee[:2] == ("builtin", "close")):
            # `go cancel()`, `go close(ch)`: a goroutine that does that one step.
            kind, ch = ("cancel", callee[2]) if callee[0] == "model" else ("close", args[0])
            st.spawn([], f"g{len(st.gs)} ({kind}, spawned at line {ins.line})",
                     tail=((kind, ch),))
            return
        if callee == ("builtin", "panic"):
            # `go panic(v)` (singleflight's DoChan): a goroutine nobody can recover in, so
            # the program ends; a recovered runtime error panicked with so is that error.
            why = self.panic_why(st, args[0])
            st.spawn([], f"g{len(st.gs)} (panic, spawned at line {ins.line})",
                     tail=(("exit", why, ins.line),))
            return
        if isinstance(callee, tuple) and callee[0] in ("model", "builtin"):
            raise Unsupported(f"a goroutine running {static or callee[1]}", ins.line)
        if isinstance(callee, tuple) and callee[0] == "invoke" and not ins.x.get("escapes") \
                and not self._program_has_method(callee[1]):
            return  # a library method through an interface, handed nothing of ours
        if not (isinstance(callee, tuple) and callee[0] == "fn"):
            raise Unsupported("a goroutine running a function value the checker cannot tell",
                              ins.line)
        # A goroutine running library code: its effects on channels are not modelled.
        if ins.x.get("escapes") or callee[2]:
            raise Unsupported(f"a goroutine running {static or 'library code'} with a channel",
                              ins.line)


def key_orders(keys: tuple) -> list[tuple]:
    """The orders a range over a map with `keys` (in key order) is explored in."""
    if 2 <= len(keys) <= MAP_ORDERS_UP_TO:
        return list(permutations(keys))
    if len(keys) <= MAP_ENDS_UP_TO:
        ends = [keys]
        for i, k in enumerate(keys):
            rest = keys[:i] + keys[i + 1:]
            ends += [(k, *rest), (*rest, k)]
        return list(dict.fromkeys(ends))
    return [keys]


def _few_values(v: Value, lo_min: int | None, hi_max: int | None) -> tuple[int, ...] | None:
    """The values of range `v` within `lo_min`..`hi_max`, if there are at most
    VALUE_CHOICES_UP_TO of them (and one at least); else None. (A negative size or an
    index out of range panics in Go: not a way worth a branch when the range is the
    checker's own widening.)"""
    if not N.is_range(v):
        return None
    lo, hi = N.bounds(v)
    if lo is None or hi is None:
        return None
    lo = lo if lo_min is None else max(lo, lo_min)
    hi = hi if hi_max is None else min(hi, hi_max)
    return tuple(range(lo, hi + 1)) if 0 < hi - lo + 1 <= VALUE_CHOICES_UP_TO else None


def _sub_slice(n: Value, lo: Value, hi: Value, line: int) -> Value:
    """`s[lo:hi]` of a slice from the input of length `n`: one of length `hi - lo` (a
    named number stays named: os.Args[1:] is one item shorter than os.Args), else
    UNKNOWN."""
    if type(lo) is int and type(hi) is int:
        length: Value = hi - lo
    elif (N.is_range(lo) or type(lo) is int) and (N.is_range(hi) or type(hi) is int):
        length = N.range_binop("-", hi, lo, 64, False)
    else:
        return UNKNOWN
    if type(length) is int:
        if length < 0:
            raise ProgramExit("slice bounds out of range", line)
        return ("?slice", length)
    if not N.is_range(length):
        return UNKNOWN
    if length[2] is not None and length[2] < 0:
        raise ProgramExit("slice bounds out of range", line)
    # Go panics on the lengths below zero: the slice has the others.
    return ("?slice", ("?", max(length[1] or 0, 0), *length[2:]))


def len_bound(program: Program) -> int | None:
    """What a length the checker cannot tell is taken to be at most (LEN_SMALL), None
    when the program's counts reach past LEN_BOUND_UP_TO."""
    bound = max(LEN_SMALL, max(program.counts(), default=0) + 1)
    return bound if bound <= LEN_BOUND_UP_TO else None


def _map_put(entries: tuple, vague: Any, k: Value, v: Value, line: int) -> tuple[tuple, Any]:
    """A map's (entries, vague) after `m[k] = v`."""
    if V.contains_unknown(k):
        if value_holds_sync(v):
            raise Unsupported("a channel stored in a map under a key the checker "
                              "cannot tell", line)
        # The value is kept, under a key of its own (a range then visits it: a map of
        # replicas keyed by their addresses; how many of them are distinct is chosen
        # when the map's length is taken or a range visits it, `Machine._settle`), a
        # few of them, as many as a list from the input has: a loop that stores more
        # leaves the rest unknown, as before.
        held = [e[0][1] for e in entries if _unknown_key(e[0])]
        if len(held) < LEN_BOUND_UP_TO:
            # Vague for a lookup (any key may be one of these), but a range
            # visits all there is, unless something was lost before.
            return tuple(sorted((*entries, (("?key", max(held, default=-1) + 1), v)),
                                key=repr)), \
                UNKNOWN_KEYS if vague in (False, UNKNOWN_KEYS_COUNTED) else vague
        return entries, True
    rest = tuple(e for e in entries if e[0] != k)
    return tuple(sorted(rest + ((k, v),), key=repr)), vague


def _unknown_key(k: Value) -> bool:
    """A key a value was stored under that the checker does not know (`_op_MapUpdate`)."""
    return type(k) is tuple and len(k) == 2 and k[0] == "?key"


def _followed(v: Value) -> bool:
    """Whether a value holds a channel, function, sync object or a reference to an object
    (a pointer, a slice, a map) anywhere inside it: what the checker must know exactly,
    not as an item of unknown place (`Machine.value_choice`)."""
    if not (type(v) is tuple and v):
        return False
    if v[0] in SYNC_TAGS or v[0] in ("addr", "slice", "map"):
        return True
    return any(_followed(x) for x in V.children(v) if type(x) is tuple)


def _first_class(type_class: str) -> str:
    if type_class.startswith("tuple("):
        return V.split_class(type_class, "(", ")")[0]
    return type_class
