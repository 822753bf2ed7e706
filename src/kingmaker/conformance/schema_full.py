"""The fields format 2 adds to FORMAT.md (FULL_GAME §5), beside format 1's in ``schema``.

A case says ``format: 2`` to use them; a case without ``format`` is format 1 and may not
(F26: its fields and meanings are unchanged).
"""

from __future__ import annotations

FORMATS = (1, 2)

PLACE_KEYS_2 = {"garrison", "cathedral", "regions", "england", "castle_of"}
#: Board fields of issue 14 (DEAL.noble): read, but not run yet.
LATER_PLACE = {"castle_of"}
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
}
#: Steps of issue 14 (Parliament, coronation, Crown cards): read, but not run yet.
LATER_STEPS = {
    "summon_parliament",
    "attend",
    "propose",
    "vote",
    "close_parliament",
    "crown",
    "assign",
    "draw_crown",
    "enter_play",
}
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
#: `then` keys of issue 14 that the engine does not hold yet.
LATER_THEN = {"parliament", "winner"}
LATER_STATE = {"parliament", "votes"}
