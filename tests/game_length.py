"""The proven bound on the length of a game (R12.6, R12.7): rounds, decisions per turn, decisions
per game. Shared by the engine's random play (tests/engine) and the env fuzz (tests/env)."""

from __future__ import annotations

from rlyeh_env.engine import GameConfig


def max_rounds(config: GameConfig) -> int:
    """R12.6: rounds <= (12 - start hour) + max(necronomicon_hours_back, 1) + 1.

    The clock starts at `first_hour` and moves forward one hour at the end of every round; the
    game ends when it reaches midnight. Only two things move it back: the Necronomicon, read at
    most once (Turn back time: `necronomicon_hours_back` hours, or Forbidden lore: 1 hour), and a
    Cthugha activation (1 hour; each sigil is activated at most once). Every other move is
    forward, and turning back is clamped at 0, which only shortens the game.
    """
    return (12 - config.first_hour) + max(config.necronomicon_hours_back, 1) + 1


def max_decisions_per_turn(config: GameConfig) -> int:
    """R12.7: n + 4 + max(hand_size + 1, n - 1).

    Equipment (use + target: 2), one Necronomicon proposal (1, a player proposes at most once)
    with its votes (<= n - 1) and page (1), the main action (Research + at most hand_size
    discards, the last ending it, or a Stop: hand_size + 1; Accuse + n - 2 votes; Investigate 3
    <= n - 1 as n >= 4; Gamble 2; Contribute/Curse 1) and a declaration (1).
    """
    n, h = config.num_players, config.hand_size
    return n + 4 + max(h + 1, n - 1)


def upper_bound_decisions(config: GameConfig) -> int:
    """A proven upper bound on the decisions (apply_action calls) of one game: the opening
    declaration plus max_rounds * n turns of at most max_decisions_per_turn each."""
    n = config.num_players
    return 1 + max_rounds(config) * n * max_decisions_per_turn(config)
