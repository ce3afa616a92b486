"""`HeuristicBot`: a hand-written player of both roles, from its own observation only.

It decodes the observation (`view.read`), keeps a Bayesian posterior over who the cultists are
(`beliefs.Beliefs`, cached until the public record changes) and hands the decision to the
policy of its role (the functions of `investigator` or `cultist`, by phase). It is the baseline trained
agents must beat, and the opponent `scripts/balance.py` tunes the default rules against.
"""

from __future__ import annotations

import numpy as np

from ..engine import actions as A
from ..engine.config import GameConfig
from ..engine.state import Phase
from . import cultist, investigator
from .beliefs import Beliefs
from .tactics import PoolEstimate
from .view import Constants, View, history_key, read


class Context:
    """One decision: the decoded view, the legal actions and lazily computed estimates."""

    def __init__(self, bot: "HeuristicBot", w: View, k: Constants, legal: list[int]):
        self.bot = bot
        self.w = w
        self.k = k
        self.legal = legal
        self.can = set(legal)
        self.rng = bot.rng
        self._p = None
        self._pub = None
        self._pool = None
        self._hyp = None

    @property
    def hypotheses(self) -> tuple[np.ndarray, np.ndarray]:
        """(posterior weight of each role assignment, the assignments as rows of 0/1 per seat)."""
        if self._hyp is None:
            beliefs = self.bot.beliefs(self.w, private=True)
            self._hyp = (beliefs.weights(self.w, pending=self.w.phase == Phase.VOTE), beliefs.H)
        return self._hyp

    @property
    def p(self) -> np.ndarray:
        """P(cultist) per relative seat, from everything this seat knows (row 0: itself)."""
        if self._p is None:
            weights, H = self.hypotheses
            self._p = weights @ H
        return self._p

    @property
    def pub(self) -> np.ndarray:
        """P(cultist) per relative seat as the table can infer it from public information."""
        if self._pub is None:
            self._pub = self.bot.beliefs(self.w, private=False).posterior()
        return self._pub

    @property
    def pool(self) -> PoolEstimate:
        if self._pool is None:
            self._pool = PoolEstimate(self.w, self.k, self.hypotheses)
        return self._pool

    def first(self, *actions: int) -> int | None:
        """The first of `actions` that is legal now."""
        for a in actions:
            if a in self.can:
                return a
        return None

    def offset_action(self, base: int, seat: int) -> int:
        """Action id naming relative seat `seat` (its clockwise offset) in block `base`."""
        return base + seat - 1


class HeuristicBot:
    """Plays either role sensibly from its own observation; deterministic given its seed."""

    def __init__(self, seed: int | None = None, config: GameConfig | None = None, strict: bool = False):
        self.config = config
        self._constants: dict[int, Constants] = {}
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.strict = strict
        self._beliefs: dict[tuple, Beliefs] = {}

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
            self.rng = np.random.default_rng(seed)
        self._beliefs.clear()

    def beliefs(self, w: View, private: bool) -> Beliefs:
        key = (private, history_key(w.vector), tuple(w.known) if private else tuple(w.revealed))
        b = self._beliefs.get(key)
        if b is None:
            if len(self._beliefs) > 8:
                self._beliefs.clear()
            b = self._beliefs[key] = Beliefs(w, self.constants(w.n), private)
        return b

    def constants(self, n: int) -> Constants:
        k = self._constants.get(n)
        if k is None:
            k = self._constants[n] = Constants(self.config, num_players=n)
        return k

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask).tolist()
        if not legal:
            raise ValueError("HeuristicBot.act called with an all-zero action mask (no legal action)")
        if len(legal) == 1:
            return legal[0]
        w, k = read(observation, self.constants)
        ctx = Context(self, w, k, legal)
        policy = cultist if w.cultist else investigator
        action = decide(policy, ctx)
        if action is None or action not in ctx.can:
            if self.strict:
                raise AssertionError(f"heuristic chose {action!r}, not among the legal {legal} (phase {w.phase})")
            action = A.RESEARCH if A.RESEARCH in ctx.can else legal[0]
        return int(action)


# The role modules (investigator.py, cultist.py) define one function per decision, by these names.
_HANDLERS = {
    Phase.TURN: "turn",
    Phase.VOTE: "vote",
    Phase.RESEARCH_DISCARD: "discard",
    Phase.GAMBLE_PLAY: "gamble_play",
    Phase.DECLARE_TARGET: "declare",
    Phase.INVESTIGATE_TAKE: "take",
    Phase.INVESTIGATE_GIVE: "give",
    Phase.NECRONOMICON_PAGE: "page",
    Phase.EQUIPMENT_PLAYER: "aim",
    Phase.EQUIPMENT_SIGIL: "compass",
}


def decide(policy, ctx) -> int | None:
    """The role policy's choice for the pending decision (None: no opinion)."""
    name = _HANDLERS.get(ctx.w.phase)
    return getattr(policy, name)(ctx) if name else None
