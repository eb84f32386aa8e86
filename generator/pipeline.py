"""One generated program: seed + settings → effect → λ_chan program.

Every random choice flows from one `random.Random(seed)`, so a seed, the
settings and `GENERATOR_VERSION` reproduce the same program byte for byte.
Bump the version whenever a change alters what a seed produces.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from generator.buffering import widen
from generator.capabilities import FULL, Capabilities
from generator.defaults import with_defaults
from generator.effects import Effect
from generator.lambda_chan import Program
from generator.rules import generate_effect
from generator.settings import GeneratorSettings
from generator.synthesis import synthesize

GENERATOR_VERSION = "1"


@dataclass(frozen=True)
class Generated:
    seed: int
    settings: GeneratorSettings
    effect: Effect
    program: Program
    fired: tuple[str, ...]
    version: str = GENERATOR_VERSION
    capabilities: Capabilities = FULL


@functools.lru_cache(maxsize=64)
def _validate(settings: GeneratorSettings) -> None:
    settings.validate()


def generate_program(
    seed: int, settings: GeneratorSettings, capabilities: Capabilities = FULL
) -> Generated:
    """The program of `seed` under `settings`, using only what `capabilities` allow.

    Settings are validated first (ValueError on bad settings; InexpressibleSettings,
    a ValueError, when the target can express none of their generation rules).
    """
    _validate(settings)
    rng = random.Random(seed)
    result = generate_effect(rng, settings, capabilities)
    effect = result.effect
    if settings.buffered:
        # Draws only when asked for, so the paper's programs stay byte for byte the same.
        effect = widen(effect, rng, capabilities)
        if capabilities.select_default:
            effect = with_defaults(effect, rng)
    program = synthesize(effect, rng)
    return Generated(
        seed, settings, effect, program, tuple(result.fired), capabilities=capabilities
    )
