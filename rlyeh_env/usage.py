"""What the players of a match did: how often each kind of action was taken per role, which
equipment was used, and how accusations and Necronomicon votes ended.

The tournament runner counts every match it plays (`MatchResult.usage`, a flat `{key: count}`),
so a mechanic nobody uses shows up in any evaluation. Keys, for ROLE `investigator` or `cultist`:

- `ROLE/decisions`: every decision that role's seats took;
- `ROLE/BLOCK`: decisions of one block of the action encoding (`rlyeh_env.engine.actions.BLOCKS`:
  `accuse`, `investigate`, `vote_yes`, ...);
- `ROLE/equipment:ITEM`: uses of one piece of equipment (`lantern`, `pistol`, ...);
- `ROLE/accusation:OUTCOME`: accusations that ROLE made, by outcome: `right` (passed, a cultist
  revealed), `wrong` (passed, an investigator revealed) or `failed`;
- `ROLE/necronomicon:passed` and `ROLE/necronomicon:failed`: Necronomicon proposals;
- `page:PAGE`: Necronomicon pages enacted (`turn_back_time`, `forbidden_lore`, `doom`).

`usage_table` turns the counts into rates per game.
"""

from __future__ import annotations

from collections import Counter

from .engine import Role
from .engine.actions import decode
from .engine.cards import Equipment, Page, VoteKind


def count_decision(tally: Counter, table, seat: int, action: int) -> None:
    """Count `seat`'s `action`, before it is stepped (the equipment used is read from the state)."""
    role = Role(int(table.roles[seat])).name.lower()
    block, index = decode(action)
    tally[f"{role}/decisions"] += 1
    tally[f"{role}/{block}"] += 1
    if block == "use_equipment":
        tally[f"{role}/equipment:{Equipment(table.state.players[seat].equipment).name.lower()}"] += 1
    elif block == "page":
        tally[f"page:{Page(index).name.lower()}"] += 1


def count_game(tally: Counter, state) -> None:
    """Count how a finished game's votes ended, by the proposer's role."""
    for vote in state.votes:
        role = Role(state.players[vote.proposer].role).name.lower()
        if vote.kind == VoteKind.ACCUSATION:
            outcome = "failed" if not vote.passed else ("right" if vote.revealed_role == Role.CULTIST else "wrong")
            tally[f"{role}/accusation:{outcome}"] += 1
        else:
            tally[f"{role}/necronomicon:{'passed' if vote.passed else 'failed'}"] += 1


# (column, key) of `usage_table`, per game
COLUMNS = (
    ("accuse", "investigator/accuse"),
    ("right", "investigator/accusation:right"),
    ("wrong", "investigator/accusation:wrong"),
    ("investigate", "investigator/investigate"),
    ("equipment", "investigator/use_equipment"),
    ("necro", "investigator/propose_necronomicon"),
    ("vote yes", "investigator/vote_yes"),
    ("vote no", "investigator/vote_no"),
    ("c: accuse", "cultist/accuse"),
    ("c: wrong", "cultist/accusation:wrong"),
    ("c: investigate", "cultist/investigate"),
    ("c: curse", "cultist/curse"),
    ("c: necro", "cultist/propose_necronomicon"),
)


def usage_table(results) -> str:
    """Markdown: per match-up and size, per game, what the investigators (first columns) and the
    cultists (`c:`) did; accusations counted as made (`accuse`) and as passed `right` or `wrong`."""
    head = "| players | investigators | cultists | " + " | ".join(name for name, _ in COLUMNS) + " |"
    lines = [head, "|" + "---|" * (3 + len(COLUMNS))]
    for r in results:
        per_game = [r.usage.get(key, 0) / max(r.games, 1) for _, key in COLUMNS]
        lines.append(f"| {r.num_players} | {r.investigators} | {r.cultists} | "
                     + " | ".join(f"{value:.2f}" for value in per_game) + " |")
    return "\n".join(lines)
