"""Section 4: declaring the target sigil."""

from __future__ import annotations

from rlyeh_env.engine import Phase
from rlyeh_env.engine import actions as A


def test_r4_any_sigil_declarable_at_start(eng):
    """R4.1, R4.4."""
    state, rng = eng.make(seed=1)
    assert eng.legal(state) == [A.DECLARE + s for s in range(4)]
    eng.step(state, rng, A.DECLARE + 3)
    assert state.target == 3
    assert any(e.kind == "declared" and e.value == 3 and e.actor == state.watch for e in state.events)


def test_r4_only_non_activated_sigils_declarable(eng):
    """R4.3."""
    state, rng = eng.make(seed=1)
    state.activated = [True, False, True, False]
    assert eng.legal(state) == [A.DECLARE + 1, A.DECLARE + 3]
    state.activated = [True, True, True, False]
    assert eng.legal(state) == [A.DECLARE + 3]


def _nearly_full_pool(eng, state, contributor):
    eng.set_pool(state, [(0, contributor)] * 4 + [(2, contributor)] * 2)


def test_r4_after_resolution_watch_holder_declares_mid_round(eng):
    """R4.2, R2.2, R6.1.1. Seat 2 completes the incantation during seat 0's round; seat 0 (the watch holder)
    declares the next target, then seat 2's turn is over and seat 3 plays."""
    state, rng = eng.make(seed=3, num_players=5, phobia_sanity_loss=0)
    eng.turn(state, 2, watch=0, target=0)
    _nearly_full_pool(eng, state, 1)
    eng.set_hand(state, 2, [1, 1, 1, 0])
    eng.step(state, rng, A.CONTRIBUTE + 0)
    assert state.activated[0] and state.target == -1
    assert state.phase == Phase.DECLARE_TARGET and state.decider == 0
    assert eng.legal(state) == [A.DECLARE + 1, A.DECLARE + 2, A.DECLARE + 3]
    eng.step(state, rng, A.DECLARE + 2)
    assert state.target == 2
    assert state.phase == Phase.TURN and state.decider == 3 and state.turn_index == 3
    assert state.players[2].hand == [0, 1, 1, 0]  # no second main action, no refill


def test_r4_watch_holder_declares_after_own_resolution(eng):
    """R4.2."""
    state, rng = eng.make(seed=3, num_players=4, phobia_sanity_loss=0)
    eng.turn(state, 1, watch=1, target=2)
    eng.set_pool(state, [(2, 0)] * 6)
    eng.set_hand(state, 1, [0, 0, 2, 1])
    eng.step(state, rng, A.CONTRIBUTE + 2)
    assert state.phase == Phase.DECLARE_TARGET and state.decider == 1
    eng.step(state, rng, A.DECLARE + 1)
    assert state.decider == 2 and state.phase == Phase.TURN


def test_r4_failed_incantation_also_needs_new_target(eng):
    """R4.2, R4.3, R5.7."""
    state, rng = eng.make(seed=3, num_players=4, phobia_sanity_loss=0, failed_incantation_sanity_loss=0)
    eng.turn(state, 3, watch=0, target=0)
    eng.set_pool(state, [(1, 1)] * 6)
    eng.set_hand(state, 3, [0, 1, 0, 2])
    eng.step(state, rng, A.CONTRIBUTE + 3)
    assert not any(state.activated)
    assert state.phase == Phase.DECLARE_TARGET and state.decider == 0
    # the failed sigil may be declared again
    assert eng.legal(state) == [A.DECLARE + s for s in range(4)]
    eng.step(state, rng, A.DECLARE + 0)
    # seat 3 was the last of the round: the round ends after the declaration
    assert state.round == 1 and state.watch == 1 and state.decider == 1


def test_r4_resolution_by_gamble_also_asks_declaration(eng):
    """R4.2, R6.3.2."""
    state, rng = eng.make(seed=8, num_players=4, phobia_sanity_loss=0)
    eng.turn(state, 1, watch=0, target=3)
    eng.set_pool(state, [(3, 0)] * 6)
    eng.stack_deck(state, [3, 0])
    eng.step(state, rng, A.GAMBLE, A.GAMBLE_PLAY + 3)
    assert state.activated[3]
    assert state.phase == Phase.DECLARE_TARGET and state.decider == 0
    eng.step(state, rng, A.DECLARE + 0)
    assert state.decider == 2
