"""`rlyeh play` (and `make play`): sit at a table against bots, the shipped checkpoint by default.

You see only what your seat may know: the board, the decision and the narration are drawn from
your seat's projection (`rlyeh_env.seat_view`). Every bot decides from its own observation. Your
choices are numbered from the legal actions, one step at a time (Research discards one card per
step, Investigate takes then gives). Anything else typed gets a short explanation and the prompt
again; `?` shows the table again, `q`, end of input or Ctrl-C leave the table. Every game is
saved as a JSON replay (after each of your moves, and at the end) for `rlyeh replay`.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from ..arguments import ArgumentParser, output_folder
from ..engine import actions as A
from ..engine.cards import Equipment, Page, Role, Sigil, VoteKind, label
from ..engine.config import GameConfig
from ..engine.game import Game
from ..engine.state import Phase, State, Winner
from ..narration import player_name
from ..players import SHIPPED, check_player, parse_seat_overrides
from ..seat_view import SeatView, narrated, project_seat, witnessed
from ..table import Table
from .glossary import PAGE
from ..replays import replay_path, save_replay
from .screen import Screen
from .seats import HUMAN, BotSeats

ROLES = {"investigator": Role.INVESTIGATOR, "cultist": Role.CULTIST}


def add_table_options(parser: argparse.ArgumentParser, default_bots: str) -> None:
    """Options shared by `play` and `watch`."""
    parser.add_argument("--players", type=int, default=5, help="table size, 4 to 8 (default 5)")
    parser.add_argument("--bots", type=check_player, default=default_bots, metavar="BOT",
                        help=f"what sits in the bot seats: checkpoint (the shipped bots), heuristic, random or "
                             f"a checkpoint file (default {default_bots})")
    parser.add_argument("--bot", action="append", default=[], metavar="SEAT=BOT",
                        help="a different bot in one seat, e.g. --bot 2=random (repeatable)")
    parser.add_argument("--sample", action="store_true",
                        help="checkpoint bots sample their moves instead of playing their most probable one")
    parser.add_argument("--seed", type=int, default=None, help="game seed (default: random)")
    parser.add_argument("--delay", type=float, default=None,
                        help="seconds to pause after each bot move (default 0.8 on a terminal, 0 otherwise)")
    parser.add_argument("--instant", action="store_true", help="no pause after bot moves")
    parser.add_argument("--extra-gods", action="store_true", help="variant: the extra gods rule the sigils")
    parser.add_argument("--hidden-cultists", action="store_true", help="variant: nobody knows how many cultists")
    parser.add_argument("--replays", type=output_folder, default=Path("replays"), help="folder for the replay (default replays/)")


def table_config(args: argparse.Namespace) -> GameConfig:
    return GameConfig(num_players=args.players, extra_gods=args.extra_gods, hidden_cultist_count=args.hidden_cultists)


def pause_seconds(args: argparse.Namespace, screen: Screen) -> float:
    if args.instant:
        return 0.0
    if args.delay is not None:
        if args.delay < 0:
            raise ValueError(f"--delay must be 0 or more seconds, got {args.delay}")
        return args.delay
    return 0.8 if screen.fancy else 0.0


def parse_args(argv: list[str] | None = None, prog: str | None = None) -> argparse.Namespace:
    parser = ArgumentParser(prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_table_options(parser, default_bots=SHIPPED)
    parser.add_argument("--seat", type=int, default=None, help="your seat, 0 to players-1 (default: random)")
    parser.add_argument("--role", choices=sorted(ROLES), default=None,
                        help="sit in a seat dealt this role (with --seat unset)")
    return parser.parse_args(argv)


def choose_seat(game: Game, args: argparse.Namespace, seed: int) -> int:
    n = game.config.num_players
    if args.seat is not None:
        if not 0 <= args.seat < n:
            raise ValueError(f"--seat must be between 0 and {n - 1}, got {args.seat}")
        if args.role is not None:
            raise ValueError("give --seat or --role, not both")
        return args.seat
    seats = list(range(n))
    if args.role is not None:
        seats = [s for s in seats if game.state.players[s].role == ROLES[args.role]]
        if not seats:  # the hidden-count variant may deal no seat of that role
            raise ValueError(f"seed {seed} deals no {args.role}; try another --seed")
    return random.Random(seed).choice(seats)


def decision_heading(view: SeatView) -> str:
    """What the person is deciding, in a sentence (from their seat's projection)."""
    board = view.board
    phase = Phase(board.phase)
    if phase == Phase.DECLARE_TARGET:
        return "You hold the pocket watch: declare the target sigil."
    if phase == Phase.TURN:
        return "Your turn. Free actions (equipment, the Necronomicon) come first; then one main action."
    if phase == Phase.RESEARCH_DISCARD:
        return f"Research: discard cards one at a time, then refill to {board.hand_size}."
    if phase == Phase.GAMBLE_PLAY:
        drawn = ", ".join(label(Sigil(c)) for c in view.gamble_cards)
        return f"Gamble: you drew {drawn}. Play one into the pool; the other is discarded."
    if phase == Phase.INVESTIGATE_TAKE:
        return "Investigate: take one of the cards you saw (you give one of yours back next), or swap nothing."
    if phase == Phase.INVESTIGATE_GIVE:
        return "Investigate: choose the card from your hand that goes into the pool in its place."
    if phase == Phase.VOTE:
        vote = board.vote
        subject = (f"{player_name(vote.proposer)} accuses {player_name(vote.accused)} of being a cultist"
                   if vote.kind == VoteKind.ACCUSATION else f"{player_name(vote.proposer)} proposes reading the Necronomicon")
        return f"Vote: {subject}. Votes stay secret until everybody has voted."
    if phase == Phase.NECRONOMICON_PAGE:
        return "You read the Necronomicon: enact one of the pages you see."
    if phase in (Phase.EQUIPMENT_PLAYER, Phase.EQUIPMENT_SIGIL):
        return f"Aim your {label(Equipment(view.me.equipment))}."
    return "Your decision."


def choice_texts(view: SeatView) -> list[tuple[int, str]]:
    """The seat's legal choices, each page of the Necronomicon with its rule."""
    out = []
    for choice in view.choices:
        text = choice.text
        if view.board.phase == Phase.NECRONOMICON_PAGE:
            text += f" ({PAGE[Page(choice.action - A.PAGE)]})"
        out.append((choice.action, text))
    return out


HELP = "type the number of a choice; ? shows the table again; q leaves (the game is saved)"


def ask_human(screen: Screen, state: State, me: int, show_board: bool) -> int | None:
    """The action the person picks, or None when they leave."""
    view = project_seat(state, me)
    if show_board:
        screen.seat(view)
    choices = choice_texts(view)
    screen.choices(decision_heading(view), [text for _, text in choices])
    while True:
        text = screen.ask("Your choice: ")
        if text is None or text.lower() in ("q", "quit", "exit"):
            return None
        if text.isdigit() and 1 <= int(text) <= len(choices):
            return choices[int(text) - 1][0]
        if text in ("?", "h", "help"):
            screen.seat(view)
            screen.choices(decision_heading(view), [t for _, t in choices])
            continue
        shown = f"'{text}'" if text else "An empty line"
        screen.say(f"  {shown} is not a choice: {HELP} (1 to {len(choices)}).", "yellow")


def narrate_new(screen: Screen, state: State, me: int, start: int) -> int:
    """Narrate events from index `start` that `me` witnessed; return the new start."""
    for line in narrated(witnessed(state, me, start), me):
        screen.say("  " + line.text, "italic" if line.private else "")
    return len(state.events)


def play(args: argparse.Namespace, screen: Screen | None = None) -> int:
    screen = screen or Screen()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    config = table_config(args)
    table = Table(config, seed)
    game = table.game
    me = choose_seat(game, args, seed)
    specs = {s: args.bots for s in range(config.num_players) if s != me}
    overrides = parse_seat_overrides(args.bot, config.num_players)
    if me in overrides:
        raise ValueError(f"seat {me} is yours; --bot cannot put a bot there")
    specs.update(overrides)
    delay = pause_seconds(args, screen)
    bots = BotSeats(config, specs, seed, greedy=not args.sample)
    seats = [HUMAN if s == me else specs[s] for s in range(config.num_players)]
    path = replay_path(args.replays, seed, "play")

    screen.rule("The Gate of R'lyeh")
    screen.say(f"{config.num_players} players, seed {seed}. You are {player_name(me)}; the others: "
               + ", ".join(f"{player_name(s)} {specs[s]}" for s in sorted(specs)) + ".")
    screen.say(HELP[0].upper() + HELP[1:] + ".", "dim")
    seen = 0
    last_round = -1
    try:
        while not game.over:
            seen = narrate_new(screen, game.state, me, seen)
            seat = game.decider
            if seat != me:
                before = len(game.state.events)
                table.step(bots.act(table, seat))
                if delay and any(e.seat == -1 for e in game.state.events[before:]):
                    time.sleep(delay)
                continue
            show_board = game.state.phase in (Phase.TURN, Phase.DECLARE_TARGET, Phase.VOTE) or game.state.round != last_round
            last_round = game.state.round
            action = ask_human(screen, game.state, me, show_board)
            if action is None:
                raise EOFError
            table.step(action)
            save_replay(path, game, seats, me)
    except (EOFError, KeyboardInterrupt):
        save_replay(path, game, seats, me)
        screen.say(f"\nLeft the table. The game so far is saved: rlyeh replay {path}")
        return 0
    narrate_new(screen, game.state, me, seen)
    save_replay(path, game, seats, me)
    screen.rule("Every secret revealed")
    screen.truth(game.state)
    you_won = (game.state.winner == Winner.INVESTIGATORS) == (game.state.players[me].role == Role.INVESTIGATOR)
    screen.say("You win!" if you_won else "You lose.", "bold green" if you_won else "bold red")
    screen.say(f"The replay: rlyeh replay {path}")
    return 0


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    args = parse_args(argv, prog)
    try:
        return play(args)
    except ValueError as err:  # a bad option value (e.g. --players 9), a bad checkpoint
        print(f"error: {err}", file=sys.stderr)
        return 2
