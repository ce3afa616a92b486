r"""
# The Gate of R'lyeh (`rlyeh_v2`)

Investigators race a doom clock to complete four incantations while hidden cultists, who do not
know each other, sabotage them. The full rules are in `RULES.md`; this docstring is the spec of
the environment built on them.

```python
from rlyeh_env import env
aec = env(num_players=5)
```

| | |
|---|---|
| API | PettingZoo AEC (`env()`, `raw_env()`; `rlyeh_v2` re-exports both) |
| Agents | `player_0` .. `player_{n-1}`, n = 4..8 |
| Action space | `Discrete(61)` |
| Observation space | `Dict(observation=Box(0, 1, (1369,), float32), action_mask=Box(0, 1, (61,), int8))`; `(4777,)` with `observation_mode="history"` |
| State space | `Box(0, 1, (1501,), float32)` (`state()`: seat 0's observation + the hidden truth); `(4909,)` in history mode |
| Render modes | `ansi` (returns text), `human` (prints text); both show the full truth |
| Options | `env(num_players=5, render_mode=None, observation_mode="seat", illegal_moves_end_game=False, **GameConfig fields)` |

## Agents and turns
Every decision is one AEC step of the agent that must take it: the acting player's main action,
its sub-decisions (cards to discard, the card to take and the card to give when investigating,
the gambled card to play, an equipment target, a Necronomicon page), the pocket-watch holder's
target declaration, and each voter's secret vote. `agent_selection` is always the agent whose
decision it is. Roles are dealt at random and never depend on the seat number.

## Observation
A flat float32 vector, fixed size for every table from 4 to 8 seats (padded to 8), all values in
[0, 1]. It is **seat-relative**: row 0 of every seat-indexed piece is the observer, row k is the
player k seats to its left (clockwise); rows beyond the table are zero. It holds only what the
observing seat may know. `rlyeh_env.observation.SEAT_LAYOUT.views(vector)` returns every piece below
as a named, shaped view. Counts are divided by the natural maximum (hand size, incantation size,
deck size); counts that can grow without bound are shown as min(count, 4) / 4.

| index range | piece | shape | meaning |
|---|---|---|---|
| 0-1 | `me.role` | (2,) | own role one-hot: investigator, cultist |
| 2-5 | `me.hand` | (4,) | own hand: cards of each sigil / hand size |
| 6-9 | `me.pool_mine` | (4,) | sigils I put into the current pool / incantation size |
| 10-13 | `me.pool_look` | (4,) | sigils I saw at my last look into the current pool (Investigate, Lantern) |
| 14-14 | `me.pool_look_size` | (1,) | pool size at that look / incantation size (0: no look at this pool) |
| 15-15 | `me.pool_look_current` | (1,) | 1 if the pool has not changed size since that look |
| 16-39 | `me.known_roles` | (8, 3) | per seat what I know of its role: unknown, investigator, cultist (own, revealed, Ouija board) |
| 40-79 | `me.seen_hands` | (8, 5) | per seat: seen through my Spyglass (flag), then that hand / hand size |
| 80-94 | `me.deck_top` | (3, 5) | next deck cards I know (Almanac): known flag, sigil one-hot |
| 95-99 | `table.size` | (5,) | number of players one-hot (4..8) |
| 100-104 | `table.cultists` | (5,) | number of cultists one-hot (index 0: hidden by the variant) |
| 105-117 | `clock.hour` | (13,) | clock one-hot, hours 0..12 (12 = midnight) |
| 118-118 | `clock.round` | (1,) | min(rounds played, 12) / 12 |
| 119-122 | `sigils.activated` | (4,) | activated sigils |
| 123-127 | `sigils.target` | (5,) | target sigil one-hot; index 4: not declared |
| 128-163 | `sigils.gods` | (4, 9) | god behind each sigil, one-hot (4 basic + 5 extra gods) |
| 164-164 | `pool.size` | (1,) | cards in the pool / incantation size |
| 165-168 | `pool.face_up` | (4,) | face-up pool cards of each sigil / incantation size |
| 169-176 | `pool.contributions` | (8,) | per seat: cards contributed to the current pool / incantation size |
| 177-184 | `pool.investigations` | (8,) | per seat: investigations of the current pool |
| 185-192 | `pool.swaps` | (8,) | per seat: swaps into the current pool |
| 193-194 | `cards.deck_and_discard` | (2,) | deck and discard pile sizes / deck size |
| 195-202 | `turn.watch` | (8,) | seat holding the pocket watch |
| 203-210 | `turn.player` | (8,) | seat whose turn it is |
| 211-450 | `players` | (8, 30) | per seat public status: present, sanity / start, mad, held Insanity cards (6, / copies), revealed (none, investigator, cultist), character (8), equipment (8), equipment used, proposed the Necronomicon |
| 451-458 | `players.hand_size` | (8,) | per seat: cards in hand / hand size |
| 459-461 | `necronomicon` | (3,) | read this game; hour reached for proposing; I have proposed |
| 462-472 | `decision.phase` | (11,) | the pending decision one-hot (`engine.state.Phase`) |
| 473-476 | `decision.gamble_cards` | (4,) | (decider only) the two gambled cards, 0.5 each |
| 477-477 | `decision.discarded` | (1,) | (decider only) cards discarded so far in this Research / hand size |
| 478-481 | `decision.taken` | (4,) | (decider only) sigil taken from the pool, waiting for the give step |
| 482-483 | `decision.vote_kind` | (2,) | vote in progress: accusation, Necronomicon |
| 484-491 | `decision.vote_proposer` | (8,) | seat that proposed the vote in progress |
| 492-499 | `decision.vote_accused` | (8,) | seat accused in the vote in progress |
| 500-502 | `decision.pages` | (3,) | (decider only) Necronomicon pages offered / pages offered |
| 503-902 | `history.incantations` | (8, 50) | last 8 incantations, oldest first, each: present, target (4), revealed cards (4), matches / opposites / others (3), success, hour / 12, per seat (8 x: contributions, face-up opposite cards, investigations, swaps), my own cards in it (4) |
| 903-1292 | `history.votes` | (10, 39) | last 10 votes, oldest first, each: present, kind (2), proposer (8), accused (8), Yes voters (8), No voters (8), passed, revealed role (2), hour / 12 |
| 1293-1304 | `history.reading` | (12,) | the Necronomicon reading: present, reader (8), page enacted (3) |
| 1305-1368 | `history.suspicion` | (8, 8) | per seat running totals: cards fed to failed / successful incantations, face-up opposite cards played, investigations, swaps, accusations that revealed an investigator, Yes votes revealing investigators, No votes against revealed cultists |

With `observation_mode="history"` the vector goes on with

| index range | piece | shape | meaning |
|---|---|---|---|
| 1369-4776 | `log` | (48, 71) | the last 48 events this seat witnessed (public ones and its own private ones), oldest first, each: kind one-hot (41, `engine.state.EVENT_KINDS`), actor (8 relative seats + none), target (8 relative seats + none; for events whose target is not a seat, the number min(target, 7)), value one-hot (-1..9), hour / 12 |

## Legal action mask
`action_mask[a] == 1` exactly when action `a` is legal for the observing agent now; it is all
zeros for every agent that is not deciding. The mask equals `engine.legal_actions(state)`.

## Action space
One flat `Discrete(61)`; every id has one meaning. Actions naming a player use the clockwise
offset from the actor (1 = next seat), so they read the same from every seat.

| ids | action | when |
|---|---|---|
| 0-3 | Contribute a card of sigil s | main action |
| 4 | Research (then discard steps) | main action |
| 5 | Gamble (then play step) | main action |
| 6 | Investigate (then take and give steps) | main action |
| 7-13 | Accuse the player at offset 1-7 | main action |
| 14-20 | Curse the player at offset 1-7 | main action, revealed cultists only |
| 21 | Use equipment | free action on your turn, once per game |
| 22 | Propose consulting the Necronomicon | free action on your turn |
| 23-26 | Declare sigil s the target | pocket-watch holder |
| 27-30 | Discard a card of sigil s | Research |
| 31 | Stop discarding and refill | Research |
| 32-35 | Play the gambled card of sigil s | Gamble |
| 36-39 | Take a seen pool card of sigil s | Investigate |
| 40 | Swap nothing | Investigate |
| 41-44 | Give a hand card of sigil s | Investigate |
| 45, 46 | Vote No, Vote Yes | votes |
| 47-49 | Enact page Turn back time, Forbidden lore, Doom | Necronomicon reader |
| 50-56 | Equipment on the player at offset 1-7 | Pistol, Spyglass, Ouija board |
| 57-60 | Turn the target to sigil s | Compass |

An illegal action raises `IllegalActionError` naming the legal ones; so does anything that is
not an integer id (a float is never rounded, a bool is not an id) and any id out of range. With
`illegal_moves_end_game=True`, PettingZoo's `TerminateIllegalWrapper` ends the game instead and
gives the offender -1 for an illegal action id; an id out of range or a float then raises
`AssertionError` (PettingZoo's `AssertOutOfBoundsWrapper`).

## Rewards
Zero until the game ends; then +1 for every member of the winning team and -1 for every member
of the losing team (investigators win on the fourth sigil; cultists at midnight or by the
Necronomicon's Doom). Optional shaping, off by default: `sigil_reward=r` gives every investigator
+r and every cultist -r when a sigil is activated. The rule is written once, in
`rlyeh_env.table.Table.step`: this env, the tournaments and the trainer all step games through it.

## Helpers
`raw_env.legal_moves(agent)` lists `(action, description)` in plain language;
`raw_env.render_seat(agent)` renders one seat's view as text, `render()` the full truth;
`raw_env.game` is the engine `Game` (config, seed, actions: `to_dict()` and `Game.from_dict`
rebuild it); `raw_env.table` is the `Table` it runs on. `render_seat` renders the seat's
projection (`rlyeh_env.seat_view`), the one every human view is drawn from.
`rlyeh_env.wrappers.SingleAgentEnv` is one seat's view as a Gymnasium env, with bots in the other
seats, for single-agent trainers such as sb3-contrib's `MaskablePPO`.

## Version history
- v2: rules version 3 (RULES.md, section 14): Turn back time (R9.6) wins back 3 / 2 / 2 / 3 / 1
  hours at 4-8 players instead of 3 at every size, and the clock starts at hour 7 at 7 players
  instead of 6, so that trained bots on both sides give the investigators slimmer odds. Observation
  and action layouts unchanged; checkpoints trained under rules version 2 (the shipped v1-v3 bots)
  are refused. `rlyeh_v1` now raises an error that names `rlyeh_v2`.
- v1: rules version 2 (RULES.md, section 14): one cultist at every table size, the clock starting
  at hours 2 / 2 / 5 / 6 / 7 at 4-8 players, and a revealed cultist no longer feeds the pool
  (R7.13, R7.14), aiming at slim odds for the investigators under trained play and a right
  accusation worth its risk (RULES.md, section 14, says how near v1's bots came). Observation and
  action layouts unchanged; checkpoints trained under rules version 1 are refused. `rlyeh_v0` now raises an error that names `rlyeh_v1`.
- v0: first release (rules version 1).
"""

from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env import ActionType
from gymnasium.utils import EzPickle

from .engine import GameConfig
from .engine.actions import NUM_ACTIONS
from .engine.game import Game
from .observation import IncrementalEncoder
from .table import Table
from .text import render_seat, render_truth

ENV_NAME = "rlyeh_v2"


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
    """The AEC API over one `Table` per episode: the table steps the game, pays the rewards and
    builds every observation and mask; this class only keeps PettingZoo's per-agent dicts."""

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
        self.table: Table | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- the AEC loop ----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeder = random.Random(seed)
        self.table = Table(self.config, self._seeder.getrandbits(63), self.encoder)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.table.decider]
        self._rewarded = False

    @property
    def game(self) -> Game | None:
        """The engine's `Game` of this episode (config, seed, actions: replayable)."""
        return self.table.game if self.table is not None else None

    def step(self, action: ActionType) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        table.step(action)  # raises IllegalActionError naming the legal ones (floats, bools, out of range too)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # most steps pay nothing: rebuild the dict only after one that paid
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        if table.reward:  # Table.step's rule, as the Python floats PettingZoo envs pay
            self.rewards = dict(zip(self.possible_agents, table.seat_rewards()))
            self._rewarded = True
        if table.over:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = agent
        else:
            self.agent_selection = self.possible_agents[table.decider]
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict:
        seat = self._seat[agent]
        return {"observation": self.table.observation(seat), "action_mask": self.table.mask_of(seat)}

    def action_mask(self, agent: str) -> np.ndarray:
        """1 for each legal action of `agent`; all zeros when it is not `agent`'s decision."""
        return self.table.mask_of(self._seat[agent])

    def state(self) -> np.ndarray:
        """The full truth (every role, hand, the deck, the pool), ordered from seat 0."""
        return self.table.truth(0)

    # -- text ------------------------------------------------------------------------------------

    def legal_moves(self, agent: str | None = None) -> list[tuple[int, str]]:
        """(action id, plain-language description) for each legal action of the acting agent."""
        from .narration import describe_legal_actions

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
