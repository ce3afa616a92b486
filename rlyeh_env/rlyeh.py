"""The PettingZoo AEC environment. The module docstring (the spec) is in `rlyeh_env/__init__.py`."""

from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env import ActionType
from gymnasium.utils import EzPickle

from .engine import GameConfig, Role, Winner
from .engine.actions import NUM_ACTIONS
from .engine.game import Game
from .observation import IncrementalEncoder
from .text import render_seat, render_truth

ENV_NAME = "rlyeh_v0"

_MASKS: dict[tuple[int, ...], np.ndarray] = {}  # legal actions -> read-only mask (see action_mask)
_MAX_MASKS = 1 << 14


def env(
    num_players: int = 5,
    render_mode: str | None = None,
    observation_mode: str = "seat",
    illegal_moves_end_game: bool = False,
    **config,
):
    """`raw_env` with the AEC call order enforced (PettingZoo's OrderEnforcingWrapper).

    No AssertOutOfBoundsWrapper: `raw_env.step` already rejects every action that is not a legal
    integer id, out-of-range ones included, with an `IllegalActionError` naming the legal ones,
    and each wrapper layer costs every attribute read of the AEC loop a forwarding call.
    With `illegal_moves_end_game=True`, an illegal action ends the game with reward -1 for the
    offender (PettingZoo's TerminateIllegalWrapper, which indexes the mask with the action, so
    out-of-range actions are then caught first by AssertOutOfBoundsWrapper).
    """
    aec = raw_env(num_players, render_mode, observation_mode, **config)
    if illegal_moves_end_game:
        aec = wrappers.AssertOutOfBoundsWrapper(wrappers.TerminateIllegalWrapper(aec, illegal_reward=-1))
    return wrappers.OrderEnforcingWrapper(aec)


class _ActionSpace(spaces.Discrete):
    """`Discrete(n)` that answers `contains` for a plain int without building numpy scalars
    (`Discrete.contains` costs more than an engine step, and wrappers and agents may ask at every
    step). The answer is the same (other types take the general path)."""

    def contains(self, x) -> bool:
        if type(x) is int:
            return int(self.start) <= x < int(self.start) + int(self.n)
        return super().contains(x)


class raw_env(AECEnv, EzPickle):
    metadata = {"name": ENV_NAME, "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        num_players: int = 5,
        render_mode: str | None = None,
        observation_mode: str = "seat",
        **config,
    ):
        EzPickle.__init__(self, num_players, render_mode, observation_mode, **config)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.config = GameConfig(num_players=num_players, **config)
        self.render_mode = render_mode
        self.encoder = IncrementalEncoder(self.config, observation_mode)
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        action_space = _ActionSpace(NUM_ACTIONS)
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: action_space for agent in self.possible_agents}
        self.state_space = spaces.Box(0.0, 1.0, (self.encoder.truth_size,), np.float32)
        self._seeder = random.Random()
        self.game: Game | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- the AEC loop ----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeder = random.Random(seed)
        self.game = Game(self.config, self._seeder.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.decider]
        self._rewarded = False

    def step(self, action: ActionType) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game.state
        sigil_reward = self.config.sigil_reward
        sigils_before = state.sigils_activated if sigil_reward else 0
        self.game.step(action)  # raises IllegalActionError naming the legal ones (floats, bools, out of range too)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # most steps pay nothing: rebuild the dict only after one that paid
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        if sigil_reward:
            gained = state.sigils_activated - sigils_before
            if gained:
                self._team_rewards(gained * sigil_reward)
        if state.game_over:
            self._team_rewards(1.0 if state.winner == Winner.INVESTIGATORS else -1.0)
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = agent
        else:
            self.agent_selection = self.possible_agents[state.decider]
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _team_rewards(self, investigator_reward: float) -> None:
        self._rewarded = True
        for agent in self.agents:
            role = self.game.state.players[self._seat[agent]].role
            self.rewards[agent] += investigator_reward if role == Role.INVESTIGATOR else -investigator_reward

    def observe(self, agent: str) -> dict:
        seat = self._seat[agent]
        return {"observation": self.encoder.observe(self.game.state, seat), "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str) -> np.ndarray:
        """1 for each legal action of `agent`; all zeros when it is not `agent`'s decision."""
        state = self.game.state
        if state.game_over or state.decider != self._seat[agent]:
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        # Few distinct legal sets occur: copying a kept mask is cheaper than building one.
        legal = tuple(self.game.legal_actions())
        mask = _MASKS.get(legal)
        if mask is None:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
            mask[list(legal)] = 1
            mask.flags.writeable = False
            if len(_MASKS) < _MAX_MASKS:
                _MASKS[legal] = mask
        return mask.copy()

    def state(self) -> np.ndarray:
        """The full truth (every role, hand, the deck, the pool), ordered from seat 0."""
        return self.encoder.truth(self.game.state, 0)

    # -- text ------------------------------------------------------------------------------------

    def legal_moves(self, agent: str | None = None) -> list[tuple[int, str]]:
        """(action id, plain-language description) for each legal action of the acting agent."""
        from .text import describe_legal_actions

        agent = agent or self.agent_selection
        return describe_legal_actions(self.game.state, self._seat[agent])

    def render_seat(self, agent: str) -> str:
        return render_seat(self.game.state, self._seat[agent])

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = render_truth(self.game.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
