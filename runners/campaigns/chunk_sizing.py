"""How many programs a chunk holds when its campaign lets measured costs decide (issue #18).

A campaign made with `chunk_size=AUTO` does not cut its programs into fixed chunks up
front. Each target starts with a few large chunks (`first_ranges`: as many as may run at
once), and a job that claims a chunk it is the first to run keeps only as many programs
as the costs measured so far call for; the rest becomes a new queued chunk (`split_off`).
The chunk rows thus always cover every index, so pausing, resuming, stale-chunk recovery
and completion work as for fixed chunks.

The size is `runners.engine.batching.BatchSizer`'s, the same rule `fuzz` sizes its batches
by, fed with what the target's finished chunks cost (`Chunk.cost_programs`, `compile_s`,
`run_s`, `waited_s`, written by the chunk job): a target whose compile dominates (Racket,
Rust, Clojure) gets long chunks, one whose runs dominate (a thousand repetitions) short
ones, one whose chunks end waiting for hung programs (flume) long ones again, and every
chunk stays within `max_batch_s` of work.
"""

from __future__ import annotations

from runners import config
from runners.campaigns.models import CampaignTarget, Chunk
from runners.engine.batching import BatchCost, BatchSizer, with_rest
from runners.engine.shared_runs import SharedRunSize
from runners.targets import get_target

AUTO = 0  # Campaign.chunk_size meaning "sized from measured costs"
# A target's first chunk, and half its second (BatchSizer doubles it to tell the fixed
# compile from the per-program one): small, so that a campaign's first verdicts, and a
# bug that shows at once, come after a short compile. kotlinx.coroutines#504 on 0.19
# (bench/campaign_first_finding.py, 5 trials each): median 49.9 s to the first
# overflow with first chunks of 25 and 50 programs, 36.1 s with chunks of 10.
FIRST_CHUNK = 10


def first_ranges(count: int) -> list[tuple[int, int]]:
    """The first chunks of a target of `count` programs: `config.campaign_parallel_chunks()`
    ranges of about equal length (fewer when there are few programs), each to be cut to its
    measured size by the job that first claims it."""
    pieces = max(1, min(config.campaign_parallel_chunks(), -(-count // FIRST_CHUNK)))
    bounds = [count * k // pieces for k in range(pieces + 1)]
    return list(zip(bounds, bounds[1:], strict=False))


def sizer_for(target_id: int) -> BatchSizer:
    """A BatchSizer that knows the sizes the target's chunks were given and what the
    finished ones cost."""
    claimed = Chunk.objects.filter(target_id=target_id, started_at__isnull=False).order_by(
        "started_at", "start"
    )
    target = CampaignTarget.objects.only("language").get(pk=target_id)
    sizer = BatchSizer(start=FIRST_CHUNK, high=get_target(target.language).max_batch)
    for size, programs, compile_s, run_s, waited_s in claimed.values_list(
        "sized", "cost_programs", "compile_s", "run_s", "waited_s"
    ):
        if size:
            sizer.given.append(size)
        if programs and compile_s is not None and run_s is not None:
            sizer.costs.append(BatchCost(programs, compile_s, run_s, waited_s or 0.0))
    return sizer


def split_off(chunk: Chunk) -> Chunk | None:
    """Cut `chunk` (locked, being claimed for the first time) to its measured size and
    return the rest as a new queued chunk, saved; None when it is short enough already
    (less than one and a half sizes).
    The caller saves `chunk` (its `end` and `sized` changed) and enqueues the rest."""
    size = sizer_for(chunk.target_id).next_size()
    chunk.sized = size
    # A rest shorter than half a chunk stays with this chunk (with_rest): it would pay a
    # whole compile for a few programs and end a campaign with a straggler.
    count = chunk.end - chunk.start
    if with_rest(size, count) == count:
        return None
    rest = Chunk.objects.create(target=chunk.target, start=chunk.start + size, end=chunk.end)
    chunk.end = chunk.start + size
    return rest


def shared_runs_for(target_id: int) -> SharedRunSize:
    """Where a chunk of the target starts its shared runs: the size the runs of its last
    finished chunk grew to (runners.engine.execute), else CHANFUZZ_SHARED_RUN_SIZE. A
    chunk is one batch in a process of its own, so without this every chunk would grow
    its runs from the configured size again."""
    last = (
        Chunk.objects.filter(target_id=target_id, shared_run_size__isnull=False)
        .order_by("-finished_at")
        .values_list("shared_run_size", flat=True)
        .first()
    )
    return SharedRunSize(last) if last else SharedRunSize()
