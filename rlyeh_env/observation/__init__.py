"""What one seat may see, as a flat float32 vector: the layout and the pair of encoders."""

from .incremental import MAX_TRACKED, IncrementalEncoder
from .layout import (
    DECK_TOP,
    INCANTATION_FEATURES,
    INCANTATION_HISTORY,
    LOG_LENGTH,
    PLAYER_FEATURES,
    SEAT_LAYOUT,
    SEATS,
    SUSPICION_FEATURES,
    VOTE_FEATURES,
    VOTE_HISTORY,
    Layout,
)
from .reference import HISTORY_LAYOUT, TRUTH_LAYOUT, Encoder
