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
from game_length import max_decisions_per_turn, max_rounds, upper_bound_decisions
from scenario import set_hand, set_pool
from scenario import take_from_deck as _take_from_deck


def make(seed: int = 0, **config):
    """A freshly dealt game: (state, rng). Keyword arguments are GameConfig fields."""
    rng = random.Random(seed)
    state = new_game(GameConfig(**config), rng)
    return state, rng


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


def random_config(r: random.Random, n: int | None = None) -> GameConfig:
    """A valid GameConfig: the defaults half the time, else many fields drawn at random."""
    n = n if n is not None else r.randint(4, 8)
    kw = {"num_players": n, "hidden_cultist_count": r.random() < 0.5, "extra_gods": r.random() < 0.5}
    if r.random() < 0.5:
        return GameConfig(**kw)
    size = r.randint(2, 12)
    pages = (r.randint(0, 4), r.randint(0, 4), r.randint(0, 3))
    if sum(pages) == 0:
        pages = (1, 0, 0)
    kw.update(
        start_hour=r.randint(0, 11),
        cards_per_sigil=r.choice([4, 6, 12, 20]),
        hand_size=r.randint(1, 6),
        incantation_size=size,
        incantation_threshold=r.randint(1, size),
        opposite_cancels=r.randint(0, 3),
        start_sanity=r.randint(1, 12),
        investigate_sanity_loss=r.randint(0, 3),
        failed_incantation_sanity_loss=r.randint(0, 3),
        phobia_sanity_loss=r.randint(0, 3),
        wrong_accusation_hours=r.randint(0, 12),
        necronomicon_earliest_hour=r.randint(0, 11),
        necronomicon_sanity_loss=r.randint(0, 12),
        necronomicon_pages=pages,
        necronomicon_offer=r.randint(1, sum(pages)),
        necronomicon_hours_back=r.randint(0, 12),
        insanity_copies=r.randint(1, 10),
        revealed_cultist_contributes=r.random() < 0.5,
    )
    if not kw["hidden_cultist_count"] and r.random() < 0.5:
        kw["num_cultists"] = r.randint(1, n // 2)
    return GameConfig(**kw)


def _policy(state, legal, r: random.Random, bias: float) -> int:
    """Uniform over the legal actions, except that with probability `bias` it plays for the
    target (contribute / gamble-play / give a target card) so that sigils do get activated."""
    if bias and r.random() < bias and state.target >= 0:
        for a in (A.CONTRIBUTE + state.target, A.GAMBLE_PLAY + state.target):
            if a in legal:
                return a
    return r.choice(legal)


class Checker:
    """Invariants of a game in progress, checked after every decision."""

    def __init__(self, state):
        cfg = state.config
        self.cfg = cfg
        self.mythos = [cfg.cards_per_sigil] * 4
        self.insanity = [cfg.insanity_copies] * 6
        self.hour = state.hour
        self.hours_back = 0
        self.turn_key = (state.round, state.turn_index)
        self.turn_decisions = 0
        self.first_turn = True
        self.max_turn = max_decisions_per_turn(cfg)
        self.activated = list(state.activated)
        self.revealed = [p.revealed for p in state.players]
        self.used = [p.equipment_used for p in state.players]
        self.records = 0
        self.check(state)

    def step(self, state, action) -> None:
        name, index = A.decode(action)
        key = (state.round, state.turn_index)
        self.check(state)
        # the clock never decreases except through a Necronomicon page or a Cthugha success
        if state.hour < self.hour:
            cthugha = (
                len(state.incantations) > self.records
                and state.incantations[-1].success
                and state.gods[state.incantations[-1].target] == 6
            )
            page = name == "page" and index in (0, 1)
            assert page or cthugha, (action, self.hour, state.hour)
            self.hours_back += self.hour - state.hour
            assert self.hours_back <= max(self.cfg.necronomicon_hours_back, 1) + 1
        self.hour = state.hour
        self.records = len(state.incantations)
        # per-turn decision count (R12.7); the opening declaration is counted apart
        self.turn_decisions += 1
        if key != self.turn_key or state.game_over:
            limit = self.max_turn + (1 if self.first_turn else 0)
            assert self.turn_decisions <= limit, (self.turn_decisions, limit)
            self.first_turn = False
            self.turn_key = key
            self.turn_decisions = 0
        assert state.round < max_rounds(self.cfg)

    def check(self, state) -> None:
        cfg = self.cfg
        n = state.num_players
        assert mythos_total(state) == self.mythos
        assert insanity_total(state) == self.insanity
        legal = legal_actions(state)
        if state.game_over:
            assert legal == [] and state.decider == -1
            assert state.winner != 0 and state.end_reason != 0
            if state.end_reason == 1:
                assert all(state.activated) and state.winner == 1
            else:
                assert state.winner == 2
            if state.end_reason == 2:
                assert state.hour == 12
        else:
            assert legal, "no legal action in a live game"
            assert legal == sorted(set(legal)) and all(0 <= a < A.NUM_ACTIONS for a in legal)
            assert 0 <= state.decider < n
            assert state.winner == 0 and state.end_reason == 0
            assert 0 <= state.hour < 12
            assert 0 <= state.turn_index < n
            assert state.round_order == [(state.watch + k) % n for k in range(n)]
            assert len(state.pool) < cfg.incantation_size
            if state.phase == Phase.TURN:
                assert state.decider == state.turn_player and not state.main_action_done
            if state.phase == Phase.DECLARE_TARGET:
                assert state.target == -1 and state.decider == state.watch
            else:
                assert 0 <= state.target < 4 and not state.activated[state.target]
            if state.phase != Phase.GAMBLE_PLAY:
                assert state.pending.gamble_cards == []
            if state.phase != Phase.VOTE:
                assert state.pending.vote is None
        for s in range(4):
            assert state.activated[s] >= self.activated[s]
        self.activated = list(state.activated)
        for seat, p in enumerate(state.players):
            assert 0 <= p.sanity <= cfg.start_sanity
            assert all(c >= 0 for c in p.hand) and p.hand_count <= cfg.hand_size
            assert 0 <= p.expiring <= len(p.insanity)
            assert p.revealed >= self.revealed[seat] and p.equipment_used >= self.used[seat]
            assert p.memory.known_roles[seat] == p.role
        self.revealed = [p.revealed for p in state.players]
        self.used = [p.equipment_used for p in state.players]
        assert sum(p.role for p in state.players) == state.num_cultists
        assert len(state.incantations) == len(state.players[0].memory.past_mine)


def play(config: GameConfig, seed: int, policy_seed: int | None = None, bias: float = 0.0, check: bool = True):
    """Play one game with a random policy; returns (state, decisions)."""
    rng = random.Random(seed)
    pick = random.Random(seed * 7919 + 1 if policy_seed is None else policy_seed)
    state = new_game(config, rng)
    checker = Checker(state) if check else None
    bound = upper_bound_decisions(config)
    decisions = 0
    while not state.game_over:
        legal = legal_actions(state)
        action = _policy(state, legal, pick, bias)
        apply_action(state, action, rng)
        decisions += 1
        if checker is not None:
            checker.step(state, action)
        assert decisions <= bound, f"game exceeded the proven bound {bound}"
    return state, decisions


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
        max_rounds=max_rounds,
        random_config=random_config,
        play=play,
        max_decisions_per_turn=max_decisions_per_turn,
        legal=legal_actions,
        apply=apply_action,
    )
