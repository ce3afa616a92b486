"""Readable text: the legal actions of a seat, one seat's view, and the full truth.

`render_seat` prints only what that seat may know (the same sources as its observation);
`render_truth` prints everything, for spectators, replays and debugging.
"""

from __future__ import annotations

from .engine.actions import describe
from .engine.cards import Character, Equipment, God, Insanity, Page, Role, Sigil, label
from .engine.config import MIDNIGHT
from .engine.legal import legal_actions
from .engine.state import EndReason, Phase, State, Winner


def player_name(seat: int) -> str:
    return f"player_{seat}"


def describe_legal_actions(state: State, seat: int) -> list[tuple[int, str]]:
    """(action id, description) for each legal action of `seat` (empty when it is not deciding)."""
    if state.game_over or state.decider != seat:
        return []
    names = [player_name(s) for s in range(state.num_players)]
    return [(a, describe(a, names, seat, state.config.hand_size)) for a in legal_actions(state)]


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


def narrate(event, viewer: int) -> str | None:
    """One line of plain language for an event `viewer` witnessed (None: nothing worth saying).

    Private events are narrated only to the seat that saw them; callers skip the others.
    """
    who = player_name(event.actor) if event.actor >= 0 else ""
    target = player_name(event.target) if event.target >= 0 else ""
    you = event.actor == viewer
    kind, value = event.kind, event.value
    if kind == "round":
        return f"-- Round {value + 1}: {who} holds the pocket watch --"
    if kind in ("declared", "compass"):
        how = "turns the compass to" if kind == "compass" else "declares the target:"
        return f"{who} {how} {label(Sigil(value))}"
    if kind in ("contributed", "gamble_played"):
        card = f"a face-up {label(Sigil(value))}" if value >= 0 else "a face-down card"
        verb = "gambles and plays" if kind == "gamble_played" else "contributes"
        return f"{who} {verb} {card} (pool: {event.target})"
    if kind == "my_card" and you:
        return f"(your card was {label(Sigil(value))})"
    if kind == "researched":
        return f"{who} researches, discarding {value} card{'s' if value != 1 else ''}"
    if kind == "drew" and you:
        return f"(you drew {label(Sigil(value))})"
    if kind == "gamble_drew" and you:
        return f"(you drew {label(Sigil(value))} from the gamble)"
    if kind == "investigated":
        return f"{who} investigates the pool"
    if kind == "saw_pool" and you:
        return f"(you see {label(Sigil(value))} in the pool)"
    if kind == "swapped":
        return f"{who} {'swaps a card' if value else 'swaps nothing'}"
    if kind == "accused":
        return f"{who} accuses {target}! The table votes."
    if kind == "proposed_necronomicon":
        return f"{who} proposes consulting the Necronomicon! The table votes."
    if kind == "voted":
        return f"   {who} voted {'Yes' if value else 'No'}"
    if kind == "vote_result":
        return f"The vote {'passes' if value else 'fails'}."
    if kind == "role_revealed":
        return f"{target} is revealed: {label(Role(value)).upper()}!"
    if kind == "cursed":
        return f"{who} curses {target}"
    if kind == "sanity_lost":
        card = f", drawing {label(Insanity(value))}" if value >= 0 else ""
        return f"{who} loses 1 sanity{card}"
    if kind == "went_mad":
        return f"{who} goes MAD"
    if kind == "incantation":
        return f"The incantation on {label(Sigil(event.target))} {'SUCCEEDS' if value else 'FAILS'}!"
    if kind == "clock":
        return f"The clock strikes {value}"
    if kind == "equipment":
        return f"{who} uses the {label(Equipment(value))}"
    if kind == "knifed":
        return f"A face-down card is cut from the pool (pool: {event.target})"
    if kind in ("shot", "spied", "ouija"):
        return f"   ... on {target}"
    if kind == "saw_hand" and you:
        return f"(you see {label(Sigil(value))} in {target}'s hand)"
    if kind == "saw_role" and you:
        return f"(the board spells it out: {target} is {label(Role(value)).upper()})"
    if kind == "saw_deck" and you:
        return f"(coming up in the deck: {label(Sigil(value))})"
    if kind == "page_offered" and you:
        return f"(the Necronomicon shows you: {label(Page(value))})"
    if kind == "page_enacted":
        return f"{who} reads '{label(Page(value))}' aloud"
    if kind == "healed":
        return f"{who} recovers (sanity {value})"
    if kind == "game_over":
        return f"GAME OVER: the {label(Winner(value)).lower()} win ({label(EndReason(event.target)).lower()})"
    return None


def narrate_truth(event) -> str | None:
    """One line for a spectator who sees everything: public events as everybody hears them,
    private ones labelled with the seat that saw them."""
    if event.seat < 0:
        return narrate(event, -1)
    line = narrate(event, event.seat)
    if line is None:
        return None
    return f"   [{player_name(event.seat)} privately] {line.strip('()')}"
