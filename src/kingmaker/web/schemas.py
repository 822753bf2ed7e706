"""The JSON API's request and response models (they make the OpenAPI document)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from kingmaker.rules import limits as lim
from kingmaker.rules.options import OPTIONS
from kingmaker.service.errors import BadRequest
from kingmaker.service.limits import MAX_FACTIONS
from kingmaker.service.settings import MAX_HOURS


class Input(BaseModel):
    """A request body, taken as its schema says: no coercion (``false`` is not the
    integer 0, ``"3"`` is not the number 3)."""

    model_config = ConfigDict(strict=True)


def _whole(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


# An integer, as JSON Schema has it: 3 or 3.0, not 3.5, "3" or true
Whole = Annotated[int, BeforeValidator(_whole)]

# -- the limits (kingmaker.rules.limits, docs/limits.md) ----------------------------------
_ID_DOC = f"an id: 1 to {{}} characters, {lim.ID_RULE}"
# An id a command names; a faction id; an id someone chooses
Id = Annotated[
    str,
    Field(
        min_length=1, max_length=lim.ID_MAX, pattern=lim.ID_PATTERN, description=_ID_DOC.format(lim.ID_MAX)
    ),
]
FactionId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=lim.FACTION_ID_MAX,
        pattern=lim.ID_PATTERN,
        description=_ID_DOC.format(lim.FACTION_ID_MAX),
    ),
]
ChosenId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=lim.CHOSEN_ID_MAX,
        pattern=lim.ID_PATTERN,
        description=_ID_DOC.format(lim.CHOSEN_ID_MAX),
    ),
]

# What the OpenAPI document says of a free text: one line, none of the control and format
# characters (the main ones; the service refuses every Cc, Cf, Cs, Zl and Zp character).
ONE_LINE_PATTERN = (
    "^[^\\x00-\\x1f\\x7f-\\x9f\\u00ad\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\ufeff]*$"
)


def _one_line(what: str, limit: int, *, required: bool = False) -> Any:
    """A free text of at most ``limit`` characters on one line, checked as the service
    checks it. What the schema says (its length) is a 422; what it cannot say (a blank
    name, a format character) is the service's ``BadRequest``, a 400 with the service's
    sentence (pydantic lets any error but ``ValueError`` through)."""

    def check(value: str) -> str:
        problem = lim.text_problem(value, what, limit, required=required)
        if problem is not None:
            raise BadRequest(problem)
        return value

    return AfterValidator(check)


def _text_field(limit: int, *, required: bool = False, description: str = "") -> Any:
    """The schema of a free text of at most ``limit`` characters on one line."""
    doc = f"{description}; one line, at most {limit} characters".lstrip("; ")
    return Field(
        min_length=1 if required else 0,
        max_length=limit,
        description=doc,
        json_schema_extra={"pattern": ONE_LINE_PATTERN},
    )


Name = Annotated[
    str, _text_field(lim.NAME_MAX, required=True), _one_line("name", lim.NAME_MAX, required=True)
]
Note = Annotated[str, _text_field(lim.NOTE_MAX), _one_line("note", lim.NOTE_MAX)]
Reason = Annotated[str, _text_field(lim.NOTE_MAX), _one_line("reason", lim.NOTE_MAX)]
Seed = Annotated[
    str,
    _text_field(lim.SEED_MAX, required=True, description="the secret random seed (none: a fresh one)"),
    _one_line("seed", lim.SEED_MAX, required=True),
]
Folder = Annotated[
    str,
    _text_field(lim.PATH_MAX, description="a data folder on the server (none: England 1455)"),
    _one_line("data folder", lim.PATH_MAX),
]


def _post_lines(text: str) -> str:
    """At most ``ORDERS_MAX_LINES`` lines (a 400, like ``_one_line``'s)."""
    lines = len(text.splitlines())
    if lines > lim.ORDERS_MAX_LINES:
        raise BadRequest(f"the post has {lines:,} lines; a post may have at most {lim.ORDERS_MAX_LINES}")
    return text


class ErrorOut(BaseModel):
    error: str = Field(
        description="bad_request, not_found, forbidden, conflict, unauthorized, invalid, internal"
    )
    message: str


class FactionOut(BaseModel):
    id: str
    name: str
    colour: str


class GameOut(BaseModel):
    id: str
    name: str
    created_at: str
    data_set: str
    seed_commitment: str
    factions: list[FactionOut]
    round: int
    turn: str
    turn_order: list[str]
    options: dict[str, str] = Field(
        default_factory=dict,
        description="the full game's options in force, each one's value (public: the rules of the "
        "game); empty for a game adjudicated by hand",
    )


def options_doc() -> str:
    """The options, for the OpenAPI document: each one's name, allowed values, default
    and what it does (``rules.options``)."""
    return "Options: " + "; ".join(
        f"{o.name} ({o.allowed}; default {o.default}): {o.description}" for o in OPTIONS
    )


# An option's name and value as the JSON API takes them (checked by ``rules.options``)
OptionName = Annotated[str, Field(min_length=1, max_length=lim.ID_MAX)]
OptionValue = Annotated[str, Field(max_length=lim.ID_MAX)] | bool | int


class CreateGameIn(Input):
    name: Name
    factions: list[FactionId] = Field(
        min_length=1, max_length=MAX_FACTIONS, description="faction ids, e.g. red, blue, green, gold"
    )
    data_folder: Folder | None = None
    seed: Seed | None = None
    game_id: ChosenId | None = None
    policy: Literal["hold", "extend"] = "hold"
    turn_hours: float | None = Field(
        24.0, description=f"hours each turn lasts (above 0, at most {MAX_HOURS}); none: no deadline"
    )
    request_hours: float | None = Field(
        24.0, description=f"hours to answer a request (above 0, at most {MAX_HOURS}); none: no deadline"
    )
    cards_per_faction: Whole | None = None
    full_game: bool = Field(
        True,
        description="the engine adjudicates the whole game (phases, events, battles, sieges); "
        "false: the GM rules on combat and events by hand",
    )
    draw_events: bool = Field(True, description="each turn's event card is drawn as the turn begins")
    options: dict[OptionName, OptionValue] | None = Field(
        None,
        description="game options of the full game (FULL_GAME §1), {name: value}; an option "
        "not given has its default; an unknown name or a value not allowed is refused (400). "
        + options_doc(),
        examples=[{"heir_survival": "on", "victory_hold_turns": 4}],
    )


class OutcomeOut(BaseModel):
    game: str
    result: str = Field(description="accepted, refused, pending or done")
    explanation: str
    rule: str | None = None
    awaiting: list[str] = []
    request: str | None = None
    first_seq: int | None = Field(None, description="the first log entry written (answered to the GM only)")
    last_seq: int | None = Field(None, description="the last log entry written (answered to the GM only)")
    replayed: bool = False


class SeatIn(Input):
    faction: Id
    player: Name


class SeatOut(BaseModel):
    faction: str
    player: str
    token: str = Field(description="the player's secret token, shown once")
    link: str


class SeatInfo(BaseModel):
    faction: str
    player: str


class DeadlineOut(BaseModel):
    target: str
    kind: str
    due: str
    extended: bool = False


class StatusOut(BaseModel):
    """The GM's status of a game: who has ordered this turn, seats, open deadlines."""

    game: GameOut
    ordered: dict[str, bool]
    seats: list[SeatInfo]
    deadlines: list[DeadlineOut]
    head: int


class NobleOut(BaseModel):
    id: str
    name: str
    faction: str | None
    troops: int
    awards: list[str]
    place: str | None
    inside: bool
    aboard: str | None
    captive_of: str | None


class ShipOut(BaseModel):
    id: str
    name: str
    faction: str | None
    capacity: int
    place: str
    in_port: bool
    forced: bool
    passengers: list[str]


class HeirOut(BaseModel):
    id: str
    name: str
    house: str
    order: int
    crowned: bool
    with_noble: str | None
    place: str | None
    inside: bool


class ArmyOut(BaseModel):
    id: str
    units: list[str]
    fleet: bool
    senior: str | None
    senior_rule: str | None


class AllianceOut(BaseModel):
    id: str
    members: list[str]
    public: bool


class DeclarationOut(BaseModel):
    id: str
    by: str
    invited: list[str]
    confirmed: list[str]
    declined: list[str]


class RequestOut(BaseModel):
    id: str
    rule: str
    by: str
    command: dict[str, Any]
    awaiting: list[str]
    turn_of: str
    round: int


class PermissionOut(BaseModel):
    by: str
    to: str
    place: str
    aspects: list[str]


class CombatOut(BaseModel):
    kind: str
    id: str
    by: str
    attackers: list[str]
    place: str
    target: str | None
    defenders: list[str]
    round: int


class ViewOut(BaseModel):
    """What one viewer may see of the position (``kingmaker.rules.views.view``)."""

    viewer: str
    round: int
    turn: str
    turn_order: list[str]
    control: dict[str, str]
    nobles: list[NobleOut]
    ships: list[ShipOut]
    heirs: list[HeirOut]
    armies: list[ArmyOut]
    alliances: list[AllianceOut]
    declarations: list[DeclarationOut]
    requests: list[RequestOut]
    permissions: list[PermissionOut]
    combats: list[CombatOut]
    seed_commitment: str
    seed: str | None


UnitKind = Literal["noble", "ship", "army", "fleet"]
UNIT_KINDS: tuple[UnitKind, ...] = ("noble", "ship", "army", "fleet")


class UnitOut(BaseModel):
    id: str
    name: str
    kind: UnitKind
    faction: str | None
    place: str | None
    place_name: str
    inside: bool
    allied: bool = Field(description="an ally's unit: the order waits for its owner's consent (ALLY.4)")


class DestinationOut(BaseModel):
    place: str
    name: str
    path: list[str]
    sea: bool = False
    by_road: bool = False
    enter: bool = False
    siege: bool = False
    port: bool = False
    land: bool = False
    rule: str | None = None
    reason: str = ""
    actions: list[str] = Field(
        description="the map order actions open here: move, move_enter, enter, siege, sail"
    )


OtherAction = Literal["embark", "land", "land_enter", "attack"]
OTHER_ACTIONS: tuple[OtherAction, ...] = ("embark", "land", "land_enter", "attack")


class OtherOrderOut(BaseModel):
    """An order that goes nowhere new on the map: embark on a ship in the port, land a
    ship's passengers at a port, attack a unit where this one stands; judged by the
    rules now (``allowed``, with the rule and its sentence)."""

    action: OtherAction
    target: str = Field(description="the ship (embark), the port (land) or the unit attacked")
    label: str
    allowed: bool
    rule: str | None = None
    explanation: str = ""


class DestinationsOut(BaseModel):
    unit: str
    name: str
    orderable: bool
    reason: str
    place: str | None
    inside: bool
    can_leave: bool
    destinations: list[DestinationOut]
    others: list[OtherOrderOut] = Field(
        default_factory=list, description="embark, land and attack orders open to this unit here"
    )


Action = Literal[
    "move", "move_enter", "enter", "siege", "leave", "sail", "embark", "land", "land_enter", "attack"
]


class MapOrderIn(Input):
    unit: Id
    action: Action
    to: Id | None = Field(
        None,
        description="the destination (place, sea zone, or the port to land at); none for enter/leave/siege",
    )
    target: Id | None = Field(None, description="the ship to embark on, or the unit to attack")
    by: Id | None = Field(None, description="whose order (default: your faction; the GM must say)")


class TextOrdersIn(Input):
    text: Annotated[str, AfterValidator(_post_lines)] = Field(
        max_length=lim.ORDERS_MAX_CHARS,
        description=f"the post: at most {lim.ORDERS_MAX_CHARS:,} characters and {lim.ORDERS_MAX_LINES} lines",
    )
    by: Id | None = Field(None, description="the author (default: your faction; the GM: gm or a faction)")


class VerdictOut(BaseModel):
    line: int
    column: int
    text: str
    result: str
    rule: str | None
    explanation: str
    request: str | None = None
    reading: str | None = Field(None, description="how the engine read the line, in canonical text")
    suggestions: list[str] = Field(default_factory=list, description='"did you mean": the names meant')
    example: str = Field("", description="for a syntax problem: the closest verb's example")
    awaiting: list[str] = Field(default_factory=list, description="for a pending order: whose answers")

    @property
    def ok(self) -> bool:
        return self.result in ("accepted", "pending", "done", "ignored")


class ReceiptOut(BaseModel):
    """The receipt of a post, for the GM to send back to the player (issue 15)."""

    bbcode: str
    markdown: str
    plain: str


class PendingOut(BaseModel):
    kind: Literal["declaration", "request"]
    id: str
    by: str
    awaiting: list[str]
    due: str | None
    rule: str
    summary: str
    for_you: bool = Field(description="awaiting the viewer's answer")


class AnswerIn(Input):
    id: Id
    kind: Literal["declaration", "request"]
    accept: bool
    by: Id | None = None


class LogEntryOut(BaseModel):
    seq: int = Field(
        description="the entry's number: the GM's log numbers every entry; a player's log (and the "
        "public's) numbers 1, 2, 3... the entries that reader may read, so no gap tells of the others"
    )
    round: int
    turn: str
    actor: str
    rule: str | None
    kind: str
    text: str
    recorded_at: str
    event: dict[str, Any]
    command: str | None = Field(None, description="the id of the command that wrote it (the GM's log only)")


class MessageOut(BaseModel):
    to: str
    subject: str
    body: str


class ReportsOut(BaseModel):
    round: int
    turn: str
    format: str
    viewer: str
    turns: list[tuple[int, str]]
    turn_report: str
    private_report: str | None
    messages: list[MessageOut]


class DigestOut(BaseModel):
    """A round in one post: every turn's orders as given and resolution, then the
    position at the end of the round (or now, while it goes on)."""

    round: int
    format: str
    viewer: str
    rounds: list[int] = Field(description="every round the log has turns of")
    turns: list[str] = Field(description="the factions whose turns of this round the digest tells, in order")
    digest: str


class ExtendIn(Input):
    target: Id
    hours: float = Field(gt=0, le=24 * 60)


class UndoIn(Input):
    # the service judges the entry (0 to the entry before the latest) and says why not
    to_seq: Whole = Field(
        description="the log entry to restore the game to: 0 (as created) to the entry before the latest",
        json_schema_extra={"minimum": 0},
    )
    reason: Reason = ""


class StormIn(Input):
    ship: Id
    into: Id


class ControlIn(Input):
    place: Id
    faction: Id | None = None


class PermissionAskIn(Input):
    of: Id
    place: Id
    aspects: list[Id] = Field(max_length=10)
    note: Note = ""
