"""Command-line arguments that fail in one line: the parser every command uses, and checked types.

A wrong argument ends the command before any work with exit code 2 and one line on stderr that
names the argument and says what would be right:

    rlyeh eval: error: argument --threads: must be a whole number of at least 1, got '0'

Output paths are checked when parsed (`output_file`, `output_folder`), so a long run never
learns at its end that it cannot save.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


class ArgumentParser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage block): `PROG: error: MESSAGE`, exit code 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def fail(prog: str, message: str) -> int:
    """Print a one-line error for a problem found after parsing; the exit code to return."""
    print(f"{prog}: error: {message}", file=sys.stderr)
    return 2


def at_least(minimum: int):
    """An argparse type: a whole number >= `minimum`."""

    def whole_number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < minimum:
            raise argparse.ArgumentTypeError(f"must be a whole number of at least {minimum}, got {text!r}")
        return value

    whole_number.__name__ = f"whole number >= {minimum}"
    return whole_number


def positive_float(text: str) -> float:
    """An argparse type: a number > 0."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a number above 0, got {text!r}")
    return value


def non_negative_float(text: str) -> float:
    """An argparse type: a number >= 0."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be a number of at least 0, got {text!r}")
    return value


def writable_file_problem(path: Path) -> str | None:
    """Why a file could not be written at `path` (None if it can): a folder in the way, a file
    where a parent folder should be, or a folder we may not write into."""
    if path.is_dir():
        return f"{str(path)!r} is a folder; give a file name"
    return writable_folder_problem(path.parent)


def writable_folder_problem(folder: Path) -> str | None:
    """Why files could not be written into `folder`, created as needed (None if they can)."""
    for parent in (folder, *folder.parents):
        if parent.exists():
            if not parent.is_dir():
                return f"{str(parent)!r} is a file, so nothing can be written under it"
            if not os.access(parent, os.W_OK | os.X_OK):
                return f"cannot write into the folder {str(parent)!r} (permission denied)"
            return None
    return None


def output_file(text: str) -> Path:
    """An argparse type: a file that can be written (checked now, written at the end)."""
    path = Path(text)
    problem = writable_file_problem(path)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return path


def output_folder(text: str) -> Path:
    """An argparse type: a folder that exists or can be created and written into."""
    path = Path(text)
    problem = writable_folder_problem(path) if not path.exists() or path.is_dir() else (
        f"{text!r} is a file; give a folder")
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return path


def rule_override(text: str) -> tuple[str, object]:
    """An argparse type: `FIELD=VALUE` for one `GameConfig` field other than num_players (the table
    sizes set it); VALUE is a Python literal (2, 0.5, False, None, (4, 3, 3)). The value's range is
    checked against every table size by `rules_config`."""
    import ast
    import dataclasses

    from .engine import GameConfig

    fields = [f.name for f in dataclasses.fields(GameConfig) if f.init and f.name != "num_players"]
    name, equals, value = text.partition("=")
    name = name.strip()
    if not equals or name not in fields:
        raise argparse.ArgumentTypeError(f"must be FIELD=VALUE with FIELD one of {', '.join(fields)}, got {text!r}")
    literal = {"true": "True", "false": "False", "none": "None"}.get(value.strip().lower(), value.strip())
    try:
        return name, ast.literal_eval(literal)
    except (ValueError, SyntaxError):
        raise argparse.ArgumentTypeError(f"{name}: {value!r} is not a number, True/False, None or a tuple") from None


def rules_config(overrides: list[tuple[str, object]], sizes) -> dict:
    """The `--rule` overrides as a `GameConfig` keyword dict, checked at every table size: raises
    ValueError naming the field for a value out of range or a field given twice."""
    from .engine import GameConfig

    rules = dict(overrides)
    if len(rules) != len(overrides):
        raise ValueError("--rule: each field at most once")
    for n in sizes:
        try:
            GameConfig(num_players=n, **rules)
        except (TypeError, ValueError) as err:
            raise ValueError(f"--rule at {n} players: {err}") from None
    return rules


def add_tournament_options(parser: argparse.ArgumentParser, sizes=(5,), games: int = 200, workers: int = 1,
                           greedy: bool = False, rules: bool = True) -> None:
    """The options of every command that plays a tournament (`rlyeh eval`, balance, cross-play,
    exploit). `greedy`: checkpoint players act greedily unless `--sampled` (else sample unless
    `--greedy`). `rules`: offer `--rule FIELD=VALUE` (read it with `rules_config`)."""
    from .players import TABLE_SIZES

    shown = " ".join(map(str, sizes))
    parser.add_argument("--sizes", type=int, nargs="+", default=list(sizes), choices=TABLE_SIZES, metavar="N",
                        help=f"table sizes, 4 to 8 (default {shown})")
    parser.add_argument("--games", type=at_least(1), default=games, help=f"games per match-up and size (default {games})")
    parser.add_argument("--seed", type=int, default=0, help="seeds every game: the run is deterministic given it (default 0)")
    if greedy:
        parser.add_argument("--sampled", dest="greedy", action="store_false",
                            help="checkpoint players sample their actions (default: the most probable action)")
    else:
        parser.add_argument("--greedy", action="store_true", help="checkpoint players take their most probable action")
    parser.add_argument("--workers", type=at_least(1), default=workers,
                        help=f"processes sharing the match-ups, one torch thread each (default {workers}; at most "
                             "one per match-up)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    if rules:
        parser.add_argument("--rule", type=rule_override, action="append", default=[], metavar="FIELD=VALUE",
                            help="play under another rule: a GameConfig field and its value (RULES.md R13.4), e.g. "
                            "revealed_cultist_contributes=False; repeatable (default: the rules of RULES.md)")
