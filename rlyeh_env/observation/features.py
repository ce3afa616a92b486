"""What some observation values mean, written once for both encoders.

Each function turns one thing of the state (an incantation or vote record, the suspicion a record
adds, the decider's context) into columns and values. `reference.Encoder` rebuilds its blocks
from them; `incremental.IncrementalEncoder` calls them only when that thing is new or has changed.
So the pair test (tests/env/test_encoder_pair.py) checks *when* the incremental encoder rewrites a
value, and the semantic tests (tests/env/test_observation_*.py) check what these functions write.
Seats are absolute here; the encoders rotate them to the observer. What the incremental encoder
writes on every step (the log, the players block, the scalars) it writes inline instead, because
a function call there would cost a few percent of an env step.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..engine.cards import NUM_PAGES, Role, VoteKind, opposite
from ..engine.config import MIDNIGHT, GameConfig
from ..engine.state import IncantationRecord, Phase, State, VoteRecord
from .layout import CAP, SEAT_LAYOUT, IncantationRow, SuspicionRow, VoteRow

_AT = SEAT_LAYOUT.starts
# Enum members compared at every observe, looked up once: reading a member off its class is slow.
_GAMBLE_PLAY, _RESEARCH_DISCARD = Phase.GAMBLE_PLAY, Phase.RESEARCH_DISCARD
_INVESTIGATE_GIVE, _NECRONOMICON_PAGE = Phase.INVESTIGATE_GIVE, Phase.NECRONOMICON_PAGE
CONTEXT_PHASES = frozenset({_GAMBLE_PLAY, _RESEARCH_DISCARD, _INVESTIGATE_GIVE, _NECRONOMICON_PAGE})  # with a context

CAPPED = [c / CAP for c in range(CAP)]  # min(c, CAP) / CAP for c < CAP (min() is slow)


class Float32Fractions(dict):
    """count -> count / size, divided in float32 as the reference divides float32 arrays (a
    float64 division rounded to float32 is not guaranteed to give the same bits)."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def __missing__(self, count: int) -> float:
        self[count] = value = float(np.float32(count) / np.float32(self.size))
        return value


def incantation_columns(record: IncantationRecord, fractions: Float32Fractions) -> list[tuple[int, float]]:
    """The (column, value) pairs of a resolved incantation's `history.incantations` row, all but the
    observer's own cards (IncantationRow.MINE on); `fractions` divides by the incantation size."""
    size = fractions.size
    target, cards = record.target, record.cards
    opp = opposite(target)
    columns = [(IncantationRow.PRESENT, 1.0), (IncantationRow.TARGET + target, 1.0)]
    columns += [(IncantationRow.CARDS + sigil, fractions[cards[sigil]]) for sigil in range(4)]
    columns += [
        (IncantationRow.MATCHES, cards[target] / size), (IncantationRow.MATCHES + 1, cards[opp] / size),
        (IncantationRow.MATCHES + 2, (size - cards[target] - cards[opp]) / size),
        (IncantationRow.SUCCESS, float(record.success)), (IncantationRow.HOUR, record.hour / MIDNIGHT),
    ]  # fmt: skip
    for s in range(len(record.contributions)):
        # per seat: contributions, face-up opposite cards, investigations, swaps
        at = IncantationRow.BY_SEAT + IncantationRow.PER_SEAT * s
        investigations, swaps = record.investigations[s], record.swaps[s]
        columns += [
            (at, fractions[record.contributions[s]]), (at + 1, record.face_up[s][opp] / size),
            (at + 2, CAPPED[investigations] if investigations < CAP else 1.0),
            (at + 3, CAPPED[swaps] if swaps < CAP else 1.0),
        ]  # fmt: skip
    return columns


def decision_context(state: State, config: GameConfig) -> tuple[int, list[float]] | None:
    """What only the deciding seat sees of its pending decision (its gambled cards, its discards,
    the card it took, its pages): the index of the first value in the observation and the values.
    None in the phases without such context (all but CONTEXT_PHASES)."""
    pending, phase = state.pending, state.phase
    if phase == _GAMBLE_PLAY:
        cards = [0.0, 0.0, 0.0, 0.0]
        for card in pending.gamble_cards:
            cards[card] += 0.5
        return _AT["decision.gamble_cards"], cards
    if phase == _RESEARCH_DISCARD:
        return _AT["decision.discarded"], [pending.discarded / config.hand_size]
    if phase == _INVESTIGATE_GIVE:
        return _AT["decision.taken"] + state.pool[pending.taken].sigil, [1.0]
    if phase == _NECRONOMICON_PAGE:
        pages = [0.0] * NUM_PAGES
        for page in pending.pages:
            pages[page] += 1.0 / config.necronomicon_offer
        return _AT["decision.pages"], pages
    return None


def vote_columns(record: VoteRecord) -> list[tuple[int, float]]:
    """The nonzero (column, value) pairs of a finished vote's `history.votes` row."""
    columns = [(VoteRow.PRESENT, 1.0), (VoteRow.KIND + record.kind, 1.0), (VoteRow.PROPOSER + record.proposer, 1.0)]
    if record.accused >= 0:
        columns.append((VoteRow.ACCUSED + record.accused, 1.0))
    for s, vote in enumerate(record.votes):
        if vote:
            columns.append(((VoteRow.YES if vote == 1 else VoteRow.NO) + s, 1.0))
    if record.passed:
        columns.append((VoteRow.PASSED, 1.0))
    if record.revealed_role >= 0:
        columns.append((VoteRow.REVEALED + record.revealed_role, 1.0))
    columns.append((VoteRow.HOUR, record.hour / MIDNIGHT))
    return columns


def incantation_suspicion(record: IncantationRecord) -> Iterator[tuple[int, int, int]]:
    """What a resolved incantation adds to `history.suspicion`: (seat, column, amount > 0)."""
    fed = SuspicionRow.SUCCEEDED if record.success else SuspicionRow.FAILED
    columns = (fed, SuspicionRow.FACE_UP_OPPOSITE, SuspicionRow.INVESTIGATIONS, SuspicionRow.SWAPS)
    opp = opposite(record.target)
    for s in range(len(record.contributions)):
        amounts = (record.contributions[s], record.face_up[s][opp], record.investigations[s], record.swaps[s])
        for column, amount in zip(columns, amounts):
            if amount:
                yield s, column, amount


def vote_suspicion(record: VoteRecord) -> Iterator[tuple[int, int, int]]:
    """What a finished vote adds to `history.suspicion`: (seat, column, 1). Only accusations that
    revealed a role count."""
    revealed = record.revealed_role
    if record.kind != VoteKind.ACCUSATION or revealed < 0:
        return
    if revealed == Role.INVESTIGATOR:
        yield record.proposer, SuspicionRow.ACCUSED_INVESTIGATOR, 1
        for s, vote in enumerate(record.votes):
            if vote == 1:
                yield s, SuspicionRow.YES_ON_INVESTIGATOR, 1
    else:
        for s, vote in enumerate(record.votes):
            if vote == -1:
                yield s, SuspicionRow.NO_ON_CULTIST, 1
