"""The full truth of a game as JSON: for the result screen (once the game is over), the watch
mode (tables of bots only) and finished replays. Never sent to a seat of a game under way.

The public board is the one every seat's projection draws (`public_board`); on top of it every
player's role and hand, who put each pool card in, and who played each card of every incantation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from ..engine.state import Event, State
from ..narration import narrate_truth, player_name
from ..seat_view import json_ready, public_board


def truth_dict(state: State, suspicions: Mapping[int, Sequence[float]] | None = None) -> dict:
    """Everything about `state`, JSON-ready; `suspicions` adds each checkpoint bot's P(cultist)
    of every seat (NaN, for itself or before its first decision, becomes null)."""
    out = {
        "board": json_ready(dataclasses.asdict(public_board(state))),
        "roles": [int(p.role) for p in state.players],
        "hands": [list(p.hand) for p in state.players],
        "pool": [{"sigil": c.sigil, "contributor": c.contributor, "face_up": c.face_up} for c in state.pool],
        "incantations": [
            {"target": r.target, "success": r.success, "hour": r.hour,
             "played": [{"sigil": sigil, "seat": seat} for sigil, seat in r.played]}
            for r in state.incantations
        ],
        "names": [player_name(seat) for seat in range(state.num_players)],
    }
    if suspicions is not None:
        out["suspicions"] = {str(seat): [None if p != p else round(float(p), 4) for p in row]
                             for seat, row in suspicions.items()}
    return out


def truth_log(events: Sequence[Event]) -> list[str]:
    """`events` in words for a spectator who sees everything (private ones labelled)."""
    return [line.strip() for line in map(narrate_truth, events) if line]
