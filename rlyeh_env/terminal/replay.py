"""`rlyeh replay FILE`: step through a saved game with the full truth shown, forward and back.

Commands at the prompt: Enter or `n` next step, `b` back, `g N` go to step N, `s` start,
`e` end, `q` quit. `--step N` prints that one step and exits (no prompt).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..arguments import ArgumentParser, at_least
from ..narration import narrate_truth, player_name
from ..replays import Frames, load_replay
from .screen import Screen

COMMANDS = "Enter/n next, b back, g N go to step N, s start, e end, q quit"


def show(screen: Screen, frames: Frames, step: int) -> None:
    screen.rule(frames.title(step))
    for event in frames.events(step):
        line = narrate_truth(event)
        if line:
            screen.say("  " + line)
    screen.truth(frames.states[step])


def next_step(command: str, step: int, last: int) -> int | str:
    """The step a command leads to, or an explanation (str) when it is not a command."""
    words = command.lower().split()
    if not words or words[0] in ("n", "next"):
        return min(step + 1, last)
    if words[0] in ("b", "back", "p"):
        return max(step - 1, 0)
    if words[0] in ("s", "start"):
        return 0
    if words[0] in ("e", "end"):
        return last
    if words[0] in ("g", "go") and len(words) == 2 and words[1].isdigit():
        if int(words[1]) <= last:
            return int(words[1])
        return f"step {words[1]} is past the end (the last step is {last})"
    return f"'{command}' is not a command: {COMMANDS}"


def run(path: Path, step: int | None, screen: Screen) -> int:
    replay = load_replay(path)
    frames = Frames(replay)
    seats = ", ".join(f"{player_name(s)} {spec}" for s, spec in enumerate(replay.seats))
    screen.say(f"{path}: {replay.game.config.num_players} players, seed {replay.game.seed}, "
               f"{frames.last} steps{'' if replay.finished else ' (unfinished)'}; {seats}")
    if step is not None:
        if not 0 <= step <= frames.last:
            raise ValueError(f"--step must be between 0 and {frames.last}, got {step}")
        show(screen, frames, step)
        return 0
    step = 0
    show(screen, frames, step)
    while True:
        command = screen.ask(f"[{COMMANDS}] > ")
        if command is None or command.lower() in ("q", "quit", "exit"):
            return 0
        target = next_step(command, step, frames.last)
        if isinstance(target, str):
            screen.say(target, "yellow")
            continue
        if target == step:
            screen.say("(already at the " + ("end)" if step == frames.last else "start)"), "dim")
            continue
        step = target
        show(screen, frames, step)


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    parser = ArgumentParser(prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path, help="a replay saved by rlyeh play or rlyeh watch")
    parser.add_argument("--step", type=at_least(0), default=None, help="print this step and exit")
    args = parser.parse_args(argv)
    try:
        return run(args.file, args.step, Screen())
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
