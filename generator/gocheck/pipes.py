"""io.Pipe and net.Pipe: which library names the checker runs plain-Go models of.

A pipe blocks in its own reads and writes (a Write returns once Reads have taken all of
it), inside library code the checker does not interpret. The front end adds models of
them in plain Go (toolchains/gocheck/shims/pipes_*.go.txt) to the checked package when a
file calls io.Pipe or net.Pipe, and the machine calls those in the library's place: the
pipes' own functions and methods always, and the io and fmt functions a program hands a
reader or writer to (io.ReadAll, io.Copy, fmt.Fprintf, ...) when a pipe is among their
arguments, since the library's would read or write it out of the checker's sight. The
same models run when such a function is handed a reader or writer of the program's own
whose Read or Write communicates (a Read that receives the next chunk from a channel).
"""

from __future__ import annotations

from typing import Any

from generator.gocheck.values import NIL, UNKNOWN

# The library's pipe types, and their models' in the checked package.
_TYPES = {"*io.PipeReader": "gocheckPipeReader", "*io.PipeWriter": "gocheckPipeWriter"}
# Functions that make pipes.
_MAKERS = {"io.Pipe": "gocheckIOPipe", "net.Pipe": "gocheckNetPipe"}
# Functions that read or write what they are handed, and their models: for a pipe, and
# for a reader or writer of the program's whose Read or Write communicates (the library
# would call it out of the checker's sight; the model calls it where the checker follows
# it). bufio's and json's models keep their buffers in plain Go too.
HANDED = {"io.ReadAll": "gocheckReadAll", "io/ioutil.ReadAll": "gocheckReadAll",
          "io.ReadFull": "gocheckReadFull", "io.ReadAtLeast": "gocheckReadAtLeast",
          "io.Copy": "gocheckCopy", "io.CopyN": "gocheckCopyN",
          "io.CopyBuffer": "gocheckCopyBuffer",
          "io.WriteString": "gocheckWriteString", "fmt.Fprint": "gocheckFprint",
          "fmt.Fprintf": "gocheckFprintf", "fmt.Fprintln": "gocheckFprintln",
          "bufio.NewScanner": "gocheckNewScanner", "bufio.NewReader": "gocheckNewReader",
          "bufio.NewWriter": "gocheckNewWriter", "encoding/json.NewEncoder": "gocheckNewEncoder",
          "encoding/json.NewDecoder": "gocheckNewDecoder"}
# bufio's and encoding/json's types over a pipe, their models' types, and what the
# models' first field holds (a Scanner over anything else is the library's own).
BUFFERED = {"(*bufio.Scanner).": ("gocheckScanner", "gocheck:bufio.Scanner"),
            "(*bufio.Reader).": ("gocheckReader", "gocheck:bufio.Reader"),
            "(*bufio.Writer).": ("gocheckWriter", "gocheck:bufio.Writer"),
            "(*encoding/json.Encoder).": ("gocheckEncoder", "gocheck:json.Encoder"),
            "(*encoding/json.Decoder).": ("gocheckDecoder", "gocheck:json.Decoder")}
# The models' types whose values read or write a pipe: its ends, a net.Pipe connection,
# a bufio Reader or Writer over one.
_PIPE_TYPES = ("gocheckPipeReader", "gocheckPipeWriter", "gocheckConn", "gocheckReader",
               "gocheckWriter")
# A call of this model function stops the check: the program is unsupported.
UNSUPPORTED = "gocheckUnsupported"
# How many bytes of a write a read takes (`taken`), and what is left of it (`rest`).
TAKEN = "gocheckTaken"
REST = "gocheckRest"


def dynamic_type(package: str, dyn: str) -> str:
    """The type a value made into an interface has: a pipe's end is its model's."""
    model = _TYPES.get(dyn)
    return f"*{package}.{model}" if model else dyn


def model_of(package: str, name: str, args: list[Any]) -> str | None:
    """The model (a function of the checked package's) that runs in place of library
    function or method `name` called with `args`, or None: the library's own."""
    if name in _MAKERS:
        return f"{package}.{_MAKERS[name]}"
    if name.startswith("(*io.Pipe"):
        receiver, method = name[2:].split(").", 1)
        model = _TYPES.get(f"*{receiver}")
        return f"(*{package}.{model}).{method}" if model else None
    if name in HANDED and any(is_pipe(package, a) for a in args):
        return f"{package}.{HANDED[name]}"
    return None


def handed_model(package: str, name: str) -> str | None:
    """The model of library function `name` when it is handed a reader or writer of the
    program's (`HANDED`), or None."""
    return f"{package}.{HANDED[name]}" if name in HANDED else None


def is_pipe(package: str, v: Any) -> bool:
    """Whether `v` is one of `_PIPE_TYPES`' values made into an interface."""
    if not (type(v) is tuple and len(v) == 3 and v[0] == "iface"):
        return False
    prefix, _, model = v[1].rpartition(".")
    return model in _PIPE_TYPES and prefix == f"*{package}"


def taken(room: Any, have: Any) -> Any:
    """How many of a write's `have` bytes a read into a buffer of `room` bytes takes:
    all that fit. A buffer whose size the checker lost (`make([]byte, 4096)`: it keeps
    slices of up to 256 items) is taken to hold the whole write, as it does in the
    programs that make one: without that, every count after it would be unknown."""
    if type(have) is not int:
        return have
    return have if type(room) is not int else min(room, have)


def rest(b: Any, taken: Any) -> Any:
    """What is left of a write `b` once a read took `taken` bytes of it: nothing when the
    checker does not know how many (`taken` gave the whole write)."""
    if type(taken) is not int:
        return NIL
    if isinstance(b, str):
        return b[taken:]
    if isinstance(b, tuple) and b[:1] == ("slice",) and len(b) >= 5:
        return ("slice", b[1], b[2], b[3] + taken, b[4], *b[5:])
    return UNKNOWN


# Writers of the library's that take all they are given at once and never fail: what an
# io.Copy out of a pipe (`gocheckCopy`) commonly writes to.
_SINKS = frozenset({"*bytes.Buffer", "*strings.Builder", "*os.File", "*io.discard",
                    "io.discard"})


def sink_write(dyn: str, method: str, args: list[Any]) -> Any:
    """What Write or WriteString on one of `_SINKS` returns (all of it written, no
    error), or None for another call."""
    if dyn not in _SINKS or method not in ("Write", "WriteString") or len(args) != 1:
        return None
    data = args[0]
    return ("tuple", (len(data) if isinstance(data, str) else _count(data), NIL))


def _count(data: Any) -> Any:
    if isinstance(data, tuple) and data[:1] == ("slice",) and len(data) >= 5:
        return data[4] - data[3]
    return UNKNOWN
