"""scripts/accusation_probe.py: the script's plain row is the plain match, and its accusers accuse
(the accuser itself: tests/env/test_accuser.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rlyeh_env.engine import Role
from rlyeh_env.players import PolicyCache, make_side_player
from rlyeh_env.tournament import play_match


ROOT = Path(__file__).resolve().parents[2]


def test_the_script_plays_the_plain_match_and_the_accusers(tmp_path):
    out = tmp_path / "probe.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "accusation_probe.py"), "--sizes", "5", "--games", "8",
         "--thresholds", "0.5", "--json", str(out)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text())["rows"]
    assert [row["investigators"] for row in rows] == ["as trained", "accuse at 0.5", "accuse at 0.5, vote Yes"]
    cache = PolicyCache()
    plain = play_match(make_side_player("checkpoint", Role.INVESTIGATOR, True, 0, cache),
                       make_side_player("checkpoint", Role.CULTIST, True, 0, cache), 5, 8, seed=0)
    assert rows[0]["win_rate"] == plain.investigator_win_rate
    assert rows[1]["accusations"] > rows[0]["accusations"]  # at 0.5 they do accuse
    assert f"| 5 | accuse at 0.5, vote Yes | {rows[2]['win_rate']:.1%}" in done.stdout
