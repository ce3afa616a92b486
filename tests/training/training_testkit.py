"""Helpers shared by the training tests: a rule set where sigils get activated even under random
play (so sigil shaping shows up), small networks, and short collector runs."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import torch

from rlyeh_env.engine import GameConfig, Role
from rlyeh_env.engine.actions import NUM_ACTIONS
from rlyeh_env.observation import SEAT_LAYOUT, TRUTH_LAYOUT
from rlyeh_env.policy.checkpoint import save_checkpoint
from rlyeh_env.policy.network import ActorCritic
from training.collector import Collector, GameSpec
from training.players import NetPlayer

# Short incantations that succeed with one net match, and a clock starting at hour 0: random play
# then activates sigils in most games (with the default rules it almost never does).
EASY_RULES = dict(incantation_size=3, incantation_threshold=1, start_hour=0)
TRUTH_SIZE = SEAT_LAYOUT.size + TRUTH_LAYOUT.size
ROLES = (Role.INVESTIGATOR, Role.CULTIST)


def tiny_net(seed: int = 0, recurrent: bool = False, central_critic: bool = False, hidden=(16,),
             shared_trunk: bool = False) -> ActorCritic:
    torch.manual_seed(seed)
    return ActorCritic(SEAT_LAYOUT.size, NUM_ACTIONS, tuple(hidden), recurrent,
                       TRUTH_SIZE if central_critic else None, shared_trunk)


def learners(seed: int = 0, recurrent: bool = False, central_critic: bool = False,
             shared_trunk: bool = False) -> dict[Role, NetPlayer]:
    """An investigator and a cultist learner, each a small fresh network."""
    return {
        role: NetPlayer(tiny_net(seed + k, recurrent, central_critic, shared_trunk=shared_trunk),
                        f"learner-{role.name.lower()}",
                        learner=role, central_critic=central_critic)
        for k, role in enumerate(ROLES)
    }


def game_seeds(count: int, seed: int = 0) -> list[int]:
    r = random.Random(f"training-tests-{seed}")
    return [r.getrandbits(63) for _ in range(count)]


def collect(players: dict, config: GameConfig, games: int, slots: int = 3, seed: int = 0,
            central_critic: bool = False, record: dict | None = None):
    """Play `games` games with `players` by role, recording the decisions of `record` (default: the
    learner networks among them); returns (buffers, finished games, seeds by game index)."""
    seeds = game_seeds(games, seed)
    learner_players = record if record is not None else {
        role: p for role, p in players.items() if isinstance(p, NetPlayer) and p.learner is not None
    }

    def next_game(index: int) -> GameSpec:
        return GameSpec(config, seeds[index], dict(players), {"index": index})

    collector = Collector(slots, torch.Generator().manual_seed(seed), central_critic)
    buffers, finished = collector.run(next_game, learner_players, num_games=games)
    return buffers, finished, seeds


def load_script(name: str):
    """A script of scripts/ as a module (its `main` not run): the benchmark tests call its parts."""
    path = Path(__file__).resolve().parents[2] / "scripts" / f"{name}.py"
    if str(path.parent) not in sys.path:  # scripts import their sibling require_install.py, as when run
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_policies(path, seed: int = 0, hidden=(16,)) -> dict:
    """A policy file of two small fresh networks (with their critics, as a training file has);
    returns its weights by role name."""
    policies = {}
    for k, role in enumerate((Role.INVESTIGATOR, Role.CULTIST)):
        net = tiny_net(seed + 10 * k, hidden=hidden)
        policies[role.name] = {"spec": net.spec(), "weights": net.state_dict()}
    save_checkpoint(path, {"kind": "policy", "args": {"seed": seed}, "policies": policies, "update": seed,
                           "decisions": 1000 * seed})
    return {role: entry["weights"] for role, entry in policies.items()}
