"""Section 5: incantations — the pool, the reveal, success, failure and the public record."""

from __future__ import annotations

import pytest

from rlyeh_env.engine import Phase
from rlyeh_env.engine import actions as A


def _finish_with(eng, pool, last, *, seed=1, target=0, seat=0, **cfg):
    """Pool of six scripted cards; `seat` contributes `last` as the seventh; returns state."""
    cfg.setdefault("phobia_sanity_loss", 0)
    state, rng = eng.make(seed=seed, num_players=5, **cfg)
    eng.turn(state, seat, watch=0, target=target)
    eng.set_pool(state, pool)
    hand = [0, 0, 0, 0]
    hand[last] = 1
    eng.set_hand(state, seat, hand)
    eng.step(state, rng, A.CONTRIBUTE + last)
    return state, rng


def test_r5_contributions_are_face_down(eng):
    """R5.2, R5.8, R6.1.1."""
    state, rng = eng.make(seed=1, phobia_sanity_loss=0)
    eng.turn(state, 0, watch=0, target=0)
    eng.set_hand(state, 0, [1, 2, 0, 0])
    eng.step(state, rng, A.CONTRIBUTE + 1)
    assert len(state.pool) == 1
    card = state.pool[0]
    assert (card.sigil, card.contributor, card.face_up) == (1, 0, False)
    assert state.pool_contributions[0] == 1 and state.pool_face_up[0] == [0, 0, 0, 0]
    assert state.players[0].memory.pool_mine == [0, 1, 0, 0]
    public = [e for e in state.events if e.kind == "contributed"][-1]
    assert public.value == -1 and public.seat == -1  # the sigil is not public


def test_r5_seventh_card_face_up_triggers_reveal(eng):
    """R5.3."""
    state, rng = eng.make(seed=1, phobia_sanity_loss=0)
    eng.turn(state, 1, watch=0, target=0)
    eng.set_pool(state, [(2, 0)] * 5)
    eng.set_hand(state, 1, [0, 0, 1, 2])
    eng.step(state, rng, A.CONTRIBUTE + 3)
    assert len(state.pool) == 6 and not state.pool[-1].face_up  # sixth card: still face down
    assert state.decider == 2
    eng.set_hand(state, 2, [0, 0, 0, 1])
    eng.step(state, rng, A.CONTRIBUTE + 3)
    assert state.pool == [] and len(state.incantations) == 1
    record = state.incantations[0]
    assert record.face_up[2] == [0, 0, 0, 1]  # the last card went in face up
    assert sum(record.cards) == 7


def test_r5_success_with_exactly_threshold(eng):
    """R5.5, R5.6."""
    state, _ = _finish_with(eng, [(0, 1)] * 3 + [(2, 2)] * 3, 0)
    record = state.incantations[-1]
    assert record.success and record.cards == [4, 0, 3, 0]
    assert state.activated == [True, False, False, False]


def test_r5_one_short_of_threshold_fails(eng):
    """R5.5, R5.7."""
    state, _ = _finish_with(eng, [(0, 1)] * 2 + [(2, 2)] * 4, 0, failed_incantation_sanity_loss=0)
    assert not state.incantations[-1].success and state.activated == [False] * 4


@pytest.mark.parametrize(
    "target_cards,opposite_cards,cancels,success",
    [(5, 1, 1, True), (4, 1, 1, False), (6, 1, 2, True), (5, 1, 2, False), (4, 3, 0, True), (7, 0, 1, True)],
)
def test_r5_opposite_cards_cancel_matches(eng, target_cards, opposite_cards, cancels, success):
    # target Dagon (2); its opposite is Bokrug (3); fillers are Ithaqua (0)
    """R5.4, R5.5."""
    cards = [2] * target_cards + [3] * opposite_cards + [0] * (7 - target_cards - opposite_cards)
    pool = [(s, 1) for s in cards[:-1]]
    state, _ = _finish_with(eng, pool, cards[-1], target=2, opposite_cancels=cancels,
                            failed_incantation_sanity_loss=0)
    assert state.incantations[-1].success is success
    assert state.activated[2] is success


def test_r5_non_opposite_cards_do_not_cancel(eng):
    # target Ithaqua: Dagon and Bokrug are neutral, only Zhar cancels
    """R5.4."""
    state, _ = _finish_with(eng, [(0, 1)] * 4 + [(2, 1), (3, 1)], 3)
    assert state.incantations[-1].success


def test_r5_threshold_from_config(eng):
    """R5.5."""
    state, _ = _finish_with(eng, [(0, 1)] * 4 + [(2, 1)] * 2, 0, incantation_threshold=6,
                            failed_incantation_sanity_loss=0)
    assert not state.incantations[-1].success
    state, _ = _finish_with(eng, [(0, 1)] * 5 + [(2, 1)], 0, incantation_threshold=6)
    assert state.incantations[-1].success


def test_r5_incantation_size_from_config(eng):
    """R5.1, R5.3."""
    state, rng = eng.make(seed=1, incantation_size=3, incantation_threshold=2, phobia_sanity_loss=0)
    eng.turn(state, 0, watch=0, target=1)
    eng.set_pool(state, [(1, 3), (1, 4)])
    eng.set_hand(state, 0, [0, 0, 1, 0])
    eng.step(state, rng, A.CONTRIBUTE + 2)
    assert state.incantations[-1].success and state.incantations[-1].cards == [0, 2, 1, 0]


def test_r5_failure_costs_each_contributor_sanity_once(eng):
    # seat 1 put in three cards, seat 3 one, seat 0 the last; seats 2 and 4 none
    """R5.7, R6.4.4."""
    pool = [(1, 1), (1, 1), (1, 1), (2, 3), (3, 2, False)]
    state, rng = eng.make(seed=2, num_players=5, phobia_sanity_loss=0, failed_incantation_sanity_loss=2)
    eng.turn(state, 0, watch=0, target=0)
    eng.set_pool(state, pool[:4])
    # seat 2's card arrived by an Investigate swap, not by Contribute or Gamble
    state.pool.append(type(state.pool[0])(3, 2, False))
    state.deck.remove(3)
    state.pool_swaps[2] = 1
    state.pool.append(type(state.pool[0])(3, 1, False))
    state.deck.remove(3)
    state.pool_contributions[1] += 1
    eng.set_hand(state, 0, [0, 0, 1, 0])
    sanity = [p.sanity for p in state.players]
    eng.step(state, rng, A.CONTRIBUTE + 2)
    record = state.incantations[-1]
    assert not record.success
    lost = [sanity[s] - state.players[s].sanity for s in range(5)]
    assert lost == [2, 2, 0, 2, 0]
    for s in (0, 1, 3):
        assert len(state.players[s].insanity) == 2
    assert eng.mythos_total(state) == [12] * 4


def test_r5_success_costs_nobody_sanity(eng):
    """R5.6, R5.7."""
    state, _ = _finish_with(eng, [(0, 1)] * 3 + [(2, 2)] * 3, 0)
    assert all(p.sanity == 5 and p.insanity == [] for p in state.players)


def test_r5_record_contents_and_pool_cleared_to_discard(eng):
    """R5.8, R5.9, R4.2."""
    state, rng = eng.make(seed=6, num_players=5, phobia_sanity_loss=0)
    eng.turn(state, 4, watch=2, target=1)
    state.hour = 7
    eng.set_pool(state, [(1, 2), (1, 3, True), (2, 3), (1, 0), (2, 1), (1, 2)])
    state.pool_investigations = [0, 1, 0, 0, 2]
    state.pool_swaps = [0, 1, 0, 0, 0]
    eng.set_hand(state, 4, [0, 0, 0, 2])
    discard_before = len(state.discard)
    eng.step(state, rng, A.CONTRIBUTE + 3)
    r = state.incantations[-1]
    assert r.target == 1 and r.cards == [0, 4, 2, 1] and r.success and r.hour == 7
    assert r.contributions == [1, 1, 2, 2, 1]
    assert r.face_up == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1]]
    assert r.investigations == [0, 1, 0, 0, 2] and r.swaps == [0, 1, 0, 0, 0]
    # the pool goes to the discard pile and all per-pool bookkeeping is reset
    assert state.pool == [] and len(state.discard) == discard_before + 7
    assert sorted(state.discard[-7:]) == [1, 1, 1, 1, 2, 2, 3]
    assert state.pool_contributions == [0] * 5 and state.pool_investigations == [0] * 5
    assert state.pool_swaps == [0] * 5 and state.pool_face_up == [[0] * 4 for _ in range(5)]
    assert state.target == -1
    for seat, p in enumerate(state.players):
        assert p.memory.pool_mine == [0, 0, 0, 0] and p.memory.pool_look_size == 0
        assert len(p.memory.past_mine) == 1
    assert state.players[3].memory.past_mine[0] == [0, 1, 1, 0]
    assert state.players[4].memory.past_mine[0] == [0, 0, 0, 1]
    assert state.phase == Phase.DECLARE_TARGET and state.decider == 2
    ev = [e for e in state.events if e.kind == "incantation"][-1]
    assert ev.value == 1 and ev.target == 1


def test_the_record_keeps_who_played_which_card_for_the_final_reveal(eng):
    """The truth behind the public counts: each revealed card with the seat it came from (shown
    only when the game is over, by replays and the terminal table)."""
    state, _ = _finish_with(eng, [(0, 1), (0, 1), (1, 2), (2, 3), (3, 4), (0, 2)], 0, seat=0)
    record = state.incantations[-1]
    assert record.played == [[0, 1], [0, 1], [1, 2], [2, 3], [3, 4], [0, 2], [0, 0]]
    counts = [0, 0, 0, 0]
    for sigil, _ in record.played:
        counts[sigil] += 1
    assert counts == record.cards
