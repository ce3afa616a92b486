"""Readable text: one seat's view and the full truth (the words are `rlyeh_env.narration`'s).

`render_seat` prints only what that seat may know (the same sources as its observation);
`render_truth` prints everything, for spectators, replays and debugging.
"""

from __future__ import annotations

from .engine.cards import Character, Equipment, God, Insanity, Page, Role, Sigil, label
from .engine.config import MIDNIGHT
from .engine.state import EndReason, Phase, State, Winner
from .narration import describe_legal_actions, narrate, narrate_truth, player_name  # also imported from here by callers


def _cards(counts: list[int]) -> str:
    parts = [f"{count} {label(Sigil(s))}" for s, count in enumerate(counts) if count]
    return ", ".join(parts) if parts else "none"


def _clock(state: State) -> str:
    hours = MIDNIGHT - state.hour
    track = "#" * state.hour + "." * hours
    return f"Clock {state.hour:2d}:00 [{track}] {hours} hour{'s' if hours != 1 else ''} to midnight"


def _sigils(state: State) -> str:
    parts = []
    for s in range(4):
        mark = "*" if state.activated[s] else ("<" if s == state.target else " ")
        god = God(state.gods[s])
        parts.append(f"{label(Sigil(s))}{mark}" + (f" ({label(god)})" if god >= 4 else ""))
    target = label(Sigil(state.target)) if state.target >= 0 else "not declared"
    return f"Sigils: {'  '.join(parts)}   (* activated, < target: {target})"


def _pool(state: State) -> str:
    shown = [label(Sigil(c.sigil)) if c.face_up else "[?]" for c in state.pool]
    return f"Pool {len(state.pool)}/{state.config.incantation_size}: {' '.join(shown) or 'empty'}"


def _public_player(state: State, seat: int) -> str:
    p = state.players[seat]
    revealed = f"revealed {label(Role(p.role))}" if p.revealed else "role hidden"
    insanity = ", ".join(label(Insanity(c)) for c in p.insanity) or "-"
    used = " (used)" if p.equipment_used else ""
    watch = " [watch]" if seat == state.watch else ""
    mad = " MAD" if p.sanity == 0 else ""
    return (
        f"  {player_name(seat)}{watch}: {label(Character(p.character))}, sanity {p.sanity}{mad}, "
        f"{p.hand_count} cards, {label(Equipment(p.equipment))}{used}, {revealed}; insanity: {insanity}"
    )


def _header(state: State) -> list[str]:
    lines = [
        f"Round {state.round + 1}  {_clock(state)}",
        _sigils(state),
        _pool(state),
        f"Deck {len(state.deck)}  discard {len(state.discard)}",
    ]
    if state.game_over:
        lines.append(f"GAME OVER: {label(Winner(state.winner))} win ({label(EndReason(state.end_reason))})")
    else:
        lines.append(f"Deciding: {player_name(state.decider)} ({label(Phase(state.phase))})")
    return lines


def render_seat(state: State, seat: int, with_choices: bool = True) -> str:
    me = state.players[seat]
    mem = me.memory
    lines = [f"== {player_name(seat)}'s view =="] + _header(state)
    lines.append(f"You are {label(Role(me.role)).upper()}; hand: {_cards(me.hand)}; sanity {me.sanity}")
    if any(mem.pool_mine):
        lines.append(f"You put into this pool: {_cards(mem.pool_mine)}")
    if mem.pool_look_size:
        lines.append(f"Your last look at this pool ({mem.pool_look_size} cards) showed: {_cards(mem.pool_look)}")
    known = [f"{player_name(s)} is {label(Role(r))}" for s, r in enumerate(mem.known_roles) if r >= 0 and s != seat]
    if known:
        lines.append("You know: " + "; ".join(known))
    for s, hand in enumerate(mem.seen_hands):
        if hand is not None and s != seat:
            lines.append(f"You saw {player_name(s)}'s hand: {_cards(hand)}")
    if mem.deck_top:
        lines.append("Next deck cards: " + ", ".join(label(Sigil(c)) for c in mem.deck_top))
    lines.append("Players:")
    lines += [_public_player(state, s) for s in range(state.num_players)]
    if state.decider == seat and not state.game_over:
        if state.pending.gamble_cards and state.phase == Phase.GAMBLE_PLAY:
            lines.append("You drew: " + ", ".join(label(Sigil(c)) for c in state.pending.gamble_cards))
        if state.phase == Phase.NECRONOMICON_PAGE:
            lines.append("The pages show: " + ", ".join(label(Page(p)) for p in state.pending.pages))
    if state.decider == seat and not state.game_over and with_choices:
        lines.append("Your choices:")
        lines += [f"  {a:2d}: {text}" for a, text in describe_legal_actions(state, seat)]
    return "\n".join(lines)


def render_truth(state: State) -> str:
    lines = ["== the full truth =="] + _header(state)
    lines.append("Pool cards: " + (", ".join(
        f"{label(Sigil(c.sigil))} by {player_name(c.contributor)}{' (up)' if c.face_up else ''}" for c in state.pool
    ) or "none"))
    lines.append("Players:")
    for s, p in enumerate(state.players):
        lines.append(_public_player(state, s) + f"\n      SECRET: {label(Role(p.role))}; hand {_cards(p.hand)}")
    for i, record in enumerate(state.incantations):
        verdict = "succeeded" if record.success else "failed"
        played = ", ".join(f"{label(Sigil(sigil))} ({player_name(owner)})" for sigil, owner in record.played)
        lines.append(f"Incantation {i + 1} on {label(Sigil(record.target))} {verdict}: {played}")
    return "\n".join(lines)
