"""Orders that move units: on land (MOVES, ENTERS, LEAVES), by sea (SAILS, EMBARKS, LANDS),
and forming an army or fleet (FORM ARMY)."""

from __future__ import annotations

from collections.abc import Callable

from lark import Token, Tree

from kingmaker.rules import commands as c

from . import names as nm
from .paths import infer_land_move, infer_via, path_command, seas_of
from .reading import LineReader, Refuse, first_of, subtrees


class MoveOrders(LineReader):
    """The statements that move units, and forming armies and fleets."""

    def _st_move(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        unit = self.one(subject, nm.UNIT, "unit")
        parts = self.move_parts(st)
        if unit.kind in (nm.SHIP, nm.FLEET):
            return self.voyage(unit.id, parts, st)
        return self.land_move(unit.id, parts, st)

    def _st_sail(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        unit = self.one(subject, nm.UNIT, "ship")
        parts = self.move_parts(st)
        if unit.kind in (nm.SHIP, nm.FLEET):
            return self.voyage(unit.id, parts, st)
        noble = self.state.nobles.get(unit.id)
        if noble is not None and noble.aboard is not None:
            return self.voyage(noble.aboard, parts, st)
        raise Refuse(f"{unit.name} is not a ship or fleet, and is aboard no ship", unit=unit.id)

    def _destination(
        self,
        parts: dict[str, Tree[Token]],
        kinds: frozenset[str],
        st: Tree[Token],
        settle: Callable[[nm.Entity], bool] | None = None,
    ) -> str:
        to, into = parts.get("to"), parts.get("into")
        if to is not None and into is not None:
            raise self.syntax(into, "give either TO or INTO, not both")
        target = to if to is not None else into
        if target is None:
            raise self.syntax(st, "a move needs a destination: TO <place>")
        return self.resolve(target.children[0], kinds, settle=settle).id

    def land_move(self, unit: str, parts: dict[str, Tree[Token]], st: Tree[Token]) -> c.Command:
        rid = self.request_id_of(parts)
        enter = any(k in parts for k in ("into", "inside", "in_"))
        if "direct" in parts and ("via" in parts or "along" in parts):
            raise self.syntax(parts["direct"], "DIRECT means no places in between: leave out VIA")
        if "along" in parts:
            for k in ("from_", "to", "into", "via"):
                if k in parts:
                    raise self.syntax(parts[k], "ALONG gives the whole path: leave out FROM, TO and VIA")
            path = self.path(self.only(parts["along"]), self.land_place(unit)[0])
            self.check_in(parts, path[-1] if path else None)
            return path_command(self.state, self.by, unit, path, enter, rid, "by_road" in parts)
        here, _ = self.land_place(unit)
        start = (
            self.resolve(parts["from_"].children[0], nm.PLACES, settle=self.at(here)).id
            if "from_" in parts
            else here
        )
        dest = self._destination(parts, nm.PLACES, st, self.by_land(start))
        self.check_in(parts, dest)
        if "cross_country" in parts:
            for k in ("via", "direct", "by_road"):
                if k in parts:
                    raise self.syntax(parts[k], "a cross-country move is one step: leave out VIA and BY ROAD")
            if start != here and here is not None:
                raise Refuse(
                    f"{self.show(unit)} is at {self.show(here)}, not at {self.show(start)}", unit, here
                )
            return c.Move(self.by, unit, dest, enter, rid)
        if start is None:  # at sea, or not on the map: the rules say so
            return c.MoveRoad(self.by, unit, (dest,), enter, rid)
        if "via" in parts:
            via = self.path(self.only(parts["via"]), start)
            return path_command(
                self.state, self.by, unit, (start, *via, dest), enter, rid, "by_road" in parts
            )
        if "direct" in parts:
            return path_command(self.state, self.by, unit, (start, dest), enter, rid, "by_road" in parts)
        if start == here == dest and not enter:
            raise Refuse(f"{self.show(unit)} is already at {self.show(here)}", unit, here)
        return infer_land_move(
            self.state, self.post.destinations_of, self.by, unit, start, dest, enter, rid, "by_road" in parts
        )

    def check_in(self, parts: dict[str, Tree[Token]], dest: str | None) -> None:
        """``TO <location> IN <space>``: on this map a location and its space are one place."""
        node = parts.get("in_")
        if node is None:
            return
        space = self.resolve(node.children[0], nm.PLACES, settle=self.at(dest)).id
        if dest is not None and space != dest:
            raise Refuse(
                f"{self.show(dest)} is not in {self.show(space)}: TO <location> IN <space> names "
                f"one place twice (IN {self.show(dest)})",
                place=space,
            )

    def voyage(self, ship: str, parts: dict[str, Tree[Token]], st: Tree[Token]) -> c.Command:
        for k in ("along", "cross_country", "by_road", "inside"):
            if k in parts:
                word = {"cross_country": "CROSS COUNTRY", "by_road": "BY ROAD"}.get(k, k.upper())
                raise self.syntax(parts[k], f"{word} is for moves on land, not for ships")
        if "direct" in parts and "via" in parts:
            raise self.syntax(parts["direct"], "DIRECT means no sea zones in between: leave out VIA")
        rid = self.request_id_of(parts)
        reach = {d.place for d in self.post.destinations_of(ship).waters}
        dest = self._destination(parts, nm.WATERS, st, lambda e: e.id in reach)
        at, _ = self.ship_place(ship)
        if "from_" in parts:
            start = self.resolve(parts["from_"].children[0], nm.WATERS, settle=self.at(at)).id
            if at is not None and start != at:
                raise Refuse(f"{self.show(ship)} is at {self.show(at)}, not at {self.show(start)}", ship, at)
        zone: str | None = None
        if "in_" in parts:
            node = parts["in_"]
            zone = self.resolve(node.children[0], nm.WATERS).id
            if zone == dest:
                zone = None
            elif zone not in self.state.board.seas or zone not in seas_of(self.state, dest):
                raise Refuse(f"{self.show(dest)} is not in {self.show(zone)}", ship, zone)
        if "via" in parts:
            via = self.many(self.only(parts["via"]), nm.WATERS)
            return c.Sail(self.by, ship, dest, via, rid)
        if "direct" in parts:
            return c.Sail(self.by, ship, dest, (), rid)
        return c.Sail(
            self.by, ship, dest, infer_via(self.state, self.post.destinations_of, ship, dest, zone), rid
        )

    def _st_enter(self, st: Tree[Token]) -> c.Command:
        return self.in_or_out(st, c.Enter)

    def _st_leave(self, st: Tree[Token]) -> c.Command:
        return self.in_or_out(st, c.Leave)

    def in_or_out(self, st: Tree[Token], make: type[c.Enter] | type[c.Leave]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        unit = self.one(subject, nm.LAND_UNIT, "noble or army")
        rest = subtrees(st, "name")
        if rest:
            here, _ = self.land_place(unit.id)
            place = self.resolve(rest[0], nm.PLACES, settle=self.at(here)).id
            if here is not None and here != place:
                verb = "go into" if make is c.Enter else "leave"
                raise Refuse(
                    f"{unit.name} is at {self.show(here)}, not at {self.show(place)}: to {verb} "
                    f"{self.show(place)} move there first",
                    unit.id,
                    here,
                )
        return make(self.by, unit.id, self.request_id(st))

    # .. ships ...............................................................................
    def _st_embark(self, st: Tree[Token]) -> c.Command:
        nobles = self.many(self.subject(st), nm.NOBLES)
        rest = [ch for ch in self.rest(st) if isinstance(ch, Tree) and ch.data == "name"]
        where = {self.land_place(n)[0] for n in nobles} if nobles else set()
        ships = self.state.ships
        ship = self.resolve(
            rest[0],
            nm.SHIPS,
            settle=lambda e: e.id in ships and ships[e.id].in_port and ships[e.id].place in where,
        ).id
        return c.Embark(self.by, ship, nobles, self.request_id(st))

    def _st_land(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        nobles = self.many(subject, nm.NOBLES)
        parts = self.move_parts(st)
        at, into = parts.get("at"), parts.get("into")
        if at is not None and into is not None:
            raise self.syntax(into, "give either AT or INTO, not both")
        where = at if at is not None else into
        if where is None:
            raise self.syntax(st, "a landing needs a port: AT <port>")
        enter = into is not None or "inside" in parts
        rid = self.request_id_of(parts)
        if "from_" in parts:
            aboard_of = {self.state.nobles[n].aboard for n in nobles if n in self.state.nobles}
            ship = self.resolve(parts["from_"].children[0], nm.SHIPS, settle=lambda e: e.id in aboard_of).id
            port = self.resolve(where.children[0], nm.PLACES, settle=self.by_sea(ship)).id
            return c.Disembark(self.by, ship, nobles, port, enter, rid)
        if not nobles:
            raise self.syntax(st, "name the nobles who land, or the ship: LAND FROM <ship> AT <port>")
        aboard: dict[str, list[str]] = {}
        for n in nobles:
            noble = self.state.nobles.get(n)
            if noble is None or noble.aboard is None:
                raise Refuse(f"{self.show(n)} is aboard no ship", n)
            aboard.setdefault(noble.aboard, []).append(n)
        if len(aboard) > 1:
            who = "; ".join(
                f"{', '.join(map(self.show, v))} aboard {self.show(k)}" for k, v in aboard.items()
            )
            raise Refuse(
                f"the nobles are aboard different ships ({who}): give each ship's landing its own order"
            )
        ship = next(iter(aboard))
        port = self.resolve(where.children[0], nm.PLACES, settle=self.by_sea(ship)).id
        return c.Disembark(self.by, ship, nobles, port, enter, rid)

    # .. armies ............................................................................
    def _st_form(self, st: Tree[Token]) -> c.Command:
        force = next(ch for ch in st.children if isinstance(ch, Tree) and ch.data in ("army", "fleet"))
        fleet = force.data == "fleet"
        units = self.many(self.subject(st), nm.SHIPS if fleet else nm.NOBLES)
        ident = first_of(st, "ident")
        as_id = first_of(st, "as_id")
        if ident is not None and as_id is not None:
            raise self.syntax(as_id, f"the {force.data}'s id is given twice")
        if ident is not None:
            army = self.new_ident(ident)
        elif as_id is not None:
            army = self.new_ident(as_id.children[0])
        else:
            state = self.state
            army = self.post.new_id(
                str(force.data), lambda x: x in state.armies or x in state.nobles or x in state.ships
            )
        place_node = first_of(st, "name")
        if place_node is not None:
            there = {self.ship_place(u)[0] if fleet else self.land_place(u)[0] for u in units}
            place = self.resolve(
                place_node, nm.WATERS if fleet else nm.PLACES, settle=lambda e: e.id in there
            ).id
            for u in units:
                where = self.ship_place(u)[0] if fleet else self.land_place(u)[0]
                if where != place:
                    at = f"at {self.show(where)}" if where is not None else "not on land"
                    raise Refuse(f"{self.show(u)} is {at}, not at {self.show(place)}", u, place)
        return c.FormArmy(self.by, army, units, fleet)
