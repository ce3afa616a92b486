"""Players with some of their choices taken away: the ablations that measure what a mechanic is
worth to the players who use it.

`heuristic:no-accuse` is the heuristic bot that never accuses; `v4:no-accuse:no-investigate` the
shipped v4 bots that neither accuse nor investigate. Everything else stays as it was: the player
sees its own observation unchanged and a mask without the ablated actions, so a bot or a policy
plays on as if those actions were never legal. Only blocks that always leave another legal
choice can be ablated (Research beside a main action, a vote No beside a vote Yes, a main action
after a free one), so no decision is ever left without one.
"""

from __future__ import annotations

import numpy as np

from .bots.base import Bot
from .engine.actions import BLOCKS

MARK = ":no-"
# block -> why a decision without it still has a legal action
ABLATABLE = {
    "accuse": "Research stays legal (R6.0.2)",
    "curse": "Research stays legal (R6.0.2)",
    "investigate": "Research stays legal (R6.0.2)",
    "use_equipment": "a free action: the main action follows",
    "propose_necronomicon": "a free action: the main action follows",
    "vote_yes": "a vote No is always legal",
}
ABLATABLE_NAMES = ", ".join(block.replace("_", "-") for block in ABLATABLE)


def split_name(name: str) -> tuple[str, tuple[str, ...]]:
    """`"v4:no-accuse:no-vote-yes"` -> ("v4", ("accuse", "vote_yes")); ValueError for a block
    that cannot be ablated."""
    base, *removed = name.split(MARK)
    blocks = tuple(block.replace("-", "_") for block in removed)
    for text, block in zip(removed, blocks):
        if block not in ABLATABLE:
            raise ValueError(f"{name!r}: cannot take away {text!r}; a player can go without {ABLATABLE_NAMES}")
    return base, blocks


def blocked_ids(blocks: tuple[str, ...]) -> np.ndarray:
    """The action ids of `blocks` (names as in `rlyeh_env.engine.actions.BLOCKS`)."""
    spans = {name: range(first, first + count) for name, first, count in BLOCKS}
    return np.array(sorted(a for block in blocks for a in spans[block]), dtype=np.int64)


def _without(masks: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """A copy of `masks` (one row or a batch) with `ids` illegal; every row keeps a legal action."""
    out = np.array(masks, copy=True)
    out[..., ids] = 0
    if not out.reshape(-1, out.shape[-1]).any(axis=1).all():
        raise RuntimeError(f"an ablation left a decision without a legal action (removed ids {ids.tolist()})")
    return out


class WrappedPlayer:
    """A side player (`make_side_player`) that passes the match and game calls to `player`;
    subclasses change how it acts."""

    def __init__(self, player):
        self.player = player

    def new_match(self, seed: int) -> None:
        self.player.new_match(seed)

    def start(self, key: tuple, seed: int, config) -> None:
        self.player.start(key, seed, config)

    def finish(self, key: tuple) -> None:
        self.player.finish(key)


class AblatedPlayer(WrappedPlayer):
    """A side player (`make_side_player`) without the actions of `blocks`."""

    def __init__(self, player, blocks: tuple[str, ...]):
        super().__init__(player)
        self.ids = blocked_ids(blocks)
        self.name = player.name + "".join(MARK + block.replace("_", "-") for block in blocks)

    def act(self, keys: list[tuple], observations: np.ndarray, masks: np.ndarray):
        return self.player.act(keys, observations, _without(np.asarray(masks), self.ids))


class AblatedBot:
    """One seat's `Bot` without the actions of `blocks`; anything else (a policy bot's beliefs,
    say) is the wrapped bot's."""

    def __init__(self, bot: Bot, blocks: tuple[str, ...]):
        self.bot, self.ids = bot, blocked_ids(blocks)

    def reset(self, seed: int | None = None) -> None:
        self.bot.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.bot.act(observation, _without(action_mask, self.ids))

    def __getattr__(self, name):
        if name == "bot":  # not set yet (e.g. while unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.bot, name)
