"""The action encoding: one flat `Discrete(NUM_ACTIONS)` space shared by the engine and the env.

Every id has exactly one meaning, whatever the decision being taken, so a policy never has to
learn that "action 3" means different things in different phases. Actions that name another
player use a clockwise *offset* from the actor (1 = the next seat), so the encoding is the same
from every seat and a policy cannot learn anything from absolute seat numbers.

| ids     | action                  | decided in phase     |
|---------|-------------------------|----------------------|
| 0-3     | Contribute sigil s      | TURN                 |
| 4       | Research                | TURN                 |
| 5       | Gamble                  | TURN                 |
| 6       | Investigate             | TURN                 |
| 7-13    | Accuse offset 1-7       | TURN                 |
| 14-20   | Curse offset 1-7        | TURN (revealed cultist only) |
| 21      | Use equipment           | TURN (free action)   |
| 22      | Propose the Necronomicon| TURN (free action)   |
| 23-26   | Declare target sigil s  | DECLARE_TARGET       |
| 27-30   | Discard sigil s         | RESEARCH_DISCARD     |
| 31      | Stop discarding, refill | RESEARCH_DISCARD     |
| 32-35   | Play gambled sigil s    | GAMBLE_PLAY          |
| 36-39   | Take seen sigil s       | INVESTIGATE_TAKE     |
| 40      | Swap nothing            | INVESTIGATE_TAKE     |
| 41-44   | Give sigil s from hand  | INVESTIGATE_GIVE     |
| 45, 46  | Vote No, vote Yes       | VOTE                 |
| 47-49   | Enact Necronomicon page | NECRONOMICON_PAGE    |
| 50-56   | Equipment on offset 1-7 | EQUIPMENT_PLAYER     |
| 57-60   | Compass to sigil s      | EQUIPMENT_SIGIL      |
"""

from __future__ import annotations

from .cards import NUM_PAGES, NUM_SIGILS, Page, Sigil, label

MAX_OFFSET = 7

CONTRIBUTE = 0
RESEARCH = 4
GAMBLE = 5
INVESTIGATE = 6
ACCUSE = 7
CURSE = 14
USE_EQUIPMENT = 21
PROPOSE_NECRONOMICON = 22
DECLARE = 23
DISCARD = 27
STOP_DISCARDING = 31
GAMBLE_PLAY = 32
TAKE = 36
NO_SWAP = 40
GIVE = 41
VOTE_NO = 45
VOTE_YES = 46
PAGE = 47
TARGET_PLAYER = 50
TARGET_SIGIL = 57
NUM_ACTIONS = 61

# (name, first id, count) for each block, in id order; used for descriptions and checked by tests.
BLOCKS = (
    ("contribute", CONTRIBUTE, NUM_SIGILS),
    ("research", RESEARCH, 1),
    ("gamble", GAMBLE, 1),
    ("investigate", INVESTIGATE, 1),
    ("accuse", ACCUSE, MAX_OFFSET),
    ("curse", CURSE, MAX_OFFSET),
    ("use_equipment", USE_EQUIPMENT, 1),
    ("propose_necronomicon", PROPOSE_NECRONOMICON, 1),
    ("declare", DECLARE, NUM_SIGILS),
    ("discard", DISCARD, NUM_SIGILS),
    ("stop_discarding", STOP_DISCARDING, 1),
    ("gamble_play", GAMBLE_PLAY, NUM_SIGILS),
    ("take", TAKE, NUM_SIGILS),
    ("no_swap", NO_SWAP, 1),
    ("give", GIVE, NUM_SIGILS),
    ("vote_no", VOTE_NO, 1),
    ("vote_yes", VOTE_YES, 1),
    ("page", PAGE, NUM_PAGES),
    ("target_player", TARGET_PLAYER, MAX_OFFSET),
    ("target_sigil", TARGET_SIGIL, NUM_SIGILS),
)
_BLOCK_OF = {}
for _name, _first, _count in BLOCKS:
    for _i in range(_count):
        _BLOCK_OF[_first + _i] = (_name, _i)


def decode(action: int) -> tuple[str, int]:
    """`(block name, index within the block)`, e.g. 9 -> ("accuse", 2) meaning offset 3."""
    try:
        return _BLOCK_OF[action]
    except (KeyError, TypeError):
        raise ValueError(f"action must be an int in [0, {NUM_ACTIONS - 1}], got {action!r}") from None


_TEMPLATES = {
    "contribute": "Contribute {a_sigil} card to the incantation",
    "research": "Research: discard up to {hand} cards, then refill your hand",
    "gamble": "Gamble: draw 2 cards and play one of them into the incantation",
    "investigate": "Investigate the incantation pool (costs sanity)",
    "accuse": "Accuse {player} of being a cultist",
    "curse": "Curse {player} (they lose one sanity)",
    "use_equipment": "Use your equipment",
    "propose_necronomicon": "Propose consulting the Necronomicon",
    "declare": "Declare {sigil} the target sigil",
    "discard": "Discard {a_sigil} card",
    "stop_discarding": "Stop discarding and refill your hand",
    "gamble_play": "Play the gambled {sigil} card (discard the other)",
    "take": "Take {a_sigil} card from the pool",
    "no_swap": "Swap nothing",
    "give": "Put {a_sigil} card from your hand into the pool",
    "vote_no": "Vote No",
    "vote_yes": "Vote Yes",
    "page": "Enact the page '{page}'",
    "target_player": "Use your equipment on {player}",
    "target_sigil": "Turn the target to {sigil}",
}


def describe(action: int, player_names: list[str] | None = None, actor: int = 0, hand_size: int = 3) -> str:
    """Plain-language description of an action taken by seat `actor`.

    `player_names` (absolute seats) resolves offsets to names; without it, offsets are spelled
    out as "the player k seats to your left".
    """
    name, index = decode(action)
    fields = {"hand": hand_size}
    if name in ("contribute", "declare", "discard", "gamble_play", "take", "give", "target_sigil"):
        fields["sigil"] = label(Sigil(index))
        fields["a_sigil"] = ("an " if fields["sigil"][0] in "AEIOU" else "a ") + fields["sigil"]  # an Ithaqua card
    if name in ("accuse", "curse", "target_player"):
        offset = index + 1
        if player_names is not None:
            fields["player"] = player_names[(actor + offset) % len(player_names)]
        else:
            fields["player"] = f"the player {offset} seat{'s' if offset > 1 else ''} to your left"
    if name == "page":
        fields["page"] = label(Page(index))
    return _TEMPLATES[name].format(**fields)
