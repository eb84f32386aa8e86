"""The SSA form of a Go program as the front end prints it, loaded into frozen records.

The JSON is made by toolchains/gocheck/main.go; its field names are kept here so the
two stay easy to compare. Operands stay small dicts (`{"k": "reg", "n": "t3"}`), read by
`machine.operand`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class Instr:
    op: str
    res: str
    type: str
    line: int
    args: tuple[Mapping[str, Any], ...]
    x: Mapping[str, Any]


@dataclass(frozen=True)
class Block:
    instrs: tuple[Instr, ...]
    succs: tuple[int, ...]
    preds: tuple[int, ...]


def _regs_in(x: Any, out: set[str]) -> None:
    if isinstance(x, Mapping):
        if x.get("k") == "reg":
            out.add(x["n"])
        elif x.get("k") in ("param", "free"):
            out.add(f"{x['k']}:{x['i']}")  # parameters and free variables live like registers
        else:
            for v in x.values():
                _regs_in(v, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _regs_in(v, out)


def uses(ins: Instr) -> set[str]:
    """The registers an instruction reads (a phi's are read at its predecessors' ends)."""
    out: set[str] = set()
    _regs_in(ins.args, out)
    _regs_in(dict(ins.x), out)
    return out


@dataclass(frozen=True)
class Function:
    name: str
    params: tuple[str, ...]
    free: tuple[str, ...]
    blocks: tuple[Block, ...]
    line: int
    recover: int
    # Its file when not the checked file's: a function of an imported module's package.
    file: str = ""
    _live: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def calls_recover(self) -> bool:
        """Whether the function calls the builtin `recover` itself (a deferred call of it
        can then stop a panic)."""
        return any(ins.op == "Call" and ins.x.get("callee", {}).get("k") == "builtin"
                   and ins.x["callee"].get("n") == "recover"
                   for b in self.blocks for ins in b.instrs)

    def definition(self, reg: str) -> Instr | None:
        """The instruction that writes register `reg`."""
        defs = self._live.get("defs")
        if defs is None:
            defs = self._live["defs"] = {ins.res: ins for b in self.blocks for ins in b.instrs
                                         if ins.res}
        return defs.get(reg)

    @property
    def short_name(self) -> str:
        return self.name.replace("command-line-arguments.", "")

    def live_at(self, block: int, pc: int) -> frozenset[str]:
        """The registers still to be read from instruction `pc` of `block` on, with the
        parameters and free variables still to be read (as `param:I`, `free:I`).

        Only these belong in a state's key: a register a loop wrote last time round and
        will not read again must not tell two otherwise equal states apart.
        """
        key = (block, pc)
        live = self._live.get(key)
        if live is None:
            if "out" not in self._live:
                self._live["out"] = self._live_out()
            live = set(self._live["out"][block])
            for ins in reversed(self.blocks[block].instrs[pc:]):
                if ins.res:
                    live.discard(ins.res)
                if ins.op != "Phi":
                    live |= uses(ins)
            live = frozenset(live)
            self._live[key] = live
        return live

    def key_plan(self, block: int, pc: int) -> tuple[tuple[str, ...], frozenset[int],
                                                     frozenset[int]]:
        """`live_at` as a state's key reads it: the live registers sorted, and the indices
        of the live parameters and free variables."""
        key = ("plan", block, pc)
        plan = self._live.get(key)
        if plan is None:
            live = self.live_at(block, pc)
            plan = (tuple(sorted(r for r in live if not r.startswith(("param:", "free:")))),
                    frozenset(int(r[6:]) for r in live if r.startswith("param:")),
                    frozenset(int(r[5:]) for r in live if r.startswith("free:")))
            self._live[key] = plan
        return plan

    def _live_out(self) -> list[set[str]]:
        n = len(self.blocks)
        gen: list[set[str]] = []
        kill: list[set[str]] = []
        for b in self.blocks:
            g: set[str] = set()
            k: set[str] = set()
            for ins in reversed(b.instrs):
                if ins.res:
                    g.discard(ins.res)
                    k.add(ins.res)
                if ins.op != "Phi":
                    g |= uses(ins)
            gen.append(g)
            kill.append(k)
        # What each block's phis read from each predecessor.
        phi_from: list[dict[int, set[str]]] = [dict() for _ in range(n)]
        for bi, b in enumerate(self.blocks):
            for ins in b.instrs:
                if ins.op != "Phi":
                    break
                for pred, arg in zip(b.preds, ins.args, strict=False):
                    _regs_in(arg, phi_from[pred].setdefault(bi, set()))
        live_in: list[set[str]] = [set() for _ in range(n)]
        live_out: list[set[str]] = [set() for _ in range(n)]
        changed = True
        while changed:
            changed = False
            for bi in reversed(range(n)):
                out: set[str] = set()
                for s in self.blocks[bi].succs:
                    out |= live_in[s]
                    out |= phi_from[bi].get(s, set())
                inn = gen[bi] | (out - kill[bi])
                if out != live_out[bi] or inn != live_in[bi]:
                    live_out[bi], live_in[bi] = out, inn
                    changed = True
        return live_out


@dataclass(frozen=True)
class Program:
    file: str
    functions: Mapping[str, Function]
    methods: Mapping[str, Mapping[str, str]]
    globals: Mapping[str, str]
    package: str = "command-line-arguments"
    # A test file's `func TestXxx(t *testing.T)` functions, in source order, and the one
    # a check runs (`entry`; the first when empty). A package main program has none.
    tests: tuple[str, ...] = ()
    entry: str = ""
    # The tests `go test` runs before `entry` in the same process that the check runs
    # first, in order, each to its end (runners/gocheck/check: those whose order may
    # matter); none: `entry` alone, as `go test -run` runs it.
    before: tuple[str, ...] = ()
    # The init functions of the imported packages the front end loaded from source (those
    # outside the standard library), in the order Go runs them, and their modules.
    inits: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()
    # The other files of a test file's package, checked with it (runners/gocheck/frontend).
    package_files: tuple[str, ...] = ()
    # The root of the module the file lies in, whose go.mod and packages it was checked
    # with ("" for a file outside any: its modules were the proxy's newest).
    module: str = ""

    _communicating: set = field(default_factory=set, compare=False, repr=False)
    _impure: set = field(default_factory=set, compare=False, repr=False)
    _globals_touched: dict = field(default_factory=dict, compare=False, repr=False)
    _methods_named: dict = field(default_factory=dict, compare=False, repr=False)

    def function(self, name: str) -> Function | None:
        return self.functions.get(name)

    def calls(self, *names: str) -> bool:
        """Whether the program calls (or defers, or starts as a goroutine) one of the
        functions `names`, by their static names."""
        return any(ins.x.get("static") in names
                   for fn in self.functions.values() for b in fn.blocks for ins in b.instrs
                   if ins.op in ("Call", "Defer", "Go"))

    @property
    def asks_cpus(self) -> bool:
        """Whether the program calls runtime.NumCPU or GOMAXPROCS (instructions.CPU_COUNTS)."""
        return self.calls("runtime.NumCPU", "runtime.GOMAXPROCS")

    def communicates(self, name: str) -> bool:
        """Whether function `name` of the program may communicate: a channel operation,
        a `go`, a call into sync, context, time or sync/atomic, a call it cannot resolve
        statically (a method through an interface, a function value), or a call of a
        function of the program that may. A library that calls a method of the program's
        (io.ReadFull calling Read) runs it unseen, so a method that may communicate must
        not be handed to one."""
        if not self._communicating:
            self._communicating.update(_communicating(self))
            self._communicating.add("")  # worked out, even if nothing communicates
        return name in self._communicating


    def reaches_call(self, start: str, callee: str) -> bool:
        """Whether function `start` calls `callee` (a static callee's name), itself or
        through the program's functions it calls or makes closures of."""
        return any(t == callee for t in self._targets_reached(start))

    def _targets_reached(self, start: str) -> Iterator[str]:
        """The static callees (and closures' functions) of `start` and of the program's
        functions these reach, each at least once."""
        seen, todo = {start}, [start]
        while todo:
            fn = self.functions.get(todo.pop())
            if fn is None:
                continue
            for block in fn.blocks:
                for ins in block.instrs:
                    for t in self._targets(ins, methods=False):
                        yield t
                        if t in self.functions and t not in seen:
                            seen.add(t)
                            todo.append(t)

    def globals_reached(self, start: str) -> frozenset[str]:
        """The package's own variables that function `start` names, itself or through the
        program's functions it reaches statically: what a test may share with another
        run before it in the same process."""
        reached = {start, *self._targets_reached(start)} & set(self.functions)
        return frozenset(n for n in self._names_of(reached)
                         if n in self.globals or n.startswith(self.package + "."))

    def globals_touched(self, name: str) -> frozenset[str]:
        """The package variables (of any package, as the front end names them) that
        function `name` may name, itself or through every function it may run: its static
        callees, goroutines and deferred calls, the closures and function values its code
        names, every method of the program's of a name it calls through an interface, and,
        where it calls out of the program, the models the checker runs in a library's
        place (`…gocheck…`, toolchains/gocheck/shims) and the methods it runs for libraries
        (`RUN_FOR_LIBRARIES`). A function value it gets from elsewhere is not included: who
        holds one holds its name (`por.Reach`). A function not of the program (a library's)
        names none itself, but runs what calls out of the program run."""
        if name not in self._globals_touched:
            self._globals_touched[name] = self._names_of(self.code_of(name))
        return self._globals_touched[name]

    def global_keys(self) -> frozenset[str]:
        """The state's keys (`g:` and the name) of every package variable the program's
        code names."""
        if None not in self._globals_touched:
            self._globals_touched[None] = frozenset(
                "g:" + n for n in self._names_of(set(self.functions)))
        return self._globals_touched[None]

    def code_of(self, start: str) -> set[str]:
        """The program's functions `start` may run, itself included (`globals_touched`
        says which)."""
        fn = self.functions.get(start)
        instrs = [i for b in fn.blocks for i in b.instrs] if fn else []
        return self._run_by(instrs, outside=fn is None) | ({start} if fn else set())

    def _run_by(self, instrs: list[Instr], *, outside: bool = False) -> set[str]:
        """The program's functions that instructions `instrs` may run, at any depth; with
        `outside`, what a call out of the program may run as well."""
        seen: set[str] = set()
        todo: list[str] = []
        libraries = [False]  # whether what calls out of the program run was added

        def add(found: Iterable[str], outside: bool = False) -> None:
            for f in found:
                if f not in self.functions:
                    outside = True
                elif f not in seen:
                    seen.add(f)
                    todo.append(f)
            if outside and not libraries[0]:
                libraries[0] = True
                add(self._run_for_libraries())

        add([t for ins in instrs for t in self._targets(ins)], outside)
        while todo:
            fn = self.functions[todo.pop()]
            add([t for b in fn.blocks for ins in b.instrs for t in self._targets(ins)])
        return seen

    def _targets(self, ins: Instr, *, methods: bool = True) -> list[str]:
        """The functions instruction `ins` calls, makes a closure of or names (a function
        literal handed over as it is: t.Cleanup(func() {…})), by name, the program's or
        not; with `methods`, for a call through an interface every method of the
        program's of that name."""
        found = [o["n"] for o in _operands(ins) if o.get("k") == "fn"]
        if ins.op == "MakeClosure" and ins.x.get("fn"):
            found.append(ins.x["fn"])
        if ins.op in ("Call", "Defer", "Go"):
            if ins.x.get("mode") == "invoke":
                if methods:
                    found.extend(self._methods_of(ins.x.get("method", "")))
            elif ins.x.get("static"):
                found.append(ins.x["static"])
        return found

    def globals_ahead(self, name: str, block: int, pc: int) -> frozenset[str]:
        """The package variables function `name`, at instruction `pc` of `block`, may
        still name (as `globals_touched`): from there on, in the blocks it can go on to,
        its recover block, and every function those may run."""
        key = (name, block, pc)
        if key not in self._globals_touched:
            fn = self.functions.get(name)
            if fn is None:
                found = self.globals_touched(name)
            else:
                later: set[int] = set()
                todo = [*fn.blocks[block].succs, *([fn.recover] if fn.recover >= 0 else [])]
                while todo:
                    b = todo.pop()
                    if b not in later:
                        later.add(b)
                        todo.extend(fn.blocks[b].succs)
                # From `pc` on, or all of it where a loop comes back to it.
                instrs = list(fn.blocks[block].instrs[0 if block in later else pc:])
                for b in later - {block}:
                    instrs.extend(fn.blocks[b].instrs)
                found = _names_in(instrs) | self._names_of(self._run_by(instrs))
            self._globals_touched[key] = found
        return self._globals_touched[key]

    def _methods_of(self, method: str) -> frozenset[str]:
        """The program's methods named `method`, of every type."""
        if not self._methods_named:
            index: dict[str, set[str]] = {}
            for table in self.methods.values():
                for m, target in table.items():
                    index.setdefault(m, set()).add(target)
            self._methods_named.update((m, frozenset(ts)) for m, ts in index.items())
            self._methods_named[""] = frozenset()
        return self._methods_named.get(method, frozenset())

    def _run_for_libraries(self) -> set[str]:
        """What the checker may run of the program's inside a call out of it."""
        found = {f for f in self.functions if ".gocheck" in f}
        for method in RUN_FOR_LIBRARIES:
            found |= self._methods_of(method)
        return found

    def _names_of(self, functions: set[str]) -> frozenset[str]:
        """The package variables `functions` name."""
        return _names_in([ins for name in functions for b in self.functions[name].blocks
                          for ins in b.instrs])

    def counts(self) -> frozenset[int]:
        """The positive integer constants the program counts with: channel buffer sizes,
        WaitGroup.Add's and a limit's counts, and the constants `int` numbers are compared
        with (`i < 4`, `len(xs) > 8`). A list longer than every one of them behaves as one
        just past the greatest (`instructions.len_bound`)."""
        found: set[int] = set()
        for fn in self.functions.values():
            for ins in (i for b in fn.blocks for i in b.instrs):
                if ins.op == "MakeChan":
                    operands: Iterator[Mapping[str, Any]] = iter(ins.args)
                elif ins.op == "Call" and ins.x.get("static") in _COUNTED_CALLS:
                    operands = iter(ins.x.get("args", ()))
                elif ins.op == "BinOp" and ins.x["op"] in _COMPARISONS and \
                        ins.x.get("bits") == 64 and not ins.x.get("unsigned"):
                    operands = iter(ins.args)
                else:
                    continue
                found.update(o["v"] for o in operands if o.get("k") == "const"
                             and o.get("t") == "int" and type(o.get("v")) is int and o["v"] > 0)
        return frozenset(found)

    def pure(self, name: str) -> bool:
        """Whether function `name` of the program only computes its results: it does not
        communicate, and writes only to what it allocated itself (a predicate handed to
        slices.IndexFunc). A library may then call it any number of times, unseen, and
        nothing but the library's result depends on it."""
        if not self._impure:
            self._impure.update(_impure(self))
            self._impure.add("")
        return name in self.functions and name not in self._impure


# Methods of the program's the checker runs inside a library call: fmt's and log's Error
# and String on what they print, errors.Is and As's Unwrap and As (`machine.Machine`).
RUN_FOR_LIBRARIES = frozenset({"Error", "String", "Unwrap", "As", "Is"})
# Calls whose integer arguments are counts of goroutines or items (`Program.counts`).
_COUNTED_CALLS = frozenset({"(*sync.WaitGroup).Add",
                            "(*golang.org/x/sync/errgroup.Group).SetLimit",
                            "golang.org/x/sync/semaphore.NewWeighted"})
_COMPARISONS = frozenset({"<", "<=", ">", ">=", "==", "!="})


def _names_in(instrs: list[Instr]) -> frozenset[str]:
    """The package variables instructions `instrs` name."""
    return frozenset(o["n"] for ins in instrs for o in _operands(ins) if o.get("k") == "global")


def _operands(ins: Instr) -> Iterator[Mapping[str, Any]]:
    """The operands of `ins`: its arguments and those among its details (a call's
    callee and arguments)."""
    return operands(ins.args, ins.x)


def operands(args: Iterable[Any], x: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """The operands among an instruction's arguments `args` and details `x` (as the
    front end writes them, or as `Instr` holds them)."""
    for op in (*args, *x.values()):
        for o in op if isinstance(op, list | tuple) else (op,):
            if isinstance(o, Mapping) and "k" in o:
                yield o


_SYNCHRONISING = frozenset({"sync", "context", "time", "sync/atomic", "runtime"})
# The time package's calls that wait or start a timer; the rest (Now, a Time's Before,
# a Duration's String) only compute.
_TIMERS = ("time.Sleep", "time.After", "time.AfterFunc", "time.NewTimer", "time.NewTicker",
           "time.Tick", "(*time.Timer).", "(*time.Ticker).")
# Where a local write may go: what the function allocated itself.
_LOCAL_ROOTS = frozenset({"Alloc", "MakeSlice", "MakeMap"})
_LOCAL_PATHS = frozenset({"FieldAddr", "IndexAddr", "Slice", "Copy"})


def _with_callers(direct: set[str], callers: dict[str, set[str]]) -> set[str]:
    """`direct` and every function that calls one of them, at any depth."""
    found = set(direct)
    todo = list(direct)
    while todo:
        for caller in callers.get(todo.pop(), ()):
            if caller not in found:
                found.add(caller)
                todo.append(caller)
    return found


def _local(defs: Mapping[str, Instr], operand: Mapping[str, Any]) -> bool:
    """Whether an address (or slice, map) is rooted in something the function whose
    instructions are `defs` (by result) allocated itself."""
    seen: set[str] = set()
    while operand.get("k") == "reg" and operand.get("n") not in seen:
        seen.add(operand["n"])
        ins = defs.get(operand["n"])
        if ins is None:
            return False
        if ins.op in _LOCAL_ROOTS:
            return True
        if ins.op not in _LOCAL_PATHS or not ins.args:
            return False
        operand = ins.args[0]
    return False


def _impure(program: Program) -> set[str]:
    """The program's functions that may do more than compute (`Program.pure`)."""
    direct: set[str] = {name for name in program.functions if program.communicates(name)}
    callers: dict[str, set[str]] = {}
    for name, fn in program.functions.items():
        defs = {ins.res: ins for b in fn.blocks for ins in b.instrs if ins.res}
        for block in fn.blocks:
            for ins in block.instrs:
                if ins.op in ("Store", "MapUpdate") and not _local(defs, ins.args[0]):
                    direct.add(name)
                if ins.op not in ("Call", "Defer"):
                    continue
                callee = ins.x.get("callee") or {}
                static = ins.x.get("static")
                if callee.get("k") == "builtin":
                    if callee.get("n") in ("copy", "clear", "delete", "append") and \
                            ins.args and not _local(defs, ins.args[0]):
                        direct.add(name)
                elif static in program.functions:
                    callers.setdefault(static, set()).add(name)
    return _with_callers(direct, callers)


def _communicating(program: Program) -> set[str]:
    """The program's functions that may communicate (`Program.communicates`)."""
    direct: set[str] = set()
    callers: dict[str, set[str]] = {}
    for name, fn in program.functions.items():
        for block in fn.blocks:
            for ins in block.instrs:
                x = ins.x
                if ins.op in ("Send", "Select", "Go") or ins.op == "UnOp" and x.get("op") == "<-":
                    direct.add(name)
                if ins.op not in ("Call", "Defer", "Go"):
                    continue
                callee = x.get("callee") or {}
                static = x.get("static")
                if callee.get("k") == "builtin":
                    if callee.get("n") == "close":
                        direct.add(name)
                elif x.get("mode") == "invoke" or not static or \
                        x.get("external") and x.get("pkg") in _SYNCHRONISING and \
                        not (x.get("pkg") == "time" and not static.startswith(_TIMERS)):
                    direct.add(name)
                elif static in program.functions:
                    callers.setdefault(static, set()).add(name)
    return _with_callers(direct, callers)


def _instr(raw: Mapping[str, Any]) -> Instr:
    return Instr(
        op=raw["op"],
        res=raw.get("res", ""),
        type=raw.get("type", ""),
        line=raw.get("line", 0),
        args=tuple(raw.get("args") or ()),
        x=MappingProxyType(dict(raw.get("x") or {})),
    )


def _dominators(blocks: list[Mapping[str, Any]]) -> list[set[int]]:
    """For each block, the blocks every path from the entry to it passes through."""
    every = set(range(len(blocks)))
    dom = [{0}] + [set(every) for _ in blocks[1:]]
    changed = True
    while changed:
        changed = False
        for i in range(1, len(blocks)):
            preds = [dom[p] for p in blocks[i]["preds"]]
            new = (set.intersection(*preds) if preds else set()) | {i}
            if new != dom[i]:
                dom[i], changed = new, True
    return dom


def _shared_lens(blocks: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The blocks with each `len` of a slice or string register that an earlier `len` of
    the same register dominates replaced by that one's result: the value cannot change,
    but the checker gives each `len` of a slice it does not know an unknown of its own,
    so a range over the list and a later `for range len(list)` were unrelated counts (a
    false deadlock: more receives than the goroutines the range started)."""
    types = {i.get("res"): i.get("type", "") for b in blocks for i in b["instrs"]}

    def slice_or_string(of: Mapping[str, Any]) -> tuple | None:
        """The register or parameter `of` as a key, if it holds a slice or a string (a
        parameter or free variable is never written either: an assigned one is copied)."""
        kind = of.get("k")
        if kind == "reg" and types.get(of["n"], "").startswith(("slice", "string")):
            return (kind, of["n"])
        if kind in ("param", "free") and of.get("t", "").startswith(("slice", "string")):
            return (kind, of["i"])
        return None

    lens = [(n, k, i["res"], slice_or_string(i["x"]["args"][0]))
            for n, b in enumerate(blocks) for k, i in enumerate(b["instrs"])
            if i["op"] == "Call" and i.get("res")
            and (i.get("x") or {}).get("callee") == {"k": "builtin", "n": "len"}
            and len(i["x"].get("args") or ()) == 1]
    lens = [entry for entry in lens if entry[3] is not None]
    if len(lens) < 2:
        return blocks
    dom = _dominators(blocks)
    same: dict[str, str] = {}
    for n, k, res, of in lens:
        for n2, k2, res2, of2 in lens:
            if of2 == of and res2 != res and res2 not in same and (
                    n2 == n and k2 < k or n2 != n and n2 in dom[n]):
                same[res] = res2
                break
    if not same:
        return blocks

    def renamed(v: Any) -> Any:
        if isinstance(v, Mapping):
            if v.get("k") == "reg" and v.get("n") in same:
                return {**v, "n": same[v["n"]]}
            return {key: renamed(x) for key, x in v.items()}
        if isinstance(v, list):
            return [renamed(x) for x in v]
        return v

    return [{**b, "instrs": [renamed(i) for i in b["instrs"] if i.get("res") not in same]}
            for b in blocks]


def _function(raw: Mapping[str, Any]) -> Function:
    return Function(
        name=raw["name"],
        params=tuple(raw.get("params") or ()),
        free=tuple(raw.get("free") or ()),
        blocks=tuple(
            Block(
                instrs=tuple(_instr(i) for i in b["instrs"]),
                succs=tuple(b["succs"]),
                preds=tuple(b["preds"]),
            )
            for b in _shared_lens(raw.get("blocks") or [])
        ),
        line=raw.get("line", 0),
        recover=raw.get("recover", -1),
        file=raw.get("file", ""),
    )


def load(raw: Mapping[str, Any]) -> Program:
    """The program from the front end's decoded JSON."""
    functions = {
        name: _function(f) for name, f in raw["functions"].items() if not f.get("external")
    }
    return Program(
        file=raw.get("file", ""),
        functions=MappingProxyType(functions),
        methods=MappingProxyType({k: MappingProxyType(v) for k, v in raw["methods"].items()}),
        globals=MappingProxyType(dict(raw.get("globals") or {})),
        tests=tuple(raw.get("tests") or ()),
        inits=tuple(raw.get("inits") or ()),
        modules=tuple(raw.get("modules") or ()),
        package_files=tuple(raw.get("package_files") or ()),
        module=raw.get("module", ""),
    )
