"""One line of plain language for every card a player meets at the table (RULES.md in brief).

The terminal table shows these next to the names, so a newcomer can play without the rule book.
"""

from __future__ import annotations

from ..engine.cards import Equipment, God, Insanity, Page, Phobia

INSANITY = {
    Insanity.PARALYSIS: "you may not Investigate",
    Insanity.HOARDING: "you may not Contribute (Gamble is still allowed)",
    Insanity.GAMBLING_FEVER: "Gamble is your only main action while a card can be drawn",
    Insanity.BABBLING: "every card you put into the pool goes face up",
    Insanity.CATATONIA: "you may not Accuse or propose the Necronomicon; you vote No",
    Insanity.PARANOIA: "you vote Yes (Catatonia wins over it)",
}

EQUIPMENT = {
    Equipment.LANTERN: "once: privately see 2 random face-down pool cards",
    Equipment.RITUAL_KNIFE: "once: discard 1 random face-down pool card, unseen",
    Equipment.COMPASS: "once: turn the target to another sigil not yet activated",
    Equipment.PISTOL: "once: a chosen player discards their hand and draws a new one",
    Equipment.SPYGLASS: "once: privately see a chosen player's hand",
    Equipment.AMULET: "once: regain 1 sanity and discard your Insanity cards",
    Equipment.ALMANAC: "once: privately see the top 3 cards of the Mythos deck",
    Equipment.OUIJA_BOARD: "once: privately learn a chosen player's role; costs 1 sanity",
}

PHOBIA = {
    Phobia.TOMES: "loses 1 sanity after Researching",
    Phobia.CHANCE: "loses 1 sanity after Gambling",
    Phobia.SUSPICION: "loses 1 sanity when accused",
    Phobia.GUILT: "loses 1 sanity after voting Yes on an investigator",
    Phobia.DESPAIR: "loses 1 sanity whenever an incantation fails",
    Phobia.EXPOSURE: "loses 1 sanity when cursed or targeted by equipment",
    Phobia.DISSENT: "loses 1 sanity when a vote they backed fails",
    Phobia.WITNESS: "loses 1 sanity when a cultist is revealed",
}

GOD = {
    God.ITHAQUA: "no special rule",
    God.ZHAR: "no special rule",
    God.DAGON: "no special rule",
    God.BOKRUG: "no special rule",
    God.HASTUR: "needs one more matching card",
    God.TSATHOGGUA: "needs one fewer matching card; success costs an hour",
    God.CTHUGHA: "success turns the clock back an hour",
    God.NYARLATHOTEP: "each opposite card cancels two matches",
    God.SHUB_NIGGURATH: "success refills every hand",
}

PAGE = {
    Page.TURN_BACK_TIME: "the clock goes back",
    Page.FORBIDDEN_LORE: "every hand is refilled and the clock goes back one hour",
    Page.DOOM: "Cthulhu wakes: the cultists win at once",
}
