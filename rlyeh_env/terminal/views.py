"""Rich renderables of the table: one seat's view (`seat_view`) and the full truth (`truth_view`).

`seat_view` reads exactly what `rlyeh_env.text.render_seat` reads, the sources of the seat's
observation, and the no-leak tests hold it to that. The truth view adds every secret: roles,
hands, the pool's cards and owners, who played which card of each incantation, and optionally
the checkpoint bots' suspicions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine.cards import Character, Equipment, God, Insanity, Page, Role, Sigil, VoteKind, label, phobia_of
from ..engine.config import MIDNIGHT
from ..engine.state import EndReason, Phase, State, Winner
from ..narration import player_name
from .glossary import EQUIPMENT, GOD, INSANITY, PAGE, PHOBIA

SIGIL_STYLE = {Sigil.ITHAQUA: "bold white", Sigil.ZHAR: "bold yellow", Sigil.DAGON: "bold blue", Sigil.BOKRUG: "bold green"}
ROLE_STYLE = {Role.INVESTIGATOR: "bold cyan", Role.CULTIST: "bold red"}
CARD_BACK = "▮"

PHASE_TEXT = {
    Phase.DECLARE_TARGET: "declares the target sigil",
    Phase.TURN: "takes a turn",
    Phase.RESEARCH_DISCARD: "discards (Research)",
    Phase.GAMBLE_PLAY: "plays a gambled card",
    Phase.INVESTIGATE_TAKE: "investigates: takes a card",
    Phase.INVESTIGATE_GIVE: "investigates: gives a card",
    Phase.VOTE: "votes",
    Phase.NECRONOMICON_PAGE: "reads the Necronomicon",
    Phase.EQUIPMENT_PLAYER: "aims their equipment",
    Phase.EQUIPMENT_SIGIL: "turns the compass",
}


def sigil_text(sigil: int, text: str | None = None) -> Text:
    return Text(text if text is not None else label(Sigil(sigil)), style=SIGIL_STYLE[Sigil(sigil)])


def role_text(role: int) -> Text:
    return Text(label(Role(role)).upper(), style=ROLE_STYLE[Role(role)])


def cards_text(counts: Sequence[int]) -> Text:
    """'2 Ithaqua, 1 Dagon' with each sigil in its colour; 'none' for an empty hand."""
    parts = [sigil_text(s, f"{count} {label(Sigil(s))}") for s, count in enumerate(counts) if count]
    return Text(", ").join(parts) if parts else Text("none", style="dim")


# -- the public board --------------------------------------------------------------------------------


def clock_text(state: State) -> Text:
    """A track of the hours from the first to midnight: struck hours filled, the rest hollow."""
    first = state.config.first_hour
    text = Text("Clock ")
    for hour in range(first + 1, MIDNIGHT + 1):
        text.append("●" if hour <= state.hour else "○", style="red" if hour <= state.hour else "green")
    left = MIDNIGHT - state.hour
    text.append(f"  {state.hour}:00, {left} hour{'s' if left != 1 else ''} to midnight",
                style="bold red" if left <= 2 else "")
    return text


def sigils_text(state: State) -> Text:
    text = Text("Sigils ")
    for s in range(4):
        god = God(state.gods[s])
        name = label(Sigil(s)) + (f" ({label(god)}: {GOD[god]})" if god not in (0, 1, 2, 3) else "")
        if state.activated[s]:
            text.append_text(sigil_text(s, f"✔ {name}"))
        elif s == state.target:
            text.append_text(Text(f"◎ {name} (target)", style=SIGIL_STYLE[Sigil(s)] + " reverse"))
        else:
            text.append(f"· {name}", style="dim")
        text.append("   ")
    if state.target < 0 and not state.game_over:
        text.append("(no target declared)", style="dim")
    return text


def pool_text(state: State) -> Text:
    text = Text(f"Pool {len(state.pool)}/{state.config.incantation_size}  ")
    for card in state.pool:
        text.append_text(sigil_text(card.sigil, label(Sigil(card.sigil))) if card.face_up else Text(CARD_BACK, style="magenta"))
        text.append(" ")
    if not state.pool:
        text.append("empty", style="dim")
    return text


def _cultist_count(state: State) -> str:
    if state.config.hidden_cultist_count:
        lo, hi = state.config.hidden_range()
        return f"{lo} to {hi} cultists (nobody is told how many)"
    count = state.config.cultists
    return f"{count} cultist{'s' if count != 1 else ''} at this table"


def board_panel(state: State, title: str) -> Panel:
    lines = [
        clock_text(state),
        sigils_text(state),
        pool_text(state),
        Text(f"Mythos deck {len(state.deck)}, discard pile {len(state.discard)}; {_cultist_count(state)}", style="dim"),
    ]
    if state.game_over:
        lines.append(Text(f"GAME OVER: the {label(Winner(state.winner)).lower()} win "
                          f"({label(EndReason(state.end_reason)).lower()})", style="bold"))
    else:
        lines.append(Text(f"{player_name(state.decider)} {PHASE_TEXT[Phase(state.phase)]}"))
        vote = state.pending.vote
        if vote is not None:
            subject = (f"{player_name(vote.proposer)} accuses {player_name(vote.accused)}"
                       if vote.kind == VoteKind.ACCUSATION
                       else f"{player_name(vote.proposer)} proposes the Necronomicon")
            lines.append(Text(f"Vote under way: {subject}", style="bold yellow"))
    return Panel(Group(*lines), title=title, title_align="left")


def players_table(state: State, viewer: int | None, truth: bool = False) -> Table:
    """Every player's public status; `viewer` marks "you" and adds the roles that seat knows;
    `truth` adds every role and hand."""
    table = Table(title="Players", title_justify="left", expand=False, pad_edge=False)
    for column in ("seat", "character (phobia)", "sanity", "cards", "equipment", "role", "insanity"):
        table.add_column(column)
    if truth:
        table.add_column("hand")
    known = state.players[viewer].memory.known_roles if viewer is not None else None
    for seat, p in enumerate(state.players):
        name = Text(player_name(seat), style="bold" if seat == viewer else "")
        if seat == viewer:
            name.append(" (you)")
        if seat == state.watch:
            name.append(" ⌚")
        character = Character(p.character)
        sanity = Text("♥" * p.sanity + "♡" * max(0, state.config.start_sanity - p.sanity),
                      style="red" if p.sanity <= 1 else "")
        if p.sanity == 0:
            sanity = Text("MAD", style="bold magenta")
        equipment = Text(label(Equipment(p.equipment)), style="dim strike" if p.equipment_used else "")
        if truth or p.revealed or seat == viewer:
            role = role_text(p.role)
            if p.revealed:
                role.append(" (revealed)")
        elif known is not None and known[seat] >= 0:
            role = role_text(known[seat])
            role.append(" (you know)")
        else:
            role = Text("?", style="dim")
        insanity = Text(", ".join(label(Insanity(c)) for c in p.insanity) or "-")
        row = [name, f"{label(character)} ({label(phobia_of(character)).lower()})", sanity, str(p.hand_count),
               equipment, role, insanity]
        if truth:
            row.append(cards_text(p.hand))
        table.add_row(*row)
    return table


# -- one seat ----------------------------------------------------------------------------------------


def _you_panel(state: State, seat: int) -> Panel:
    me = state.players[seat]
    mem = me.memory
    character = Character(me.character)
    lines = [
        Text.assemble("You are ", role_text(me.role),
                      (" (cultists do not know each other)" if me.role == Role.CULTIST else "", "dim")),
        Text.assemble("Hand: ", cards_text(me.hand), f"   sanity {me.sanity}/{state.config.start_sanity}"),
        Text(f"Character: {label(character)}, who {PHOBIA[phobia_of(character)]}"),
        Text(f"Equipment: {label(Equipment(me.equipment))}"
             + (" (used)" if me.equipment_used else f" - {EQUIPMENT[Equipment(me.equipment)]}")),
    ]
    for card in sorted(set(me.insanity)):
        lines.append(Text(f"Insanity: {label(Insanity(card))} - {INSANITY[Insanity(card)]}", style="magenta"))
    if me.sanity == 0:
        lines.append(Text("You are MAD: no Investigate, no Necronomicon, your cards go in face up", style="magenta"))
    if any(mem.pool_mine):
        lines.append(Text.assemble("You put into this pool: ", cards_text(mem.pool_mine)))
    if mem.pool_look_size:
        lines.append(Text.assemble(f"Your last look at this pool ({mem.pool_look_size} cards): ", cards_text(mem.pool_look)))
    for s, hand in enumerate(mem.seen_hands):
        if hand is not None and s != seat:
            lines.append(Text.assemble(f"You saw {player_name(s)}'s hand: ", cards_text(hand)))
    if mem.deck_top:
        lines.append(Text.assemble("Next Mythos cards: ", Text(", ").join(sigil_text(c) for c in mem.deck_top)))
    if state.decider == seat and not state.game_over:
        if state.phase == Phase.GAMBLE_PLAY and state.pending.gamble_cards:
            lines.append(Text.assemble("You drew: ", Text(", ").join(sigil_text(c) for c in state.pending.gamble_cards)))
        if state.phase == Phase.NECRONOMICON_PAGE:
            for page in state.pending.pages:
                lines.append(Text(f"The book shows: {label(Page(page))} - {PAGE[Page(page)]}", style="bold"))
    return Panel(Group(*lines), title=f"You: {player_name(seat)}", title_align="left",
                 border_style=ROLE_STYLE[Role(me.role)].split()[-1])


def seat_view(state: State, seat: int) -> RenderableType:
    """What `seat` may see of the table (nothing more: see the module docstring)."""
    return Group(
        board_panel(state, f"The Gate of R'lyeh - round {state.round + 1}"),
        players_table(state, seat),
        _you_panel(state, seat),
    )


# -- the truth ---------------------------------------------------------------------------------------


def incantations_table(state: State) -> Table:
    """Every resolved incantation: target, verdict, and each card with the seat that played it."""
    table = Table(title="Incantations", title_justify="left", pad_edge=False)
    for column in ("#", "target", "result", "cards (played by)"):
        table.add_column(column)
    for i, record in enumerate(state.incantations, 1):
        cards = Text(", ").join(sigil_text(s, f"{label(Sigil(s))} ({player_name(owner)})") for s, owner in record.played)
        result = Text("succeeded", style="green") if record.success else Text("failed", style="red")
        table.add_row(str(i), sigil_text(record.target), result, cards)
    return table


def suspicion_table(state: State, suspicions: Mapping[int, Sequence[float]]) -> Table:
    """Each checkpoint bot's probability that every other seat is a cultist (row: the bot)."""
    table = Table(title="Suspicions of the checkpoint bots: P(cultist)", title_justify="left", pad_edge=False)
    table.add_column("bot")
    for seat in range(state.num_players):
        table.add_column(player_name(seat), justify="right")
    for seat, row in sorted(suspicions.items()):
        cells = []
        for other in range(state.num_players):
            if other == seat or row[other] != row[other]:  # self, or NaN before its first decision
                cells.append(Text("-", style="dim"))
            else:
                p = float(row[other])
                cells.append(Text(f"{100 * p:.0f}%", style="bold red" if p >= 0.5 else ("yellow" if p >= 0.25 else "")))
        table.add_row(Text.assemble(player_name(seat), " ", role_text(state.players[seat].role)), *cells)
    return table


def truth_view(state: State, suspicions: Mapping[int, Sequence[float]] | None = None) -> RenderableType:
    pool = Text("Pool cards: ")
    for card in state.pool:
        pool.append_text(sigil_text(card.sigil, f"{label(Sigil(card.sigil))} ({player_name(card.contributor)}"
                                    f"{', face up' if card.face_up else ''})"))
        pool.append("  ")
    if not state.pool:
        pool.append("none", style="dim")
    parts: list[RenderableType] = [
        board_panel(state, f"The full truth - round {state.round + 1}"),
        pool,
        players_table(state, None, truth=True),
    ]
    if state.incantations:
        parts.append(incantations_table(state))
    if suspicions:
        parts.append(suspicion_table(state, suspicions))
    return Group(*parts)
