"""Training throughput of our trainer, for scripts/benchmark_training.py.

Measured like MaskablePPO is there: one table size, every seat played by the learning policies
(pure self-play, so every decision is a training decision), rollouts and updates both counted,
evaluation off. Network and PPO settings are the `full` preset's (or the `recipe`'s) unless
overridden (e.g. `bf16=False`, `rollout_workers=1`).
"""

from __future__ import annotations

import time

from .config import preset
from .trainer import Trainer


SELF_PLAY = dict(opponent_latest=1.0, opponent_heuristic=0.0, opponent_random=0.0)
OPPONENTS = ("selfplay", "mixed")


def our_training_rate(seconds: float, num_players: int, threads: int = 2, opponents: str = "selfplay",
                      recipe: str = "full", **overrides) -> dict:
    """Train for about `seconds` of wall time after one warm-up update; return the learner
    decisions made (rollouts and updates included), every decision of their games (`played`: the
    opponents' too), the seconds they took, the part of them spent in rollouts and the number of
    updates. `opponents`:
    "selfplay" as described above, or "mixed": the `recipe` preset's opponent mix (for `full`
    heuristic, random, pool; for `league` self-play, league entries and exploiters, its anchors in
    the league) with the pool already full, as in most of a real run. `overrides` change `Args`
    fields (e.g. `bf16=False`)."""
    if opponents not in OPPONENTS:
        raise ValueError(f"opponents must be one of {OPPONENTS}, got {opponents!r}")
    args = preset(
        recipe,
        table_sizes=(num_players,),
        imitation_decisions=0,  # no warm start: a league's anchors join at once
        eval_every=0,
        progress=False,
        threads=threads,
        runs_dir="/tmp/rlyeh-speed",
        **(SELF_PLAY if opponents == "selfplay" else {}),
        **overrides,
    )
    trainer = Trainer(args)
    if opponents == "mixed":
        for snapshot in range(args.pool_size):
            trainer.matchmaker.add_snapshots(f"speed{snapshot}")
    try:
        trainer.train_one_update()  # warm-up: allocations, first-call overheads, starting rollout workers
        start_decisions, start, played, rollout_seconds, updates = trainer.decisions, time.perf_counter(), 0, 0.0, 0
        while time.perf_counter() - start < seconds:
            before = trainer.decisions
            row = trainer.train_one_update()
            played += row["charts/decisions_played"]
            took = (trainer.decisions - before) / row["charts/decisions_per_second"]
            rollout_seconds += took * row["charts/rollout_fraction"]
            updates += 1
        took = time.perf_counter() - start
        return {"decisions": trainer.decisions - start_decisions, "played": played, "seconds": took,
                "rollout_seconds": rollout_seconds, "updates": updates}
    finally:
        trainer.close()  # joins the rollout workers, so their peak memory is counted as children's
