"""The observation layout: the env docstring's tables, SEAT_LAYOUT / the history `log` piece and
the spaces agree exactly, the named columns inside rows are the documented offsets, and the named
views are views of the vector."""

from __future__ import annotations

import re

import numpy as np
import pytest

import observation_testkit as spec
import rlyeh_env
from rlyeh_env import env, raw_env, rlyeh
from rlyeh_env.engine.actions import NUM_ACTIONS
from rlyeh_env.observation import (
    HISTORY_LAYOUT,
    SEAT_LAYOUT,
    TRUTH_LAYOUT,
    Encoder,
    IncantationRow,
    IncrementalEncoder,
    Layout,
    PlayerRow,
    VoteRow,
)
from rlyeh_env.engine import GameConfig

ROW = re.compile(r"^\| (\d+)-(\d+) \| `([\w.]+)` \| \(([\d, ]+)\) \| (.+) \|$")
DOC = rlyeh.__doc__  # the spec: the env module's docstring, as in PettingZoo's classic envs


def _shape(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.replace(" ", "").split(",") if x)


def doc_tables() -> list[list[tuple[int, int, str, tuple[int, ...]]]]:
    """Every table of `| start-stop | `piece` | (shape) | meaning |` rows, in order."""
    tables, current = [], []
    for line in DOC.splitlines():
        m = ROW.match(line.strip())
        if m:
            current.append((int(m[1]), int(m[2]) + 1, m[3], _shape(m[4])))
        elif current:
            tables.append(current)
            current = []
    if current:
        tables.append(current)
    return tables


def _pieces(layout: Layout, names=None):
    return [(p.start, p.stop, p.name, tuple(p.shape)) for p in layout.pieces.values() if names is None or p.name in names]


def test_docstring_has_two_observation_tables():
    tables = doc_tables()
    assert len(tables) == 2
    assert len(tables[0]) == len(SEAT_LAYOUT.pieces)
    assert [row[2] for row in tables[1]] == ["log"]


def test_seat_table_matches_seat_layout():
    assert doc_tables()[0] == _pieces(SEAT_LAYOUT)


def test_history_table_matches_log_piece():
    assert doc_tables()[1] == _pieces(HISTORY_LAYOUT, {"log"})
    # the history layout is the seat layout followed by the log
    assert _pieces(HISTORY_LAYOUT)[:-1] == _pieces(SEAT_LAYOUT)


@pytest.mark.parametrize("layout", [SEAT_LAYOUT, HISTORY_LAYOUT, TRUTH_LAYOUT], ids=["seat", "history", "truth"])
def test_pieces_tile_the_vector(layout):
    pieces = list(layout.pieces.values())
    assert pieces[0].start == 0
    for a, b in zip(pieces, pieces[1:]):
        assert a.stop == b.start
    assert pieces[-1].stop == layout.size
    assert sum(int(np.prod(p.shape)) for p in pieces) == layout.size
    for p in pieces:
        assert p.stop - p.start == int(np.prod(p.shape)) > 0


def test_each_row_size_matches_its_range():
    for table in doc_tables():
        for start, stop, name, shape in table:
            assert stop - start == int(np.prod(shape)), name


@pytest.mark.parametrize("layout", [SEAT_LAYOUT, HISTORY_LAYOUT], ids=["seat", "history"])
def test_views_are_views(layout):
    v = np.zeros(layout.size, dtype=np.float32)
    views = layout.views(v)
    assert list(views) == list(layout.pieces)
    for i, (name, view) in enumerate(views.items()):
        piece = layout[name]
        assert view.shape == piece.shape and np.shares_memory(view, v)
        view[...] = (i + 1) / 100
        assert np.all(v[piece.start : piece.stop] == np.float32((i + 1) / 100))
    # the tensor equals the concatenation of its views
    assert np.array_equal(np.concatenate([x.ravel() for x in views.values()]), v)
    assert np.all(v > 0)  # every index belongs to a piece


@pytest.mark.parametrize("mode", ["seat", "history"])
def test_observation_equals_its_views(mode):
    e = raw_env(num_players=6, observation_mode=mode)
    e.reset(seed=3)
    obs = e.observe(e.agent_selection)["observation"]
    layout = SEAT_LAYOUT if mode == "seat" else HISTORY_LAYOUT
    views = layout.views(obs)
    assert np.array_equal(np.concatenate([x.ravel() for x in views.values()]), obs)


def test_the_package_docstring_points_to_the_spec():
    assert "rlyeh_env/rlyeh.py" in rlyeh_env.__doc__ and "help(rlyeh_env.rlyeh)" in rlyeh_env.__doc__
    assert DOC.lstrip().startswith("# The Gate of R'lyeh (`rlyeh_v2`)")


def _doc_space(pattern: str) -> tuple[int, ...]:
    m = re.search(pattern, DOC)
    assert m, pattern
    return _shape(m[1])


def test_docstring_spaces_match_the_env():
    seat_obs = _doc_space(r"observation=Box\(0, 1, \((\d+,)\), float32\)")
    mask = _doc_space(r"action_mask=Box\(0, 1, \((\d+,)\), int8\)")
    history_obs = _doc_space(r"`\((\d+,)\)` with `observation_mode=\"history\"`")
    state = _doc_space(r"State space \| `Box\(0, 1, \((\d+,)\), float32\)`")
    history_state = _doc_space(r"`\((\d+,)\)` in history mode")
    actions = int(re.search(r"Action space \| `Discrete\((\d+)\)`", DOC)[1])
    assert re.search(rf"One flat `Discrete\({actions}\)`", DOC)
    for n in range(4, 9):
        for mode, obs_shape, state_shape in (("seat", seat_obs, state), ("history", history_obs, history_state)):
            e = env(num_players=n, observation_mode=mode)
            for agent in e.possible_agents:
                space = e.observation_space(agent)
                assert space["observation"].shape == obs_shape
                assert space["observation"].dtype == np.float32
                assert space["action_mask"].shape == mask == (NUM_ACTIONS,)
                assert space["action_mask"].dtype == np.int8
                assert e.action_space(agent).n == actions == NUM_ACTIONS
            assert e.unwrapped.state_space.shape == state_shape
    assert seat_obs == (SEAT_LAYOUT.size,) and history_obs == (HISTORY_LAYOUT.size,)
    assert state == (SEAT_LAYOUT.size + TRUTH_LAYOUT.size,)
    assert history_state == (HISTORY_LAYOUT.size + TRUTH_LAYOUT.size,)


def test_spaces_are_built_once():
    e = raw_env(num_players=5)
    a, b = e.possible_agents[:2]
    assert e.observation_space(a) is e.observation_space(a) is e.observation_space(b)
    assert e.action_space(a) is e.action_space(b)


def test_layout_table_method_matches_docstring_columns():
    table = SEAT_LAYOUT.table().splitlines()[2:]
    assert len(table) == len(SEAT_LAYOUT.pieces)
    for line, (start, stop, name, shape) in zip(table, doc_tables()[0]):
        assert line == f"| {start}-{stop - 1} | `{name}` | {shape} |"


@pytest.mark.parametrize("encoder", [Encoder, IncrementalEncoder])
def test_encoder_sizes(encoder):
    cfg = GameConfig(num_players=5)
    assert encoder(cfg, "seat").size == SEAT_LAYOUT.size
    assert encoder(cfg, "history").size == HISTORY_LAYOUT.size
    assert encoder(cfg).truth_size == SEAT_LAYOUT.size + TRUTH_LAYOUT.size
    with pytest.raises(ValueError, match="'seat' or 'history'"):
        encoder(cfg, "full")


def test_row_columns_match_the_spec():
    """The layout's named columns inside rows are the offsets the env docstring documents (as
    written out in observation_testkit); the widths are the docstring's row shapes."""
    player = (PlayerRow.PRESENT, PlayerRow.SANITY, PlayerRow.MAD, PlayerRow.INSANITY, PlayerRow.REVEALED)
    player += (PlayerRow.CHARACTER, PlayerRow.EQUIPMENT, PlayerRow.USED, PlayerRow.PROPOSED)
    assert player == (spec.P_PRESENT, spec.P_SANITY, spec.P_MAD, spec.P_INSANITY, spec.P_REVEALED,
                      spec.P_CHARACTER, spec.P_EQUIPMENT, spec.P_USED, spec.P_PROPOSED)  # fmt: skip
    incantation = (IncantationRow.TARGET, IncantationRow.CARDS, IncantationRow.MATCHES, IncantationRow.SUCCESS)
    incantation += (IncantationRow.HOUR, IncantationRow.BY_SEAT, IncantationRow.MINE)
    assert incantation == (spec.I_TARGET, spec.I_CARDS, spec.I_MATCH, spec.I_SUCCESS, spec.I_HOUR, spec.I_SEATS,
                           spec.I_MINE)  # fmt: skip
    vote = (VoteRow.KIND, VoteRow.PROPOSER, VoteRow.ACCUSED, VoteRow.YES, VoteRow.NO, VoteRow.PASSED)
    vote += (VoteRow.REVEALED, VoteRow.HOUR)
    assert vote == (spec.V_KIND, spec.V_PROPOSER, spec.V_ACCUSED, spec.V_YES, spec.V_NO, spec.V_PASSED,
                    spec.V_ROLE, spec.V_HOUR)  # fmt: skip
    widths = {row[2]: row[3][-1] for row in doc_tables()[0]}
    assert (PlayerRow.WIDTH, IncantationRow.WIDTH, VoteRow.WIDTH) == (
        widths["players"], widths["history.incantations"], widths["history.votes"]
    )
