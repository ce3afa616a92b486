"""`PolicyBot`: a trained checkpoint seated as a bot (the `rlyeh_env.bots.Bot` protocol).

It reads only its own observation: the role one-hot (`me.role`) picks the investigator or the
cultist policy, unless `role` fixes one. It acts greedily (the most probable legal action) or
by sampling, and `beliefs()` tells its current probability that each other seat is a cultist.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from ..engine import Role
from ..engine.actions import NUM_ACTIONS
from ..observation import SEAT_LAYOUT
from .checkpoint import CheckpointError, load_checkpoint
from .network import ActorCritic
from .shipped import shipped_checkpoint

_ROLE = SEAT_LAYOUT["me.role"].start


def load_policies(path: str | Path, any_rules: bool = False) -> dict[Role, ActorCritic]:
    """Both policy networks of a checkpoint (training or policy kind), in eval mode; `any_rules`
    accepts one trained under other rules (`load_checkpoint`)."""
    data = load_checkpoint(path, any_rules=any_rules)
    nets = {}
    for role in (Role.INVESTIGATOR, Role.CULTIST):
        entry = data["policies"][role.name]
        _check_fits_the_env(path, role, entry.get("spec"))
        try:
            net = ActorCritic.from_spec(entry["spec"])
            missing, unexpected = net.load_state_dict(entry["weights"], strict=False)
        except (KeyError, TypeError, RuntimeError) as err:
            raise CheckpointError(f"{path}: the {role.name.lower()} policy does not fit its network: {err}") from err
        if unexpected or any(not key.startswith("critic.") for key in missing):
            raise CheckpointError(
                f"{path}: the {role.name.lower()} policy's weights do not match its network "
                f"(missing {sorted(missing)}, unexpected {sorted(unexpected)})"
            )
        nets[role] = net.eval().requires_grad_(False)
    return nets


def _check_fits_the_env(path, role: Role, spec) -> None:
    """A network spec must read this env's observation and choose among its actions: a
    self-consistent spec of other sizes would load, then fail mid-game with a shape error."""
    if not isinstance(spec, dict):
        raise CheckpointError(f"{path}: the {role.name.lower()} policy has no network spec")
    expected = {"obs_size": SEAT_LAYOUT.size, "num_actions": NUM_ACTIONS}
    wrong = [f"{key} {spec.get(key)!r} (the env needs {value})" for key, value in expected.items()
             if spec.get(key) != value]
    if wrong:
        raise CheckpointError(f"{path}: the {role.name.lower()} policy does not fit this env: " + ", ".join(wrong))


class PolicyBot:
    def __init__(self, nets: dict[Role, ActorCritic], role: Role | None = None, greedy: bool = False,
                 seed: int | None = None):
        self.nets, self.role, self.greedy = nets, role, greedy
        self.generator = torch.Generator()
        self.reset(seed)

    @classmethod
    def from_checkpoint(cls, path: str | Path | None = None, role: Role | None = None, greedy: bool = False,
                        seed: int | None = None) -> "PolicyBot":
        """The bots of the checkpoint file at `path` (default: the shipped bots)."""
        return cls(load_policies(path if path is not None else shipped_checkpoint()), role, greedy, seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.generator.manual_seed(seed % (2**63))
        self._hidden: torch.Tensor | None = None
        self._beliefs = np.full(SEAT_LAYOUT["me.known_roles"].shape[0] - 1, np.nan, dtype=np.float32)

    def _net(self, observation: np.ndarray) -> ActorCritic:
        role = self.role if self.role is not None else Role(int(observation[_ROLE + 1] > 0.5))
        return self.nets[role]

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        net = self._net(observation)
        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32).unsqueeze(0)
            mask = torch.as_tensor(action_mask).bool().unsqueeze(0)
            if not mask.any():
                raise ValueError("the action mask has no legal action: it is not this bot's decision")
            hidden = None
            if net.recurrent:
                hidden = self._hidden if self._hidden is not None else net.initial_state(1)
            features, self._hidden = net.features(obs, hidden)
            logits, belief = net.heads(features, mask)
            self._beliefs = torch.sigmoid(belief[0]).numpy()
            if self.greedy:
                return int(logits.argmax(-1))
            return int(torch.multinomial(torch.softmax(logits[0], -1), 1, generator=self.generator))

    def beliefs(self) -> np.ndarray:
        """P(cultist) for the seats 1..7 to this bot's left, as of its last decision (seats beyond
        the table are meaningless; NaN before the first decision)."""
        return self._beliefs.copy()
