"""The verbs of the order grammar, players' (``PLAYERS_VERBS``), with the ``Verb`` record
(the GM's: ``verb_table_gm``). ``verbs`` puts them together and answers questions about
them; this module is only the table."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

PLAYERS: Final = "players"
GM: Final = "the GM"


@dataclass(frozen=True, slots=True)
class Verb:
    """One verb of the grammar as the documentation gives it.

    ``title``: how it is named (``MOVES``, ``ACCEPTS ALLIANCE``); ``words``: the words
    that look it up (``--syntax MOVE``) and that a line using it holds (its first
    keyword, each spelling); ``statements``: the grammar's statements it covers;
    ``forms``: its syntax, one form a line; ``examples``: lines that read as orders."""

    title: str
    who: str
    statements: tuple[str, ...]
    summary: str
    forms: tuple[str, ...]
    examples: tuple[str, ...]
    words: tuple[str, ...]
    notes: tuple[str, ...] = ()

    @property
    def example(self) -> str:
        """The first example: the one a syntax error shows."""
        return self.examples[0]

    @property
    def anchor(self) -> str:
        """The section's anchor as Markdown renderers make it (``to-a-storms-port``)."""
        return re.sub(r"[^\w\- ]", "", self.title.lower()).replace(" ", "-")


PLAYERS_VERBS: Final[tuple[Verb, ...]] = (
    # -- movement -------------------------------------------------------------------------
    Verb(
        "MOVES",
        PLAYERS,
        ("move",),
        "Moves a noble or an army on land (a ship or fleet named here sails: see SAILS). With "
        "no path given, the reader takes the shortest legal route: along roads; else one "
        "cross-country link; else roads and cross-country links together (several movement "
        "steps in one turn are one order, R11). When no route is legal, the reply names the "
        "place that blocks, or says that no route leads there by land.",
        (
            "<unit> MOVES [FROM <place>] TO <place>",
            "<unit> MOVES [FROM <place>] INTO <place>          (ends inside)",
            "<unit> MOVES [FROM <place>] TO <place> IN <place> (ends inside: the place twice)",
            "<unit> MOVES ... INSIDE                           (ends inside)",
            "<unit> MOVES FROM <place> TO <place> VIA <place>, <place> ...  (every place between)",
            "<unit> MOVES ALONG <place>, <place>, ...          (the whole path, from where it is)",
            "<unit> MOVES CROSS COUNTRY TO <place>             (one cross-country link)",
            "<unit> MOVES ... BY ROAD                          (roads only)",
            "<unit> MOVES ... DIRECT                           (no place between)",
            "<unit> MOVES ... AS <id>                          (the id of the request, if an ally must confirm)",
        ),
        (
            "Percy MOVES FROM York TO Tadcaster",
            "Percy MOVES TO Ripon",
            "Percy MOVES INTO Ripon",
            "Percy MOVES TO Ripon IN Ripon",
            "Percy MOVES FROM York TO Leeds VIA Tadcaster",
            "Percy MOVES ALONG York, Tadcaster, Ferrybridge",
            "Percy MOVES CROSS COUNTRY TO Sheriff Hutton",
            "Percy MOVES TO Helmsley",
            "Percy MOVES FROM York TO Helmsley VIA Malton",
            "Percy MOVES TO Masham BY ROAD",
            "Percy MOVES FROM York TO Ripon AS q9",
            "Grace Dieu MOVES TO Bristol",
        ),
        ("moves", "move"),
        (
            "The parts after the verb (FROM, TO, INTO, IN, VIA, ALONG, CROSS COUNTRY, BY ROAD, "
            "DIRECT, INSIDE, AS) come in any order, each once.",
            "`Percy MOVES TO Helmsley` is read as a route: by road to Malton, then "
            "cross-country to Helmsley; the reply shows it (`read as: Percy MOVES FROM York "
            "TO Helmsley VIA Malton`). A place where a cross-country step begins or ends is "
            "a stop, not a place passed through (docs/rulings.md 72).",
            "A name that fits several places is settled by the state where it can be: FROM is "
            "where the unit is, TO a place it can reach by land, VIA the place joined to the "
            "one before.",
        ),
    ),
    Verb(
        "SAILS",
        PLAYERS,
        ("sail",),
        "Sails a ship or a fleet to a sea zone or a port (a noble aboard a ship may be "
        "named instead: his ship sails). With no sea zones given, the reader takes the "
        "route the rules find. `MOVES` says the same for a ship.",
        (
            "<ship> SAILS [FROM <port or sea zone>] TO <sea zone or port>",
            "<ship> SAILS TO <port> IN <sea zone>          (reaching the port from that zone)",
            "<ship> SAILS TO <port> VIA <sea zone>, ...    (every zone crossed)",
            "<ship> SAILS DIRECT TO <port>                 (no zone between)",
            "<noble aboard> SAILS TO <port>",
        ),
        (
            "Grace Dieu SAILS TO Hull",
            "Grace Dieu SAILS TO the Wash",
            "Grace Dieu SAILS TO Bristol IN Bristol Channel",
            "Percy SAILS TO Hull",
        ),
        ("sails", "sail"),
        (
            "FROM names where the ship is; a port name that fits several ports is settled "
            "by the port the ship is in, or by the ports it can reach.",
        ),
    ),
    Verb(
        "ENTERS",
        PLAYERS,
        ("enter",),
        "A noble or army in the open at a location goes inside it.",
        ("<unit> ENTERS [<place>] [AS <id>]",),
        ("Percy ENTERS York", "Percy ENTERS"),
        ("enters", "enter"),
    ),
    Verb(
        "LEAVES",
        PLAYERS,
        ("leave",),
        "A noble or army inside a location goes out into the open there.",
        ("<unit> LEAVES [<place>] [AS <id>]",),
        ("Percy LEAVES York", "Talbot LEAVES Coventry"),
        ("leaves", "leave"),
    ),
    Verb(
        "EMBARKS",
        PLAYERS,
        ("embark",),
        "Nobles at a port (inside or in the open) board a ship in that port.",
        ("<nobles> EMBARK ON <ship> [AS <id>]", "<nobles> EMBARK ABOARD <ship>"),
        ("Percy and Stanley EMBARK ON Grace Dieu", "Percy EMBARKS ABOARD Grace Dieu"),
        ("embarks", "embark"),
    ),
    Verb(
        "LANDS",
        PLAYERS,
        ("land",),
        "Nobles aboard a ship land at a port: the port the ship is in, or one bordering "
        "its sea zone; they stay in the open unless INSIDE or INTO says they go in. "
        "DISEMBARKS is the same.",
        (
            "<nobles> LAND AT <port> [INSIDE] [AS <id>]",
            "<nobles> LAND INTO <port>",
            "[<nobles>] LAND FROM <ship> AT <port>",
        ),
        (
            "Percy LANDS AT Hull",
            "Percy and Stanley LAND AT Hull INSIDE",
            "Percy LANDS FROM Grace Dieu AT Hull",
            "Percy DISEMBARKS AT Hull",
        ),
        ("lands", "land", "disembarks", "disembark"),
    ),
    Verb(
        "FORM ARMY",
        PLAYERS,
        ("form",),
        "Nobles at one place form an army (ships at one place, a fleet); the engine names "
        "the senior officer. With no id, the reader numbers it (army-1, fleet-1).",
        (
            "<nobles> FORM [AN] ARMY [<id>] [IN <place>]",
            "<ships> FORM [A] FLEET [<id>] [IN <place or sea zone>]",
        ),
        (
            "Percy and Stanley FORM ARMY IN York",
            "Percy and Stanley FORM ARMY north IN York",
            "Grace Dieu and Mary of the Tower FORM FLEET IN North Sea",
        ),
        ("forms", "form", "army", "fleet"),
    ),
    # -- combat -------------------------------------------------------------------------------
    Verb(
        "BESIEGES",
        PLAYERS,
        ("siege",),
        "A noble or army in the open at a location lays siege to it.",
        ("<unit> BESIEGES <place> [AS <id>]",),
        ("Neville BESIEGES Ripon",),
        ("besieges", "besiege", "siege"),
    ),
    Verb(
        "ATTACKS",
        PLAYERS,
        ("attack",),
        "A noble or army attacks a noble or army at its place (nobles defending with the "
        "target fight too). Nobles inside a besieged place may sally to a battle at its "
        "walls.",
        (
            "<unit> ATTACKS <noble or army> [AS <id>]",
            "<unit> ATTACKS <noble or army> WITH SALLY [FROM <place>]: <nobles>",
        ),
        (
            "Percy ATTACKS Clifford",
            "Mowbray ATTACKS Neville WITH SALLY FROM Ripon: Talbot",
        ),
        ("attacks", "attack", "fights", "fight"),
    ),
    Verb(
        "BATTLES",
        PLAYERS,
        ("battle",),
        "A noble or army attacks another faction's one unit at a place (where it stands, "
        "unless IN or AT names it).",
        ("<unit> BATTLES <faction or unit> [IN <place>] [WITH SALLY ...] [AS <id>]",),
        ("Percy BATTLES Blue IN York", "Percy BATTLES Blue"),
        ("battles", "battle"),
    ),
    Verb(
        "DEFENDS WITH",
        PLAYERS,
        ("defend",),
        "Until the round ends, a noble fights on an allied noble's side when that noble is attacked.",
        ("<noble> DEFENDS WITH <noble>",),
        ("Percy DEFENDS WITH Stanley",),
        ("defends", "defend"),
    ),
    # -- heirs, captives, storms and cards -------------------------------------------------------
    Verb(
        "CAPTURES",
        PLAYERS,
        ("capture_heir",),
        "A noble takes an unescorted royal heir at his place.",
        ("<noble> CAPTURES <heir>",),
        ("Percy CAPTURES Margaret of Anjou",),
        ("captures",),
    ),
    Verb(
        "TO (a storm's port)",
        PLAYERS,
        ("choose_port",),
        "A faction answers a storm: the port its ship is driven into, among the ports the storm allows.",
        ("<ship> TO <port>",),
        ("Grace Dieu TO Hull",),
        (),
    ),
    Verb(
        "RANSOMS",
        PLAYERS,
        ("ransom",),
        "Offers terms for a captive: what the offering faction gives (FOR), nothing (FREE), "
        "or each party's share; the other party confirms. A promise may be added.",
        (
            "[<faction>] RANSOMS <captive> FOR <cards and heirs> [AS <id>]",
            "[<faction>] RANSOMS <captive> FREE [AS <id>]",
            "[<faction>] RANSOMS <captive>: <faction> GIVES <cards> ; <faction> GIVES NOTHING [AS <id>]",
            "... [AS <id>] PROMISE: <text>",
        ),
        (
            "Blue RANSOMS Stafford FOR City of Bristol AS r2",
            "Red RANSOMS Stafford FREE AS r2",
            "Red RANSOMS Stafford: Blue GIVES Bristol; Red GIVES NOTHING AS r2 PROMISE: our votes in Parliament",
        ),
        ("ransoms", "ransom", "gives", "give"),
    ),
    Verb(
        "ACCEPTS RANSOM",
        PLAYERS,
        ("confirm_ransom", "reject_ransom"),
        "Answers the ransom offered for a captive, named by the captive (or answer its id "
        "with CONFIRMS / REJECTS).",
        (
            "[<faction>] ACCEPTS RANSOM OF <captive>     (CONFIRMS RANSOM OF: the same)",
            "[<faction>] DECLINES RANSOM OF <captive>    (REJECTS RANSOM FOR: the same)",
        ),
        ("Red CONFIRMS RANSOM OF Stafford", "Red DECLINES RANSOM OF Stafford"),
        ("accepts", "accept", "declines", "decline"),
    ),
    Verb(
        "RELEASES",
        PLAYERS,
        ("release_captive",),
        "A faction frees one of its captives.",
        ("[<faction>] RELEASES <captive>", "[<faction>] FREES <captive>"),
        ("Red RELEASES Stafford", "FREE Stafford"),
        ("releases", "frees"),
    ),
    Verb(
        "EXECUTES",
        PLAYERS,
        ("execute",),
        "A faction executes one of its captives (a noble or a royal heir).",
        ("[<faction>] EXECUTES <captive>",),
        ("Red EXECUTES Stafford", "Red EXECUTES Henry VI"),
        ("executes", "execute"),
    ),
    Verb(
        "PLAYS",
        PLAYERS,
        ("play_card",),
        "A faction plays an event card it holds, for one of its units.",
        ("[<faction>] PLAYS <card> FOR <unit>",),
        ("Red PLAYS Forced March FOR Percy",),
        ("plays", "play"),
    ),
    # -- the Crown's cards, coronation and Parliament --------------------------------------------
    Verb(
        "ASSIGNS",
        PLAYERS,
        ("assign",),
        "A faction gives a Crown card it holds (a title, office, see, ship or town) to one of its nobles.",
        ("[<faction>] ASSIGNS <card> TO <noble>",),
        ("Red ASSIGNS Chancellor of England TO Percy",),
        ("assigns", "assign"),
    ),
    Verb(
        "BRINGS INTO PLAY",
        PLAYERS,
        ("enter_play", "noble_enters_play"),
        "A faction brings a noble card it holds into play, at one of his castles (which "
        "need not be named when he has one).",
        (
            "[<faction>] BRINGS <noble> INTO PLAY [AT <castle>]",
            "<noble> ENTERS PLAY [AT <castle>]",
        ),
        ("Red BRINGS Talbot INTO PLAY AT Sheffield", "Talbot ENTERS PLAY AT Sheffield"),
        ("brings", "bring"),
    ),
    Verb(
        "CROWNS",
        PLAYERS,
        ("crown",),
        "A faction crowns the royal heir it holds.",
        ("[<faction>] CROWNS <heir>",),
        ("Red CROWNS Richard, Duke of York",),
        ("crowns",),
    ),
    Verb(
        "SUMMONS PARLIAMENT",
        PLAYERS,
        ("summon_parliament",),
        "A faction summons Parliament to a city or town it controls.",
        ("[<faction>] SUMMONS PARLIAMENT [AT|TO|IN <place>] [AS <id>]",),
        ("Red SUMMONS PARLIAMENT AT York",),
        ("summons", "summon", "parliament"),
    ),
    Verb(
        "ATTENDS WITH",
        PLAYERS,
        ("attend",),
        "A faction names the nobles it sends to the sitting Parliament (or NO ONE).",
        ("[<faction>] ATTENDS WITH <nobles>", "[<faction>] ATTENDS WITH NO ONE"),
        ("Red ATTENDS WITH Percy AND Stanley", "Green ATTENDS WITH NO ONE"),
        ("attends", "attend"),
    ),
    Verb(
        "PROPOSES",
        PLAYERS,
        ("propose",),
        "A faction puts a matter to Parliament: a Chancery card for a noble, a King as sole "
        "King, or victory. With no id, the reader numbers it (m1, m2, ...).",
        (
            "[<faction>] PROPOSES <card> FOR <noble> [AS <id>]",
            "[<faction>] PROPOSES <heir> AS SOLE KING",
            "[<faction>] PROPOSES VICTORY",
        ),
        (
            "Red PROPOSES Marshal of England FOR Percy",
            "Red PROPOSES Henry VI AS SOLE KING",
            "Red PROPOSES VICTORY",
        ),
        ("proposes", "propose"),
    ),
    Verb(
        "VOTES",
        PLAYERS,
        ("vote",),
        "A faction votes its bloc on a proposal, named by its id or by what it proposes; "
        "one stance for both houses, or one for each.",
        (
            "[<faction>] VOTES FOR|AGAINST [ON] <proposal>",
            "[<faction>] VOTES FOR IN THE LORDS AND AGAINST IN THE COMMONS ON <proposal>",
        ),
        ("Red VOTES FOR m2", "Red VOTES FOR IN THE LORDS AND AGAINST IN THE COMMONS ON m2"),
        ("votes", "vote"),
    ),
    Verb(
        "ABSTAINS",
        PLAYERS,
        ("abstain",),
        "A faction abstains on a proposal (in both houses, or in one).",
        ("[<faction>] ABSTAINS [IN THE LORDS|COMMONS] ON <proposal>",),
        ("Green ABSTAINS ON m2", "Blue ABSTAINS IN THE LORDS AND VOTES FOR IN THE COMMONS ON m2"),
        ("abstains", "abstain"),
    ),
    Verb(
        "CLOSES PARLIAMENT",
        PLAYERS,
        ("close_parliament",),
        "The presiding faction closes the sitting Parliament (the GM may too: CLOSE PARLIAMENT).",
        ("[<faction>] CLOSES PARLIAMENT",),
        ("Red CLOSES PARLIAMENT", "CLOSE PARLIAMENT"),
        ("closes", "close"),
    ),
    # -- alliances, answers and permissions --------------------------------------------------------
    Verb(
        "ALLIES WITH",
        PLAYERS,
        ("declare",),
        "A faction declares an alliance; each faction named is asked to confirm. With no "
        "id, the reader numbers it (alliance-1, ...).",
        (
            "[<faction>] ALLIES WITH <factions> [AS <id>]",
            "[<faction>] DECLARES ALLIANCE WITH <factions> [AS <id>]",
        ),
        (
            "Red ALLIES WITH Green",
            "Red ALLIES WITH Green AND Blue AS pact",
            "Red DECLARES ALLIANCE WITH Blue",
        ),
        ("allies", "ally", "declares", "declare", "alliance"),
    ),
    Verb(
        "ACCEPTS ALLIANCE",
        PLAYERS,
        ("accept_alliance", "decline_alliance"),
        "A faction answers an alliance it was invited to, named by its id or by the "
        "faction that declared it.",
        (
            "[<faction>] ACCEPTS ALLIANCE <id>        (CONFIRMS ALLIANCE: the same)",
            "[<faction>] ACCEPTS ALLIANCE WITH <faction>",
            "[<faction>] DECLINES ALLIANCE <id>       (or WITH <faction>)",
        ),
        ("Green ACCEPTS ALLIANCE alliance-2", "Green DECLINES ALLIANCE WITH Blue"),
        ("accepts", "accept", "declines", "decline", "alliance"),
    ),
    Verb(
        "LEAVES ALLIANCE",
        PLAYERS,
        ("leave_alliance",),
        "A faction leaves an alliance, on its own turn (no one need confirm).",
        ("[<faction>] LEAVES ALLIANCE <id>", "[<faction>] LEAVES ALLIANCE WITH <faction>"),
        ("Red LEAVES ALLIANCE WITH Green", "Red LEAVES ALLIANCE alliance-1"),
        ("leaves", "leave", "alliance"),
    ),
    Verb(
        "CONFIRMS",
        PLAYERS,
        ("confirm", "reject"),
        "A faction answers a request that waits for it (an ally's order for its unit, an "
        "army with its nobles, a ransom), or an alliance declaration, by its id.",
        ("[<faction>] CONFIRMS <id>", "[<faction>] REJECTS <id>"),
        ("Green CONFIRMS q6", "Green REJECTS q6"),
        ("confirms", "confirm", "rejects", "reject"),
    ),
    Verb(
        "GRANTS",
        PLAYERS,
        ("grant",),
        "The faction that controls a location lets another pass through it (PASSAGE), go "
        "in (ENTRY), sail in (HARBOUR), embark there (EMBARKATION) or leave it after a "
        "storm (DEPARTURE).",
        ("[<faction>] GRANTS <faction> <aspects> THROUGH|TO|AT|FROM|INTO|IN|OF <place>",),
        (
            "Blue GRANTS Red PASSAGE THROUGH Coventry",
            "Blue GRANTS Red ENTRY TO Coventry",
            "Blue GRANTS Red HARBOUR, EMBARKATION AND DEPARTURE AT Bristol",
        ),
        ("grants", "grant", "passage", "entry", "harbour"),
    ),
    Verb(
        "REVOKES",
        PLAYERS,
        ("revoke", "revoke_all"),
        "The granting faction withdraws a permission (the aspects named, or ALL).",
        (
            "[<faction>] REVOKES <faction> <aspects> THROUGH|TO|AT ... <place>",
            "[<faction>] REVOKES ALL FROM <faction> AT <place>",
        ),
        ("Blue REVOKES Red PASSAGE THROUGH Coventry", "Blue REVOKES ALL FROM Red AT Coventry"),
        ("revokes", "revoke"),
    ),
)
