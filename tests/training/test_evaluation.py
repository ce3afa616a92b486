"""Evaluation: the ROC AUC behind the belief figures, seeded matches between bots and checkpoints,
the result table, and the `eval` command (JSON output, bad line-ups)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from rlyeh_env.engine import Role
from rlyeh_env.metrics import belief_auc, belief_auc_by_size, roc_auc, wilson_interval
from rlyeh_env.players import PolicyCache, ScriptedPlayer, make_side_player
from rlyeh_env.tournament import MatchResult, game_seed, markdown_table, play_match, results_json, tournament
from training.commands import eval_main
from training.config import Args
from training.evaluation import bars_table, versions_table
from training.trainer import Trainer, table_sizes


def _brute_force_auc(scores, labels) -> float:
    pos = [s for s, l in zip(scores, labels) if l]
    neg = [s for s, l in zip(scores, labels) if not l]
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


@pytest.mark.parametrize("seed", range(5))
def test_roc_auc_matches_pairwise_count_with_ties(seed):
    """AUC equals the brute-force pairwise count (ties count half)."""
    rng = np.random.default_rng(seed)
    size = int(rng.integers(2, 60))
    scores = rng.integers(0, 5, size).astype(float)  # few distinct values: many ties
    labels = rng.random(size) < 0.4
    labels[:2] = (True, False)
    assert roc_auc(scores, labels) == pytest.approx(_brute_force_auc(scores, labels), abs=1e-12)
    continuous = rng.normal(size=size) + labels
    assert roc_auc(continuous, labels) == pytest.approx(_brute_force_auc(continuous, labels), abs=1e-12)


def test_roc_auc_extremes_and_missing_class():
    """Perfect, reversed and all-tied scores; NaN when one class is missing."""
    assert roc_auc([0.1, 0.9, 0.2, 0.8], [0, 1, 0, 1]) == 1.0
    assert roc_auc([0.9, 0.1], [0, 1]) == 0.0
    assert roc_auc([0.5, 0.5, 0.5], [0, 1, 1]) == 0.5
    assert np.isnan(roc_auc([0.1, 0.2], [1, 1]))
    assert np.isnan(roc_auc([0.1, 0.2], [0, 0]))
    assert np.isnan(roc_auc([], []))


def test_the_training_belief_auc_is_read_within_each_table_size():
    """A lone cultist (4 players: every other seat an investigator) believing nobody is a cultist,
    and a partnered one (7 players) unable to tell its partner: pooled, the belief looks informed
    (it knows whether there is a partner); within each size it is at chance."""
    lone = np.full((4, 3), -5.0), np.zeros((4, 3)), np.ones((4, 3))
    partnered = np.zeros((4, 3)), np.tile([1.0, 0.0, 0.0], (4, 1)), np.ones((4, 3))
    logits, targets, valid = (np.concatenate(pair) for pair in zip(lone, partnered))
    sizes = np.array([4] * 4 + [7] * 4)
    assert belief_auc(logits, targets, valid) == 0.8  # 12 lone seats below the partner, 8 tied with it
    assert belief_auc_by_size(logits, targets, valid, sizes) == 0.5
    assert belief_auc_by_size(*lone, np.full(4, 4)) is None  # nobody to tell apart at any size


def test_the_trainer_reads_each_decisions_table_size_from_its_observation():
    import torch

    from rlyeh_env.engine import GameConfig
    from rlyeh_env.table import Table

    rows = [Table(GameConfig(num_players=n), seed=n).observation(0) for n in (8, 4, 6)]
    assert table_sizes(torch.from_numpy(np.stack(rows))).tolist() == [8, 4, 6]


def test_belief_auc_uses_valid_seats_only():
    """Seats beyond the table (valid 0) do not count."""
    logits = np.array([[2.0, -1.0, 5.0], [1.0, -2.0, -9.0]])
    targets = np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 1.0]])
    valid = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0]])  # the third seat is absent: its wrong scores ignored
    assert belief_auc(logits, targets, valid) == 1.0
    assert belief_auc(logits, targets, np.ones_like(valid)) < 1.0


def test_play_match_is_reproducible_and_consistent():
    """Same seed, same result whatever the batching; the interval is Wilson's; bots have no AUC."""
    a = play_match(ScriptedPlayer("heuristic"), ScriptedPlayer("random"), 5, 12, seed=3)
    b = play_match(ScriptedPlayer("heuristic"), ScriptedPlayer("random"), 5, 12, seed=3, num_slots=5)
    assert a == b, "same seed: the same games, whatever the batching"
    assert (a.investigators, a.cultists, a.num_players, a.games) == ("heuristic", "random", 5, 12)
    assert 0 <= a.investigator_wins <= 12
    assert (a.ci_low, a.ci_high) == wilson_interval(a.investigator_wins, 12)
    assert a.investigator_belief_auc is None and a.cultist_belief_auc is None
    seeds = {game_seed(s, n, i) for s in range(3) for n in (4, 5) for i in range(20)}
    assert len(seeds) == 3 * 2 * 20, "every (seed, size, game) deals its own game"
    assert game_seed(3, 5, 0) == game_seed(3, 5, 0)


def test_heuristic_beats_random_from_either_side():
    """Over 40 games at 5 players, heuristic investigators win more against random cultists than
    random investigators against heuristic cultists."""
    strong = play_match(ScriptedPlayer("heuristic"), ScriptedPlayer("random"), 5, 40, seed=1)
    weak = play_match(ScriptedPlayer("random"), ScriptedPlayer("heuristic"), 5, 40, seed=1)
    assert strong.investigator_win_rate > weak.investigator_win_rate + 0.2


def test_checkpoint_players_report_belief_auc(tmp_path):
    """Checkpoint players (by path) get belief AUCs in [0, 1], None with no fellow cultist."""
    trainer = Trainer(Args(hidden=(16,), threads=1, progress=False, runs_dir=str(tmp_path)))
    trainer.export_policies(tmp_path / "policies.pt")
    cache = PolicyCache()
    inv = make_side_player(str(tmp_path / "policies.pt"), Role.INVESTIGATOR, cache=cache)
    cult = make_side_player(str(tmp_path / "policies.pt"), Role.CULTIST, cache=cache)
    assert len(cache._loaded) == 1 and inv.net is not cult.net
    result = play_match(inv, cult, 7, 6, seed=0, config={"num_cultists": 2})  # each side has both classes to tell apart
    for auc in (result.investigator_belief_auc, result.cultist_belief_auc):
        assert auc is not None and 0.0 <= auc <= 1.0
    alone = play_match(inv, cult, 6, 3, seed=0)  # a lone cultist has no fellow cultist: no AUC
    assert alone.cultist_belief_auc is None and 0.0 <= alone.investigator_belief_auc <= 1.0
    again = play_match(inv, cult, 7, 6, seed=0, config={"num_cultists": 2})
    assert again == result, "checkpoint matches are seeded too (belief records start afresh)"


def test_markdown_table_has_one_row_per_result():
    """A header, a rule and one row per result with its figures."""
    results = [
        MatchResult("heuristic", "random", 5, 10, 7, 0.4, 0.9),
        MatchResult("a.pt", "heuristic", 6, 4, 1, 0.05, 0.7, 0.61, None),
        MatchResult("random", "b.pt", 8, 3, 0, 0.0, 0.56, None, 0.5),
    ]
    lines = markdown_table(results).splitlines()
    assert len(lines) == 2 + len(results)
    assert lines[0].startswith("|") and set(lines[1]) <= set("|-")
    for line, r in zip(lines[2:], results):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[:4] == [str(r.num_players), r.investigators, r.cultists, str(r.games)]
    assert "70.0%" in lines[2] and "0.610 / -" in lines[3] and "- / 0.500" in lines[4]
    assert results_json(results)[0]["investigator_win_rate"] == pytest.approx(0.7)


def test_eval_command_prints_the_table_and_writes_json(tmp_path, capsys):
    """`eval --json` prints the table, replaces the file atomically, leaves no temp file."""
    out = tmp_path / "results.json"
    out.write_text("old contents")
    code = eval_main(["--lineup", "heuristic,random", "--games", "5", "--json", str(out), "--no-progress",
                      "--threads", "1"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "| 5 | heuristic | random | 5 |" in printed and f"saved {out}" in printed
    data = json.loads(out.read_text())
    assert len(data) == 1 and data[0]["games"] == 5 and data[0]["investigators"] == "heuristic"
    assert sorted(os.listdir(tmp_path)) == ["results.json"], "no temporary file left"
    assert data[0]["usage"]["investigator/decisions"] > 0, "the JSON keeps what the players did"
    assert "What the players did" not in printed


def test_eval_usage_prints_what_the_players_did(capsys):
    code = eval_main(["--lineup", "heuristic:no-accuse,random", "--games", "5", "--usage", "--no-progress",
                      "--threads", "1"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "What the players did, per game" in printed
    assert "| 5 | heuristic:no-accuse | random | 0.00 | 0.00 | 0.00 |" in printed


def test_eval_rule_plays_the_games_under_the_changed_rule(tmp_path, capsys):
    """`--rule FIELD=VALUE` reaches every game: the results are those of the runner under that
    config, and differ from the default rules' on the same deals."""
    from rlyeh_env.tournament import tournament

    out = tmp_path / "results.json"
    code = eval_main(["--lineup", "heuristic,heuristic", "--games", "8", "--sizes", "5", "--rule", "start_hour=7",
                      "--rule", "wrong_accusation_hours=0", "--json", str(out), "--no-progress", "--threads", "1"])
    assert code == 0 and "rules changed: start_hour=7, wrong_accusation_hours=0" in capsys.readouterr().out
    played = json.loads(out.read_text())[0]
    changed, default = (tournament([("heuristic", "heuristic")], [5], 8, config=config, progress=False)[0]
                        for config in ({"start_hour": 7, "wrong_accusation_hours": 0}, None))
    assert (played["investigator_wins"], played["mean_rounds"]) == (changed.investigator_wins, changed.mean_rounds)
    assert changed.mean_rounds < default.mean_rounds  # five hours fewer: the rule was not ignored


def test_eval_command_with_sizes_and_repeated_lineups(tmp_path, capsys):
    """One row per line-up and table size."""
    code = eval_main(["--lineup", "random,random", "--lineup", "random,heuristic", "--sizes", "4", "7",
                      "--games", "2", "--no-progress", "--threads", "1"])
    assert code == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == 1 + 4  # header + (2 line-ups x 2 sizes)


@pytest.mark.parametrize("argv", [
    ["--lineup", "heuristic"],
    ["--lineup", "heuristic,random,random"],
    ["--lineup", "heuristic,"],
    ["--lineup", "foo,random"],
    ["--lineup", "heuristic,random", "--sizes", "9"],
    ["--lineup", "heuristic,random", "--games", "0"],
])
def test_eval_command_rejects_bad_arguments(argv, capsys):
    """Malformed line-ups, unknown players, bad sizes or game counts: parser error (exit 2)."""
    with pytest.raises(SystemExit) as info:
        eval_main(argv + ["--no-progress"])
    assert info.value.code == 2
    assert "error" in capsys.readouterr().err


def test_eval_command_reports_an_unusable_checkpoint(tmp_path, capsys):
    """A line-up naming a corrupt checkpoint exits 2 with the checkpoint's error."""
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a checkpoint")
    assert eval_main(["--lineup", f"{bad},random", "--games", "1", "--no-progress", "--threads", "1"]) == 2
    assert "not a readable checkpoint" in capsys.readouterr().err


def test_tournament_results_do_not_depend_on_workers(tmp_path):
    """Two worker processes give exactly the results of one: seeds are fixed per game."""
    trainer = Trainer(Args(hidden=(16,), threads=1, progress=False, runs_dir=str(tmp_path)))
    trainer.export_policies(tmp_path / "policies.pt")
    lineups = [(str(tmp_path / "policies.pt"), "heuristic"), ("random", "heuristic")]
    alone = tournament(lineups, [4, 5], 3, seed=4, progress=False, workers=1)
    shared = tournament(lineups, [4, 5], 3, seed=4, progress=False, workers=2)
    assert [r.investigators for r in alone] == [lineups[0][0], "random"] * 2
    assert shared == alone


def test_bars_table_marks_each_bar():
    """Each shipping bar is computed against the same run's heuristic figures, pass or FAIL."""
    def result(inv, cult, wins):
        return MatchResult(inv, cult, 5, 100, wins, 0.0, 1.0)

    rates = {("heuristic", "heuristic"): 48, ("checkpoint", "heuristic"): 64, ("heuristic", "checkpoint"): 33,
             ("checkpoint", "random"): 90, ("heuristic", "random"): 85, ("random", "checkpoint"): 0,
             ("random", "heuristic"): 0}
    table = bars_table([result(inv, cult, wins) for (inv, cult), wins in rates.items()])
    row = table.splitlines()[-1]
    assert row.startswith("| 5 | 48.0% |") and "FAIL" not in row and row.count("pass") == 4
    rates[("checkpoint", "heuristic")] = 57  # +9 points: one short of the bar
    rates[("checkpoint", "random")] = 85     # only equal to the heuristic: not better
    row = bars_table([result(inv, cult, wins) for (inv, cult), wins in rates.items()]).splitlines()[-1]
    assert row.count("FAIL") == 2 and "+9.0, FAIL" in row
    del rates[("heuristic", "heuristic")]
    assert bars_table([result(inv, cult, wins) for (inv, cult), wins in rates.items()]) is None


def test_versions_table_marks_both_seats_against_the_old_version():
    def result(inv, cult, wins, auc=0.8):
        return MatchResult(inv, cult, 7, 100, wins, 0.0, 1.0, auc)

    rates = {("v0", "v0"): 10, ("checkpoint", "v0"): 30, ("v0", "checkpoint"): 8, ("checkpoint", "checkpoint"): 40}
    row = versions_table([result(i, c, w) for (i, c), w in rates.items()], "checkpoint", "v0").splitlines()[-1]
    assert row.startswith("| 7 | 10.0% (AUC 0.80) |") and row.count("pass") == 2 and "FAIL" not in row
    assert "+20.0, pass" in row and "-2.0, pass" in row and row.endswith("| 40.0% (AUC 0.80) |")
    rates[("v0", "checkpoint")] = 10  # the old investigators do as well against the new cultists
    rates[("checkpoint", "v0")] = 9
    row = versions_table([result(i, c, w) for (i, c), w in rates.items()], "checkpoint", "v0").splitlines()[-1]
    assert row.count("FAIL") == 2
    del rates[("v0", "v0")]
    assert versions_table([result(i, c, w) for (i, c), w in rates.items()], "checkpoint", "v0") is None


def test_a_candidate_is_evaluated_with_the_bars_and_against_the_shipped_bots(tmp_path, capsys):
    """`--candidate PATH` plays the default line-ups about that file, against the newest shipped
    version too, and prints both bar tables."""
    from rlyeh_env.checkpoints import DEFAULT_VERSION
    from training.commands import default_lineups, version_to_beat

    trainer = Trainer(Args(hidden=(128, 128), shared_trunk=True, threads=1, progress=False, runs_dir=str(tmp_path)))
    candidate = str(tmp_path / "policies.pt")
    trainer.export_policies(candidate)
    assert version_to_beat(candidate) == DEFAULT_VERSION
    assert eval_main(["--candidate", candidate, "--sizes", "4", "--games", "1", "--no-progress", "--threads", "1"]) == 0
    printed = capsys.readouterr().out
    rows = [line for line in printed.splitlines() if line.startswith("| 4 | ") and "%" in line]
    played = [tuple(cell.strip() for cell in row.split("|")[2:4]) for row in rows]
    assert played[:11] == default_lineups(candidate, DEFAULT_VERSION)
    assert f"trained = {candidate}" in printed and f"version to beat ({DEFAULT_VERSION})" in printed
    assert printed.count("pass") + printed.count("FAIL") == 4 + 2  # four scripted bars, two against the version


def test_the_trainers_evaluation_plays_a_repeated_size_once(tmp_path, monkeypatch):
    """`table_sizes` (4, 4, 5) weights 4 seats twice: its games are played as one match of twice
    the games (other deals), not as the same match twice."""
    import training.evaluation as evaluation
    from training.config import preset
    from training.trainer import Trainer

    played = []
    real = evaluation.play_match

    def recording(inv, cult, n, games, **kwargs):
        played.append((n, games))
        return real(inv, cult, n, games, **kwargs)

    monkeypatch.setattr(evaluation, "play_match", recording)
    trainer = Trainer(preset("smoke", runs_dir=str(tmp_path), table_sizes=(4, 4, 5), hidden=(16,), progress=False,
                             imitation_decisions=0, threads=1))
    evaluation.evaluate_against_bots(trainer, 7)
    assert played == [(4, 5), (5, 2)] * 4  # per opponent and role: 3 + 2 games at 4 seats, 2 at 5
