"""Program identity and storage: what a stored Program is, and how to build it again.

A program's id is derived from its λ_chan text (`program_id`), so the same
program is the same row whichever campaign, playground run or command made
it. Nothing here enqueues or runs anything: services, selectors, jobs, the
site and the Kotlin study all build and store programs through this module.

Program i of a generated campaign has seed `campaign.seed + i`, so the chunk
that runs it needs only the campaign's row to regenerate it (`campaign_program`).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from generator import effects as effects_mod
from generator import lambda_chan
from generator.capabilities import FULL, Capabilities
from generator.pipeline import GENERATOR_VERSION, Generated, generate_program
from generator.settings import GeneratorSettings
from generator.synthesis import synthesize
from generator.termination import check_effect
from runners.campaigns.models import Campaign, Program

# The check of a given effect's termination, made while a page or a command waits: small
# effects decide in milliseconds; one undecided within this is reported as not proved.
CHECK_MAX_STATES = 20_000
CHECK_TIME_LIMIT_S = 1.0


def program_id(lambda_text: str) -> str:
    """The permalink id of a program: 12 base32 characters of the sha256 of its λ_chan text."""
    digest = hashlib.sha256(lambda_text.encode()).digest()
    return base64.b32encode(digest).decode().lower()[:12]


def render_seed_for(pid: str) -> int:
    """The seed a program is rendered with on its own page, derived from its id."""
    return int.from_bytes(hashlib.sha256(f"render:{pid}".encode()).digest()[:4], "big")


@dataclass(frozen=True)
class BuiltProgram:
    """A λ_chan program with what is needed to store it (and to build it again)."""

    effect: effects_mod.Effect
    program: lambda_chan.Program
    source: str  # Program.Source
    seed: int
    settings: dict[str, int] | None
    version: str
    fired: tuple[str, ...] = ()  # the rules that built it, for generated programs
    capabilities: Capabilities = FULL  # what it was generated to be expressible in

    @functools.cached_property
    def lambda_text(self) -> str:
        # Used for the id and for display: printed once.
        return lambda_chan.to_text(self.program)

    @property
    def id(self) -> str:
        return program_id(self.lambda_text)


def build_generated(
    seed: int, settings: GeneratorSettings, capabilities: Capabilities = FULL
) -> BuiltProgram:
    return built_from(generate_program(seed, settings, capabilities), seed, settings, capabilities)


def built_from(
    g: Generated, seed: int, settings: GeneratorSettings, capabilities: Capabilities = FULL
) -> BuiltProgram:
    """The BuiltProgram of `g`, generated from `seed` under `settings` and `capabilities`
    (elsewhere: the web generates in a child process, chanfuzz_site.generate_bounded)."""
    return BuiltProgram(
        g.effect,
        g.program,
        Program.Source.GENERATED,
        seed,
        settings.as_dict(),
        g.version,
        g.fired,
        capabilities,
    )


def build_from_effect(effect_text: str, seed: int = 0) -> BuiltProgram:
    """A program with the given effect (parsed; ValueError on bad syntax), synthesised with `seed`.

    The effect need not terminate: this is how known hangs are fed to a target.
    """
    effect = effects_mod.parse(effect_text)
    program = synthesize(effect, random.Random(seed))
    return BuiltProgram(effect, program, Program.Source.EFFECT, seed, None, GENERATOR_VERSION)


@functools.lru_cache(maxsize=256)
def effect_terminates(effect_text: str) -> bool | None:
    """Whether the termination checker proves a given effect terminating (False: it can
    deadlock; None: undecided within CHECK_MAX_STATES or CHECK_TIME_LIMIT_S). Generated
    programs are terminating by construction; a given one (`campaign create --effect`)
    is not checked when it is run, so that a known deadlock can run on more targets."""
    verdict = check_effect(
        effects_mod.parse(effect_text),
        max_states=CHECK_MAX_STATES,
        time_limit_s=CHECK_TIME_LIMIT_S,
    )
    return verdict.terminating


def campaign_program(campaign: Campaign, index: int) -> BuiltProgram:
    """Program `index` of `campaign`."""
    if campaign.fixed_programs:
        spec = campaign.fixed_programs[index]
        return build_from_effect(spec["effect"], spec["seed"])
    return build_generated(
        campaign.seed + index,
        GeneratorSettings(**campaign.settings),
        Capabilities.from_dict(campaign.capabilities),
    )


def program_object(program: Program) -> lambda_chan.Program:
    """The λ_chan program a stored Program stands for, built again from its seed.

    ValueError when the generator no longer builds the same program (it changed
    since: the stored λ_chan text is then all that is left). Kept on the row once
    built: a program page renders it for every target, and a row's program never changes.
    """
    cached = program.__dict__.get("_built_program")
    if cached is not None:
        return cached
    if program.source == Program.Source.EFFECT:
        built = build_from_effect(program.effect_text, program.seed)
    else:
        built = build_generated(
            program.seed,
            GeneratorSettings(**program.settings),
            Capabilities.from_dict(program.capabilities),
        )
    if built.id != program.id:
        raise ValueError(
            f"program {program.id} was made by generator version {program.generator_version}; "
            f"version {GENERATOR_VERSION} builds a different program from its seed"
        )
    program.__dict__["_built_program"] = built.program
    return built.program


def _row_fields(built: BuiltProgram) -> dict[str, object]:
    effect_text = effects_mod.to_text(built.effect)
    return {
        "effect_text": effect_text,
        "effect_size": len(effect_text),
        "lambda_text": built.lambda_text,
        "source": built.source,
        "seed": built.seed,
        "settings": built.settings,
        "capabilities": {} if built.capabilities == FULL else built.capabilities.as_dict(),
        "generator_version": built.version,
        "render_seed": render_seed_for(built.id),
    }


def store_program(built: BuiltProgram) -> Program:
    """The Program row of `built`, created the first time (same program, same row)."""
    row, _ = Program.objects.get_or_create(id=built.id, defaults=_row_fields(built))
    return row


def store_programs(built: Sequence[BuiltProgram]) -> list[Program]:
    """The Program rows of `built`, in order, those not stored yet created: three
    queries for a whole chunk instead of a transaction a program (a chunk of a fast
    target stores hundreds a second)."""
    ids = [b.id for b in built]
    known = set(Program.objects.filter(id__in=ids).values_list("id", flat=True))
    new = {b.id: b for b in built if b.id not in known}
    # ignore_conflicts: another job may store the same program meanwhile; same id, same row.
    Program.objects.bulk_create(
        [Program(id=pid, **_row_fields(b)) for pid, b in new.items()], ignore_conflicts=True
    )
    rows = Program.objects.in_bulk(ids)
    return [rows[pid] for pid in ids]
