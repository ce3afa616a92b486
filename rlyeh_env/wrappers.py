"""The AEC env seen from one learning seat, as a single-agent Gymnasium env.

```python
from sb3_contrib import MaskablePPO
from rlyeh_env import env
from rlyeh_env.wrappers import SingleAgentEnv

single = SingleAgentEnv(env(num_players=5), learner="cultist", opponents="heuristic")
MaskablePPO("MlpPolicy", single, seed=0).learn(10_000)
```

`SingleAgentEnv` is a `gymnasium.Env`. Its observation space is the AEC env's observation vector
(`Box(0, 1, (1369,), float32)`, `(4777,)` in history mode; the `rlyeh_env.rlyeh` docstring
documents every index), its action space the same `Discrete(61)`, and `action_masks()` returns the
legal-action mask of the decision the learner takes next, the method sb3-contrib's
`MaskablePPO` looks for (no `ActionMasker` needed). An illegal action raises the env's
`IllegalActionError`, which names the legal ones.

Who learns (`learner`), drawn again at every `reset`:
- a seat number: always that seat (its role is dealt at random, as every seat's is);
- `"any"` (the default): a seat drawn uniformly each game, so that nothing is learned from the
  seat number;
- `"investigator"` or `"cultist"`: after the deal, one of the seats holding that role;
- `"every"`: self-play with one policy, which decides for whichever seat is to move; there are
  no opponents. This is the pattern of PettingZoo's tutorial "SB3: Action Masked PPO for Connect
  Four": each step's reward, termination and info are those of the seat that just acted, and the
  observation and mask are those of the seat that acts next.

The other seats are played by `Bot`s, given as `opponents`: a player name of the registry
(`"random"`, `"heuristic"`, `"checkpoint"` or a checkpoint file: `rlyeh_env.players`), a factory called once per other seat with a seed (e.g. `RandomBot`),
or a sequence of one bot per other seat. The k-th of them (0-based) sits k + 1 seats to the
learner's left, which is row k + 1 of the learner's seat-relative observation. Between two
learner decisions the wrapper plays the bots' decisions.

Reward: what the env pays the learning seat, summed from one of its decisions to its next one
(or to the end of the game): by default zero until the end, then +1 if its team won and -1 if it
lost. A game ends with `terminated=True`, and is never truncated.

Seeding: `reset(seed=s)` seeds the wrapper's generator (`np_random`), from which every game's
deal, the learner's seat and the bots' seeds are drawn; `reset()` continues the same stream. Two
wrappers reset with the same seed and given the same actions play the same games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import gymnasium
import numpy as np

from .bots import Bot
from .engine import Role
from .observation import SEAT_LAYOUT
from .players import PolicyCache, check_player, make_bot

LEARNERS = ("any", "investigator", "cultist", "every")
_ROLE_BY_NAME = {"investigator": Role.INVESTIGATOR, "cultist": Role.CULTIST}
_ROLE = SEAT_LAYOUT["me.role"].start  # own role one-hot: index + Role


class SingleAgentEnv(gymnasium.Env):
    """`aec` (an `rlyeh_env.env()`) as one seat sees it; the module docstring has the details."""

    def __init__(
        self,
        aec,
        learner: int | str = "any",
        opponents: str | Callable[[int], Bot] | Sequence[Bot] | None = None,
    ):
        self.aec = aec
        self._agents = list(aec.possible_agents)
        if not (learner in LEARNERS or type(learner) is int and 0 <= learner < len(self._agents)):
            raise ValueError(f"learner must be a seat 0..{len(self._agents) - 1} or one of {LEARNERS}, got {learner!r}")
        self.learner = learner
        self.bots = self._seat_bots(opponents)
        first = self._agents[0]
        self.observation_space = aec.observation_space(first)["observation"]
        self.action_space = aec.action_space(first)
        self.metadata = {"render_modes": aec.metadata.get("render_modes", [])}
        self.render_mode = aec.render_mode
        self.agent: str | None = None  # the agent whose observation was returned last
        self._mask: np.ndarray | None = None
        self._learners: frozenset[str] = frozenset()
        self._opponents: dict[str, Bot] = {}
        self._carried = 0.0  # paid to the learner before its first decision

    def _seat_bots(self, opponents) -> list[Bot]:
        """One bot per other seat, in clockwise order from the learner."""
        others = len(self._agents) - 1
        if self.learner == "every":
            if opponents:
                raise ValueError('learner="every" plays every seat itself: pass no opponents')
            return []
        if opponents is None:
            raise ValueError("opponents are needed for the other seats: a bot name, a bot factory or a list of bots")
        if isinstance(opponents, str):
            name, config = check_player(opponents), self.aec.unwrapped.config
            opponents = partial(make_bot, name, config=config, cache=PolicyCache())
        if callable(opponents):  # checked before Bot: a bot class is itself a factory
            return [opponents(k) for k in range(others)]
        if isinstance(opponents, Bot):
            raise ValueError(f"a bot plays one seat: pass {others} bots, or a factory that builds them")
        bots = list(opponents)
        if len(bots) != others or not all(isinstance(bot, Bot) for bot in bots):
            raise ValueError(f"need one Bot per other seat ({others}), got {bots!r}")
        return bots

    # -- the gymnasium API ---------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        while True:
            self.aec.reset(seed=self._draw_seed())
            self._learners = self._choose_learners()
            learner = next(iter(self._learners))
            self._opponents = self._seat_opponents(learner)
            for bot in self._opponents.values():
                bot.reset(self._draw_seed())
            self._carried = self._play_opponents(learner)
            if not self._over(learner):  # a game that ends before the learner decides is dealt again
                return self._observe(self.aec.agent_selection), {}

    def step(self, action):
        acting = self.agent
        if acting is None or self._over(acting):
            raise RuntimeError("the game is over (or has not started): call reset() first")
        self.aec.step(action)
        reward = self._carried + self.aec.rewards[acting]
        self._carried = 0.0
        reward += self._play_opponents(acting)
        terminated = self._over(acting)
        info = dict(self.aec.infos[acting])  # a copy: SB3 writes into the info it gets
        return self._observe(acting if terminated else self.aec.agent_selection), reward, terminated, False, info

    def action_masks(self) -> np.ndarray:
        """The legal-action mask of the learner's next decision (all zeros once the game is over)."""
        return self._mask

    def render(self):
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    # -- playing the other seats ---------------------------------------------------------------

    def _draw_seed(self) -> int:
        return int(self.np_random.integers(2**63))

    def _choose_learners(self) -> frozenset[str]:
        if self.learner == "every":
            return frozenset(self._agents)
        if self.learner == "any":
            return frozenset([self._agents[self.np_random.integers(len(self._agents))]])
        if self.learner in _ROLE_BY_NAME:
            role = _ROLE_BY_NAME[self.learner]
            holders = [a for a in self._agents if self.aec.observe(a)["observation"][_ROLE + role] == 1]
            return frozenset([holders[self.np_random.integers(len(holders))]])
        return frozenset([self._agents[self.learner]])

    def _seat_opponents(self, learner: str) -> dict[str, Bot]:
        seat, n = self._agents.index(learner), len(self._agents)
        return {self._agents[(seat + 1 + k) % n]: bot for k, bot in enumerate(self.bots)}

    def _play_opponents(self, learner: str) -> float:
        """Let the bots decide until a learner is to move or the game ends; what `learner` was
        paid meanwhile."""
        aec, reward = self.aec, 0.0
        while aec.agent_selection not in self._learners and not self._over(learner):
            agent = aec.agent_selection
            seen = aec.observe(agent)
            aec.step(self._opponents[agent].act(seen["observation"], seen["action_mask"]))
            reward += aec.rewards[learner]
        return reward

    def _over(self, agent: str) -> bool:
        return self.aec.terminations[agent] or self.aec.truncations[agent]

    def _observe(self, agent: str) -> np.ndarray:
        seen = self.aec.observe(agent)
        self.agent, self._mask = agent, seen["action_mask"]
        return seen["observation"]
