"""Every message the browser table accepts, validated by pydantic before anything reads it.

Unknown fields are refused, numbers must be whole numbers, strings have a length limit: a
malformed message gets an error reply (`error_text`) and changes nothing.

From a seat's browser, over `/ws/table/{table_id}` (the first message must be `join`):

    {"type": "join", "seat": 2, "token": "..."}      # the secret of the seat's join link
    {"type": "act", "action": 17, "step": 42}        # step: the table's step the choice was made at

From a watcher, over `/ws/watch/{table_id}` (tables of bots only):

    {"type": "pause"} | {"type": "resume"} | {"type": "next"}

`NewTable` is the lobby's form (`POST /api/tables`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from ..checkpoints import VERSIONS
from ..players import SCRIPTED, SHIPPED, TABLE_SIZES

HUMAN = "human"
# What the lobby may seat: people and the bots the package ships. No file paths: the server's
# files are not the web's to name (`rlyeh serve --bot FILE` adds a checkpoint by the operator's hand).
LOBBY_SEATS = (HUMAN, SHIPPED, *VERSIONS, *SCRIPTED)
MAX_MESSAGE_CHARS = 2_000  # the longest valid message is under 200


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Join(Message):
    type: Literal["join"]
    seat: int = Field(ge=0, le=max(TABLE_SIZES) - 1)
    token: str = Field(min_length=1, max_length=100)


class Act(Message):
    type: Literal["act"]
    action: int = Field(ge=0)
    step: int = Field(ge=0)


class Pause(Message):
    type: Literal["pause"]


class Resume(Message):
    type: Literal["resume"]


class Next(Message):
    type: Literal["next"]


SEAT_MESSAGES = TypeAdapter(Annotated[Join | Act, Field(discriminator="type")])
WATCH_MESSAGES = TypeAdapter(Annotated[Pause | Resume | Next, Field(discriminator="type")])


class NewTable(Message):
    """A table as the lobby asks for it: who sits in each seat (HUMAN or a bot's name)."""

    seats: list[str] = Field(min_length=min(TABLE_SIZES), max_length=max(TABLE_SIZES))
    seed: int | None = Field(default=None, ge=0, lt=2**31)
    extra_gods: bool = False
    hidden_cultists: bool = False
    sample: bool = False  # checkpoint bots sample their moves instead of their most probable one

    @field_validator("seats")
    @classmethod
    def _known_seats(cls, seats: list[str], info) -> list[str]:
        allowed = info.context.get("seats", LOBBY_SEATS) if info.context else LOBBY_SEATS
        unknown = sorted({seat for seat in seats if seat not in allowed})
        if unknown:
            raise ValueError(f"unknown seat {', '.join(map(repr, unknown))}: each seat is one of {', '.join(allowed)}")
        return seats

    @property
    def humans(self) -> list[int]:
        return [seat for seat, name in enumerate(self.seats) if name == HUMAN]


def error_text(err: ValidationError | ValueError) -> str:
    """A validation failure in one line a person can act on (pydantic's own text is long)."""
    if not isinstance(err, ValidationError):
        return str(err)
    parts = []
    for item in err.errors(include_url=False):
        where = ".".join(str(part) for part in item["loc"] if part not in ("join", "act", "pause", "resume", "next"))
        message = item["msg"].removeprefix("Value error, ")
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def parse(adapter: TypeAdapter, text: str):
    """The message `text` holds, or ValueError saying what is wrong with it."""
    if len(text) > MAX_MESSAGE_CHARS:
        raise ValueError(f"message too long ({len(text)} characters; at most {MAX_MESSAGE_CHARS})")
    try:
        return adapter.validate_json(text)
    except ValidationError as err:
        raise ValueError(error_text(err)) from None
