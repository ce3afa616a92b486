"""Section 6: the five main actions — Contribute, Research, Gamble, Investigate, Accuse."""

from __future__ import annotations

import pytest

from rlyeh_env.engine import Phase
from rlyeh_env.engine import actions as A
from rlyeh_env.engine.cards import Equipment, Insanity


def _at_turn(eng, seat=1, seed=1, n=5, **cfg):
    cfg.setdefault("phobia_sanity_loss", 0)
    state, rng = eng.make(seed=seed, num_players=n, **cfg)
    eng.turn(state, seat, watch=0, target=0)
    # sanity losses in these scenarios draw Hoarding, which changes none of them
    eng.stack_insanity(state, [Insanity.HOARDING] * 3)
    for p in state.players:  # keep free actions out of the way
        p.equipment_used = True
    return state, rng


def test_r6_main_actions_offered_at_turn_start(eng):
    """R6.0.1, R2.2."""
    state, rng = _at_turn(eng)
    eng.set_hand(state, 1, [2, 0, 1, 0])
    eng.set_pool(state, [(0, 2), (1, 3)])
    assert eng.legal(state) == [
        A.CONTRIBUTE + 0, A.CONTRIBUTE + 2, A.RESEARCH, A.GAMBLE, A.INVESTIGATE,
        A.ACCUSE + 0, A.ACCUSE + 1, A.ACCUSE + 2, A.ACCUSE + 3,
    ]


def test_r6_contribute_does_not_refill(eng):
    """R6.1.1, R3.5, R2.2."""
    state, rng = _at_turn(eng)
    eng.set_hand(state, 1, [2, 0, 1, 0])
    deck = list(state.deck)
    eng.step(state, rng, A.CONTRIBUTE + 0)
    assert state.players[1].hand == [1, 0, 1, 0]
    assert state.deck == deck
    assert [(c.sigil, c.contributor) for c in state.pool] == [(0, 1)]
    assert state.decider == 2 and state.phase == Phase.TURN  # one main action ends the turn


def test_r6_contribute_only_sigils_in_hand(eng):
    """R6.1.2, R6.0.2."""
    state, rng = _at_turn(eng)
    eng.set_hand(state, 1, [0, 0, 0, 3])
    contributes = [a for a in eng.legal(state) if A.CONTRIBUTE <= a < A.CONTRIBUTE + 4]
    assert contributes == [A.CONTRIBUTE + 3]
    eng.set_hand(state, 1, [0, 0, 0, 0])
    assert A.RESEARCH in eng.legal(state)
    assert not any(A.CONTRIBUTE <= a < A.CONTRIBUTE + 4 for a in eng.legal(state))


def test_r6_research_without_discarding_keeps_hand(eng):
    """R6.2.1."""
    state, rng = _at_turn(eng)
    eng.set_hand(state, 1, [1, 1, 1, 0])
    eng.step(state, rng, A.RESEARCH)
    assert state.phase == Phase.RESEARCH_DISCARD and state.decider == 1
    assert eng.legal(state) == [A.DISCARD + 0, A.DISCARD + 1, A.DISCARD + 2, A.STOP_DISCARDING]
    eng.step(state, rng, A.STOP_DISCARDING)
    assert state.players[1].hand == [1, 1, 1, 0]
    assert state.decider == 2


def test_r6_research_discards_one_by_one_then_refills(eng):
    """R6.2.1, R6.2.3."""
    state, rng = _at_turn(eng)
    eng.set_hand(state, 1, [2, 1, 0, 0])
    eng.stack_deck(state, [3, 3])
    discard = len(state.discard)
    eng.step(state, rng, A.RESEARCH, A.DISCARD + 0)
    assert state.phase == Phase.RESEARCH_DISCARD and state.players[1].hand == [1, 1, 0, 0]
    assert eng.legal(state) == [A.DISCARD + 0, A.DISCARD + 1, A.STOP_DISCARDING]
    eng.step(state, rng, A.DISCARD + 1, A.STOP_DISCARDING)
    assert state.players[1].hand == [1, 0, 0, 2]
    assert state.discard[discard:] == [0, 1]
    assert state.pending.discarded == 2
    assert any(e.kind == "researched" and e.actor == 1 and e.value == 2 for e in state.events)
    assert state.decider == 2


def test_r6_research_third_discard_refills_at_once(eng):
    """R6.2.1, R6.2.3."""
    state, rng = _at_turn(eng)
    eng.set_hand(state, 1, [0, 3, 0, 0])
    eng.stack_deck(state, [2, 0, 2])
    eng.step(state, rng, A.RESEARCH, A.DISCARD + 1, A.DISCARD + 1, A.DISCARD + 1)
    assert state.players[1].hand == [1, 0, 2, 0]
    assert state.phase == Phase.TURN and state.decider == 2


def test_r6_research_with_short_hand_discards_all_then_refills(eng):
    """R6.2.1, R6.2.3."""
    state, rng = _at_turn(eng)
    eng.set_hand(state, 1, [0, 1, 0, 0])
    eng.stack_deck(state, [0, 0, 0])
    eng.step(state, rng, A.RESEARCH, A.DISCARD + 1)  # hand empty: the refill follows
    assert state.players[1].hand == [3, 0, 0, 0]
    assert state.decider == 2


def test_r6_research_with_empty_hand_refills_directly(eng):
    """R6.2.2, R6.2.3."""
    state, rng = _at_turn(eng)
    eng.set_hand(state, 1, [0, 0, 0, 0])
    eng.stack_deck(state, [1, 2, 3])
    eng.step(state, rng, A.RESEARCH)
    assert state.players[1].hand == [0, 1, 1, 1] and state.decider == 2


def test_r6_gamble_draw_two_play_one_discard_other(eng):
    """R6.3.1, R6.3.2."""
    state, rng = _at_turn(eng)
    eng.set_hand(state, 1, [1, 1, 1, 0])
    eng.stack_deck(state, [2, 3])
    discard = len(state.discard)
    eng.step(state, rng, A.GAMBLE)
    assert state.phase == Phase.GAMBLE_PLAY and state.decider == 1
    assert sorted(state.pending.gamble_cards) == [2, 3]
    assert eng.legal(state) == [A.GAMBLE_PLAY + 2, A.GAMBLE_PLAY + 3]
    eng.step(state, rng, A.GAMBLE_PLAY + 3)
    assert [(c.sigil, c.contributor, c.face_up) for c in state.pool] == [(3, 1, False)]
    assert state.discard[discard:] == [2]
    assert state.players[1].hand == [1, 1, 1, 0]  # the hand is untouched
    assert state.pool_contributions[1] == 1
    assert state.pending.gamble_cards == [] and state.decider == 2
    # the drawn cards are seen only by the gambler
    assert all(e.seat == 1 for e in state.events if e.kind == "gamble_drew")


def test_r6_gamble_pair_offers_one_choice(eng):
    """R6.3.2."""
    state, rng = _at_turn(eng)
    eng.stack_deck(state, [0, 0])
    eng.step(state, rng, A.GAMBLE)
    assert eng.legal(state) == [A.GAMBLE_PLAY + 0]


def test_r6_gamble_with_one_card_left(eng):
    """R6.3.1, R3.6."""
    state, rng = _at_turn(eng)
    spare = state.deck[:-1] + state.discard
    state.deck, state.discard = state.deck[-1:], []
    card = state.deck[0]
    eng.step(state, rng, A.GAMBLE)
    assert state.pending.gamble_cards == [card]
    eng.step(state, rng, A.GAMBLE_PLAY + card)
    assert state.pool[-1].sigil == card and state.discard == []
    state.deck.extend(spare)
    assert eng.mythos_total(state) == [12] * 4


def test_r6_investigate_illegal_with_fewer_than_two_pool_cards(eng):
    """R6.4.5."""
    state, rng = _at_turn(eng)
    assert A.INVESTIGATE not in eng.legal(state)
    eng.set_pool(state, [(0, 2)])
    assert A.INVESTIGATE not in eng.legal(state)
    eng.set_pool(state, [(0, 2), (1, 3)])
    assert A.INVESTIGATE in eng.legal(state)


def test_r6_investigate_sees_all_but_one_and_costs_sanity(eng):
    """R6.4.1, R6.4.2."""
    state, rng = _at_turn(eng, investigate_sanity_loss=2)
    eng.set_pool(state, [(0, 2), (1, 3), (2, 4), (3, 0), (3, 2)])
    eng.set_hand(state, 1, [1, 1, 1, 0])
    pool_counts = [1, 1, 1, 2]
    eng.step(state, rng, A.INVESTIGATE)
    me = state.players[1]
    assert me.sanity == 3 and len(me.insanity) == 2
    assert state.pool_investigations[1] == 1
    assert state.pending.seen == [0, 1, 2, 3]
    unseen = state.pool[4].sigil
    look = me.memory.pool_look
    assert sum(look) == 4 and me.memory.pool_look_size == 5
    assert [look[s] + (s == unseen) for s in range(4)] == pool_counts
    assert state.phase == Phase.INVESTIGATE_TAKE and state.decider == 1
    assert eng.legal(state) == sorted(A.TAKE + s for s in range(4) if look[s]) + [A.NO_SWAP]
    seen_events = [e.value for e in state.events if e.kind == "saw_pool"]
    assert sorted(seen_events) == sorted(state.pool[i].sigil for i in range(4))


def test_r6_investigate_swap(eng):
    """R6.4.3, R6.4.4."""
    state, rng = _at_turn(eng)
    eng.set_pool(state, [(3, 2), (3, 3), (3, 4)])
    eng.set_hand(state, 1, [2, 0, 1, 0])
    eng.step(state, rng, A.INVESTIGATE)
    assert eng.legal(state) == [A.TAKE + 3, A.NO_SWAP]
    eng.step(state, rng, A.TAKE + 3)
    assert state.phase == Phase.INVESTIGATE_GIVE
    assert eng.legal(state) == [A.GIVE + 0, A.GIVE + 2]
    taken_index = state.pending.taken
    assert taken_index in state.pending.seen
    eng.step(state, rng, A.GIVE + 0)
    assert state.players[1].hand == [1, 0, 1, 1]
    given = state.pool[taken_index]
    assert (given.sigil, given.contributor, given.face_up) == (0, 1, False)
    assert sorted(c.sigil for c in state.pool) == [0, 3, 3]
    assert state.pool_swaps[1] == 1 and state.pool_contributions[1] == 0
    assert state.players[1].memory.pool_mine == [1, 0, 0, 0]
    assert state.players[1].memory.pool_look[0] == 1
    assert state.decider == 2 and state.phase == Phase.TURN
    assert any(e.kind == "swapped" and e.actor == 1 and e.value == 1 for e in state.events)


def test_r6_investigate_no_swap(eng):
    """R6.4.3, R6.4.4."""
    state, rng = _at_turn(eng)
    eng.set_pool(state, [(3, 2), (2, 3)])
    eng.set_hand(state, 1, [2, 0, 1, 0])
    eng.step(state, rng, A.INVESTIGATE, A.NO_SWAP)
    assert state.players[1].hand == [2, 0, 1, 0]
    assert sorted(c.sigil for c in state.pool) == [2, 3]
    assert state.pool_swaps[1] == 0 and state.decider == 2


def test_r6_investigate_with_empty_hand_just_looks(eng):
    """R6.4.3."""
    state, rng = _at_turn(eng)
    eng.set_pool(state, [(3, 2), (2, 3)])
    eng.set_hand(state, 1, [0, 0, 0, 0])
    eng.step(state, rng, A.INVESTIGATE)
    assert state.decider == 2 and state.phase == Phase.TURN
    assert sum(state.players[1].memory.pool_look) == 1


def test_r6_accuse_opens_a_vote(eng):
    """R6.5.1, R7.4."""
    state, rng = _at_turn(eng, seat=1)
    eng.step(state, rng, eng.accuse(state, 1, 3))
    assert state.phase == Phase.VOTE
    assert state.pending.vote.accused == 3 and state.pending.vote.proposer == 1
    assert state.decider == 2  # the first voter clockwise from the accuser
    assert state.main_action_done


@pytest.mark.parametrize("main", [A.RESEARCH, A.GAMBLE])
def test_r6_only_one_main_action_per_turn(eng, main):
    """R2.2, R10.1."""
    state, rng = _at_turn(eng)
    state.players[1].equipment_used = False
    state.players[1].equipment = Equipment.AMULET
    eng.step(state, rng, main)
    assert A.USE_EQUIPMENT not in eng.legal(state)
    assert all(a >= A.DECLARE for a in eng.legal(state))  # a follow-up step, never a main action


def test_r6_investigate_take_prefers_face_down_card(eng):
    """R6.4.3 (the engine takes a face-down card before a face-up one; R6.4.3 says the pick is random)."""
    state, rng = _at_turn(eng)
    # two Dagon cards: seat 3's face up, seat 4's face down; and two more cards
    eng.set_pool(state, [(2, 3, True), (2, 4), (0, 0), (0, 0)])
    eng.set_hand(state, 1, [0, 1, 0, 0])
    eng.step(state, rng, A.INVESTIGATE)
    # script the shuffle: both Dagon cards among the seen ones, a face-up one first
    state.pool.sort(key=lambda c: (c.sigil != 2, not c.face_up))
    assert state.pending.seen == [0, 1, 2]
    eng.step(state, rng, A.TAKE + 2, A.GIVE + 1)
    dagons = [c for c in state.pool if c.sigil == 2]
    assert len(dagons) == 1 and dagons[0].face_up and dagons[0].contributor == 3


def test_r6_investigate_may_take_a_face_up_card(eng):
    """R6.4.3."""
    state, rng = _at_turn(eng)
    eng.set_pool(state, [(2, 3, True), (2, 3, True), (2, 3, True)])
    eng.set_hand(state, 1, [0, 1, 0, 0])
    eng.step(state, rng, A.INVESTIGATE, A.TAKE + 2, A.GIVE + 1)
    assert state.players[1].hand == [0, 0, 1, 0]
    assert sorted((c.sigil, c.face_up) for c in state.pool) == [(1, False), (2, True), (2, True)]
