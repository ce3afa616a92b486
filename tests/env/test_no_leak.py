"""No leak: a seat's observation (both modes) and its text view depend only on what it may know.

For every seat of many mid-game states (every phase, every table size, the variants), a clone
that changes everything the seat cannot know (`rlyeh_env_testkit.perturb`) must encode to the
identical vector and render to the identical text, with a fresh Encoder and with a shared one
(whose caches are keyed by state identity). The converse checks show the comparison has teeth.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from rlyeh_env.engine import Phase
from rlyeh_env.engine.state import State
from rlyeh_env.observation import HISTORY_LAYOUT, Encoder
from rlyeh_env.text import render_seat
from rlyeh_env_testkit import ALL_PHASES, perturb, sample_states

MODES = ("seat", "history")


def _diff(a: np.ndarray, b: np.ndarray) -> list[str]:
    """Names of the pieces where two observations differ (for the failure message)."""
    names = []
    for piece in HISTORY_LAYOUT.pieces.values():
        if piece.start < len(a) and not np.array_equal(a[piece.start : piece.stop], b[piece.start : piece.stop]):
            names.append(piece.name)
    return names


def _describe(state: State, seat: int) -> str:
    return f"n={state.num_players} phase={Phase(state.phase).name} decider={state.decider} seat={seat} step={state.steps}"


def check_no_leak(states: list[State], perturbations: int, seed: int) -> None:
    r = random.Random(seed)
    shared = {mode: {} for mode in MODES}
    for state in states:
        for seat in range(state.num_players):
            text = render_seat(state, seat)
            for _ in range(perturbations):
                other = perturb(state, seat, r)
                assert render_seat(other, seat) == text, f"text leak: {_describe(state, seat)}"
                for mode in MODES:
                    key = state.config
                    enc = shared[mode].setdefault(key, Encoder(state.config, mode))
                    a = enc.observe(state, seat)
                    b = enc.observe(other, seat)
                    a_fresh = Encoder(state.config, mode).observe(state, seat)
                    b_fresh = Encoder(other.config, mode).observe(other, seat)
                    assert np.array_equal(a, a_fresh), f"shared encoder differs from fresh: {_describe(state, seat)}"
                    assert np.array_equal(b, b_fresh), f"shared encoder differs from fresh: {_describe(state, seat)}"
                    assert np.array_equal(a, b), f"{mode} leak in {_diff(a, b)}: {_describe(state, seat)}"
                    # the original again, after the clone went through the shared encoder
                    assert np.array_equal(enc.observe(state, seat), a)


@pytest.fixture(scope="module")
def states() -> list[State]:
    return sample_states(seeds=range(2))


def test_sample_covers_every_phase_and_private_memory(states):
    phases = {s.phase for s in states}
    assert phases == set(ALL_PHASES), sorted(Phase(p).name for p in set(ALL_PHASES) - phases)
    sizes = {s.num_players for s in states}
    assert sizes == set(range(4, 9))
    memories = [p.memory for s in states for p in s.players]
    assert any(any(h is not None for h in m.seen_hands) for m in memories), "no Spyglass knowledge sampled"
    assert any(m.deck_top for m in memories), "no Almanac knowledge sampled"
    assert any(m.pool_look_size for m in memories), "no pool look sampled"
    assert any(any(m.pool_mine) for m in memories)
    ouija = any(
        r >= 0 and q != i and not s.players[q].revealed
        for s in states
        for i, p in enumerate(s.players)
        for q, r in enumerate(p.memory.known_roles)
    )
    assert ouija, "no Ouija knowledge sampled"
    assert any(s.pending.vote is not None and any(v for v in s.pending.vote.votes) for s in states)
    assert any(s.incantations for s in states) and any(s.votes for s in states)


@pytest.mark.parametrize("part", range(2))
def test_no_leak(states, part):
    check_no_leak(states[part::2], perturbations=1, seed=part)


def test_perturbation_changes_what_the_seat_cannot_know(states):
    """The perturbation is not a no-op: hidden parts of the truth really change."""
    r = random.Random(5)
    changed = {"roles": 0, "hands": 0, "deck": 0, "pool": 0, "gamble": 0, "votes": 0}
    for state in states:
        seat = 0
        other = perturb(state, seat, r)
        changed["roles"] += [p.role for p in other.players] != [p.role for p in state.players]
        changed["hands"] += [p.hand for p in other.players] != [p.hand for p in state.players]
        changed["deck"] += other.deck != state.deck
        changed["pool"] += [c.sigil for c in other.pool] != [c.sigil for c in state.pool]
        changed["gamble"] += other.pending.gamble_cards != state.pending.gamble_cards
        vote, vote2 = state.pending.vote, other.pending.vote
        changed["votes"] += vote is not None and vote.votes != vote2.votes
        # and never what it knows
        assert other.players[seat].hand == state.players[seat].hand
        assert other.players[seat].role == state.players[seat].role
        assert other.players[seat].memory == state.players[seat].memory
    assert all(changed.values()), changed


def _swap_own_card(state: State, seat: int) -> State | None:
    """A clone where one card of the seat's own hand is exchanged for a deck card of another sigil."""
    other = state.clone()
    hand = other.players[seat].hand
    for s in range(4):
        if hand[s]:
            for j, card in enumerate(other.deck):
                if card != s:
                    hand[s] -= 1
                    hand[card] += 1
                    other.deck[j] = s
                    return other
    return None


def test_converse_own_hand_changes_the_observation(states):
    checked = 0
    for state in states[::3]:
        for seat in range(state.num_players):
            other = _swap_own_card(state, seat)
            if other is None:
                continue
            for mode in MODES:
                enc = Encoder(state.config, mode)
                a, b = enc.observe(state, seat), enc.observe(other, seat)
                assert _diff(a, b) == ["me.hand"], _diff(a, b)
            assert render_seat(other, seat) != render_seat(state, seat)
            checked += 1
    assert checked > 50


def test_converse_own_knowledge_changes_the_observation(states):
    """The seat's role, its memory and (when deciding) its decision context are read."""
    r = random.Random(3)
    for state in states[::4]:
        seat = r.randrange(state.num_players)
        enc = Encoder(state.config, "seat")
        base = enc.observe(state, seat)
        other = state.clone()
        other.players[seat].role ^= 1
        other.players[seat].memory.known_roles[seat] ^= 1
        assert {"me.role", "me.known_roles"} <= set(_diff(base, enc.observe(other, seat)))
        other = state.clone()
        target = (seat + 1) % state.num_players
        other.players[seat].memory.seen_hands[target] = [3, 0, 0, 0]
        if state.players[seat].memory.seen_hands[target] != [3, 0, 0, 0]:
            assert _diff(base, enc.observe(other, seat)) == ["me.seen_hands"]
    gambles = [s for s in states if s.phase == Phase.GAMBLE_PLAY and len(s.pending.gamble_cards) == 2]
    assert gambles
    for state in gambles:
        other = state.clone()
        cards = other.pending.gamble_cards
        cards[0] = (cards[0] + 1) % 4
        enc = Encoder(state.config, "seat")
        assert _diff(enc.observe(state, state.decider), enc.observe(other, state.decider)) == ["decision.gamble_cards"]


@pytest.mark.slow
def test_no_leak_sweep():
    states = sample_states(seeds=range(2, 6), per_phase=2)
    check_no_leak(states, perturbations=2, seed=99)
