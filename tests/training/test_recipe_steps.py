"""scripts/recipe_steps.sh: a recipe reuses a finished step only when it was trained under the
rules this code plays; a step left by a recipe of other rules stops the recipe, saying what to do."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rlyeh_env.engine import config as rules

from training_testkit import write_policies

ROOT = Path(__file__).resolve().parents[2]


def _finished_step(runs: Path, step: str, rules_version: int, monkeypatch) -> None:
    """What a finished `train x` or `exploit x` leaves, stamped with `rules_version`."""
    monkeypatch.setattr(rules, "RULES_VERSION", rules_version)
    for folder in ("x", "exploit-x/investigator", "exploit-x/cultist"):
        (runs / folder).mkdir(parents=True)
    if step == "train":
        write_policies(runs / "x" / "policies.pt")
        (runs / "x" / "learning_curves.png").write_bytes(b"")
    else:
        for side in ("investigator", "cultist"):
            write_policies(runs / "exploit-x" / side / "policies.pt")
        (runs / "exploit-x" / "report.json").write_text("{}")
    monkeypatch.undo()


def _run_step(cwd: Path, step: str) -> subprocess.CompletedProcess:
    script = f'set -euo pipefail; . "{ROOT}/scripts/recipe_steps.sh"; {step} x; echo "== next step"'
    return subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PY": sys.executable})


@pytest.mark.parametrize("step", ["train", "exploit"])
def test_a_finished_step_is_reused_under_the_same_rules_only(tmp_path, monkeypatch, step):
    today = rules.RULES_VERSION
    _finished_step(tmp_path / "same" / "runs", step, today, monkeypatch)
    done = _run_step(tmp_path / "same", step)
    assert done.returncode == 0, done.stderr
    assert "== next step" in done.stdout

    _finished_step(tmp_path / "other" / "runs", step, today + 1, monkeypatch)
    stopped = _run_step(tmp_path / "other", step)
    assert stopped.returncode != 0 and "== next step" not in stopped.stdout
    assert f"trained under rules version {today + 1}" in stopped.stderr
    assert "move runs/ aside and run the recipe again" in stopped.stderr
