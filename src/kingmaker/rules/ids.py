"""Rule identifiers, exactly as ``shared/rules/RULE_IDS.md`` spells them.

Every decision the engine makes names one of these. They are the public contract: a
search for ``LOC.neutral.road`` finds the code that enforces it and the vectors that
check it.
"""

from __future__ import annotations

from typing import Final

# Location status (RULE_IDS §1): LOC.<status>.<aspect>
FRIENDLY: Final = "friendly"
UNFORTIFIED: Final = "unfortified"
OPEN: Final = "open"
NEUTRAL: Final = "neutral"
UNFRIENDLY: Final = "unfriendly"
STATUSES: Final = (FRIENDLY, UNFORTIFIED, OPEN, NEUTRAL, UNFRIENDLY)

ROAD: Final = "road"
ENTER: Final = "enter"
SHIP_ENTER: Final = "ship_enter"
FORCED_LEAVE: Final = "forced_leave"
EMBARK: Final = "embark"
DISEMBARK: Final = "disembark"
SIEGE: Final = "siege"
ASPECTS: Final = (ROAD, ENTER, SHIP_ENTER, FORCED_LEAVE, EMBARK, DISEMBARK, SIEGE)

# Aspects a controlling faction may grant (ruling R5).
GRANTABLE: Final = (ROAD, ENTER, SHIP_ENTER, EMBARK, FORCED_LEAVE)


def loc(status: str, aspect: str) -> str:
    """The id of one cell of the status table.

    >>> loc("neutral", "road")
    'LOC.neutral.road'
    """
    return f"LOC.{status}.{aspect}"


LOC_IDS: Final = tuple(loc(s, a) for s in STATUSES for a in ASPECTS)

LOC_CAPACITY: Final = "LOC.capacity"
SHIP_CAPACITY: Final = "SHIP.capacity"
LOC_PERMISSION: Final = "LOC.permission"

# Alliances (RULE_IDS §2)
ALLY_1: Final = "ALLY.1"
ALLY_2: Final = "ALLY.2"
ALLY_3: Final = "ALLY.3"
ALLY_4: Final = "ALLY.4"
ALLY_5: Final = "ALLY.5"
ALLY_6: Final = "ALLY.6"
ALLY_7: Final = "ALLY.7"
ALLY_7_I: Final = "ALLY.7.i"
ALLY_7_II: Final = "ALLY.7.ii"
ALLY_7_III: Final = "ALLY.7.iii"
ALLY_7_IV: Final = "ALLY.7.iv"
ALLY_7_V: Final = "ALLY.7.v"
ALLY_7_FACTION: Final = "ALLY.7.faction"
ALLY_7_RANDOM: Final = "ALLY.7.random"
ALLY_8: Final = "ALLY.8"
ALLY_9: Final = "ALLY.9"
ALLY_10: Final = "ALLY.10"
ALLY_11: Final = "ALLY.11"
ALLY_12: Final = "ALLY.12"

# Ids the conformance format adds.
TURN_ORDER: Final = "TURN.order"
ORDER_FOREIGN: Final = "ORDER.foreign"
ORDER_INVALID: Final = "ORDER.invalid"

# Ids of this engine for the GM's own acts (no rule of the posts decides them).
GM_ACTION: Final = "GM.action"
TURN_END: Final = "TURN.end"

ALL_RULE_IDS: Final = frozenset(
    (
        *LOC_IDS,
        LOC_CAPACITY,
        SHIP_CAPACITY,
        LOC_PERMISSION,
        ALLY_1,
        ALLY_2,
        ALLY_3,
        ALLY_4,
        ALLY_5,
        ALLY_6,
        ALLY_7,
        ALLY_7_I,
        ALLY_7_II,
        ALLY_7_III,
        ALLY_7_IV,
        ALLY_7_V,
        ALLY_7_FACTION,
        ALLY_7_RANDOM,
        ALLY_8,
        ALLY_9,
        ALLY_10,
        ALLY_11,
        ALLY_12,
        TURN_ORDER,
        ORDER_FOREIGN,
        ORDER_INVALID,
        GM_ACTION,
        TURN_END,
    )
)
