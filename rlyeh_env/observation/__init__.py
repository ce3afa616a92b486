"""What one seat may see, as a flat float32 vector: the layout and the pair of encoders."""

from .incremental import MAX_TRACKED, IncrementalEncoder
from .layout import (
    CAP,
    DECK_TOP,
    EVENT_FEATURES,
    HISTORY_LAYOUT,
    INCANTATION_FEATURES,
    INCANTATION_HISTORY,
    LOG_LENGTH,
    PLAYER_FEATURES,
    SEAT_LAYOUT,
    SEATS,
    SUSPICION_FEATURES,
    VOTE_FEATURES,
    VOTE_HISTORY,
    IncantationRow,
    Layout,
    LogRow,
    PlayerRow,
    SuspicionRow,
    VoteRow,
)
from .reference import Encoder
from .truth import TRUTH_LAYOUT, truth_vector

__all__ = [
    "CAP", "DECK_TOP", "EVENT_FEATURES", "HISTORY_LAYOUT", "INCANTATION_FEATURES", "INCANTATION_HISTORY", "LOG_LENGTH",
    "MAX_TRACKED", "PLAYER_FEATURES", "SEAT_LAYOUT", "SEATS", "SUSPICION_FEATURES", "TRUTH_LAYOUT", "VOTE_FEATURES",
    "VOTE_HISTORY", "Encoder", "IncantationRow", "IncrementalEncoder", "Layout", "LogRow", "PlayerRow", "SuspicionRow",
    "VoteRow", "truth_vector",
]  # fmt: skip
