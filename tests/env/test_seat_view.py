"""The seat projection (`rlyeh_env.seat_view`): exactly what the seat may know, nothing hidden.

For every seat of many mid-game states (every phase, table size and variant):
- the projection equals an oracle read straight from the state, field by field, so a field
  dropped, added or decoded wrong fails (the seat's hand, role and what it peeked included);
- a clone that changes everything the seat cannot know (`rlyeh_env_testkit.perturb`) gives the
  identical projection, plain text and rich panels;
- `rlyeh play` narrates the projection's log, and `to_dict()` survives `json.dumps`.
"""

from __future__ import annotations

import dataclasses
import io
import json
import random

import pytest
from rich.console import Console

from rlyeh_env.engine.state import Phase, State
from rlyeh_env.narration import describe_legal_actions, narrate
from rlyeh_env.observation import Encoder
from rlyeh_env.seat_view import SeatView, beyond_the_vector, decode_seat, project_seat
from rlyeh_env.terminal.play import narrate_new
from rlyeh_env.terminal.screen import Screen
from rlyeh_env.terminal.views import seat_panels, seat_view
from rlyeh_env.text import render_seat, seat_text
from rlyeh_env_testkit import perturb, sample_states


@pytest.fixture(scope="module")
def states() -> list[State]:
    return sample_states(seeds=range(1))


def oracle(state: State, seat: int) -> dict:
    """Every field of `seat`'s projection (as `to_dict` gives it), taken from the state itself."""
    cfg, me, pending = state.config, state.players[seat], state.pending
    mem = me.memory
    deciding = not state.game_over and state.decider == seat
    hidden = cfg.hidden_cultist_count
    vote = pending.vote
    players = [
        dict(seat=s, character=p.character, phobia=p.character, sanity=p.sanity, mad=p.sanity == 0,
             cards=p.hand_count, equipment=p.equipment, equipment_used=p.equipment_used,
             revealed_role=p.role if p.revealed else -1, insanity=p.insanity)
        for s, p in enumerate(state.players)
    ]
    board = dict(
        num_players=state.num_players, round=state.round, hour=state.hour, first_hour=cfg.first_hour,
        start_sanity=cfg.start_sanity, hand_size=cfg.hand_size, incantation_size=cfg.incantation_size,
        cultists=-1 if hidden else state.num_cultists,
        cultist_range=list(cfg.hidden_range()) if hidden else [state.num_cultists] * 2,
        activated=state.activated, target=state.target, gods=state.gods,
        pool=[card.sigil if card.face_up else -1 for card in state.pool],
        deck=len(state.deck), discard=len(state.discard), watch=state.watch, players=players,
        phase=state.phase, decider=state.decider, winner=state.winner, end_reason=state.end_reason,
        vote=None if vote is None else dict(kind=vote.kind, proposer=vote.proposer, accused=vote.accused),
    )
    seen = [e for e in state.events if e.seat in (-1, seat) and narrate(e, seat)]
    return dict(
        seat=seat, board=board, role=me.role, hand=me.hand, known_roles=mem.known_roles,
        pool_mine=mem.pool_mine, pool_look=mem.pool_look, pool_look_size=mem.pool_look_size,
        seen_hands=mem.seen_hands, deck_top=mem.deck_top,
        gamble_cards=pending.gamble_cards if deciding and state.phase == Phase.GAMBLE_PLAY else [],
        pages=pending.pages if deciding and state.phase == Phase.NECRONOMICON_PAGE else [],
        choices=[dict(action=a, text=text) for a, text in describe_legal_actions(state, seat)],
        log=[dict(text=narrate(e, seat), private=e.seat == seat) for e in seen],
    )


def _rich(renderable) -> str:
    console = Console(file=io.StringIO(), width=160, force_terminal=True, color_system="truecolor")
    console.print(renderable)
    return console.file.getvalue()


def test_the_projection_is_what_the_seat_knows(states):
    met = {"hand": 0, "seen_hands": 0, "deck_top": 0, "pool_look_size": 0, "gamble_cards": 0, "pages": 0,
           "private log": 0, "ouija": 0}
    for state in states:
        for seat in range(state.num_players):
            view = project_seat(state, seat)
            assert view.to_dict() == oracle(state, seat), f"n={state.num_players} phase={state.phase} seat={seat}"
            for name in ("hand", "deck_top", "pool_look_size", "gamble_cards", "pages"):
                met[name] += bool(getattr(view, name) if name != "hand" else any(view.hand))
            met["seen_hands"] += any(h is not None for h in view.seen_hands)
            met["private log"] += any(line.private for line in view.log)
            met["ouija"] += any(r >= 0 and s != seat and view.board.players[s].revealed_role < 0
                                for s, r in enumerate(view.known_roles))
    assert all(met.values()), met  # the sample reaches every kind of private knowledge


def test_the_projection_is_the_same_whatever_the_seat_cannot_know(states):
    """And so are its renderings (drawn from it alone; checked on every fourth state for time,
    tests/env/test_no_leak.py and tests/terminal/test_screen_no_leak.py check them on all)."""
    r = random.Random(0)
    for i, state in enumerate(states):
        for seat in range(state.num_players):
            other = perturb(state, seat, r)
            view = project_seat(state, seat)
            where = f"n={state.num_players} phase={Phase(state.phase).name} seat={seat} step={state.steps}"
            assert project_seat(other, seat) == view, f"projection leak: {where}"
            if i % 4 == 0:
                assert render_seat(other, seat) == seat_text(view), f"text leak: {where}"
                assert _rich(seat_view(other, seat)) == _rich(seat_panels(view)), f"panel leak: {where}"


def test_rlyeh_play_narrates_the_log_of_the_projection(states):
    """The terminal's running narration and the projection's log are one read of the events."""
    for state in states[::7]:
        for seat in range(state.num_players):
            screen = Screen(out=io.StringIO(), inp=io.StringIO(), fancy=False)
            narrate_new(screen, state, seat, 0)
            assert screen.out.getvalue().splitlines() == ["  " + line.text for line in project_seat(state, seat).log]


def test_to_dict_goes_through_json(states):
    for state in states[::5]:
        for seat in range(state.num_players):
            data = project_seat(state, seat).to_dict()
            assert json.loads(json.dumps(data)) == data
            assert set(data) == {f.name for f in dataclasses.fields(SeatView)}


def test_beyond_the_vector_can_order_but_not_add(states):
    """What the observation vector counts, the other read of the state may only put in order: a
    face-up card, an Insanity card or a gambled card the vector does not count is refused."""
    state = next(s for s in states if s.phase == Phase.GAMBLE_PLAY and any(not c.face_up for c in s.pool))
    seat = state.decider
    observation = Encoder(state.config).observe(state, seat)
    beyond = beyond_the_vector(state, seat)
    decode_seat(observation, (), beyond, state.config, seat)  # as it is: fine
    down = beyond.pool.index(-1)
    tampered = {
        "a face-down card shown": dataclasses.replace(beyond, pool=beyond.pool[:down] + (0,) + beyond.pool[down + 1 :]),
        "an Insanity card more": dataclasses.replace(beyond, insanity=tuple(cards + (0,) for cards in beyond.insanity)),
        "the gamble's draws lost": dataclasses.replace(
            beyond, events=tuple(e for e in beyond.events if e.kind != "gamble_drew")),
    }
    for what, other in tampered.items():
        with pytest.raises(RuntimeError, match="the seat's observation counts"):
            decode_seat(observation, (), other, state.config, seat)
            pytest.fail(what)


@pytest.mark.slow
def test_projection_sweep():
    r = random.Random(9)
    for state in sample_states(seeds=range(1, 4), per_phase=2):
        for seat in range(state.num_players):
            view = project_seat(state, seat)
            assert view.to_dict() == oracle(state, seat)
            assert project_seat(perturb(state, seat, r), seat) == view
