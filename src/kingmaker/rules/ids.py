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


# The rest of the game (FULL_GAME.md): events, phases, battles, sieges, captives,
# ransom and execution, Parliament, coronation, Crown cards, victory.

BATTLE_ALLIES: Final = "BATTLE.allies"
BATTLE_BAD_WEATHER: Final = "BATTLE.bad_weather"
BATTLE_CAPTURE: Final = "BATTLE.capture"
BATTLE_DEATHS: Final = "BATTLE.deaths"
BATTLE_DECISIVE: Final = "BATTLE.decisive"
BATTLE_DESPERATE: Final = "BATTLE.desperate"
BATTLE_DRAW: Final = "BATTLE.draw"
BATTLE_INDECISIVE: Final = "BATTLE.indecisive"
BATTLE_RATIO: Final = "BATTLE.ratio"
BATTLE_SIDES: Final = "BATTLE.sides"
BATTLE_SPOILS: Final = "BATTLE.spoils"
BATTLE_STRENGTH: Final = "BATTLE.strength"
CAPTURE_ESCORTED: Final = "CAPTURE.escorted"
CAPTURE_FORTIFIED: Final = "CAPTURE.fortified"
CAPTURE_HEIR: Final = "CAPTURE.heir"
CAPTURE_NOBLE: Final = "CAPTURE.noble"
CAPTURE_ORPHAN: Final = "CAPTURE.orphan"
CROWN_BEAUFORT: Final = "CROWN.beaufort"
CROWN_CATHEDRAL: Final = "CROWN.cathedral"
CROWN_CLERGY: Final = "CROWN.clergy"
CROWN_ESCORT: Final = "CROWN.escort"
CROWN_PHASE: Final = "CROWN.phase"
CROWN_SUCCESSION: Final = "CROWN.succession"
DEAL_ASSIGN: Final = "DEAL.assign"
DEAL_CHANCERY: Final = "DEAL.chancery"
DEAL_DRAW: Final = "DEAL.draw"
DEAL_EMPTY: Final = "DEAL.empty"
DEAL_LIMITS: Final = "DEAL.limits"
DEAL_NOBLE: Final = "DEAL.noble"
DEAL_SETUP: Final = "DEAL.setup"
EVENT_COMBAT_DRAW: Final = "EVENT.combat_draw"
EVENT_DRAW: Final = "EVENT.draw"
EVENT_EMBASSY: Final = "EVENT.embassy"
EVENT_HELD: Final = "EVENT.held"
EVENT_MERCENARIES: Final = "EVENT.mercenaries"
EVENT_NONE: Final = "EVENT.none"
EVENT_PARLIAMENT: Final = "EVENT.parliament"
EVENT_PLAGUE: Final = "EVENT.plague"
EVENT_RESHUFFLE: Final = "EVENT.reshuffle"
EVENT_STORM: Final = "EVENT.storm"
EVENT_SUMMONS: Final = "EVENT.summons"
EVENT_SUMMONS_VOID: Final = "EVENT.summons.void"
EXEC_CAPTIVE: Final = "EXEC.captive"
EXEC_HEIR: Final = "EXEC.heir"
EXEC_REMAINS: Final = "EXEC.remains"
EXEC_TWO_HOUSES: Final = "EXEC.two_houses"
EXEC_UNRANSOMED: Final = "EXEC.unransomed"
PARL_ATTEND: Final = "PARL.attend"
PARL_BASIC: Final = "PARL.basic"
PARL_BUSINESS: Final = "PARL.business"
PARL_CLOSE: Final = "PARL.close"
PARL_PEACE: Final = "PARL.peace"
PARL_PRESIDES: Final = "PARL.presides"
PARL_SEAT: Final = "PARL.seat"
PARL_SUMMON_CHANCELLOR: Final = "PARL.summon.chancellor"
PARL_SUMMON_KING: Final = "PARL.summon.king"
PARL_SUMMON_MUST: Final = "PARL.summon.must"
PARL_TWO_KINGS: Final = "PARL.two_kings"
PARL_UNAWARDED: Final = "PARL.unawarded"
PARL_VOTE: Final = "PARL.vote"
PHASE_COMBAT: Final = "PHASE.combat"
PHASE_CORONATION: Final = "PHASE.coronation"
PHASE_CROWN: Final = "PHASE.crown"
PHASE_EVENT: Final = "PHASE.event"
PHASE_MOVEMENT: Final = "PHASE.movement"
PHASE_ORDER: Final = "PHASE.order"
PHASE_PARLIAMENT: Final = "PHASE.parliament"
RANSOM_FUTURE: Final = "RANSOM.future"
RANSOM_OFFER: Final = "RANSOM.offer"
RANSOM_PLACE: Final = "RANSOM.place"
RANSOM_RELEASE: Final = "RANSOM.release"
RANSOM_ROYAL: Final = "RANSOM.royal"
RANSOM_TERMS: Final = "RANSOM.terms"
SIEGE_CONTINUE: Final = "SIEGE.continue"
SIEGE_DEATHS: Final = "SIEGE.deaths"
SIEGE_FALL: Final = "SIEGE.fall"
SIEGE_GARRISON: Final = "SIEGE.garrison"
SIEGE_LIFT: Final = "SIEGE.lift"
SIEGE_RESOLVE: Final = "SIEGE.resolve"
SIEGE_SALLY: Final = "SIEGE.sally"
SIEGE_SEALED: Final = "SIEGE.sealed"
SIEGE_STRENGTH: Final = "SIEGE.strength"
VICTORY_BEAUFORT: Final = "VICTORY.beaufort"
VICTORY_HOLD: Final = "VICTORY.hold"
VICTORY_LAST_HEIR: Final = "VICTORY.last_heir"
VICTORY_NONE: Final = "VICTORY.none"
VICTORY_PARLIAMENT: Final = "VICTORY.parliament"
VICTORY_TIMING: Final = "VICTORY.timing"

FULL_GAME_IDS: Final = frozenset(
    (
        BATTLE_ALLIES,
        BATTLE_BAD_WEATHER,
        BATTLE_CAPTURE,
        BATTLE_DEATHS,
        BATTLE_DECISIVE,
        BATTLE_DESPERATE,
        BATTLE_DRAW,
        BATTLE_INDECISIVE,
        BATTLE_RATIO,
        BATTLE_SIDES,
        BATTLE_SPOILS,
        BATTLE_STRENGTH,
        CAPTURE_ESCORTED,
        CAPTURE_FORTIFIED,
        CAPTURE_HEIR,
        CAPTURE_NOBLE,
        CAPTURE_ORPHAN,
        CROWN_BEAUFORT,
        CROWN_CATHEDRAL,
        CROWN_CLERGY,
        CROWN_ESCORT,
        CROWN_PHASE,
        CROWN_SUCCESSION,
        DEAL_ASSIGN,
        DEAL_CHANCERY,
        DEAL_DRAW,
        DEAL_EMPTY,
        DEAL_LIMITS,
        DEAL_NOBLE,
        DEAL_SETUP,
        EVENT_COMBAT_DRAW,
        EVENT_DRAW,
        EVENT_EMBASSY,
        EVENT_HELD,
        EVENT_MERCENARIES,
        EVENT_NONE,
        EVENT_PARLIAMENT,
        EVENT_PLAGUE,
        EVENT_RESHUFFLE,
        EVENT_STORM,
        EVENT_SUMMONS,
        EVENT_SUMMONS_VOID,
        EXEC_CAPTIVE,
        EXEC_HEIR,
        EXEC_REMAINS,
        EXEC_TWO_HOUSES,
        EXEC_UNRANSOMED,
        PARL_ATTEND,
        PARL_BASIC,
        PARL_BUSINESS,
        PARL_CLOSE,
        PARL_PEACE,
        PARL_PRESIDES,
        PARL_SEAT,
        PARL_SUMMON_CHANCELLOR,
        PARL_SUMMON_KING,
        PARL_SUMMON_MUST,
        PARL_TWO_KINGS,
        PARL_UNAWARDED,
        PARL_VOTE,
        PHASE_COMBAT,
        PHASE_CORONATION,
        PHASE_CROWN,
        PHASE_EVENT,
        PHASE_MOVEMENT,
        PHASE_ORDER,
        PHASE_PARLIAMENT,
        RANSOM_FUTURE,
        RANSOM_OFFER,
        RANSOM_PLACE,
        RANSOM_RELEASE,
        RANSOM_ROYAL,
        RANSOM_TERMS,
        SIEGE_CONTINUE,
        SIEGE_DEATHS,
        SIEGE_FALL,
        SIEGE_GARRISON,
        SIEGE_LIFT,
        SIEGE_RESOLVE,
        SIEGE_SALLY,
        SIEGE_SEALED,
        SIEGE_STRENGTH,
        VICTORY_BEAUFORT,
        VICTORY_HOLD,
        VICTORY_LAST_HEIR,
        VICTORY_NONE,
        VICTORY_PARLIAMENT,
        VICTORY_TIMING,
    )
)

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
        *FULL_GAME_IDS,
    )
)
