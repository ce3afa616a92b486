"""The `train` and `eval` commands (`scripts/train.py`, `scripts/evaluate.py`, `rlyeh train`,
`rlyeh eval`, registered as entry points): argument parsing and printing only; the work is in
trainer.py and `rlyeh_env.tournament`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rlyeh_env.arguments import (
    ArgumentParser, add_tournament_options, at_least, fail, output_file, rules_config, writable_folder_problem,
)
from rlyeh_env.checkpoints import DEFAULT_VERSION, VERSIONS
from rlyeh_env.files import atomic_write_text
from rlyeh_env.players import check_checkpoints, check_player, parse_lineup
from rlyeh_env.policy.checkpoint import CheckpointError

from .interrupts import TrainingInterrupted


def train_main(argv: list[str] | None = None, prog: str | None = None) -> int:
    from .train_cli import parse_train_command  # tyro: only the train command needs it

    try:
        command = parse_train_command(argv, prog)
        from .trainer import Trainer

        if command.resume is not None:
            trainer = Trainer.resume(command.resume, **command.overrides)
        else:
            trainer = Trainer(command.args)
    except (CheckpointError, ValueError) as err:
        return fail(prog or "train.py", str(err))
    problem = writable_folder_problem(trainer.run_dir)
    if problem:
        return fail(prog or "train.py", f"--runs-dir / --run-name: {problem}")
    print(f"run folder: {trainer.run_dir}  (TensorBoard: tensorboard --logdir {trainer.run_dir / 'tb'})")
    try:
        trainer.train()
    except TrainingInterrupted as stop:
        command = prog if prog and prog.startswith("rlyeh") else f"{Path(sys.executable).name} {sys.argv[0]}"
        print(f"\n{stop}\nresume with: {command} --resume {stop.checkpoint}", file=sys.stderr)
        return 130
    except KeyboardInterrupt:  # before the first update (the warm start): nothing to resume yet
        print("\ninterrupted before the first update; nothing saved to resume", file=sys.stderr)
        return 130
    print(f"checkpoint: {trainer.run_dir / 'checkpoint.pt'}  bots: {trainer.run_dir / 'policies.pt'}  "
          f"curves: {trainer.run_dir / 'learning_curves.png'}")
    return 0


def default_lineups(trained: str, previous: str | None) -> list[tuple[str, str]]:
    """The line-ups of checkpoints/README.md: `trained` against the scripted bots and against
    itself (the balance figure of RULES.md section 14); then, with a `previous` version to beat,
    the two against each other both ways and the previous one against itself."""
    scripted = [
        ("heuristic", "heuristic"), (trained, "heuristic"), ("heuristic", trained),
        (trained, "random"), ("random", trained), ("heuristic", "random"), ("random", "heuristic"),
    ]
    if previous is None:
        return scripted + [(trained, trained)]
    return scripted + [(trained, trained), (trained, previous), (previous, trained), (previous, previous)]


def version_to_beat(trained: str) -> str | None:
    """The shipped bots replace the version before them; any other candidate must beat the
    newest shipped version."""
    if trained in ("checkpoint", DEFAULT_VERSION):
        return VERSIONS[-2] if len(VERSIONS) > 1 else None
    return DEFAULT_VERSION


def eval_main(argv: list[str] | None = None, prog: str | None = None) -> int:
    parser = ArgumentParser(
        prog=prog,
        description="Tournament: investigators' win rate (95% CI) and belief AUC per line-up and table size.",
    )
    parser.add_argument("--lineup", type=parse_lineup, action="append", metavar="INV,CULT",
                        help="investigators,cultists; repeatable (default: the line-ups of checkpoints/README.md, "
                        "about --candidate)")
    parser.add_argument("--candidate", type=check_player, default="checkpoint",
                        help="the trained bots the default line-ups and the bars are about (default: the shipped "
                        "bots, against the version before them; a run's policies.pt is held against the shipped ones)")
    add_tournament_options(parser)
    parser.add_argument("--threads", type=at_least(1), default=2, help="torch threads with one worker (default 2)")
    parser.add_argument("--json", type=output_file, help="also save the results here (checked before any game)")
    parser.add_argument("--usage", action="store_true",
                        help="also print what the players did: accusations and their outcomes, investigations, "
                        "equipment, the Necronomicon, votes, curses, per game (all of it is in --json)")
    args = parser.parse_args(argv)
    import torch

    from rlyeh_env.tournament import (
        POLICIES, TournamentError, markdown_table, results_json, tournament_results, until_interrupted,
    )

    from rlyeh_env.usage import usage_table

    from .evaluation import bars_table, versions_table

    torch.set_num_threads(args.threads)
    previous = version_to_beat(args.candidate)
    lineups = args.lineup or default_lineups(args.candidate, previous)
    try:
        rules = rules_config(args.rule, args.sizes)
        check_checkpoints(lineups, POLICIES)  # a bad file is reported before any game is played
        results, interrupted = until_interrupted(tournament_results(
            lineups, args.sizes, args.games, args.seed, args.greedy, rules, progress=not args.no_progress,
            workers=args.workers))
    except (ValueError, TournamentError) as err:  # CheckpointError, PyTorch missing, a worker lost
        return fail(parser.prog, str(err))
    if interrupted:
        print(f"\ninterrupted: {len(results)} of {len(lineups) * len(args.sizes)} match-ups finished",
              file=sys.stderr)
        if results:
            print(markdown_table(results))
        return 130
    if rules:
        print("rules changed: " + ", ".join(f"{field}={value}" for field, value in rules.items()))
    print(markdown_table(results))
    if args.usage:
        print("\nWhat the players did, per game (investigators, then the cultists' c: columns):\n")
        print(usage_table(results))
    bars = bars_table(results, args.candidate)
    if bars is not None:
        print(f"\nShipping bars (checkpoints/README.md), trained = {args.candidate}:\n")
        print(bars)
    versions = versions_table(results, args.candidate, previous) if previous else None
    if versions is not None:
        print(f"\nAgainst the version to beat ({previous}), investigators' win rate and belief AUC:\n")
        print(versions)
    if args.json:
        try:
            atomic_write_text(args.json, json.dumps(results_json(results), indent=1))
        except OSError as err:
            return fail(parser.prog, f"could not save the results to {args.json} ({err}); the table above is all of them")
        print(f"saved {args.json}")
    return 0
