"""Section 3: the Mythos deck, drawing, the reshuffle and polar opposites."""

from __future__ import annotations

import random

import pytest

from rlyeh_env.engine import GameConfig, Phase, Sigil, new_game
from rlyeh_env.engine import actions as A
from rlyeh_env.engine.cards import opposite
from rlyeh_env.engine.deck import draw_mythos


@pytest.mark.parametrize("per_sigil", [4, 12, 20])
def test_r3_deck_has_cards_per_sigil_of_each_sigil(eng, per_sigil):
    """R3.3."""
    state, _ = eng.make(seed=1, num_players=5, cards_per_sigil=per_sigil)
    assert eng.mythos_total(state) == [per_sigil] * 4
    assert len(state.deck) + sum(p.hand_count for p in state.players) == 4 * per_sigil


def test_r3_deck_is_shuffled():
    """R1.7."""
    decks = {tuple(new_game(GameConfig(), random.Random(s)).deck) for s in range(10)}
    assert len(decks) == 10


def test_r3_opposites_pair_wind_earth_and_sea_lake():
    """R3.1, R3.2."""
    assert opposite(Sigil.ITHAQUA) == Sigil.ZHAR and opposite(Sigil.ZHAR) == Sigil.ITHAQUA
    assert opposite(Sigil.DAGON) == Sigil.BOKRUG and opposite(Sigil.BOKRUG) == Sigil.DAGON
    for s in range(4):
        assert opposite(opposite(s)) == s and opposite(s) != s


def test_r3_draw_takes_top_of_deck(eng):
    """R3.6."""
    state, rng = eng.make(seed=2)
    eng.stack_deck(state, [3, 1])
    assert draw_mythos(state, rng) == 3
    assert draw_mythos(state, rng) == 1


def test_r3_reshuffle_discard_when_deck_runs_out(eng):
    """R3.6."""
    state, rng = eng.make(seed=3, num_players=4, phobia_sanity_loss=0)
    before = eng.mythos_total(state)
    state.discard = state.deck[:-1]
    state.deck = state.deck[-1:]
    state.players[0].memory.deck_top = [state.deck[-1]]
    size = len(state.discard)
    first = draw_mythos(state, rng)  # the last card of the deck; no reshuffle yet
    assert state.deck == [] and len(state.discard) == size
    assert state.players[0].memory.deck_top == []
    state.players[1].memory.deck_top = [0, 1]  # stale knowledge is forgotten on a reshuffle
    card = draw_mythos(state, rng)
    assert card is not None
    assert state.discard == [] and len(state.deck) == size - 1
    assert state.players[1].memory.deck_top == []
    assert any(e.kind == "reshuffle" and e.value == size for e in state.events)
    state.deck.extend([first, card])  # put both back for the count
    assert eng.mythos_total(state) == before


def test_r3_nothing_to_draw_leaves_hand_short_and_forbids_gamble(eng):
    """R3.6, R6.2.2, R6.3.4."""
    state, rng = eng.make(seed=4, num_players=4, phobia_sanity_loss=0)
    # deck and discard both empty: every card is in a hand (or set aside)
    eng.turn(state, 0)
    eng.set_hand(state, 0, [0, 0, 0, 0])
    state.pool = []
    spare = state.deck + state.discard
    state.deck, state.discard = [], []
    assert draw_mythos(state, rng) is None
    assert A.GAMBLE not in eng.legal(state)
    eng.step(state, rng, A.RESEARCH)  # empty hand: straight to the refill, which finds nothing
    assert state.players[0].hand == [0, 0, 0, 0]
    assert state.decider == 1 and state.phase == Phase.TURN
    state.deck = spare
    assert eng.mythos_total(state) == [12] * 4


def test_r3_refill_reshuffles_mid_draw(eng):
    """R3.6, R6.2.3."""
    state, rng = eng.make(seed=5, num_players=4, phobia_sanity_loss=0)
    eng.turn(state, 0)
    eng.set_hand(state, 0, [0, 0, 0, 0])
    state.discard = state.deck[1:]
    state.deck = state.deck[:1]
    eng.step(state, rng, A.RESEARCH)
    assert state.players[0].hand_count == 3
    assert any(e.kind == "reshuffle" for e in state.events)
    assert eng.mythos_total(state) == [12] * 4


def test_r3_discards_never_shown_publicly(eng):
    """R3.7, R6.2.1, R6.3.2.

    Research discards, the unplayed Gamble card, a Pistol victim's hand and the knifed card
    leave no public trace of their sigils."""
    from rlyeh_env.engine.cards import Equipment

    state, rng = eng.make(seed=6, num_players=4, phobia_sanity_loss=0)
    eng.turn(state, 0, watch=0, target=0)
    for p in state.players:
        p.equipment_used = True
    eng.set_hand(state, 0, [0, 0, 3, 0])
    start = len(state.events)
    eng.step(state, rng, A.RESEARCH, A.DISCARD + 2, A.DISCARD + 2, A.STOP_DISCARDING)
    eng.stack_deck(state, [3, 3])
    eng.step(state, rng, A.GAMBLE, A.GAMBLE_PLAY + 3)
    eng.turn(state, 2, watch=0, target=0)
    state.players[2].equipment, state.players[2].equipment_used = Equipment.PISTOL, False
    eng.step(state, rng, A.USE_EQUIPMENT, eng.aim(state, 2, 3))
    eng.turn(state, 3, watch=0, target=0)
    state.players[3].equipment, state.players[3].equipment_used = Equipment.RITUAL_KNIFE, False
    eng.step(state, rng, A.USE_EQUIPMENT)
    public = [e for e in state.events[start:] if e.seat == -1]
    kinds = {e.kind for e in public}
    assert {"researched", "gambled", "shot", "knifed"} <= kinds
    assert not kinds & {"drew", "gamble_drew", "discarded", "saw_pool", "my_card"}
    research = next(e for e in public if e.kind == "researched")
    assert research.value == 2  # how many, not which
    gambled = next(e for e in public if e.kind == "gamble_played")
    assert gambled.value == -1  # the played card went in face down
