"""Every kind of card and token in the game, as small integer enums.

The rules and the encoder both index arrays by these values, so their order is part of the
observation layout: append new members at the end only.
"""

from __future__ import annotations

from enum import IntEnum


class Role(IntEnum):
    INVESTIGATOR = 0
    CULTIST = 1


class Sigil(IntEnum):
    """The four sigils. Polar opposites are paired 0-1 and 2-3 (see `opposite`)."""

    ITHAQUA = 0
    ZHAR = 1
    DAGON = 2
    BOKRUG = 3


NUM_SIGILS = len(Sigil)


def opposite(sigil: int) -> int:
    """The polar opposite sigil: Ithaqua (wind) <-> Zhar (earth), Dagon (sea) <-> Bokrug (lake)."""
    return sigil ^ 1


class God(IntEnum):
    """Gods stand behind sigils. The first four are the basic gods and have no special rules."""

    ITHAQUA = 0
    ZHAR = 1
    DAGON = 2
    BOKRUG = 3
    # Extra gods (the `extra_gods` variant); their effects are applied in incantation.py.
    HASTUR = 4  # needs one more matching card
    TSATHOGGUA = 5  # needs one fewer matching card, but success costs an hour
    CTHUGHA = 6  # success turns the clock back one hour
    NYARLATHOTEP = 7  # each opposite card cancels two matches
    SHUB_NIGGURATH = 8  # success refills every hand to full


NUM_GODS = len(God)
BASIC_GODS = (God.ITHAQUA, God.ZHAR, God.DAGON, God.BOKRUG)
EXTRA_GODS = (God.HASTUR, God.TSATHOGGUA, God.CTHUGHA, God.NYARLATHOTEP, God.SHUB_NIGGURATH)


class Insanity(IntEnum):
    """Insanity cards. A card applies from the moment it is drawn until the end of the holder's
    next turn (a card drawn during your own turn also covers the rest of that turn)."""

    PARALYSIS = 0  # may not Investigate
    HOARDING = 1  # may not Contribute (Gamble is still allowed)
    GAMBLING_FEVER = 2  # must Gamble as the main action when a card can be drawn
    BABBLING = 3  # every card you put into the pool goes face up
    CATATONIA = 4  # may not Accuse; your votes are cast as No without asking you
    PARANOIA = 5  # your votes are cast as Yes without asking you (Catatonia wins over it)


NUM_INSANITY = len(Insanity)


class Equipment(IntEnum):
    """One piece per player, usable once per game as a free action during its owner's turn."""

    LANTERN = 0  # privately see two random face-down pool cards
    RITUAL_KNIFE = 1  # discard one random face-down pool card, unseen
    COMPASS = 2  # change the target sigil to another sigil not yet activated
    PISTOL = 3  # a chosen player discards their hand and draws a new one
    SPYGLASS = 4  # privately see a chosen player's hand
    AMULET = 5  # regain one sanity and discard every Insanity card you hold
    ALMANAC = 6  # privately see the top three cards of the Mythos deck
    OUIJA_BOARD = 7  # privately learn a chosen player's Secret Nature; costs one sanity


NUM_EQUIPMENT = len(Equipment)
EQUIPMENT_TARGETS_PLAYER = frozenset({Equipment.PISTOL, Equipment.SPYGLASS, Equipment.OUIJA_BOARD})
EQUIPMENT_TARGETS_SIGIL = frozenset({Equipment.COMPASS})


class Phobia(IntEnum):
    """Each character's own way of losing one sanity (on top of the triggers everybody shares)."""

    TOMES = 0  # after they Research
    CHANCE = 1  # after they Gamble
    SUSPICION = 2  # when they are accused
    GUILT = 3  # when they voted Yes on an accusation that revealed an investigator
    DESPAIR = 4  # when any incantation fails
    EXPOSURE = 5  # when another player targets them with equipment or a curse
    DISSENT = 6  # when a vote they voted Yes on fails
    WITNESS = 7  # when a cultist is revealed


class Character(IntEnum):
    """Characters are dealt face up; a character's only rule is its phobia (same index)."""

    ANTIQUARIAN = 0
    GAMBLER = 1
    HEIRESS = 2
    DETECTIVE = 3
    SAILOR = 4
    PHOTOGRAPHER = 5
    PRIEST = 6
    DOCTOR = 7


NUM_CHARACTERS = len(Character)


def phobia_of(character: int) -> Phobia:
    return Phobia(character)


class Page(IntEnum):
    """Necronomicon pages. The reader is offered a few and enacts exactly one."""

    TURN_BACK_TIME = 0  # the clock goes back `necronomicon_hours_back` hours
    FORBIDDEN_LORE = 1  # every hand is refilled to full and the clock goes back one hour
    DOOM = 2  # Cthulhu wakes: the cultists win at once


NUM_PAGES = len(Page)


class VoteKind(IntEnum):
    ACCUSATION = 0
    NECRONOMICON = 1


def label(enum_member: IntEnum) -> str:
    """'GAMBLING_FEVER' -> 'Gambling fever'."""
    return enum_member.name.replace("_", " ").capitalize()
