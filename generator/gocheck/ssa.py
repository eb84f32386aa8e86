"""The SSA form of a Go program as the front end prints it, loaded into frozen records.

The JSON is made by toolchains/gocheck/main.go; its field names are kept here so the
two stay easy to compare. Operands stay small dicts (`{"k": "reg", "n": "t3"}`), read by
`machine.operand`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Function:
    name: str
    params: tuple[str, ...]
    free: tuple[str, ...]
    blocks: tuple[Block, ...]
    line: int
    recover: int

    @property
    def short_name(self) -> str:
        return self.name.replace("command-line-arguments.", "")


@dataclass(frozen=True)
class Program:
    file: str
    functions: Mapping[str, Function]
    methods: Mapping[str, Mapping[str, str]]
    globals: Mapping[str, str]
    package: str = "command-line-arguments"

    def function(self, name: str) -> Function | None:
        return self.functions.get(name)


def _instr(raw: Mapping[str, Any]) -> Instr:
    return Instr(
        op=raw["op"],
        res=raw.get("res", ""),
        type=raw.get("type", ""),
        line=raw.get("line", 0),
        args=tuple(raw.get("args") or ()),
        x=MappingProxyType(dict(raw.get("x") or {})),
    )


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
            for b in raw.get("blocks") or ()
        ),
        line=raw.get("line", 0),
        recover=raw.get("recover", -1),
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
    )
