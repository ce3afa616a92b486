"""scripts/benchmark_training.py: the side that gives our trainer MaskablePPO's network must
train the `full` preset with SB3's widths, at the model size the README compares; without
sb3-contrib the script says how to install it; the league side measures the league preset with
a full league."""

import importlib.util

import pytest

from rlyeh_env.engine.actions import NUM_ACTIONS
from rlyeh_env.observation import SEAT_LAYOUT
from training.config import preset
from training.players import ROLES
from rlyeh_env.policy.network import ActorCritic

from .training_testkit import load_script



@pytest.fixture(scope="module")
def bench():
    return load_script("benchmark_training")


def test_sb3_net_side_changes_only_the_widths(bench, monkeypatch):
    import training.speed

    calls = []
    monkeypatch.setattr(training.speed, "our_training_rate",
                        lambda seconds, num_players, **kwargs: calls.append(kwargs) or {})
    bench.SIDES[bench.OURS_SB3_NET](1.0, 5, "selfplay")
    assert calls == [{"opponents": "selfplay", "hidden": (64, 64), "shared_trunk": False}]
    assert bench.rollout_workers(bench.OURS_SB3_NET) == preset("full").rollout_workers


def test_league_side_trains_the_league_preset_in_its_own_mix(bench, monkeypatch):
    import training.speed

    calls = []
    monkeypatch.setattr(training.speed, "our_training_rate",
                        lambda seconds, num_players, **kwargs: calls.append(kwargs) or {})
    bench.SIDES[bench.OURS_LEAGUE](1.0, 5, "selfplay")
    assert calls == [{"opponents": "mixed", "recipe": "league"}]
    assert bench.rollout_workers(bench.OURS_LEAGUE) == preset("league").rollout_workers


def test_the_league_rate_measures_a_full_league_with_its_anchors(monkeypatch):
    """What the league side measures: the league preset's trainer, every pool entry filled, the
    anchors in, exploiters training (a very short run of the real function)."""
    import training.speed
    from training.trainer import Trainer

    seen = []
    real_update = Trainer.train_one_update
    monkeypatch.setattr(Trainer, "train_one_update", lambda self, bar=None: seen.append(self) or real_update(self))
    rate = training.speed.our_training_rate(0.01, 4, threads=1, recipe="league", opponents="mixed", rollout_workers=1,
                                            num_games=8, decisions_per_rollout=200, hidden=(128, 128))
    trainer = seen[0]
    league = trainer.matchmaker.league
    kinds = [e.kind for e in league.entries[ROLES[1]]]
    assert kinds.count("anchor") == len(preset("league").league_anchors)
    assert kinds.count("snapshot") == preset("league").pool_size
    assert trainer.exploiters and 0 < rate["decisions"] < rate["played"]  # the frozen entries' decisions train nothing


def test_in_pure_self_play_every_decision_played_is_a_learners(bench):
    import training.speed

    rate = training.speed.our_training_rate(0.01, 4, threads=1, rollout_workers=1, num_games=8,
                                            decisions_per_rollout=200, hidden=(16,))
    assert rate["decisions"] == rate["played"] > 0
    table = bench.markdown({bench.SB3: {"rate": 10.0, "decisions": 5, "peak_rss_mb": 1.0},
                            bench.OURS_LEAGUE: {"rate": 20.0, "decisions": 3, "played": 4, "peak_rss_mb": 1.0}}, {})
    assert f"| {bench.SB3} | 10 | 100% | 1 |" in table and f"| {bench.OURS_LEAGUE} | 20 | 75% | 1 |" in table


def test_sb3_net_side_matches_maskableppo_model_size(bench):
    """SB3's default MlpPolicy: two (64, 64) tanh MLPs (policy, value) over the observation, an
    action layer and a value layer. Ours adds only the small belief layer."""
    obs, (h1, h2) = SEAT_LAYOUT.size, bench.SB3_NET
    mlp = obs * h1 + h1 + h1 * h2 + h2
    sb3_params = 2 * mlp + h2 * NUM_ACTIONS + NUM_ACTIONS + h2 + 1
    ours = sum(p.numel() for p in ActorCritic(obs, NUM_ACTIONS, bench.SB3_NET).parameters())
    assert abs(ours - sb3_params) / sb3_params < 0.01


def test_without_sb3_contrib_the_comparison_says_which_extra_to_install(bench, monkeypatch, capsys):
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "sb3_contrib" else real_find_spec(name, *a))
    monkeypatch.setattr("sys.argv", ["benchmark_training.py", "--seconds", "1"])
    with pytest.raises(SystemExit, match=r'pip install -e "\.\[bench\]"'):
        bench.main()
    assert "training:" not in capsys.readouterr().out  # it stops before training any side
