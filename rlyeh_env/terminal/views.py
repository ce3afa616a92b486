"""Rich renderables of the table: one seat's view (`seat_panels`) and the full truth (`truth_view`).

`seat_panels` draws a seat's projection (`rlyeh_env.seat_view.SeatView`, the one source of every
human view of a seat) and reads nothing else; `seat_view(state, seat)` builds the projection and
draws it. The truth view draws the public board of a projection (`public_board`) and adds every
secret from the state: roles, hands, the pool's cards and owners, who played which card of each
incantation, and optionally the checkpoint bots' suspicions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine.cards import Character, Equipment, God, Insanity, Page, Phobia, Role, Sigil, VoteKind, label
from ..engine.config import MIDNIGHT
from ..engine.state import EndReason, Phase, State, Winner
from ..narration import player_name
from ..seat_view import Board, SeatView, project_seat, public_board
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


def clock_text(board: Board) -> Text:
    """A track of the hours from the first to midnight: struck hours filled, the rest hollow."""
    text = Text("Clock ")
    for hour in range(board.first_hour + 1, MIDNIGHT + 1):
        text.append("●" if hour <= board.hour else "○", style="red" if hour <= board.hour else "green")
    left = MIDNIGHT - board.hour
    text.append(f"  {board.hour}:00, {left} hour{'s' if left != 1 else ''} to midnight",
                style="bold red" if left <= 2 else "")
    return text


def sigils_text(board: Board) -> Text:
    text = Text("Sigils ")
    for s in range(4):
        god = God(board.gods[s])
        name = label(Sigil(s)) + (f" ({label(god)}: {GOD[god]})" if god not in (0, 1, 2, 3) else "")
        if board.activated[s]:
            text.append_text(sigil_text(s, f"✔ {name}"))
        elif s == board.target:
            text.append_text(Text(f"◎ {name} (target)", style=SIGIL_STYLE[Sigil(s)] + " reverse"))
        else:
            text.append(f"· {name}", style="dim")
        text.append("   ")
    if board.target < 0 and not board.game_over:
        text.append("(no target declared)", style="dim")
    return text


def pool_text(board: Board) -> Text:
    text = Text(f"Pool {len(board.pool)}/{board.incantation_size}  ")
    for card in board.pool:
        text.append_text(sigil_text(card) if card >= 0 else Text(CARD_BACK, style="magenta"))
        text.append(" ")
    if not board.pool:
        text.append("empty", style="dim")
    return text


def _cultist_count(board: Board) -> str:
    if board.cultists < 0:
        lo, hi = board.cultist_range
        return f"{lo} to {hi} cultists (nobody is told how many)"
    return f"{board.cultists} cultist{'s' if board.cultists != 1 else ''} at this table"


def board_panel(board: Board, title: str) -> Panel:
    lines = [
        clock_text(board),
        sigils_text(board),
        pool_text(board),
        Text(f"Mythos deck {board.deck}, discard pile {board.discard}; {_cultist_count(board)}", style="dim"),
    ]
    if board.game_over:
        lines.append(Text(f"GAME OVER: the {label(Winner(board.winner)).lower()} win "
                          f"({label(EndReason(board.end_reason)).lower()})", style="bold"))
    else:
        lines.append(Text(f"{player_name(board.decider)} {PHASE_TEXT[Phase(board.phase)]}"))
        vote = board.vote
        if vote is not None:
            subject = (f"{player_name(vote.proposer)} accuses {player_name(vote.accused)}"
                       if vote.kind == VoteKind.ACCUSATION
                       else f"{player_name(vote.proposer)} proposes the Necronomicon")
            lines.append(Text(f"Vote under way: {subject}", style="bold yellow"))
    return Panel(Group(*lines), title=title, title_align="left")


def players_table(board: Board, roles: Sequence[int], you: int | None = None,
                  hands: Sequence[Sequence[int]] | None = None) -> Table:
    """Every player's public status, with `roles` (per seat, -1 unknown) in the role column;
    `you` marks the viewer and the roles it learnt privately, `hands` adds a hand column."""
    table = Table(title="Players", title_justify="left", expand=False, pad_edge=False)
    for column in ("seat", "character (phobia)", "sanity", "cards", "equipment", "role", "insanity"):
        table.add_column(column)
    if hands is not None:
        table.add_column("hand")
    for p in board.players:
        name = Text(player_name(p.seat), style="bold" if p.seat == you else "")
        if p.seat == you:
            name.append(" (you)")
        if p.seat == board.watch:
            name.append(" ⌚")
        sanity = Text("♥" * p.sanity + "♡" * max(0, board.start_sanity - p.sanity),
                      style="red" if p.sanity <= 1 else "")
        if p.mad:
            sanity = Text("MAD", style="bold magenta")
        equipment = Text(label(Equipment(p.equipment)), style="dim strike" if p.equipment_used else "")
        role = Text("?", style="dim")
        if roles[p.seat] >= 0:
            role = role_text(roles[p.seat])
            if p.revealed_role >= 0:
                role.append(" (revealed)")
            elif you is not None and p.seat != you:
                role.append(" (you know)")
        insanity = Text(", ".join(label(Insanity(c)) for c in p.insanity) or "-")
        row = [name, f"{label(Character(p.character))} ({label(Phobia(p.phobia)).lower()})", sanity, str(p.cards),
               equipment, role, insanity]
        if hands is not None:
            row.append(cards_text(hands[p.seat]))
        table.add_row(*row)
    return table


# -- one seat ----------------------------------------------------------------------------------------


def _you_panel(view: SeatView) -> Panel:
    me, board = view.me, view.board
    character = Character(me.character)
    lines = [
        Text.assemble("You are ", role_text(view.role),
                      (" (cultists do not know each other)" if view.role == Role.CULTIST else "", "dim")),
        Text.assemble("Hand: ", cards_text(view.hand), f"   sanity {me.sanity}/{board.start_sanity}"),
        Text(f"Character: {label(character)}, who {PHOBIA[Phobia(me.phobia)]}"),
        Text(f"Equipment: {label(Equipment(me.equipment))}"
             + (" (used)" if me.equipment_used else f" - {EQUIPMENT[Equipment(me.equipment)]}")),
    ]
    for card in sorted(set(me.insanity)):
        lines.append(Text(f"Insanity: {label(Insanity(card))} - {INSANITY[Insanity(card)]}", style="magenta"))
    if me.mad:
        lines.append(Text("You are MAD: no Investigate, no Necronomicon, your cards go in face up", style="magenta"))
    if any(view.pool_mine):
        lines.append(Text.assemble("You put into this pool: ", cards_text(view.pool_mine)))
    if view.pool_look_size:
        lines.append(Text.assemble(f"Your last look at this pool ({view.pool_look_size} cards): ", cards_text(view.pool_look)))
    for s, hand in enumerate(view.seen_hands):
        if hand is not None and s != view.seat:
            lines.append(Text.assemble(f"You saw {player_name(s)}'s hand: ", cards_text(hand)))
    if view.deck_top:
        lines.append(Text.assemble("Next Mythos cards: ", Text(", ").join(sigil_text(c) for c in view.deck_top)))
    if view.deciding:
        if board.phase == Phase.GAMBLE_PLAY and view.gamble_cards:
            lines.append(Text.assemble("You drew: ", Text(", ").join(sigil_text(c) for c in view.gamble_cards)))
        if board.phase == Phase.NECRONOMICON_PAGE:
            for page in view.pages:
                lines.append(Text(f"The book shows: {label(Page(page))} - {PAGE[Page(page)]}", style="bold"))
    return Panel(Group(*lines), title=f"You: {player_name(view.seat)}", title_align="left",
                 border_style=ROLE_STYLE[Role(view.role)].split()[-1])


def seat_panels(view: SeatView) -> RenderableType:
    """The rich view of one seat, drawn from its projection only."""
    return Group(
        board_panel(view.board, f"The Gate of R'lyeh - round {view.board.round + 1}"),
        players_table(view.board, view.known_roles, you=view.seat),
        _you_panel(view),
    )


def seat_view(state: State, seat: int) -> RenderableType:
    """`seat_panels` of `seat`'s projection."""
    return seat_panels(project_seat(state, seat))


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
    board = public_board(state)
    parts: list[RenderableType] = [
        board_panel(board, f"The full truth - round {board.round + 1}"),
        pool,
        players_table(board, [p.role for p in state.players], hands=[p.hand for p in state.players]),
    ]
    if state.incantations:
        parts.append(incantations_table(state))
    if suspicions:
        parts.append(suspicion_table(state, suspicions))
    return Group(*parts)
