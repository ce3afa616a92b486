"""Plain language for the table: player names, a seat's legal actions, one line per event.

Every human view uses these words: a seat's views narrate what that seat witnessed (`narrate`
with the seat as viewer), the truth views narrate everything for spectators and replays
(`narrate_truth`). Private events are written in the second person and told to their actor only.
"""

from __future__ import annotations

from .engine.actions import describe
from .engine.cards import Equipment, Insanity, Page, Role, Sigil, label
from .engine.legal import legal_actions
from .engine.state import EndReason, Event, State, Winner


def player_name(seat: int) -> str:
    return f"player_{seat}"


def describe_legal_actions(state: State, seat: int) -> list[tuple[int, str]]:
    """(action id, description) for each legal action of `seat` (empty when it is not deciding)."""
    if state.game_over or state.decider != seat:
        return []
    names = [player_name(s) for s in range(state.num_players)]
    return [(a, describe(a, names, seat, state.config.hand_size)) for a in legal_actions(state)]


def _sigil(value: int) -> str:
    return label(Sigil(value))


def _role(value: int) -> str:
    return label(Role(value)).upper()


def _page(value: int) -> str:
    return label(Page(value))


def _card(value: int) -> str:
    return f"a face-up {_sigil(value)}" if value >= 0 else "a face-down card"


# kind -> (line, how the event's value reads). In a line, {who} is the actor, {target} the seat
# the event names, {value} the value as read, {pool} the pool size after the event.
_LINES = {
    "round": ("-- Round {value}: {who} holds the pocket watch --", lambda v: str(v + 1)),
    "declared": ("{who} declares the target: {value}", _sigil),
    "compass": ("{who} turns the compass to {value}", _sigil),
    "contributed": ("{who} contributes {value} (pool: {pool})", _card),
    "gamble_played": ("{who} gambles and plays {value} (pool: {pool})", _card),
    "researched": ("{who} researches, discarding {value}", lambda v: f"{v} card{'s' if v != 1 else ''}"),
    "investigated": ("{who} investigates the pool", str),
    "swapped": ("{who} {value}", lambda v: "swaps a card" if v else "swaps nothing"),
    "accused": ("{who} accuses {target}! The table votes.", str),
    "proposed_necronomicon": ("{who} proposes consulting the Necronomicon! The table votes.", str),
    "voted": ("   {who} voted {value}", lambda v: "Yes" if v else "No"),
    "vote_result": ("The vote {value}.", lambda v: "passes" if v else "fails"),
    "role_revealed": ("{target} is revealed: {value}!", _role),
    "cursed": ("{who} curses {target}", str),
    "sanity_lost": ("{who} loses 1 sanity{value}", lambda v: f", drawing {label(Insanity(v))}" if v >= 0 else ""),
    "went_mad": ("{who} goes MAD", str),
    "clock": ("The clock strikes {value}", str),
    "equipment": ("{who} uses the {value}", lambda v: label(Equipment(v))),
    "knifed": ("A face-down card is cut from the pool (pool: {pool})", str),
    "shot": ("   ... on {target}", str),
    "spied": ("   ... on {target}", str),
    "ouija": ("   ... on {target}", str),
    "page_enacted": ("{who} reads '{value}' aloud", _page),
    "healed": ("{who} recovers (sanity {value})", str),
    # what the actor alone saw (see PRIVATE)
    "my_card": ("(your card was {value})", _sigil),
    "drew": ("(you drew {value})", _sigil),
    "gamble_drew": ("(you drew {value} from the gamble)", _sigil),
    "saw_pool": ("(you see {value} in the pool)", _sigil),
    "saw_hand": ("(you see {value} in {target}'s hand)", _sigil),
    "saw_role": ("(the board spells it out: {target} is {value})", _role),
    "saw_deck": ("(coming up in the deck: {value})", _sigil),
    "page_offered": ("(the Necronomicon shows you: {value})", _page),
}
PRIVATE = frozenset({"my_card", "drew", "gamble_drew", "saw_pool", "saw_hand", "saw_role", "saw_deck", "page_offered"})
"""Kinds narrated to their actor only (they are written in the second person)."""


def narrate(event: Event, viewer: int) -> str | None:
    """One line of plain language for an event `viewer` witnessed (None: nothing worth saying).

    Private events are narrated only to the seat that saw them; callers skip the others.
    """
    kind = event.kind
    if kind in PRIVATE and event.actor != viewer:
        return None
    # the two kinds whose `target` is not a seat or a pool size
    if kind == "incantation":
        return f"The incantation on {_sigil(event.target)} {'SUCCEEDS' if event.value else 'FAILS'}!"
    if kind == "game_over":
        winners, reason = label(Winner(event.value)).lower(), label(EndReason(event.target)).lower()
        return f"GAME OVER: the {winners} win ({reason})"
    entry = _LINES.get(kind)
    if entry is None:
        return None
    line, read = entry
    return line.format(
        who=player_name(event.actor) if event.actor >= 0 else "",
        target=player_name(event.target) if event.target >= 0 else "",
        value=read(event.value),
        pool=event.target,
    )


def narrate_truth(event: Event) -> str | None:
    """One line for a spectator who sees everything: public events as everybody hears them,
    private ones labelled with the seat that saw them."""
    if event.seat < 0:
        return narrate(event, -1)
    line = narrate(event, event.seat)
    if line is None:
        return None
    return f"   [{player_name(event.seat)} privately] {line.strip('()')}"
