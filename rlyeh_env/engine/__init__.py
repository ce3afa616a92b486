"""The rules engine of The Gate of R'lyeh: pure Python, deterministic given its generator.

Nothing here imports pettingzoo, gymnasium or torch. See RULES.md for the rules it implements.
"""

from .actions import NUM_ACTIONS, describe
from .cards import Equipment, God, Insanity, Page, Role, Sigil
from .config import MIDNIGHT, GameConfig
from .game import Game, replay
from .legal import legal_actions
from .rules import IllegalActionError, apply_action, new_game
from .state import EndReason, Phase, State, Winner

__all__ = [
    "NUM_ACTIONS",
    "MIDNIGHT",
    "EndReason",
    "Equipment",
    "Game",
    "GameConfig",
    "God",
    "IllegalActionError",
    "Insanity",
    "Page",
    "Phase",
    "Role",
    "Sigil",
    "State",
    "Winner",
    "apply_action",
    "describe",
    "legal_actions",
    "new_game",
    "replay",
]
