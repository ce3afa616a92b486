"""Section 9: the Necronomicon."""

from __future__ import annotations

import pytest

from rlyeh_env.engine import EndReason, Phase, Role, Winner
from rlyeh_env.engine import actions as A
from rlyeh_env.engine.cards import Equipment, Insanity, Page, VoteKind

TBT, LORE, DOOM = Page.TURN_BACK_TIME, Page.FORBIDDEN_LORE, Page.DOOM


def _table(eng, seat=1, hour=7, seed=1, **cfg):
    cfg.setdefault("phobia_sanity_loss", 0)
    state, rng = eng.make(seed=seed, num_players=5, **cfg)
    eng.turn(state, seat, watch=0, target=0)
    for p in state.players:
        p.equipment_used = True
    state.hour = hour
    # the reader's Insanity cards: harmless for what these tests look at
    eng.stack_insanity(state, [Insanity.HOARDING] * 3)
    return state, rng


def _pass_vote(eng, state, rng):
    while state.phase == Phase.VOTE:
        eng.step(state, rng, A.VOTE_YES)


def test_r9_book_holds_configured_pages(eng):
    """R9.1."""
    state, _ = eng.make(seed=1)
    assert sorted(state.necronomicon) == [0] * 4 + [1] * 3 + [2] * 3
    state, _ = eng.make(seed=1, necronomicon_pages=(1, 0, 2), necronomicon_offer=2)
    assert sorted(state.necronomicon) == [0, 2, 2]


@pytest.mark.parametrize("earliest", [6, 3, 0])
def test_r9_earliest_hour(eng, earliest):
    """R9.2."""
    state, rng = _table(eng, hour=earliest, necronomicon_earliest_hour=earliest)
    assert A.PROPOSE_NECRONOMICON in eng.legal(state)
    if earliest:
        state.hour = earliest - 1
        assert A.PROPOSE_NECRONOMICON not in eng.legal(state)


def test_r9_everyone_but_revealed_cultists_votes(eng):
    """R9.3, R7.1, R7.2, R7.3, R7.4."""
    state, rng = _table(eng, seat=1)
    state.players[3].role, state.players[3].revealed = Role.CULTIST, True
    state.players[4].role, state.players[4].revealed = Role.INVESTIGATOR, True
    eng.step(state, rng, A.PROPOSE_NECRONOMICON)
    vote = state.pending.vote
    assert vote.kind == VoteKind.NECRONOMICON and vote.accused == -1
    assert vote.to_ask == [2, 4, 0] and vote.votes == [0, 1, 0, 0, 0]
    assert state.decider == 2


def test_r9_failed_vote_continues_turn_and_proposer_never_again(eng):
    """R9.4, R9.2, R7.10."""
    state, rng = _table(eng, seat=1)
    eng.step(state, rng, A.PROPOSE_NECRONOMICON, A.VOTE_NO, A.VOTE_NO, A.VOTE_YES, A.VOTE_NO)
    record = state.votes[-1]
    assert record.kind == VoteKind.NECRONOMICON and not record.passed
    assert record.votes == [-1, 1, -1, -1, 1]
    assert not state.necronomicon_read and len(state.necronomicon) == 10
    assert state.phase == Phase.TURN and state.decider == 1 and not state.main_action_done
    assert A.PROPOSE_NECRONOMICON not in eng.legal(state)
    assert A.RESEARCH in eng.legal(state)
    eng.step(state, rng, A.RESEARCH, A.STOP_DISCARDING)
    # the next player still may
    assert state.decider == 2 and A.PROPOSE_NECRONOMICON in eng.legal(state)
    # and seat 1 may not on a later turn either
    eng.turn(state, 1, watch=0)
    assert A.PROPOSE_NECRONOMICON not in eng.legal(state)


def test_r9_reader_loses_sanity_and_sees_top_pages(eng):
    """R9.5."""
    state, rng = _table(eng, seat=1)
    state.necronomicon = [TBT, TBT, LORE, DOOM, LORE, DOOM]  # top is the end of the list
    eng.step(state, rng, A.PROPOSE_NECRONOMICON)
    _pass_vote(eng, state, rng)
    reader = state.players[1]
    assert reader.sanity == 2 and len(reader.insanity) == 3
    assert state.necronomicon_read and state.votes[-1].passed
    assert state.phase == Phase.NECRONOMICON_PAGE and state.decider == 1
    assert sorted(state.pending.pages) == [LORE, DOOM, DOOM]
    assert eng.legal(state) == [A.PAGE + LORE, A.PAGE + DOOM]
    offered = [e for e in state.events if e.kind == "page_offered"]
    assert len(offered) == 3 and all(e.seat == 1 for e in offered)  # only the reader sees them
    assert state.necronomicon == [TBT, TBT, LORE]


def test_r9_sanity_loss_and_offer_from_config(eng):
    """R9.5."""
    state, rng = _table(eng, seat=1, necronomicon_sanity_loss=1, necronomicon_offer=1)
    state.necronomicon = [DOOM, TBT]
    eng.step(state, rng, A.PROPOSE_NECRONOMICON)
    _pass_vote(eng, state, rng)
    assert state.players[1].sanity == 4
    assert eng.legal(state) == [A.PAGE + TBT]


def _read_turn_back_time(eng, state, rng):
    """The decider proposes the Necronomicon (three Turn back time pages), the vote passes, and
    they enact one."""
    state.necronomicon = [TBT, TBT, TBT]
    eng.step(state, rng, A.PROPOSE_NECRONOMICON)
    _pass_vote(eng, state, rng)
    eng.step(state, rng, A.PAGE + TBT)


def test_r9_turn_back_time(eng):
    """R9.6, R9.7, R2.5."""
    state, rng = _table(eng, seat=1, hour=8, necronomicon_hours_back=3)
    _read_turn_back_time(eng, state, rng)
    assert state.hour == 5
    assert state.readings[-1].reader == 1 and state.readings[-1].page == TBT
    assert any(e.kind == "page_enacted" and e.value == TBT and e.seat == -1 for e in state.events)
    # the reader continues the turn and still owes the main action
    assert state.phase == Phase.TURN and state.decider == 1 and not state.main_action_done
    assert A.RESEARCH in eng.legal(state)
    assert A.PROPOSE_NECRONOMICON not in eng.legal(state)


def test_r9_turn_back_time_takes_the_table_sizes_hours(eng, monkeypatch):
    """R9.6: with `necronomicon_hours_back` left to its default, the page wins back the hours of
    R9.6's per-size table at this table size."""
    from rlyeh_env.engine import config

    monkeypatch.setitem(config.DEFAULT_NECRONOMICON_HOURS_BACK, 5, 1)
    state, rng = _table(eng, seat=1, hour=8)
    _read_turn_back_time(eng, state, rng)
    assert state.hour == 7


def test_r9_turn_back_time_not_below_zero(eng):
    """R9.6, R2.5."""
    state, rng = _table(eng, seat=1, hour=1, necronomicon_earliest_hour=0, necronomicon_hours_back=5)
    state.necronomicon = [TBT]
    eng.step(state, rng, A.PROPOSE_NECRONOMICON)
    _pass_vote(eng, state, rng)
    eng.step(state, rng, A.PAGE + TBT)
    assert state.hour == 0


def test_r9_forbidden_lore_refills_clockwise_from_reader(eng):
    """R9.6, R3.5."""
    state, rng = _table(eng, seat=3, hour=9)
    state.necronomicon = [LORE]
    for seat in range(5):
        eng.set_hand(state, seat, [0, 0, 0, 0])
    eng.set_hand(state, 0, [1, 1, 0, 0])
    eng.set_hand(state, 4, [0, 0, 1, 1])
    eng.stack_deck(state, [0, 0, 0, 2, 1, 1, 1, 3, 2, 2, 2])
    eng.step(state, rng, A.PROPOSE_NECRONOMICON)
    _pass_vote(eng, state, rng)
    eng.step(state, rng, A.PAGE + LORE)
    hands = [p.hand for p in state.players]
    # reader 3 first, then 4, 0, 1, 2
    assert hands[3] == [3, 0, 0, 0]
    assert hands[4] == [0, 0, 2, 1]
    assert hands[0] == [1, 2, 0, 0]
    assert hands[1] == [0, 2, 0, 1]
    assert hands[2] == [0, 0, 3, 0]
    assert state.hour == 8
    assert state.phase == Phase.TURN and state.decider == 3


def test_r9_doom_ends_game_for_cultists(eng):
    """R9.6, R12.2."""
    state, rng = _table(eng, seat=1)
    state.necronomicon = [TBT, DOOM, LORE]
    eng.step(state, rng, A.PROPOSE_NECRONOMICON)
    _pass_vote(eng, state, rng)
    eng.step(state, rng, A.PAGE + DOOM)
    assert state.game_over
    assert state.winner == Winner.CULTISTS and state.end_reason == EndReason.NECRONOMICON
    assert eng.legal(state) == []


def test_r9_read_at_most_once(eng):
    """R9.2, R9.5."""
    state, rng = _table(eng, seat=1)
    eng.step(state, rng, A.PROPOSE_NECRONOMICON)
    _pass_vote(eng, state, rng)
    page = min(state.pending.pages)
    if page == DOOM:
        pytest.skip("seed offers only Doom")
    eng.step(state, rng, A.PAGE + page, A.RESEARCH, A.STOP_DISCARDING)
    assert state.decider == 2 and state.necronomicon_read
    assert not state.players[2].proposed_necronomicon
    assert A.PROPOSE_NECRONOMICON not in eng.legal(state)


def test_r9_revealed_cultist_and_mad_may_not_propose(eng):
    """R9.2, R7.11, R7.13, R8.9."""
    state, rng = _table(eng, seat=1)
    assert A.PROPOSE_NECRONOMICON in eng.legal(state)
    state.players[1].role, state.players[1].revealed = Role.CULTIST, True
    assert A.PROPOSE_NECRONOMICON not in eng.legal(state)
    state.players[1].role = Role.INVESTIGATOR  # a revealed investigator may
    assert A.PROPOSE_NECRONOMICON in eng.legal(state)
    state.players[1].sanity = 0
    assert A.PROPOSE_NECRONOMICON not in eng.legal(state)


def test_r9_proposal_then_equipment_then_main_action(eng):
    """R2.2, R9.7, R10.1."""
    state, rng = _table(eng, seat=1)
    state.players[1].equipment, state.players[1].equipment_used = Equipment.AMULET, False
    state.necronomicon = [TBT]
    eng.step(state, rng, A.PROPOSE_NECRONOMICON)
    _pass_vote(eng, state, rng)
    eng.step(state, rng, A.PAGE + TBT)
    assert state.players[1].sanity == 2
    eng.step(state, rng, A.USE_EQUIPMENT)
    assert state.players[1].sanity == 3 and state.players[1].insanity == []
    assert state.phase == Phase.TURN and state.decider == 1
    eng.step(state, rng, A.RESEARCH, A.STOP_DISCARDING)
    assert state.decider == 2
