"""PettingZoo's own conformance tests (api_test, seed_test, render_test) for every table size,
the variants, the history observation mode and the illegal-moves-end-game env."""

from __future__ import annotations

import importlib
import warnings

import pytest
from pettingzoo.test import api_test, render_test, seed_test

from rlyeh_env import env, rlyeh_v2

CASES = {f"n{n}": {"num_players": n} for n in range(4, 9)}
CASES.update(
    {
        "extra_gods": {"num_players": 6, "extra_gods": True},
        "hidden_count": {"num_players": 7, "hidden_cultist_count": True},
        "history": {"num_players": 5, "observation_mode": "history"},
        "history_n8_variants": {
            "num_players": 8, "observation_mode": "history", "extra_gods": True, "hidden_cultist_count": True,
        },
        "illegal_ends_game": {"num_players": 5, "illegal_moves_end_game": True},
        "sigil_reward": {"num_players": 4, "sigil_reward": 0.5},
    }
)  # fmt: skip

# api_test warns that a Dict observation space is unusual; that is documented and intended.
pytestmark = pytest.mark.filterwarnings("ignore:Observation space for each agent:UserWarning",
                                        "ignore:Observation is not a NumPy array:UserWarning")


@pytest.mark.parametrize("kwargs", CASES.values(), ids=CASES.keys())
def test_api(kwargs):
    api_test(env(**kwargs), num_cycles=60)


@pytest.mark.parametrize("kwargs", CASES.values(), ids=CASES.keys())
def test_seed(kwargs):
    seed_test(lambda: env(**kwargs), num_cycles=60)


@pytest.mark.parametrize("kwargs", CASES.values(), ids=CASES.keys())
def test_render(kwargs, capsys):
    render_test(lambda render_mode=None: env(render_mode=render_mode, **kwargs))
    assert "== the full truth ==" in capsys.readouterr().out  # human mode prints


def test_versioned_module_reexports():
    from rlyeh_env import raw_env

    assert rlyeh_v2.env is env and rlyeh_v2.raw_env is raw_env
    assert raw_env.metadata["name"] == "rlyeh_v2"
    assert raw_env.metadata["is_parallelizable"] is False


@pytest.mark.parametrize("retired, rules_version", [("rlyeh_v0", 1), ("rlyeh_v1", 2)])
def test_a_retired_version_says_which_to_use(retired, rules_version):
    """PettingZoo's habit: a retired version's name fails with the one to use instead."""
    module = importlib.import_module(f"rlyeh_env.{retired}")

    with pytest.raises(ImportError, match=rf"played rules version {rules_version}\); use `from rlyeh_env import rlyeh_v2`"):
        module.env()


@pytest.mark.slow
@pytest.mark.parametrize("kwargs", CASES.values(), ids=CASES.keys())
def test_api_long(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(**kwargs), num_cycles=1000)
        seed_test(lambda: env(**kwargs), num_cycles=1000)
