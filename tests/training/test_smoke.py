"""The `smoke` preset end to end through the `train` command: every output file is written in well
under two minutes, and the exported bots play a full game and report their beliefs."""

from __future__ import annotations

import json
import math

import numpy as np

from rlyeh_env.arena import play_game
from rlyeh_env.engine import GameConfig
from rlyeh_env.policy.checkpoint import load_checkpoint
from training.commands import train_main
from training.config import PRESETS
from rlyeh_env.policy.bot import PolicyBot


class _Counting:
    """A bot wrapper counting the decisions it made."""

    def __init__(self, bot: PolicyBot):
        self.bot, self.decisions = bot, 0

    def reset(self, seed=None):
        self.bot.reset(seed)

    def act(self, observation, action_mask):
        self.decisions += 1
        return self.bot.act(observation, action_mask)


def test_smoke_preset_end_to_end(tmp_path):
    """One test (not a shared fixture) so that parallel workers never train the preset twice."""
    code = train_main(["--runs-dir", str(tmp_path), "--preset", "smoke", "--progress", "false", "--threads", "1"])
    run = tmp_path / PRESETS["smoke"]["run_name"]
    _check_outputs(code, run)
    _check_policies_play(run)


def _check_outputs(code, run):
    assert code == 0
    for name in ("checkpoint.pt", "policies.pt", "warm_start.pt", "history.json", "learning_curves.png"):
        assert (run / name).is_file() and (run / name).stat().st_size > 0, name
    assert list((run / "tb").glob("events.out.tfevents.*")), "no TensorBoard event file"
    assert (run / "learning_curves.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list(run.glob(".*")), "temporary files left behind"

    history = json.loads((run / "history.json").read_text())
    updates = [row for row in history if row["update"] >= 1]  # (an update-0 row evaluates a warm start)
    assert [row["update"] for row in updates] == list(range(1, len(updates) + 1))
    assert len(history) - len(updates) <= 1 and history[-1] is updates[-1]
    total = PRESETS["smoke"]["total_decisions"]
    assert updates[-1]["charts/decisions"] >= total > updates[-2]["charts/decisions"]
    assert any("eval/investigator_win_vs_heuristic" in row for row in updates), "eval_every=2 evaluates"
    for key in ("losses/investigator/entropy", "losses/cultist/value_loss", "belief/investigator_auc"):
        assert all(math.isfinite(row[key]) for row in updates), key
    # a lone cultist (one a table by default) has nobody to tell apart: the key is left out, never NaN
    assert all(math.isfinite(row.get("belief/cultist_auc", 0.0)) for row in updates)

    checkpoint = load_checkpoint(run / "checkpoint.pt", kind="training")
    assert checkpoint["decisions"] == updates[-1]["charts/decisions"] and checkpoint["update"] == len(updates)
    assert load_checkpoint(run / "policies.pt", kind="policy")["update"] == len(updates)
    assert load_checkpoint(run / "warm_start.pt", kind="policy")["update"] == 0, "the clone, before PPO"


def _check_policies_play(run):
    """Sampling and greedy PolicyBots at every seat; beliefs are probabilities for present seats."""
    for n, greedy in ((5, False), (8, True)):
        bots = [_Counting(PolicyBot.from_checkpoint(run / "policies.pt", greedy=greedy)) for _ in range(n)]
        assert all(np.isnan(b.bot.beliefs()).all() for b in bots), "no belief before the first decision"
        result = play_game(GameConfig(num_players=n), 7, bots)
        assert result.decisions == sum(b.decisions for b in bots) > 0
        for b in bots:
            beliefs = b.bot.beliefs()
            if b.decisions == 0:
                assert np.isnan(beliefs).all()
                continue
            assert beliefs.shape == (7,)
            present = beliefs[: n - 1]
            assert np.all(np.isfinite(present)) and np.all((present >= 0) & (present <= 1))
