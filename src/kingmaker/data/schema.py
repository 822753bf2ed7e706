"""The fields of every data file: names, types, whether required, lowest values.

``docs/data-format.md`` documents the same tables for people; keep the two in step.
"""

from __future__ import annotations

from kingmaker.rules.cards import AwardKind, EventKind

from .fields import BOOL, INT, INT_TABLE, NUMBER, PAIRS, STR, STR_LIST, Field

SETUP = "setup.toml"
PLACES = "places.toml"
ROADS = "roads.toml"
SEAS = "seas.toml"
NOBLES = "nobles.toml"
AWARDS = "awards.toml"
SHIPS = "ships.toml"
HEIRS = "heirs.toml"
EVENTS = "events.toml"
FILES = (SETUP, PLACES, ROADS, SEAS, NOBLES, AWARDS, SHIPS, HEIRS, EVENTS)

SETUP_FIELDS = {
    "name": Field(STR, required=True),
    "min_factions": Field(INT, required=True, minimum=1),
    "max_factions": Field(INT, required=True, minimum=1),
    "cards_per_faction": Field(INT, required=True, minimum=1),
    "removed": Field(STR_LIST),
    "min_event_cards": Field(INT, minimum=0),
}
FACTIONS_KEY = "factions"  # a table of faction tables, read on its own
PARLIAMENT_KEY = "parliament"  # the royal votes, a table read on its own (FULL_GAME 3.7)
PARLIAMENT_FIELDS = {
    "lords": Field(INT_TABLE, minimum=0),
    "commons": Field(INT_TABLE, minimum=0),
}
ROYAL_VOTES = ("king", "senior_lancaster", "senior_york")
FACTION_FIELDS = {
    "name": Field(STR, required=True),
    "colour": Field(STR, required=True),
}

PLACE_FIELDS = {
    "name": Field(STR),
    "kind": Field(STR, required=True),
    "capacity": Field(INT, minimum=0),  # required for locations, checked by the parser
    "garrison": Field(INT, minimum=0),  # likewise
    "cathedral": Field(BOOL),
    "regions": Field(STR_LIST),
    "seas": Field(STR_LIST),
    "lon": Field(NUMBER),
    "lat": Field(NUMBER),
    "offmap": Field(BOOL),
    "commons_votes": Field(INT, minimum=0),  # a city's or town's, its controller's (3.7)
}

SEA_FIELDS = {
    "name": Field(STR),
    "adjacent": Field(STR_LIST),
}

ROADS_TOP = ("adjacent", "roads")
ADJACENT_FIELD = Field(PAIRS)
ROAD_FIELDS = {
    "name": Field(STR),
    "places": Field(STR_LIST, required=True),
}

NOBLE_FIELDS = {
    "name": Field(STR),
    "troops": Field(INT, required=True, minimum=0),
    "title": Field(STR),
    "castles": Field(STR_LIST, required=True),
    "lords_votes": Field(INT, minimum=0),
    "commons_votes": Field(INT, minimum=0),
}

# awards.toml has one section per kind of crown item.
AWARD_SECTIONS = {
    "titles": AwardKind.TITLE,
    "offices": AwardKind.OFFICE,
    "sees": AwardKind.SEE,
    "mercenaries": AwardKind.MERCENARY,
    "towns": AwardKind.TOWN,
    "other": AwardKind.OTHER,
}
SECTION_OF_KIND = {kind: section for section, kind in AWARD_SECTIONS.items()}
AWARD_FIELDS = {
    "name": Field(STR),
    "troops": Field(INT, minimum=0),
    "regional": Field(INT_TABLE, minimum=0),
    "places": Field(STR_LIST),
    "commons_votes": Field(INT, minimum=0),
    "lords_votes": Field(INT, minimum=0),
    "copies": Field(INT, minimum=1),
    "seniority": Field(INT, minimum=1),  # sees only
}

SHIP_FIELDS = {
    "name": Field(STR),
    "capacity": Field(INT, required=True, minimum=1),
    "home_port": Field(STR, required=True),
}

HOUSES = ("lancaster", "york")
HEIR_FIELDS = {
    "name": Field(STR),
    "house": Field(STR, required=True),
    "order": Field(INT, required=True, minimum=1),
    "start": Field(STR),
    "noble": Field(STR),
    "crowned": Field(BOOL),
}

# events.toml: one table per event card. `event` is a table whose `kind` says which
# other fields it takes; `battle` is "bad_weather" or a table of BATTLE_FIELDS.
EVENT_CARD_FIELDS = ("name", "event", "battle")
NAME_FIELD = Field(STR)
BAD_WEATHER = "bad_weather"
BATTLE_FIELDS = {
    "odds": Field(STR, required=True),
    "deaths": Field(STR_LIST),
}
EVENT_KIND_FIELD = Field(STR, required=True)
EVENT_FIELDS: dict[EventKind, dict[str, Field]] = {
    EventKind.NONE: {},
    EventKind.PLAGUE: {"places": Field(STR_LIST, required=True)},
    EventKind.STORM: {"seas": Field(STR_LIST, required=True)},
    EventKind.SUMMONS: {"target": Field(STR), "holder": Field(STR), "place": Field(STR, required=True)},
    EventKind.EMBASSY: {"king": Field(STR, required=True), "place": Field(STR, required=True)},
    EventKind.MERCENARIES: {"cards": Field(STR_LIST, required=True)},
    EventKind.PARLIAMENT_CHANCELLOR: {},
    EventKind.PARLIAMENT_MUST: {},
    EventKind.WRIT: {"held": Field(BOOL)},
    EventKind.FREE_MOVE: {"held": Field(BOOL)},
}
