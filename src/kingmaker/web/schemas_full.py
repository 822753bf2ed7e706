"""The JSON API's models for the full game (issue 13): the phase, the decks' sizes, the
hands and captives, ransoms and storms waiting, sieges, and the GM's open battles and
sieges with the strengths the rules count, and a battle or siege resolved."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from kingmaker.rules import limits as lim

from .schemas import ChosenId, Id, Input, Note, OutcomeOut


class CardOut(BaseModel):
    id: str
    name: str
    kind: str = Field(description="noble, award, ship, event (its event's kind in event_kind)")
    event_kind: str | None = None


class DecksOut(BaseModel):
    """The decks' sizes (their order is the GM's secret) and the Chancery's size."""

    event: int
    event_discard: int
    crown: int
    crown_discard: int
    chancery: int


class HandOut(BaseModel):
    faction: str
    size: int
    cards: list[CardOut] | None = Field(
        None, description="only for the caller's own hand (the GM: every hand)"
    )


class CaptiveOut(BaseModel):
    noble: str
    name: str
    faction: str | None = Field(description="the captive's own faction")
    captor: str
    place: str | None = Field(description="where he was taken (freed, he stands in the open there)")
    place_name: str | None = None
    round: int | None = None
    turn: str | None = None
    executed_at_turn_end: bool = Field(description="executed when this turn ends unless ransomed or freed")


class RansomOut(BaseModel):
    """A ransom offer waiting for its answer: only its two parties (and the GM) see it."""

    id: str
    by: str
    captive: str
    captive_name: str
    awaiting: list[str]
    terms: str = Field(description="what each side gives, in words")
    text: str = Field(description="the offer as a text order")
    due: str | None = None
    for_you: bool


class StormShipOut(BaseModel):
    ship: str
    name: str
    faction: str | None
    ports: list[CardOut] = Field(description="the ports it may be driven into (id and name)")
    chosen: str | None = Field(default=None, description="the port chosen (only for the caller's own ships)")


class StormOut(BaseModel):
    id: str
    ships: list[StormShipOut]
    due: str | None = None
    for_you: bool


class SiegeOut(BaseModel):
    place: str
    place_name: str
    by: str
    besiegers: list[str]
    round: int
    turn: str
    last_draw_round: int


class FullGameOut(BaseModel):
    """The full game's part of the position as the caller may see it."""

    viewer: str
    phased: bool
    phase: str
    round: int
    turn: str
    event: CardOut | None = Field(default=None, description="the event card drawn for this turn")
    decks: DecksOut
    hands: list[HandOut]
    captives: list[CaptiveOut]
    ransoms: list[RansomOut]
    storms: list[StormOut]
    sieges: list[SiegeOut]
    dead: list[str]
    draw_events: bool = Field(description="the service draws each turn's event as it begins")
    game_over: str = Field(default="", description="the rule that ended the game, once it has ended")
    winner: str = Field(default="", description="the faction that won, if any")


# -- the GM's open battles and sieges -----------------------------------------------------
class SideOut(BaseModel):
    factions: list[str]
    nobles: list[str]
    names: list[str]
    strength: int


class OpenBattleOut(BaseModel):
    id: str
    place: str
    place_name: str
    by: str
    attacking: SideOut
    defending: SideOut
    ratio: str | None = Field(
        description="the odds category of the larger side to the smaller (BATTLE.ratio)"
    )
    ready: bool = Field(description="whether the rules would draw for it now")
    rule: str | None = None
    why: str = ""


class OpenSiegeOut(BaseModel):
    place: str
    place_name: str
    by: str
    besieging: SideOut
    inside: SideOut
    garrison: int
    held: int = Field(description="what the besiegers must match: the garrison and the nobles inside")
    held_words: str
    round: int
    turn: str
    last_draw_round: int
    ready: bool
    rule: str | None = None
    why: str = ""


class FightingOut(BaseModel):
    """The open battles and sieges, as the rules count them (the GM's)."""

    phase: str
    round: int
    turn: str
    battles: list[OpenBattleOut]
    sieges: list[OpenSiegeOut]


class ResolveIn(Input):
    attack: Id | None = Field(default=None, description="the attack's id (a battle)")
    place: Id | None = Field(default=None, description="the besieged place (a siege's draw)")


class ResolvedOut(BaseModel):
    outcome: OutcomeOut
    kind: str = Field(description="battle or siege")
    card: CardOut | None = None
    sentence: str = Field(default="", description="the outcome in one paragraph (plain text)")
    table: list[list[str]] = Field(
        default_factory=list, description="the table's rows (plain text), header first"
    )
    report: str = Field(default="", description="the paragraph and the table in Markdown")


# -- a player's steps ----------------------------------------------------------------------
class RansomIn(Input):
    captive: Id
    id: ChosenId | None = Field(default=None, description="the offer's id (default: one is made)")
    give: list[Id] = Field(
        default_factory=list, max_length=20, description="cards the caller gives (hand or nobles)"
    )
    take: list[Id] = Field(default_factory=list, max_length=20, description="cards the other side gives")
    give_heirs: list[Id] = Field(default_factory=list, max_length=10)
    take_heirs: list[Id] = Field(default_factory=list, max_length=10)
    note: Note = Field(
        "", description=f"a promise, noted and not enforced (at most {lim.NOTE_MAX} characters)"
    )
    by: Id | None = Field(default=None, description="whose offer (default: your faction; the GM must say)")


class PortIn(Input):
    ship: Id
    port: Id
    by: Id | None = None


class CaptiveIn(Input):
    captive: Id
    action: Literal["release", "execute"] = Field(description="release (for nothing) or execute")
    by: Id | None = None
