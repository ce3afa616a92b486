"""Plain text of the table: one seat's view and the full truth.

`seat_text` renders a seat's projection (`rlyeh_env.seat_view.SeatView`) and nothing else, so it
prints only what that seat may know; `render_seat(state, seat)` builds the projection and renders
it (`env.render_seat(agent)`, the terminal on a pipe). `render_truth` prints everything, for
spectators, replays and debugging: the public board of a projection plus every secret of the state.
The words (player names, actions, events) are `rlyeh_env.narration`'s.
"""

from __future__ import annotations

from .engine.cards import Character, Equipment, God, Insanity, Page, Role, Sigil, label
from .engine.config import MIDNIGHT
from .engine.state import EndReason, Phase, State, Winner
from .narration import player_name
from .seat_view import Board, PublicPlayer, SeatView, project_seat, public_board


def _cards(counts) -> str:
    parts = [f"{count} {label(Sigil(s))}" for s, count in enumerate(counts) if count]
    return ", ".join(parts) if parts else "none"


def _clock(board: Board) -> str:
    hours = MIDNIGHT - board.hour
    track = "#" * board.hour + "." * hours
    return f"Clock {board.hour:2d}:00 [{track}] {hours} hour{'s' if hours != 1 else ''} to midnight"


def _sigils(board: Board) -> str:
    parts = []
    for s in range(4):
        mark = "*" if board.activated[s] else ("<" if s == board.target else " ")
        god = God(board.gods[s])
        parts.append(f"{label(Sigil(s))}{mark}" + (f" ({label(god)})" if god >= 4 else ""))
    target = label(Sigil(board.target)) if board.target >= 0 else "not declared"
    return f"Sigils: {'  '.join(parts)}   (* activated, < target: {target})"


def _pool(board: Board) -> str:
    shown = [label(Sigil(card)) if card >= 0 else "[?]" for card in board.pool]
    return f"Pool {len(board.pool)}/{board.incantation_size}: {' '.join(shown) or 'empty'}"


def _public_player(board: Board, p: PublicPlayer) -> str:
    revealed = f"revealed {label(Role(p.revealed_role))}" if p.revealed_role >= 0 else "role hidden"
    insanity = ", ".join(label(Insanity(c)) for c in p.insanity) or "-"
    used = " (used)" if p.equipment_used else ""
    watch = " [watch]" if p.seat == board.watch else ""
    mad = " MAD" if p.mad else ""
    return (
        f"  {player_name(p.seat)}{watch}: {label(Character(p.character))}, sanity {p.sanity}{mad}, "
        f"{p.cards} cards, {label(Equipment(p.equipment))}{used}, {revealed}; insanity: {insanity}"
    )


def _header(board: Board) -> list[str]:
    lines = [
        f"Round {board.round + 1}  {_clock(board)}",
        _sigils(board),
        _pool(board),
        f"Deck {board.deck}  discard {board.discard}",
    ]
    if board.game_over:
        lines.append(f"GAME OVER: {label(Winner(board.winner))} win ({label(EndReason(board.end_reason))})")
    else:
        lines.append(f"Deciding: {player_name(board.decider)} ({label(Phase(board.phase))})")
    return lines


def render_seat(state: State, seat: int, with_choices: bool = True) -> str:
    """`seat`'s view as text: `seat_text` of its projection."""
    return seat_text(project_seat(state, seat), with_choices)


def seat_text(view: SeatView, with_choices: bool = True) -> str:
    """The projection as plain text; `with_choices` lists the legal actions by id."""
    board, seat = view.board, view.seat
    lines = [f"== {player_name(seat)}'s view =="] + _header(board)
    lines.append(f"You are {label(Role(view.role)).upper()}; hand: {_cards(view.hand)}; sanity {view.me.sanity}")
    if any(view.pool_mine):
        lines.append(f"You put into this pool: {_cards(view.pool_mine)}")
    if view.pool_look_size:
        lines.append(f"Your last look at this pool ({view.pool_look_size} cards) showed: {_cards(view.pool_look)}")
    known = [f"{player_name(s)} is {label(Role(r))}" for s, r in enumerate(view.known_roles) if r >= 0 and s != seat]
    if known:
        lines.append("You know: " + "; ".join(known))
    for s, hand in enumerate(view.seen_hands):
        if hand is not None and s != seat:
            lines.append(f"You saw {player_name(s)}'s hand: {_cards(hand)}")
    if view.deck_top:
        lines.append("Next deck cards: " + ", ".join(label(Sigil(c)) for c in view.deck_top))
    lines.append("Players:")
    lines += [_public_player(board, p) for p in board.players]
    if view.deciding:
        if view.gamble_cards and board.phase == Phase.GAMBLE_PLAY:
            lines.append("You drew: " + ", ".join(label(Sigil(c)) for c in view.gamble_cards))
        if board.phase == Phase.NECRONOMICON_PAGE:
            lines.append("The pages show: " + ", ".join(label(Page(p)) for p in view.pages))
    if view.deciding and with_choices:
        lines.append("Your choices:")
        lines += [f"  {c.action:2d}: {c.text}" for c in view.choices]
    return "\n".join(lines)


def render_truth(state: State) -> str:
    board = public_board(state)
    lines = ["== the full truth =="] + _header(board)
    lines.append("Pool cards: " + (", ".join(
        f"{label(Sigil(c.sigil))} by {player_name(c.contributor)}{' (up)' if c.face_up else ''}" for c in state.pool
    ) or "none"))
    lines.append("Players:")
    for public, p in zip(board.players, state.players):
        lines.append(_public_player(board, public) + f"\n      SECRET: {label(Role(p.role))}; hand {_cards(p.hand)}")
    for i, record in enumerate(state.incantations):
        verdict = "succeeded" if record.success else "failed"
        played = ", ".join(f"{label(Sigil(sigil))} ({player_name(owner)})" for sigil, owner in record.played)
        lines.append(f"Incantation {i + 1} on {label(Sigil(record.target))} {verdict}: {played}")
    return "\n".join(lines)
