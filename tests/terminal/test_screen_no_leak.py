"""The person's screen shows only what their seat may know (the no-leak rule of the env).

For every seat of many mid-game states, a clone that changes everything the seat cannot know
(`rlyeh_env_testkit.perturb`) must give the identical screen: the coloured board, the plain
board, the heading and the numbered choices of a decision, and the narration of the events the
seat witnessed. The converse check shows the comparison has teeth.
"""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from rlyeh_env.engine.state import State
from rlyeh_env.seat_view import project_seat
from rlyeh_env.terminal.play import choice_texts, decision_heading, narrate_new
from rlyeh_env.terminal.views import seat_view, truth_view
from rlyeh_env.text import render_seat
from rlyeh_env_testkit import perturb, sample_states
from terminal_testkit import scripted_screen


def _rendered(renderable) -> str:
    console = Console(file=io.StringIO(), width=160, force_terminal=True, color_system="truecolor")
    console.print(renderable)
    return console.file.getvalue()  # with colour codes: a leak through colour alone would show


def screen_of(state: State, seat: int) -> str:
    """Everything the table may print for `seat` in this state."""
    parts = [_rendered(seat_view(state, seat)), render_seat(state, seat)]
    if state.decider == seat and not state.game_over:
        view = project_seat(state, seat)
        parts.append(decision_heading(view))
        parts += [text for _, text in choice_texts(view)]
    narration = scripted_screen([])
    narrate_new(narration, state, seat, 0)
    parts.append(narration.out.getvalue())
    return "\n".join(parts)


@pytest.fixture(scope="module")
def states() -> list[State]:
    return sample_states(seeds=range(1))


def test_the_screen_is_the_same_whatever_the_seat_cannot_know(states):
    r = random.Random(0)
    for state in states:
        for seat in range(state.num_players):
            other = perturb(state, seat, r)
            assert screen_of(other, seat) == screen_of(state, seat), (
                f"leak: n={state.num_players} phase={state.phase} seat={seat} step={state.steps}"
            )


def test_the_comparison_has_teeth(states):
    """The truth view of the same clones does change: the perturbation reaches what is drawn."""
    r = random.Random(1)
    changed = sum(_rendered(truth_view(perturb(s, 0, r))) != _rendered(truth_view(s)) for s in states)
    assert changed >= len(states) * 0.9


def test_every_decision_is_explained_and_offers_exactly_the_legal_actions(states):
    """Step by step: each phase has its sentence, and the numbered choices are the legal actions."""
    from rlyeh_env.engine import Phase
    from rlyeh_env.engine.legal import legal_actions
    from rlyeh_env.narration import player_name

    headings = {}
    for state in states:
        if state.game_over:
            continue
        seat = state.decider
        view = project_seat(state, seat)
        heading = decision_heading(view)
        headings.setdefault(Phase(state.phase), heading)
        assert [a for a, _ in choice_texts(view)] == legal_actions(state)
        if state.phase == Phase.VOTE:
            assert player_name(state.pending.vote.proposer) in heading and "secret" in heading
        if state.phase == Phase.GAMBLE_PLAY:
            assert "you drew" in heading
    assert len(set(headings.values())) == len(headings) >= 10  # one distinct sentence per decision phase
