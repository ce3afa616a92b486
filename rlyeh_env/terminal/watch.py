"""`rlyeh watch`: bots play a game while you watch it with the full truth.

Every event is narrated (private ones labelled with the seat that saw them); at each new round
and at the end the whole truth is drawn, with every checkpoint bot's current suspicion of every
other seat. The game is saved as a replay like any other.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from ..arguments import ArgumentParser
from ..narration import narrate_truth, player_name
from ..players import SHIPPED, parse_seat_overrides
from ..table import Table
from .play import add_table_options, pause_seconds, table_config
from ..replays import replay_path, save_replay
from .screen import Screen
from .seats import BotSeats


def parse_args(argv: list[str] | None = None, prog: str | None = None) -> argparse.Namespace:
    parser = ArgumentParser(prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_table_options(parser, default_bots=SHIPPED)
    parser.add_argument("--board", choices=("round", "end"), default="round",
                        help="draw the full truth at every new round (default) or only at the end")
    return parser.parse_args(argv)


def watch(args: argparse.Namespace, screen: Screen | None = None) -> int:
    screen = screen or Screen()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    config = table_config(args)
    specs = {s: args.bots for s in range(config.num_players)}
    specs.update(parse_seat_overrides(args.bot, config.num_players))
    delay = pause_seconds(args, screen)
    bots = BotSeats(config, specs, seed, greedy=not args.sample)
    table = Table(config, seed)
    game = table.game
    seats = [specs[s] for s in range(config.num_players)]
    path = replay_path(args.replays, seed, "watch")

    screen.rule("The Gate of R'lyeh, watched")
    screen.say(f"{config.num_players} players, seed {seed}: "
               + ", ".join(f"{player_name(s)} {specs[s]}" for s in range(config.num_players)) + ".")
    seen = 0
    try:
        while not game.over:
            table.step(bots.act(table, table.decider))
            new = game.state.events[seen:]
            seen = len(game.state.events)
            for event in new:
                if event.kind == "round" and args.board == "round":
                    screen.truth(game.state, bots.suspicions())
                line = narrate_truth(event)
                if line:
                    screen.say("  " + line, "dim" if event.seat >= 0 else "")
            if delay and any(e.seat == -1 for e in new):
                time.sleep(delay)
    except KeyboardInterrupt:
        save_replay(path, game, seats, None)
        screen.say(f"\nStopped. The game so far is saved: rlyeh replay {path}")
        return 0
    save_replay(path, game, seats, None)
    screen.rule("The end")
    screen.truth(game.state, bots.suspicions())
    screen.say(f"The replay: rlyeh replay {path}")
    return 0


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    args = parse_args(argv, prog)
    try:
        return watch(args)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
