"""Shared helpers for the engine scenario tests, exposed through the `eng` fixture.

Scenario tests start from a real dealt game (`new_game`) and then edit the State directly into
the exact situation a rule talks about. The helpers below move cards between zones instead of
inventing them, so the card-conservation invariant still holds in every scripted state.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from rlyeh_env.engine import GameConfig, Phase, apply_action, legal_actions, new_game
from rlyeh_env.engine import actions as A
from rlyeh_env.engine.state import PoolCard


def make(seed: int = 0, **config):
    """A freshly dealt game: (state, rng). Keyword arguments are GameConfig fields."""
    rng = random.Random(seed)
    state = new_game(GameConfig(**config), rng)
    return state, rng


def _take_from_deck(state, sigil: int) -> None:
    """Remove one card of `sigil` from the deck, falling back to the discard pile."""
    for zone in (state.deck, state.discard):
        if sigil in zone:
            # remove the copy nearest the bottom so stacked tops stay in place
            zone.pop(zone.index(sigil))
            return
    raise AssertionError(f"no {sigil} card left in deck or discard to script the state with")


def set_hand(state, seat: int, hand) -> None:
    """Give `seat` exactly `hand` (counts per sigil); old cards go back into the deck."""
    player = state.players[seat]
    for sigil in range(4):
        state.deck[:0] = [sigil] * player.hand[sigil]
    player.hand = [0, 0, 0, 0]
    for sigil in range(4):
        for _ in range(hand[sigil]):
            _take_from_deck(state, sigil)
    player.hand = list(hand)


def set_pool(state, cards) -> None:
    """Replace the pool by `cards`: (sigil, contributor[, face_up]) tuples, taken from the deck.

    The per-seat pool bookkeeping (contributions, face-up counts, memory) is set to match.
    """
    for card in state.pool:
        state.deck.insert(0, card.sigil)
    n = state.num_players
    state.pool = []
    state.pool_contributions = [0] * n
    state.pool_face_up = [[0, 0, 0, 0] for _ in range(n)]
    state.pool_investigations = [0] * n
    state.pool_swaps = [0] * n
    for p in state.players:
        p.memory.pool_mine = [0, 0, 0, 0]
    for entry in cards:
        sigil, seat = entry[0], entry[1]
        face_up = entry[2] if len(entry) > 2 else False
        _take_from_deck(state, sigil)
        state.pool.append(PoolCard(sigil, seat, face_up))
        state.pool_contributions[seat] += 1
        if face_up:
            state.pool_face_up[seat][sigil] += 1
        state.players[seat].memory.pool_mine[sigil] += 1


def stack_deck(state, top) -> None:
    """Put the cards `top` (next drawn first) on top of the Mythos deck."""
    for sigil in top:
        _take_from_deck(state, sigil)
    state.deck.extend(reversed(list(top)))


def stack_insanity(state, top) -> None:
    """Put the Insanity cards `top` (next drawn first) on top of the Insanity deck."""
    for card in top:
        state.insanity_deck.remove(card)
    state.insanity_deck.extend(reversed(list(top)))


def give_insanity(state, seat: int, cards, expiring: int | None = None) -> None:
    """Hand `seat` the Insanity cards `cards` (taken from the Insanity deck)."""
    player = state.players[seat]
    for card in cards:
        state.insanity_deck.remove(card)
        player.insanity.append(card)
    if expiring is not None:
        player.expiring = expiring


def turn(state, seat: int, *, watch: int | None = None, target: int | None = 0) -> None:
    """Make it the start of `seat`'s turn (phase TURN, main action owed).

    `watch` defaults to `seat` (so `seat` plays first in the round); `target` is the declared
    sigil (None keeps the current one).
    """
    n = state.num_players
    state.watch = seat if watch is None else watch
    state.round_order = [(state.watch + k) % n for k in range(n)]
    state.turn_index = (seat - state.watch) % n
    state.phase = Phase.TURN
    state.decider = seat
    state.main_action_done = False
    if target is not None:
        state.target = target
    state.players[seat].expiring = len(state.players[seat].insanity)


def step(state, rng, *actions) -> None:
    """Apply several actions in a row (each by whoever must decide then)."""
    for action in actions:
        apply_action(state, action, rng)


def offset(state, actor: int, target: int) -> int:
    """Clockwise offset from `actor` to `target` (1..n-1), as the action encoding uses."""
    return (target - actor) % state.num_players


def accuse(state, actor: int, target: int) -> int:
    return A.ACCUSE + offset(state, actor, target) - 1


def curse(state, actor: int, target: int) -> int:
    return A.CURSE + offset(state, actor, target) - 1


def aim(state, actor: int, target: int) -> int:
    """The EQUIPMENT_PLAYER action naming `target`."""
    return A.TARGET_PLAYER + offset(state, actor, target) - 1


def characters(state, chars) -> None:
    """Set each seat's character (and so its phobia)."""
    for seat, c in enumerate(chars):
        state.players[seat].character = c


def mythos_total(state) -> list[int]:
    """Mythos cards per sigil over every zone (deck, discard, hands, pool, pending gamble)."""
    counts = [0, 0, 0, 0]
    for s in state.deck + state.discard + [c.sigil for c in state.pool] + list(state.pending.gamble_cards):
        counts[s] += 1
    for p in state.players:
        for s in range(4):
            counts[s] += p.hand[s]
    return counts


def insanity_total(state) -> list[int]:
    counts = [0] * 6
    for c in state.insanity_deck + state.insanity_discard:
        counts[c] += 1
    for p in state.players:
        for c in p.insanity:
            counts[c] += 1
    return counts


def upper_bound_decisions(config: GameConfig) -> int:
    """A proven upper bound on the number of decisions (apply_action calls) of one game.

    Rounds: the clock starts at `first_hour` and moves forward one hour at the end of every
    round; the game ends when it reaches midnight (12). Only three things move it back, each at
    most once per game: the Necronomicon page read (Turn back time: `necronomicon_hours_back`
    hours, or Forbidden lore: one hour; the book is read at most once) and a successful
    incantation on Cthugha's sigil (one hour; each sigil is activated at most once). Every other
    clock move is forward. Hence rounds <= (12 - first_hour) + max(hours_back, 1) + 1.

    Decisions per turn, n players, hand size h (one main action per turn):
      Contribute 1 (+1 declare if it completes the pool), Research 1 + h (at most h discards,
      the h-th ends it, else a Stop), Gamble 2 (+1 declare), Investigate 3 (investigate, take,
      give), Accuse 1 + (n - 2) votes, Curse 1.  So main <= max(3, 1 + h, n - 1).
    Free actions over the whole game: equipment once per player (use + target: 2n); each
    player proposes the Necronomicon at most once (1 + at most n - 1 votes each: n * n) and the
    book is read at most once (1 page choice). Plus the opening declaration.
    """
    n, h = config.num_players, config.hand_size
    rounds = (12 - config.first_hour) + max(config.necronomicon_hours_back, 1) + 1
    per_turn = max(3, 1 + h, n - 1)
    return 1 + rounds * n * per_turn + 2 * n + n * n + 1


@pytest.fixture
def eng():
    """Namespace of the helpers above (state builders, action id helpers, counters)."""
    return SimpleNamespace(
        make=make,
        set_hand=set_hand,
        set_pool=set_pool,
        stack_deck=stack_deck,
        stack_insanity=stack_insanity,
        give_insanity=give_insanity,
        turn=turn,
        step=step,
        offset=offset,
        accuse=accuse,
        curse=curse,
        aim=aim,
        characters=characters,
        mythos_total=mythos_total,
        insanity_total=insanity_total,
        upper_bound_decisions=upper_bound_decisions,
        legal=legal_actions,
        apply=apply_action,
    )
