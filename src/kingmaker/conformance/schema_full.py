"""The fields format 2 adds to FORMAT.md (FULL_GAME §5), beside format 1's in ``schema``.

A case says ``format: 2`` to use them; a case without ``format`` is format 1 and may not
(F26: its fields and meanings are unchanged).
"""

from __future__ import annotations

FORMATS = (1, 2)

PLACE_KEYS_2 = {"garrison", "cathedral", "regions", "england", "castle_of"}
#: Board fields read but not run yet (none left: ``castle_of`` gives nobles their castles).
LATER_PLACE: set[str] = set()
STATE_KEYS_2 = {
    "phase",
    "cards",
    "event_deck",
    "event_discard",
    "crown_deck",
    "crown_discard",
    "chancery",
    "hands",
    "succession",
    "captives",
    "sieges",
    "parliament",
    "votes",
    "options",
    "catalog",
}
NOBLE_KEYS_2 = {"titled"}
AWARD_KEYS_2 = {"kind", "controls", "votes"}
HEIR_KEYS_2 = {"at", "in"}
CAPTIVE_KEYS = {"by", "place"}
SIEGE_KEYS = {"place", "by"}
CATALOG_KEYS = {"kind", "troops", "regional", "votes", "name"}
CARD_KEYS = {"name", "event", "battle"}
VOTES_KEYS = {"lords", "commons"}

STEP_PARAMS_2: dict[str, set[str]] = {
    "move_route": {"unit", "path", "enter"},  # the project's: docs/rulings.md, "Mixed routes"
    "attack": {"unit", "target", "sally"},
    "deadline": {"alliance", "request"},
    "draw_event": set(),
    "battle": {"attack"},
    "siege_assault": {"place"},
    "capture": {"unit", "heir"},
    "ransom": {"captive", "give", "note"},
    "release": {"captive"},
    "execute": {"captive", "heir"},
    "choose_port": {"ship", "port"},
    "end_phase": set(),
    "play_card": {"card", "unit"},
    "summon_parliament": {"seat"},
    "attend": {"nobles"},
    "propose": {"award", "to", "motion", "heir"},
    "vote": {"proposal", "lords", "commons"},
    "close_parliament": set(),
    "crown": {"heir"},
    "assign": {"card", "to"},
    "draw_crown": set(),
    "enter_play": {"noble", "castle"},
}
#: Steps read but not run yet (none left).
LATER_STEPS: set[str] = set()
EXPECT_KEYS_2 = {"event", "battle", "siege", "killed", "executed", "vote", "presides", "winner"}
THEN_KEYS_2 = {
    "dead",
    "heirs",
    "captives",
    "sieges",
    "chancery",
    "hands",
    "event_deck",
    "event_discard",
    "crown_deck",
    "crown_discard",
    "parliament",
    "sole_king",
    "phase",
    "winner",
}
THEN_NOBLE_KEYS_2 = {"awards", "faction"}
THEN_SHIP_KEYS_2 = {"forced", "passengers"}
THEN_HEIR_KEYS = {"with", "at", "in", "crowned", "dead"}
THEN_CAPTIVE_KEYS = {"by", "place"}
THEN_SIEGE_KEYS = {"place", "by"}
#: `then` and state keys read but not run yet (none left).
LATER_THEN: set[str] = set()
LATER_STATE: set[str] = set()
