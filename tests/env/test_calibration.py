"""Calibration (rlyeh_env/calibration.py, scripts/calibrate.py): candidates, the pick rule, and a
script run whose cells are the games the tournament runner plays under each candidate."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rlyeh_env.calibration import Band, Measured, Setting, candidate_settings, pick
from rlyeh_env.engine.config import DEFAULT_CULTISTS, DEFAULT_NECRONOMICON_HOURS_BACK, DEFAULT_START_HOUR
from rlyeh_env.players import make_side_player
from rlyeh_env.engine import Role
from rlyeh_env.tournament import MatchResult, play_match

ROOT = Path(__file__).resolve().parents[2]


def _result(rate: float, games: int = 1000) -> MatchResult:
    wins = round(rate * games)
    return MatchResult("a", "b", 5, games, wins, 0.0, 1.0)


def test_candidates_start_with_today_and_stay_legal():
    today = Setting.default(4)
    assert (today.cultists, today.start_hour) == (DEFAULT_CULTISTS[4], DEFAULT_START_HOUR[4]) and today.changes == 0
    found = candidate_settings(4, [-2, -1, 0, 1, 2], [1, 2, 3])
    assert found[0] == today
    assert len(found) == len(set(found))
    assert all(0 <= s.start_hour <= 11 and 1 <= s.cultists <= 2 for s in found)  # 3 cultists of 4: refused
    assert {s.start_hour for s in found} == {h for h in range(today.start_hour - 2, today.start_hour + 3) if h >= 0}
    back = today.hours_back
    assert Setting(4, 2, today.start_hour + 1, back).changes == 2 and Setting(4, 1, 0, back).changes == 1
    assert Setting(4, 2, today.start_hour + 1, back - 1).changes == 3
    assert candidate_settings(6, [1]) == [
        Setting.default(6), Setting(6, DEFAULT_CULTISTS[6], DEFAULT_START_HOUR[6] + 1, DEFAULT_NECRONOMICON_HOURS_BACK[6])]


def test_candidates_try_each_hours_back_at_each_start_hour():
    today = Setting.default(5)
    found = candidate_settings(5, [0, 1], hours_back=[1, today.hours_back, 13])
    assert found[0] == today and len(found) == len(set(found))
    assert {(s.start_hour, s.hours_back) for s in found} == {
        (today.start_hour + offset, back) for offset in (0, 1) for back in (1, today.hours_back)}  # 13: refused
    assert Setting(5, today.cultists, today.start_hour, 1).config["necronomicon_hours_back"] == 1


def test_band_distance_and_validation():
    band = Band(0.35, 0.45)
    assert band.distance(0.40) == 0.0 and band.distance(0.35) == 0.0
    assert band.distance(0.30) == pytest.approx(0.05) and band.distance(0.50) == pytest.approx(0.05)
    with pytest.raises(ValueError, match="low <= high"):
        Band(0.5, 0.4)


def test_the_pick_prefers_today_then_one_change_then_the_band_centre():
    target, reference = Band(0.35, 0.45), Band(0.35, 0.65)
    today = Setting.default(7)
    cultists, hour, back = today.cultists, today.start_hour, today.hours_back
    earlier, later = Setting(7, cultists, hour - 1, back), Setting(7, cultists, hour + 1, back)
    both = Setting(7, cultists + 1, hour - 1, back)  # two changes
    in_band = pick([Measured(today, _result(0.36), _result(0.5)), Measured(earlier, _result(0.40), _result(0.5))],
                   target, reference)
    assert in_band.qualifies and in_band.chosen.setting == today  # in both bands: no change needed
    moved = pick([Measured(today, _result(0.11), _result(0.47)), Measured(earlier, _result(0.38), _result(0.55)),
                  Measured(later, _result(0.41), _result(0.52)), Measured(both, _result(0.40), _result(0.60))],
                 target, reference)
    assert moved.qualifies and moved.chosen.setting == later  # one change each, 41% nearer the centre than 38%
    reference_out = pick([Measured(today, _result(0.11), _result(0.47)), Measured(earlier, _result(0.40), _result(0.70))],
                         target, reference)
    assert not reference_out.qualifies and reference_out.chosen.setting == earlier  # nearest: 5 points out, not 24
    with pytest.raises(ValueError):
        pick([], target, reference)


def test_the_pick_prefers_one_change_of_hours_back_to_two_changes():
    target, reference = Band(0.35, 0.45), Band(0.35, 0.65)
    today = Setting.default(8)
    less_back = Setting(8, today.cultists, today.start_hour, today.hours_back - 1)
    later_and_more = Setting(8, today.cultists, today.start_hour + 1, today.hours_back + 1)
    chosen = pick([Measured(today, _result(0.70), _result(0.6)), Measured(less_back, _result(0.44), _result(0.5)),
                   Measured(later_and_more, _result(0.40), _result(0.5))], target, reference)
    assert chosen.qualifies and chosen.chosen.setting == less_back  # one change beats two, even off-centre
    near_centre = Setting(8, today.cultists, today.start_hour, today.hours_back - 2)
    chosen = pick([Measured(less_back, _result(0.44), _result(0.5)), Measured(near_centre, _result(0.40), _result(0.5))],
                  target, reference)
    assert chosen.chosen.setting == near_centre  # both one change: nearer the band's centre


def test_the_script_measures_each_candidate_under_its_own_setting(tmp_path):
    out = tmp_path / "calibration.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "calibrate.py"), "--target", "heuristic,random", "--sizes", "5", "7",
         "--hour-offsets", "0", "3", "--games", "6", "--workers", "1", "--no-progress", "--json", str(out)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    cells = data["candidates"]
    assert [(c["num_players"], c["start_hour"]) for c in cells] == [
        (5, DEFAULT_START_HOUR[5]), (5, DEFAULT_START_HOUR[5] + 3), (7, DEFAULT_START_HOUR[7]), (7, DEFAULT_START_HOUR[7] + 3)]
    for cell in cells:  # each cell is the tournament runner's games under that candidate's rules
        config = {"num_cultists": cell["cultists"], "start_hour": cell["start_hour"],
                  "necronomicon_hours_back": cell["hours_back"]}
        for side, (inv, cult) in (("target", ("heuristic", "random")), ("reference", ("heuristic", "heuristic"))):
            direct = play_match(make_side_player(inv, Role.INVESTIGATOR, True), make_side_player(cult, Role.CULTIST, True),
                                cell["num_players"], 6, seed=0, config=config)
            assert cell[side]["investigators_won"] == direct.investigator_wins, (cell, side)
            assert cell[side]["mean_rounds"] == direct.mean_rounds, (cell, side)
        assert f"| {cell['num_players']} | {cell['cultists']} | {cell['start_hour']}" in done.stdout
    for n in (5, 7):  # the later start hour was really played: its games are shorter
        today, later = (c["reference"]["mean_rounds"] for c in cells if c["num_players"] == n)
        assert later < today, (n, today, later)
    assert sum(c["picked"] for c in cells) == 2 and set(data["picks"]) == {"5", "7"}
    assert "Picked settings:" in done.stdout


def test_the_script_plays_each_hours_back_it_is_given(tmp_path):
    out = tmp_path / "calibration.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "calibrate.py"), "--target", "heuristic,heuristic", "--sizes", "6",
         "--hour-offsets", "0", "--hours-back", "0", "12", "--games", "8", "--workers", "1", "--no-progress",
         "--json", str(out)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    cells = json.loads(out.read_text())["candidates"]
    assert [c["hours_back"] for c in cells] == [DEFAULT_NECRONOMICON_HOURS_BACK[6], 0, 12]
    assert len({c["target"]["mean_rounds"] for c in cells}) > 1  # these deals use Turn back time
    for cell in cells:
        config = {"num_cultists": cell["cultists"], "start_hour": cell["start_hour"],
                  "necronomicon_hours_back": cell["hours_back"]}
        direct = play_match(make_side_player("heuristic", Role.INVESTIGATOR, True),
                            make_side_player("heuristic", Role.CULTIST, True), 6, 8, seed=0, config=config)
        assert cell["target"]["mean_rounds"] == direct.mean_rounds, cell
        assert f"| 6 | {cell['cultists']} | {cell['start_hour']} (today) | {cell['hours_back']} |" in done.stdout \
            or f"| 6 | {cell['cultists']} | {cell['start_hour']} | {cell['hours_back']} |" in done.stdout
