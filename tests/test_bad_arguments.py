"""Every command refuses a bad argument the same way: exit code 2, one line on stderr that names
the argument and what would be right, no traceback, and nothing written (half or whole).

Each row runs the command as a user would, in a subprocess, from an empty working folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"


def _command(name: str) -> list[str]:
    if name in ("play", "watch", "replay", "serve", "train", "eval"):
        return [sys.executable, "-m", "rlyeh_env.cli", name]
    return [sys.executable, str(SCRIPTS / f"{name}.py")]


# (command, arguments, words the one line must hold); {file}: an existing file, {dir}: a folder
ROWS = [
    ("train", ["--total-decisions", "abc"], ["--total-decisions", "int"]),
    ("train", ["--threads", "0"], ["threads", ">= 1"]),
    ("train", ["--num-gmes", "3"], ["--num-gmes", "--num-games"]),
    ("train", ["--shared-trunk", "maybe"], ["--shared-trunk", "true or false"]),
    ("train", ["--preset", "nope"], ["preset", "smoke"]),
    ("train", ["--resume", "{dir}/missing.pt"], ["no checkpoint file"]),
    ("train", ["--preset", "smoke", "--runs-dir", "{file}/runs"], ["--runs-dir", "is a file"]),
    ("eval", ["--threads", "0"], ["--threads", "at least 1"]),
    ("eval", ["--threads", "-1"], ["--threads", "at least 1"]),
    ("eval", ["--workers", "0"], ["--workers", "at least 1"]),
    ("eval", ["--games", "x"], ["--games", "whole number"]),
    ("eval", ["--sizes", "9"], ["--sizes", "4, 5, 6, 7, 8"]),
    ("eval", ["--lineup", "heuristic"], ["--lineup", "INVESTIGATORS,CULTISTS"]),
    ("eval", ["--lineup", "heuristc,random"], ["--lineup", "heuristc", "is not a bot"]),
    ("eval", ["--json", "{dir}"], ["--json", "is a folder"]),
    ("eval", ["--json", "{file}/results.json"], ["--json", "is a file"]),
    ("eval", ["--lineup", "{file},random", "--games", "1"], ["not a readable checkpoint"]),
    ("play", ["--players", "9"], ["num_players"]),
    ("play", ["--bots", "heuristc"], ["--bots", "is not a bot"]),
    ("play", ["--bot", "9=random"], ["--bot", "between 0 and 4"]),
    ("play", ["--replays", "{file}"], ["--replays", "is a file"]),
    ("play", ["--role", "king"], ["--role", "investigator"]),
    ("watch", ["--board", "never"], ["--board", "round"]),
    ("watch", ["--bots", "{file}", "--instant"], ["not a readable checkpoint"]),
    ("replay", ["{dir}/missing.json"], ["missing.json"]),
    ("replay", ["{file}"], ["cannot read the replay"]),
    ("replay", ["{file}", "--step", "-1"], ["--step", "at least 0"]),
    ("serve", ["--port", "0"], ["--port", "at least 1"]),
    ("serve", ["--bot-delay", "-1"], ["--bot-delay", "at least 0"]),
    ("serve", ["--idle-minutes", "0"], ["--idle-minutes", "above 0"]),
    ("serve", ["--max-tables", "none"], ["--max-tables", "whole number"]),
    ("serve", ["--replays", "{file}"], ["--replays", "is a file"]),
    ("serve", ["--bot", "genius"], ["--bot", "is not a bot"]),
    ("serve", ["--bot", "{file}"], ["not a readable checkpoint"]),
    ("balance", ["--games", "0"], ["--games", "at least 1"]),
    ("balance", ["--lineups", "heuristic,genius"], ["--lineups", "genius"]),
    ("balance", ["--json", "{dir}"], ["--json", "is a folder"]),
    ("crossplay", ["heuristic"], ["PLAYER", "at least two"]),
    ("crossplay", ["heuristic", "genius"], ["PLAYER", "genius"]),
    ("crossplay", ["heuristic", "random", "--plot", "{dir}"], ["--plot", "is a folder"]),
    ("calibrate", ["--target", "heuristic,genius"], ["--target", "genius"]),
    ("calibrate", ["--target-band", "50", "40"], ["low <= high"]),
    ("calibrate", ["--reference-band", "35", "165"], ["low <= high"]),
    ("calibrate", ["--json", "{dir}"], ["--json", "is a folder"]),
    ("calibrate", ["--rule", "start_hour=3"], ["--rule", "candidates set num_cultists, start_hour"]),
    ("calibrate", ["--rule", "necronomicon_hours_back=2"], ["--rule", "--hours-back"]),
    ("calibrate", ["--hours-back", "13"], ["--hours-back", "invalid choice"]),
    ("eval", ["--rule", "doom=3"], ["--rule", "FIELD=VALUE", "revealed_cultist_contributes"]),
    ("eval", ["--rule", "start_hour=twelve"], ["--rule", "start_hour", "not a number"]),
    ("balance", ["--rule", "start_hour=12"], ["--rule", "start_hour", "[0, 11]"]),
    ("crossplay", ["heuristic", "random", "--rule", "wrong_accusation_hours=1", "--rule", "wrong_accusation_hours=2"],
     ["--rule", "at most once"]),
    ("exploit", ["checkpoint", "--decisions", "0"], ["--decisions", "at least 1"]),
    ("exploit", ["heuristic"], ["checkpoint", "not a scripted bot"]),
    ("exploit", ["{file}"], ["not a readable checkpoint"]),
    ("exploit", ["checkpoint", "--out", "{file}"], ["--out", "is a file"]),
    ("exploit", ["checkpoint", "--sides", "both"], ["--sides", "investigator"]),
    ("benchmark_env", ["--seconds", "0"], ["--seconds", "above 0"]),
    ("benchmark_env", ["--players", "3"], ["--players", "4, 5, 6, 7, 8"]),
    ("benchmark_training", ["--seconds", "-5"], ["--seconds", "above 0"]),
    ("benchmark_ray", ["--cpus-per-node", "1"], ["--cpus-per-node", "at least 2"]),
    ("benchmark_training", ["--json", "{dir}"], ["--json", "is a folder"]),
]


@pytest.mark.parametrize("name, arguments, words", ROWS, ids=[f"{r[0]} {' '.join(r[1])}" for r in ROWS])
def test_a_bad_argument_is_one_clear_line(tmp_path, name, arguments, words):
    work = tmp_path / "work"
    work.mkdir()
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"not a checkpoint, not a replay")
    arguments = [a.format(file=junk, dir=tmp_path / "out") for a in arguments]
    (tmp_path / "out").mkdir()
    done = subprocess.run(_command(name) + arguments, capture_output=True, text=True, timeout=120, cwd=work,
                          stdin=subprocess.DEVNULL)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert len(lines) == 1, f"expected one line on stderr, got:\n{done.stderr}"
    assert "Traceback" not in done.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    left = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.name not in ("work", "out"))
    assert left == ["junk.bin"], f"the command left files behind: {left}"
