"""Cross-play ratings: Bradley-Terry strengths recovered from games drawn with known strengths,
intervals that cover them, and the cross-play script end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rlyeh_env.ratings import ELO, fit, ratings, worst_cases

ROOT = Path(__file__).resolve().parents[2]


def _games(inv: np.ndarray, cult: np.ndarray, per_cell: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    p = 1 / (1 + np.exp(-(inv[:, None] - cult[None, :])))
    games = np.full(p.shape, per_cell)
    return np.random.default_rng(seed).binomial(games, p), games


def test_the_fit_recovers_known_strengths():
    inv, cult = np.array([0.8, -0.2, 0.3]), np.array([0.5, -0.9, 0.1])
    shift = np.concatenate([inv, cult]).mean()
    wins, games = _games(inv, cult, 20_000, seed=1)
    got_inv, got_cult = fit(["a", "b", "c"], wins, games)
    np.testing.assert_allclose(got_inv, inv - shift, atol=0.03)
    np.testing.assert_allclose(got_cult, cult - shift, atol=0.03)
    assert abs(np.concatenate([got_inv, got_cult]).mean()) < 1e-9


def test_intervals_cover_the_truth_and_narrow_with_more_games():
    inv, cult = np.array([0.4, -0.4]), np.array([0.2, -0.6])
    shift = np.concatenate([inv, cult]).mean()
    truth = ELO * np.concatenate([inv, cult]) - ELO * shift
    widths = []
    for per_cell in (200, 5_000):
        wins, games = _games(inv, cult, per_cell, seed=2)
        rated = ratings(["a", "b"], wins, games, bootstrap=300, seed=3)
        assert [(r.name, r.role) for r in rated] == [("a", "investigator"), ("b", "investigator"),
                                                      ("a", "cultist"), ("b", "cultist")]
        for r, true in zip(rated, truth):
            assert r.low <= true <= r.high, (r, true)
            assert r.low <= r.elo <= r.high
        widths.append(np.mean([r.high - r.low for r in rated]))
    assert widths[1] < widths[0] / 3


def test_a_player_who_always_wins_gets_a_finite_rating():
    wins = np.array([[10, 10], [0, 5]])
    inv, cult = fit(["a", "b"], wins, np.full((2, 2), 10))
    assert np.all(np.isfinite(inv)) and inv[0] > inv[1]


def test_mismatched_tables_are_refused():
    with pytest.raises(ValueError, match="2 x 2"):
        fit(["a", "b"], np.zeros((3, 3)), np.ones((3, 3)))


def test_worst_cases_name_each_sides_strongest_opponent():
    # Not transitive: a's investigators crush c's cultists but lose to b's; the worst cell is not
    # the one a rating would suggest.
    rates = np.array([[0.50, 0.10, 0.90],
                      [0.60, 0.40, 0.20],
                      [0.30, 0.70, 0.55]])
    worst = {(w.name, w.role): (w.opponent, w.investigators_win) for w in worst_cases(["a", "b", "c"], rates)}
    assert worst == {("a", "investigator"): ("b", 0.10), ("b", "investigator"): ("c", 0.20),
                     ("c", "investigator"): ("a", 0.30), ("a", "cultist"): ("b", 0.60),
                     ("b", "cultist"): ("c", 0.70), ("c", "cultist"): ("a", 0.90)}


def test_worst_cases_refuse_a_mismatched_matrix():
    with pytest.raises(ValueError, match="2 x 2"):
        worst_cases(["a", "b"], np.zeros((2, 3)))


def test_the_crossplay_script_prints_and_saves_the_matrix_and_ratings(tmp_path):
    out, picture = tmp_path / "crossplay.json", tmp_path / "crossplay.png"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "crossplay.py"), "random", "heuristic", "--games", "6",
         "--sizes", "4", "5", "--workers", "1", "--bootstrap", "20", "--no-progress", "--json", str(out),
         "--plot", str(picture)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("| investigators \\ cultists |") == 2 and "| heuristic | investigator |" in done.stdout
    data = json.loads(out.read_text())
    assert data["players"] == ["random", "heuristic"] and np.array(data["played"]).shape == (2, 2, 2)
    assert np.all(np.array(data["played"]) == 6) and len(data["ratings"]) == 4
    rates = np.array(data["wins"]) / np.array(data["played"])
    for k, size in enumerate(data["sizes"]):  # the saved worst cases are the matrix's own extremes
        cases = {(w["name"], w["role"]): w["investigators_win"] for w in data["worst_cases"][str(size)]}
        assert cases[("heuristic", "investigator")] == rates[k, 1].min()
        assert cases[("random", "cultist")] == rates[k, :, 0].max()
    assert "| heuristic | cultist |" in done.stdout.split("Worst cases")[1]
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
