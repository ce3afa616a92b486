"""The arena (whole games between bots), Wilson intervals, the balance script, and how the
heuristic fares against random play (behaviour checks on ~100 games)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rlyeh_env.arena import GameResult, play_game, play_lineup
from rlyeh_env.metrics import wilson_interval
from rlyeh_env.bots import make_bot
from rlyeh_env.engine import EndReason, GameConfig, Role, Winner, legal_actions
from rlyeh_env.engine.game import Game
from rlyeh_env.observation import Encoder

ROOT = Path(__file__).resolve().parents[2]


class Tape:
    """A bot that records what it was shown, then defers to an inner bot."""

    def __init__(self, inner, tag: str = ""):
        self.inner, self.tag = inner, tag
        self.shown: list[tuple[np.ndarray, np.ndarray, int]] = []
        self.resets: list[int | None] = []

    def reset(self, seed=None):
        self.resets.append(seed)
        self.inner.reset(seed)

    def act(self, observation, action_mask):
        action = self.inner.act(observation, action_mask)
        self.shown.append((observation.copy(), action_mask.copy(), action))
        return action


def test_play_game_returns_a_consistent_result():
    config = GameConfig(num_players=5)
    result = play_game(config, 3, [make_bot("heuristic", s) for s in range(5)])
    assert isinstance(result, GameResult)
    assert result.winner in (Winner.INVESTIGATORS, Winner.CULTISTS)
    assert result.end_reason in (EndReason.FOUR_SIGILS, EndReason.MIDNIGHT, EndReason.NECRONOMICON)
    assert (result.end_reason == EndReason.FOUR_SIGILS) == (result.winner == Winner.INVESTIGATORS)
    assert len(result.roles) == 5 and sum(result.roles) == config.cultists
    assert 0 <= result.sigils <= 4 and (result.sigils == 4) == result.investigators_won
    assert result.decisions > 0 and result.rounds >= 1
    assert result == play_game(config, 3, [make_bot("heuristic", s) for s in range(5)])


def test_bots_see_exactly_the_env_observation_and_mask():
    """Each decision shows the decider the reference Encoder's vector and the legal-action mask."""
    config = GameConfig(num_players=4, extra_gods=True)
    tapes = [Tape(make_bot("heuristic" if s % 2 else "random", s)) for s in range(4)]
    play_game(config, 11, tapes)
    # replay the same game and compare, decision by decision
    order = []
    game = Game(config, 11)
    pending = {s: list(t.shown) for s, t in enumerate(tapes)}
    encoder = Encoder(config)
    while not game.over:
        seat = game.decider
        obs, mask, action = pending[seat].pop(0)
        assert np.array_equal(obs, encoder.observe(game.state, seat))
        assert np.flatnonzero(mask).tolist() == legal_actions(game.state)
        game.step(action)
        order.append(seat)
    assert all(not rest for rest in pending.values()) and len(set(order)) == 4


def test_every_bot_is_reset_once_per_game_with_its_own_seed():
    tapes = [Tape(make_bot("random", s)) for s in range(6)]
    play_game(GameConfig(num_players=6), 5, tapes)
    seeds = [t.resets for t in tapes]
    assert all(len(r) == 1 and isinstance(r[0], int) for r in seeds)
    assert len({r[0] for r in seeds}) == 6


def test_play_game_wants_one_bot_per_seat():
    with pytest.raises(ValueError, match="one bot per seat"):
        play_game(GameConfig(num_players=5), 0, [make_bot("random", 0)] * 4)


def test_play_lineup_seats_bots_by_role():
    config = GameConfig(num_players=7)
    made: list[Tape] = []

    def factory(tag):
        def build(seed):
            made.append(Tape(make_bot("heuristic", seed), tag))
            return made[-1]

        return build

    for seed in range(4):
        made.clear()
        result = play_lineup(config, seed, factory("investigator"), factory("cultist"))
        assert [t.tag for t in made] == ["cultist" if r == Role.CULTIST else "investigator" for r in result.roles]
        assert all(t.resets for t in made)


def test_play_lineup_is_deterministic():
    config = GameConfig(num_players=8, hidden_cultist_count=True)

    def heuristic(s):
        return make_bot("heuristic", s)

    a = play_lineup(config, 77, heuristic, heuristic)
    b = play_lineup(config, 77, heuristic, heuristic)
    assert a == b


@pytest.mark.parametrize(
    "wins,n,lo,hi",
    [(50, 100, 0.4038, 0.5962), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (1, 2000, 0.0000883, 0.00283)],
)
def test_wilson_interval_known_values(wins, n, lo, hi):
    a, b = wilson_interval(wins, n)
    assert math.isclose(a, lo, abs_tol=2e-4) and math.isclose(b, hi, abs_tol=2e-4)


def test_wilson_interval_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(900, 2000)
    assert lo < 0.45 < hi and hi - lo < 0.05


# -- behaviour -----------------------------------------------------------------------------------


def _rate(config, games, investigator, cultist, offset=0):
    wins = 0
    for g in range(games):
        result = play_lineup(
            config, 5000 + offset + g, lambda s: make_bot(investigator, s), lambda s: make_bot(cultist, s)
        )
        wins += result.investigators_won
    return wins / games


def test_heuristic_investigators_beat_random_cultists():
    assert _rate(GameConfig(num_players=5), 100, "heuristic", "random") >= 0.7


def test_heuristic_cultists_beat_random_investigators():
    assert _rate(GameConfig(num_players=5), 60, "random", "heuristic") <= 0.05


def test_heuristic_cultists_sabotage_far_better_than_random_ones():
    config = GameConfig(num_players=5)
    against_random = _rate(config, 100, "heuristic", "random", offset=100)
    against_heuristic = _rate(config, 100, "heuristic", "heuristic", offset=100)
    assert against_random - against_heuristic >= 0.2


# -- the balance script --------------------------------------------------------------------------


def _balance(tmp_path: Path, *args: str) -> tuple[str, dict]:
    out = tmp_path / f"balance_{len(list(tmp_path.iterdir()))}.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "balance.py"), "--no-progress", "--json", str(out), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(out.read_text())


def test_balance_script_is_deterministic_and_prints_a_table(tmp_path):
    args = ["--games", "6", "--sizes", "4", "5", "--lineups", "heuristic,random", "random,random"]
    text, one = _balance(tmp_path, *args, "--workers", "1")
    assert "| Players |" in text and "heuristic,random" in text and "95% CI" in text
    _, two = _balance(tmp_path, *args, "--workers", "2")
    assert one["rows"] == two["rows"]
    assert [r["games"] for r in one["rows"]] == [6, 6, 6, 6]


def test_balance_script_rejects_unknown_lineups():
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "balance.py"), "--lineups", "heuristic,genius", "--games", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "genius" in done.stderr
