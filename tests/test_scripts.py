"""The scripts run from the repo root with the installed project, and without it stop with a
one-line hint to install it (no traceback)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(p.name for p in (ROOT / "scripts").glob("*.py") if p.name != "require_install.py")


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_script_shows_its_help(script):
    done = _run(f"scripts/{script}", "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:")


def test_the_env_benchmark_runs_a_short_slice():
    done = _run("scripts/benchmark_env.py", "--seconds", "0.2", "--repeats", "1")
    assert done.returncode == 0, done.stderr
    assert "| rlyeh_v2 AEC (5 players) |" in done.stdout


@pytest.mark.parametrize("script", SCRIPTS)
def test_without_the_install_a_script_says_to_run_make_venv(script, tmp_path):
    """`-S` leaves out site-packages, where the editable install lives."""
    done = _run("-S", str(ROOT / "scripts" / script), "--help", cwd=tmp_path)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "make venv" in done.stderr and "pip install -e ." in done.stderr
