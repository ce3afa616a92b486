"""scripts/accusation_probe.py: the belief accuser acts on its own belief head only where an
accusation is legal, votes Yes only when asked to, and the script's plain row is the plain match."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from rlyeh_env.engine import Role
from rlyeh_env.engine import actions as A
from rlyeh_env.players import PolicyCache, make_side_player
from rlyeh_env.tournament import play_match

from .training_testkit import load_script

ROOT = Path(__file__).resolve().parents[2]


class FixedBeliefs:
    """A side player that always answers Research, with the belief logits it is given."""

    name = "fixed"

    def __init__(self, logits):
        self.logits = np.asarray(logits, dtype=np.float32)

    def act(self, keys, observations, masks):
        return [A.RESEARCH] * len(keys), np.tile(self.logits, (len(keys), 1))


def _masks(*legal_sets):
    masks = np.zeros((len(legal_sets), A.NUM_ACTIONS), dtype=np.int8)
    for row, legal in enumerate(legal_sets):
        masks[row, list(legal)] = 1
    return masks


def test_the_accuser_accuses_its_surest_legal_seat_past_the_threshold():
    probe = load_script("accusation_probe")
    logits = [3.0, 0.0, 4.0, -2.0, -2.0, -2.0, -2.0]  # surest of offset 3, then offset 1
    accuser = probe.BeliefAccuser(FixedBeliefs(logits), threshold=0.9)
    every = {A.RESEARCH, *range(A.ACCUSE, A.ACCUSE + 4)}
    without_3 = every - {A.ACCUSE + 2}  # offset 3 already revealed: the next surest, offset 1
    unsure = probe.BeliefAccuser(FixedBeliefs([1.0] * 7), threshold=0.9)  # P = 0.73 < 0.9
    masks = _masks(every, without_3, {A.RESEARCH}, {A.VOTE_YES, A.VOTE_NO})
    actions, _ = accuser.act([(0, s) for s in range(4)], None, masks)
    assert actions == [A.ACCUSE + 2, A.ACCUSE + 0, A.RESEARCH, A.RESEARCH]
    assert unsure.act([(0, 0)], None, masks[:1])[0] == [A.RESEARCH]
    voter = probe.BeliefAccuser(FixedBeliefs(logits), threshold=0.9, votes_yes=True)
    assert voter.act([(0, 3)], None, masks[3:])[0] == [A.VOTE_YES]


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
