"""Play a game in the terminal against bots: `python -m rlyeh_env.play` (or `make play`).

You see only what your seat may know; the bots see only their own observations. Choices are
numbered from the legal actions; anything else gets a short explanation and the prompt again.
End of input or Ctrl-C leaves cleanly and saves the game so far as a JSON replay.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

from .bots import make_bot
from .engine import GameConfig, Role, Winner
from .engine.actions import NUM_ACTIONS
from .engine.game import Game
from .fast_observation import IncrementalEncoder
from .text import describe_legal_actions, narrate, player_name, render_seat, render_truth

BOT_KINDS = ("heuristic", "random")


def parse_args(argv: list[str] | None = None, prog: str | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=5, help="table size, 4 to 8 (default 5)")
    parser.add_argument("--seat", type=int, default=None, help="your seat, 0 to players-1 (default: random)")
    parser.add_argument("--bots", choices=BOT_KINDS, default="heuristic", help="what sits in the other seats")
    parser.add_argument("--seed", type=int, default=None, help="game seed (default: random)")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to pause after each bot move")
    parser.add_argument("--extra-gods", action="store_true", help="variant: the extra gods rule the sigils")
    parser.add_argument("--hidden-cultists", action="store_true", help="variant: nobody knows how many cultists")
    parser.add_argument("--replays", type=Path, default=Path("replays"), help="folder for the saved game")
    return parser.parse_args(argv)


def _ask(prompt: str, choices: list[tuple[int, str]]) -> int | None:
    """The action id the human picked, or None at end of input. Re-asks on anything else."""
    while True:
        print(prompt, end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            return None
        text = line.strip()
        if text.isdigit() and 1 <= int(text) <= len(choices):
            return choices[int(text) - 1][0]
        print(f"  '{text}' is not a choice: type a number from 1 to {len(choices)}.")


def _narrate(game: Game, seat: int, start: int) -> None:
    """Print the public events since index `start`, and this seat's private ones."""
    for event in game.state.events[start:]:
        if event.seat in (-1, seat):
            line = narrate(event, seat)
            if line:
                print("  " + line)


def play(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    config = GameConfig(
        num_players=args.players, extra_gods=args.extra_gods, hidden_cultist_count=args.hidden_cultists
    )
    me = args.seat if args.seat is not None else random.Random(seed).randrange(config.num_players)
    if not 0 <= me < config.num_players:
        print(f"--seat must be between 0 and {config.num_players - 1}, got {me}", file=sys.stderr)
        return 2
    game = Game(config, seed)
    encoder = IncrementalEncoder(config)
    bots = {s: make_bot(args.bots, seed + s, config) for s in range(config.num_players) if s != me}
    for bot in bots.values():
        bot.reset(seed)
    replay_path = args.replays / f"game_{seed}.json"
    print(f"The Gate of R'lyeh: {config.num_players} players, seed {seed}. You are {player_name(me)}.")
    seen_events = 0
    try:
        while not game.over:
            seat = game.decider
            _narrate(game, me, seen_events)
            seen_events = len(game.state.events)
            if seat == me:
                print()
                print(render_seat(game.state, me, with_choices=False))
                choices = describe_legal_actions(game.state, me)
                for number, (_, text) in enumerate(choices, 1):
                    print(f"  [{number}] {text}")
                action = _ask("Your choice: ", choices)
                if action is None:
                    raise EOFError
            else:
                mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
                mask[game.legal_actions()] = 1
                action = bots[seat].act(encoder.observe(game.state, seat), mask)
                if args.delay:
                    time.sleep(args.delay)
            game.step(action)
    except (EOFError, KeyboardInterrupt):
        game.save(replay_path, extra={"human_seat": me})
        print(f"\nLeft the table. The game so far is saved in {replay_path}.")
        return 0
    _narrate(game, me, seen_events)
    game.save(replay_path, extra={"human_seat": me})
    print()
    print(render_truth(game.state))
    you_won = (game.state.winner == Winner.INVESTIGATORS) == (game.state.players[me].role == Role.INVESTIGATOR)
    print(f"\n{'You win!' if you_won else 'You lose.'} The replay is in {replay_path}.")
    return 0


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    try:
        return play(parse_args(argv, prog))
    except ValueError as err:  # a bad option value, e.g. --players 9
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
