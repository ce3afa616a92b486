"""What one seat may see, as a flat float32 vector: the layout and the pair of encoders.

- `layout.py`: `SEAT_LAYOUT` / `HISTORY_LAYOUT` (every piece's index range), the sizes, and the
  columns inside rows (`PlayerRow`, `IncantationRow`, `VoteRow`, `SuspicionRow`, `LogRow`).
- `reference.py`: `Encoder`, the readable spec: rebuilds a seat's vector from the `State`.
- `incremental.py`: `IncrementalEncoder`, the same bytes about 4.5x faster, kept up to date from
  the engine's events; its store and writers are in `tracker.py`, `public_pieces.py` and
  `private_pieces.py`. `rlyeh_env.table.Table`, and so every game however it is played, uses
  this one.
- `features.py`: the values both encoders compute the same way from a record.
- `truth.py`: `TRUTH_LAYOUT` and `truth_vector(state, seat)`, the hidden truth for critics.

The two encoders share no code path but `layout.py`, `features.py` and `truth.py`; neither
inherits from the other.

## Adding an observation feature
1. `layout.py`: add the piece to `SEAT_PIECES` (a `me.*` piece, seen by its seat only, goes with
   the others at the front), or a column to a row class and its `WIDTH`.
2. `rlyeh_env/rlyeh.py`, the env docstring (the spec): add the row to the index table and shift
   the ranges after it; update the space sizes if they change.
3. `reference.py`: write the value in `Encoder.observe` (or the block builder it belongs to)
   from what the seat may know only; values in [0, 1], counts divided by their maximum,
   unbounded counts as min(count, CAP) / CAP. A value computed from a record, which the
   incremental encoder also needs, goes in `features.py` and both call it.
4. `incremental.py` and its writers: if an event changes it, add the piece to `ANNOUNCES` for
   every such event kind and a `put_<piece>` to `public_pieces.py` (and `PUBLIC_PIECES`) or
   `private_pieces.py` (and `tracker.PRIVATE_PIECES`); if it changes with no event, compare it
   in `PublicPieces.refresh` / `PrivatePieces.refresh`. If one seat only may see it, add its
   range to `tracker.PRIVATE_RANGES`; if it is seat-indexed, to `tracker.SEAT_SEGMENTS`.
5. `bots/view.py`, if the heuristic bot should read it.
6. The layout signature of checkpoints (`rlyeh_env/policy/checkpoint.py: layout_signature`)
   changes, so checkpoints saved before (the shipped bots in `checkpoints/` too) are refused until retrained.

The tests that prove it: tests/env/test_encoder_pair.py (the two encoders byte-identical over
whole games: fails when a change is not announced), tests/env/test_no_leak.py (nothing else of
the state is read; extend `perturb` in tests/env/rlyeh_env_testkit.py if the feature reads
hidden state it does not vary yet), tests/env/test_layout.py (the docstring's index table, the
sizes and the row columns agree with the layout), and a semantic test with the documented
offsets in tests/env/test_observation_*.py.
"""

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
