"""The JSON API's request and response models (they make the OpenAPI document)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from kingmaker.service.settings import MAX_HOURS


class Input(BaseModel):
    """A request body, taken as its schema says: no coercion (``false`` is not the
    integer 0, ``"3"`` is not the number 3)."""

    model_config = ConfigDict(strict=True)


def _whole(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


# An integer, as JSON Schema has it: 3 or 3.0, not 3.5, "3" or true
Whole = Annotated[int, BeforeValidator(_whole)]


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


class CreateGameIn(Input):
    name: str = Field(min_length=1, max_length=200)
    factions: list[str] = Field(min_length=1, description="faction ids, e.g. red, blue, green, gold")
    data_folder: str | None = Field(None, description="a data folder on the server; none: England 1455")
    seed: str | None = None
    game_id: str | None = None
    policy: Literal["hold", "extend"] = "hold"
    turn_hours: float | None = Field(
        24.0, description=f"hours each turn lasts (above 0, at most {MAX_HOURS}); none: no deadline"
    )
    request_hours: float | None = Field(
        24.0, description=f"hours to answer a request (above 0, at most {MAX_HOURS}); none: no deadline"
    )
    cards_per_faction: Whole | None = None


class OutcomeOut(BaseModel):
    game: str
    result: str = Field(description="accepted, refused, pending or done")
    explanation: str
    rule: str | None = None
    awaiting: list[str] = []
    request: str | None = None
    first_seq: int | None = None
    last_seq: int | None = None
    replayed: bool = False


class SeatIn(Input):
    faction: str
    player: str = Field(min_length=1, max_length=200)


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


class UnitOut(BaseModel):
    id: str
    name: str
    kind: Literal["noble", "ship", "army", "fleet"]
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


class OtherOrderOut(BaseModel):
    """An order that goes nowhere new on the map: embark on a ship in the port, land a
    ship's passengers at a port, attack a unit where this one stands; judged by the
    rules now (``allowed``, with the rule and its sentence)."""

    action: Literal["embark", "land", "land_enter", "attack"]
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
    unit: str
    action: Action
    to: str | None = Field(
        None, description="the destination (place, sea zone, or the port to land at); none for enter/leave/siege"
    )
    target: str | None = Field(None, description="the ship to embark on, or the unit to attack")
    by: str | None = Field(None, description="whose order (default: your faction; the GM must say)")


class TextOrdersIn(Input):
    text: str = Field(max_length=20000)
    by: str | None = Field(None, description="the author (default: your faction; the GM: gm or a faction)")


class VerdictOut(BaseModel):
    line: int
    column: int
    text: str
    result: str
    rule: str | None
    explanation: str
    request: str | None = None

    @property
    def ok(self) -> bool:
        return self.result in ("accepted", "pending", "done")


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
    id: str
    kind: Literal["declaration", "request"]
    accept: bool
    by: str | None = None


class LogEntryOut(BaseModel):
    seq: int
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


class ExtendIn(Input):
    target: str
    hours: float = Field(gt=0, le=24 * 60)


class UndoIn(Input):
    to_seq: Whole = Field(ge=0)
    reason: str = ""


class StormIn(Input):
    ship: str
    into: str


class ControlIn(Input):
    place: str
    faction: str | None = None


class PermissionAskIn(Input):
    of: str
    place: str
    aspects: list[str]
    note: str = ""
