"""The `train` and `eval` commands (`scripts/train.py`, `scripts/evaluate.py`, `rlyeh train`,
`rlyeh eval`, registered as entry points): argument parsing and printing only; the work is in
trainer.py and `rlyeh_env.tournament`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rlyeh_env.players import TABLE_SIZES, parse_lineup
from rlyeh_env.policy.checkpoint import CheckpointError

from .train_cli import parse_train_command


def train_main(argv: list[str] | None = None, prog: str | None = None) -> int:
    try:
        command = parse_train_command(argv, prog)
        from .trainer import Trainer

        if command.resume is not None:
            trainer = Trainer.resume(command.resume, **command.overrides)
        else:
            trainer = Trainer(command.args)
    except (CheckpointError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"run folder: {trainer.run_dir}  (TensorBoard: tensorboard --logdir {trainer.run_dir / 'tb'})")
    trainer.train()
    print(f"checkpoint: {trainer.run_dir / 'checkpoint.pt'}  bots: {trainer.run_dir / 'policies.pt'}  "
          f"curves: {trainer.run_dir / 'learning_curves.png'}")
    return 0


def eval_main(argv: list[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Tournament: investigators' win rate (95% CI) and belief AUC per line-up and table size.",
    )
    parser.add_argument("--lineup", type=parse_lineup, action="append", metavar="INV,CULT",
                        help="investigators,cultists; repeatable (default: the six line-ups of checkpoints/README.md)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[5], help="table sizes (default 5)")
    parser.add_argument("--games", type=int, default=200, help="games per line-up and size (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seeds every game (default 0)")
    parser.add_argument("--greedy", action="store_true", help="checkpoint players take their most probable action")
    parser.add_argument("--threads", type=int, default=2, help="torch threads with one worker (default 2)")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes sharing the match-ups, one torch thread each (default 1)")
    parser.add_argument("--json", type=Path, help="also save the results here")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if any(n not in TABLE_SIZES for n in args.sizes) or args.games < 1 or args.workers < 1:
        parser.error("sizes must be in 4..8, games >= 1 and workers >= 1")
    import torch

    from rlyeh_env.tournament import markdown_table, results_json, tournament

    from .evaluation import bars_table

    torch.set_num_threads(args.threads)
    lineups = args.lineup or [
        ("heuristic", "heuristic"), ("checkpoint", "heuristic"), ("heuristic", "checkpoint"),
        ("checkpoint", "random"), ("random", "checkpoint"), ("heuristic", "random"), ("random", "heuristic"),
    ]
    try:
        results = tournament(lineups, args.sizes, args.games, args.seed, args.greedy,
                             progress=not args.no_progress, workers=args.workers)
    except CheckpointError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(markdown_table(results))
    bars = bars_table(results)
    if bars is not None:
        print("\nShipping bars (checkpoints/README.md), trained = the `checkpoint` line-ups:\n")
        print(bars)
    if args.json:
        from rlyeh_env.files import atomic_write_text

        atomic_write_text(args.json, json.dumps(results_json(results), indent=1))
        print(f"saved {args.json}")
    return 0
