"""Which of a program's plain values can change what the checker judges, and the program
with the others made unknown.

A verdict (a deadlock, a leak, a send on a closed channel) depends on which instructions
run and on the channels, locks and goroutines they touch, not on a number that is only
printed. Yet such numbers fill the states: three workers that print their ids and send
`j * 2` for each job into a buffered channel that main sums and prints make a state for
every order of the sums in the buffer, and the workers differ by their ids, so symmetry
cannot merge them. Here a value is *relevant* when it can flow, through registers,
parameters, results, channels and memory, to something the checker's judgement depends
on: a branch, a channel or lock operand, an index or size (bounds, panics), a divisor, a
call into a library other than printing, the receiver of a method through an interface.
Every other use of a plain value (an integer, a bool, a string, a float64; never a
pointer, a channel or a composite) is replaced by an unknown constant, so it neither
reaches channel buffers nor keeps registers alive in a state's key.

The analysis is flow-insensitive and conservative. Channels and memory are told apart
by the class of the value they hold (`int`, `iface`, a struct's shape), not by where:
an `int` sent on any channel is relevant when some receive of an `int` is; a stored one
when some load of an `int` is, or any load of a composite, or a library reads memory.
Calls through function values or interfaces take every argument as relevant, and the
functions whose address is taken return relevant results.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from generator.gocheck import ssa

# The type classes (toolchains/gocheck/main.go's typeClass) of values made unknown when
# nothing relevant uses them.
PLAIN = frozenset({"int", "bool", "string", "float64"})
# Library calls whose arguments matter only for their results (printing, formatting).
_OUTPUT = frozenset({"fmt.Print", "fmt.Printf", "fmt.Println", "log.Print", "log.Printf",
                     "log.Println", "log.Fatal", "log.Fatalf", "log.Fatalln",
                     "(*log.Logger).Print", "(*log.Logger).Printf", "(*log.Logger).Println",
                     "(*testing.common).Log", "(*testing.common).Logf",
                     "fmt.Sprint", "fmt.Sprintf", "fmt.Sprintln", "strconv.Itoa",
                     "strconv.FormatInt", "strconv.Quote"})
# Packages whose calls the checker models on its own objects: they read none of the
# program's plain memory (sync/atomic does, and is not one of them).
_MODELLED = frozenset({"sync", "time", "context"})
_BUILTIN_PURE = frozenset({"len", "cap", "min", "max", "real", "imag", "complex"})
_BUILTIN_IGNORED = frozenset({"print", "println"})
# Libraries whose functions only compute (`_skip_computations`).
_COMPUTING = frozenset({"math", "math/bits", "strings", "strconv", "unicode", "unicode/utf8"})
ALWAYS = "always"
ALL_MEMORY = ("mem", "*")

Node = tuple


def abstracted(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of the front end's program `raw` with every use of a plain value that
    nothing relevant depends on replaced by an unknown constant of its class."""
    out = copy.deepcopy(dict(raw))
    functions = {n: f for n, f in out["functions"].items() if not f.get("external")}
    defs = {name: {i["res"]: i for b in f.get("blocks") or () for i in b["instrs"]
                   if i.get("res")} for name, f in functions.items()}
    uses = list(_all_uses(out, functions, defs))
    relevant = _relevant(uses, _seeds(out, functions, defs), _effects(functions, defs))
    for holder, key, operand, conds, _node in uses:
        if conds is ALWAYS or any(c in relevant for c in conds):
            continue
        if operand.get("k") in ("reg", "param", "free", "const") and \
                operand.get("t") in PLAIN:
            holder[key] = {"k": "const", "t": operand["t"], "v": "?"}
    _skip_computations(out, functions, relevant)
    return out


def _skip_computations(raw: dict, functions: Mapping[str, Any], relevant: set[Node]) -> None:
    """Calls of the program's functions that only compute (no communication, no write
    but to what they allocate, no call out of the program but to `_COMPUTING`), whose
    plain result nothing relevant uses, become that result unknown: `fib(24)` computed
    to be printed need not be interpreted. A computation that would never end is not
    seen there (a goroutine that spins is out of the verdicts' scope anyway)."""
    program = ssa.load(raw)
    verdicts: dict[str, bool] = {}

    def computes(name: str) -> bool:
        if name not in verdicts:
            code = program.code_of(name)
            verdicts[name] = ".gocheck" not in name and all(
                program.pure(f) for f in code) and all(
                _computing_call(ins, program) for f in code
                for b in program.functions[f].blocks for ins in b.instrs)
        return verdicts[name]

    for name, f in functions.items():
        for b in f.get("blocks") or ():
            for ins in b["instrs"]:
                x = ins.get("x") or {}
                t = ins.get("type", "")
                if ins["op"] != "Call" or t not in PLAIN or x.get("mode") != "call" or \
                        ("reg", name, ins.get("res")) in relevant or \
                        x.get("static") not in functions or not computes(x["static"]):
                    continue
                res, line = ins["res"], ins.get("line", 0)
                ins.clear()
                ins.update({"op": "Copy", "res": res, "type": t, "line": line,
                            "args": [{"k": "const", "t": t, "v": "?"}]})


def _computing_call(ins: ssa.Instr, program: ssa.Program) -> bool:
    """Whether `ins`, in a function `Program.pure` lets by (no communication, no call
    through a value or an interface, no write but to what it allocates), calls out of
    the program only into a library that only computes (not os.Exit, not log.Fatal)."""
    static = ins.x.get("static")
    return ins.op not in ("Call", "Defer") or not static or static in program.functions \
        or ins.x.get("pkg") in _COMPUTING


def _relevant(uses: list, seeds: set[Node], effects: dict[Node, list[Node]]) -> set[Node]:
    """Every node that some relevant use, or a seed, reaches."""
    depends: dict[Node, list[Node]] = {}
    relevant: set[Node] = set(seeds)
    for _holder, _key, _operand, conds, node in uses:
        if node is None:
            continue
        if conds is ALWAYS:
            relevant.add(node)
        else:
            for c in conds:
                depends.setdefault(c, []).append(node)
    todo = list(relevant)
    while todo:
        n = todo.pop()
        for m in (*depends.get(n, ()), *effects.get(n, ())):
            if m not in relevant:
                relevant.add(m)
                todo.append(m)
    return relevant


def _all_uses(raw: Mapping[str, Any], functions: Mapping[str, Any],
              defs_of: Mapping[str, dict]) -> Iterator[tuple]:
    """Each use of an operand: (what holds it, its key there, the operand with its class
    in `t`, ALWAYS or the nodes of which one must be relevant, the operand's node)."""
    methods = {dyn for dyn, table in (raw.get("methods") or {}).items() if table}
    for name, f in functions.items():
        defs = defs_of[name]
        for b in f.get("blocks") or ():
            for ins in b["instrs"]:
                for holder, key, cond in _uses_of(name, ins, defs, functions, methods):
                    operand = holder[key]
                    if not isinstance(operand, dict) or "k" not in operand:
                        continue
                    node = _node(name, operand)
                    if operand.get("k") == "reg":
                        operand = {**operand, "t": _class(operand, defs)}
                    yield holder, key, operand, cond, node


def _node(fn: str, operand: Mapping[str, Any]) -> Node | None:
    k = operand.get("k")
    if k == "reg":
        return ("reg", fn, operand["n"])
    if k in ("param", "free"):
        return (k, fn, operand["i"])
    return None


def _mem(t: str) -> tuple[Node, ...]:
    return (("mem", t), ALL_MEMORY)


def _uses_of(fn: str, ins: dict, defs: dict, functions: Mapping[str, Any],
             methods: set[str]) -> Iterator[tuple[Any, Any, Any]]:
    """(holder, key, condition) for each operand instruction `ins` of function `fn` uses."""
    op = ins["op"]
    args = ins.get("args") or []
    x = ins.get("x") or {}
    result = (("reg", fn, ins["res"]),) if ins.get("res") else ()
    every = [(args, i, ALWAYS) for i in range(len(args))]
    if op == "Return":
        yield from ((args, i, (("ret", fn),)) for i in range(len(args)))
    elif op == "Extract" and _source_receives(ins, defs):
        # A received value's relevance is its channel class's (`_effects`), not the
        # tuple's: the ok flag of a range over a channel is always relevant.
        yield (args, 0, ())
    elif op in ("Phi", "Field", "Copy", "Extract"):
        yield from ((args, i, result) for i in range(len(args)))
    elif op == "BinOp":
        # A divisor or a shift's count can panic.
        yield (args, 0, result)
        yield (args, 1, ALWAYS if x.get("op") in ("/", "%", "<<", ">>") else result)
    elif op == "UnOp":
        yield (args, 0, ALWAYS if x.get("op") in ("<-", "*") else result)
    elif op == "Send":
        yield (args, 0, ALWAYS)
        yield (args, 1, (("chan", _class(args[1], defs)),))
    elif op == "Select":
        for state in x.get("states") or ():
            yield (state, "chan", ALWAYS)
            if "send" in state:
                yield (state, "send", (("chan", _class(state["send"], defs)),))
    elif op == "Store":
        yield (args, 0, ALWAYS)
        yield (args, 1, _mem(_class(args[1], defs)))
    elif op == "MapUpdate":
        yield (args, 0, ALWAYS)
        yield (args, 1, ALWAYS)
        yield (args, 2, _mem(_class(args[2], defs)))
    elif op == "TypeAssert":
        yield (args, 0, result if x.get("commaok") else ALWAYS)
    elif op == "MakeInterface":
        # A method of the program's may run on it (fmt's String, an interface call).
        yield (args, 0, ALWAYS if x.get("dyn") in methods or
               "*" + str(x.get("dyn")) in methods else result)
    elif op in ("Call", "Go", "Defer"):
        yield from _call_uses(x, result, functions)
    elif op == "Slice":
        yield from every
        if "max" in x:
            yield (x, "max", ALWAYS)
    else:  # If, Index, IndexAddr, FieldAddr, MakeChan, MakeSlice, MakeClosure, Panic, ...
        yield from every


def _call_uses(x: dict, result: tuple, functions: Mapping[str, Any]
               ) -> Iterator[tuple[Any, Any, Any]]:
    args = x.get("args") or []
    if x.get("mode") == "invoke":
        yield (x, "recv", ALWAYS)
        yield from ((args, i, ALWAYS) for i in range(len(args)))
        return
    callee = x.get("callee") or {}
    yield (x, "callee", ALWAYS)
    static = x.get("static")
    if callee.get("k") == "builtin":
        name = callee.get("n")
        cond: Any = result if name in _BUILTIN_PURE else () if name in _BUILTIN_IGNORED \
            else ALWAYS
        yield from ((args, i, cond) for i in range(len(args)))
    elif static in functions and ".gocheck" not in static:
        # (The checker's models are run, or stood in for, by name: their arguments are
        # its to read.)
        yield from ((args, i, (("param", static, i),)) for i in range(len(args)))
    elif static in _OUTPUT:
        yield from ((args, i, result) for i in range(len(args)))
    else:
        yield from ((args, i, ALWAYS) for i in range(len(args)))


def _class(operand: Any, defs: dict) -> str:
    """The type class of an operand's value."""
    if not isinstance(operand, dict):
        return ""
    if operand.get("k") == "reg":
        d = defs.get(operand.get("n"))
        return d.get("type", "") if d else ""
    return operand.get("t", "")


def _components(t: str) -> list[str]:
    """The classes a tuple class `tuple(a;b)` holds, or the class itself."""
    if t.startswith("tuple(") and t.endswith(")"):
        return [p for p in t[6:-1].split(";") if p]
    return [t]


def _loaded(t: str) -> Node:
    """What a load of a value of class `t` reads: that class, or all memory for a
    composite one, whose fields were stored one by one."""
    return ("mem", t) if t in PLAIN or t in ("basic", "iface", "ptr", "chan", "map", "func") or \
        t.startswith("slice:") or "." in t and "{" not in t else ALL_MEMORY


def _effects(functions: Mapping[str, Any], defs_of: Mapping[str, dict]
             ) -> dict[Node, list[Node]]:
    """What a relevant register makes relevant beyond its own operands: a received
    value its channel class, a loaded one its memory class, a call's result the callee's
    results."""
    out: dict[Node, list[Node]] = {}
    for name, f in functions.items():
        defs = defs_of[name]
        for b in f.get("blocks") or ():
            for ins in b["instrs"]:
                res = ins.get("res")
                if not res:
                    continue
                me = ("reg", name, res)
                op, x, t = ins["op"], ins.get("x") or {}, ins.get("type", "")
                if op == "UnOp" and x.get("op") == "<-":
                    out[me] = [("chan", x.get("elem", ""))]
                elif op == "UnOp" and x.get("op") == "*":
                    out[me] = [_loaded(t)]
                elif op == "Select":
                    out[me] = [("chan", s.get("elem", "")) for s in x.get("states") or ()
                               if s.get("dir") == "recv"]
                elif op == "Lookup" or op == "Next" and not x.get("isstring"):
                    out[me] = [_loaded(c) for c in _components(t)]
                elif op in ("Call", "Go", "Defer"):
                    static = x.get("static")
                    if static in functions:
                        out[me] = [("ret", static)]
                    elif static in _OUTPUT:  # fmt.Sprintf reads what its slice holds
                        out[me] = [ALL_MEMORY]
                elif op == "Extract" and _source_receives(ins, defs) and \
                        _received(defs[ins["args"][0]["n"]], x.get("index", 0)):
                    out[me] = [("chan", t)]
    return out


def _source_receives(ins: dict, defs: dict) -> bool:
    """Whether the tuple `ins` (an Extract) takes an item of is a receive's or a
    select's."""
    source = defs.get(((ins.get("args") or [{}])[0]).get("n"))
    if source is None:
        return False
    sx = source.get("x") or {}
    return source["op"] == "Select" or source["op"] == "UnOp" and sx.get("op") == "<-"


def _received(source: dict, index: int) -> bool:
    """Whether item `index` of `source`'s tuple is a value received from a channel."""
    if source["op"] == "UnOp":
        return index == 0
    return index >= 2


def _seeds(raw: Mapping[str, Any], functions: Mapping[str, Any],
           defs_of: Mapping[str, dict]) -> set[Node]:
    """What is relevant whatever the uses: the results of every function the checker or
    a call through a value may run (closures, methods, function values, its models),
    and all memory when a library other than the modelled ones may read it."""
    seeds: set[Node] = set()
    for table in (raw.get("methods") or {}).values():
        seeds.update(("ret", target) for target in table.values())
    for name, f in functions.items():
        if ".gocheck" in name:
            seeds.add(("ret", name))
        defs = defs_of[name]
        for b in f.get("blocks") or ():
            for ins in b["instrs"]:
                x = ins.get("x") or {}
                if ins["op"] == "MakeClosure":
                    seeds.add(("ret", x.get("fn")))
                for o in _fn_operands(ins):
                    if o is not x.get("callee") or ins["op"] not in ("Call", "Go", "Defer"):
                        seeds.add(("ret", o["n"]))
                if ins["op"] in ("Call", "Go", "Defer") and _reads_memory(x, functions, defs):
                    seeds.add(ALL_MEMORY)
    return seeds


def _fn_operands(ins: dict) -> Iterator[Mapping[str, Any]]:
    return (o for o in ssa.operands(ins.get("args") or (), ins.get("x") or {})
            if o.get("k") == "fn")


def _reads_memory(x: dict, functions: Mapping[str, Any], defs: dict) -> bool:
    """Whether a call may read the program's plain memory where the analysis cannot see:
    a library function (other than printing and the modelled packages) handed anything
    but plain values, or a call through an interface or a function value."""
    static = x.get("static")
    if x.get("mode") == "invoke" or static in functions or static in _OUTPUT:
        return False  # the program's own code: its loads are seen (an invoke's too)
    if (x.get("callee") or {}).get("k") == "builtin":
        return False
    if static is None:
        return False  # a function value: the program's (seen) or a library's, below
    return x.get("pkg") not in _MODELLED and any(
        _class(a, defs) not in PLAIN for a in x.get("args") or ())
