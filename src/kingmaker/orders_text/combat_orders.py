"""Combat orders: sieges, attacks and battles (aimed at a unit, or at a faction's one
unit at a place; in a game with phases, at its one force there: an army, or its nobles
in no army on one side of the walls), with nobles sallying from a besieged place, and
defending another noble."""

from __future__ import annotations

from lark import Token, Tree

from kingmaker.rules import commands as c
from kingmaker.rules.fighting import force

from . import names as nm
from .errors import AmbiguousName
from .reading import Fail, LineReader, Refuse, column_of, first_of, subtrees


class CombatOrders(LineReader):
    """The statements of combat."""

    # .. combat ...............................................................................
    def _st_siege(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        unit = self.one(subject, nm.LAND_UNIT, "noble or army")
        place = self.resolve(
            first_of(st, "name") or st, nm.PLACES, settle=self.at(self.land_place(unit.id)[0])
        ).id
        return c.Siege(self.by, unit.id, place, self.request_id(st))

    def _st_attack(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        unit = self.one(subject, nm.LAND_UNIT, "noble or army")
        target_node = first_of(st, "name")
        assert target_node is not None
        target = self.target(unit.id, target_node, None)
        return c.Attack(self.by, unit.id, target, self.request_id(st), self.sally(st, unit.id))

    def _st_battle(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        unit = self.one(subject, nm.LAND_UNIT, "noble or army")
        nodes = subtrees(st, "name")
        here = self.at(self.land_place(unit.id)[0])
        place = self.resolve(nodes[1], nm.PLACES, settle=here).id if len(nodes) > 1 else None
        target = self.target(unit.id, nodes[0], place)
        return c.Attack(self.by, unit.id, target, self.request_id(st), self.sally(st, unit.id))

    def sally(self, st: Tree[Token], unit: str) -> tuple[str, ...]:
        """``WITH SALLY FROM <place>: <nobles>``: the nobles inside a besieged place who
        join the attack on its besiegers (SIEGE.sally). The place, when given, is where
        the attacker stands (a sally joins a battle at its own walls)."""
        node = first_of(st, "sally")
        if node is None:
            return ()
        where = first_of(node, "name")
        if where is not None:
            here, _ = self.land_place(unit)
            place = self.resolve(where, nm.PLACES, settle=self.at(here)).id
            if here is not None and place != here:
                raise Refuse(
                    f"{self.show(unit)} is at {self.show(here)}: nobles sally to a battle at their own walls, "
                    f"so not from {self.show(place)}",
                    unit,
                    place,
                )
        return self.many(first_of(node, "names"), nm.NOBLES)

    def target(self, unit: str, node: Tree[Token], place: str | None) -> str:
        """What an attack is aimed at: a noble or army, or a faction's one unit at the
        place (by default, where the attacker stands)."""
        e = self.resolve(node, nm.TARGET)
        if e.kind != nm.FACTION:
            return e.id
        here, inside = self.land_place(unit)
        where = place or here
        if where is None:
            raise Refuse(f"{self.show(unit)} is not on land: name the noble or army to attack", unit)
        found = self.forces_of_at(e.id, where)
        if len(found) > 1 and where == here:
            same = [u for u in found if self.land_place(u)[1] == inside]
            if len(same) == 1:
                found = same
        if not found:
            raise Refuse(f"{e.name} has no noble or army at {self.show(where)}", unit, where)
        if len(found) > 1:
            labels = tuple(self.unit_label(u) for u in found)
            raise Fail(
                AmbiguousName(
                    self.lineno,
                    column_of(node),
                    self.text,
                    f"{e.name} has several units at {self.show(where)}: {nm.join_or(list(labels))}; "
                    "name the one to attack",
                    self.raw(node),
                    labels,
                    tuple(found),
                )
            )
        return found[0]

    def forces_of_at(self, faction: str, place: str) -> list[str]:
        """The units of ``faction`` at ``place`` an attack may be aimed at: each army and
        free noble; in a game with phases, where a faction's nobles in no army on one side
        of the walls fight as one force (BATTLE.sides), that force's first noble only."""
        units = self.units_of_at(faction, place)
        if not self.state.phased:
            return units
        out: list[str] = []
        sides: set[bool] = set()
        for u in units:
            n = self.state.nobles.get(u)
            if n is not None:
                if n.inside in sides:
                    continue
                sides.add(n.inside)
            out.append(u)
        return out

    def units_of_at(self, faction: str, place: str) -> list[str]:
        state = self.state
        out: list[str] = []
        for army in sorted(state.armies.values(), key=lambda a: a.id):
            if army.fleet or not army.units:
                continue
            members = [state.nobles[u] for u in army.units if u in state.nobles]
            if any(m.faction == faction for m in members) and self.land_place(army.id)[0] == place:
                out.append(army.id)
        for n in sorted(state.nobles.values(), key=lambda n: n.id):
            free = n.id not in state.army_of and n.captive_of is None and n.aboard is None
            if n.faction == faction and free and n.place == place:
                out.append(n.id)
        return out

    def unit_label(self, unit: str) -> str:
        army = self.state.armies.get(unit)
        if army is None:
            if self.state.phased and unit in self.state.nobles:
                rest = [self.show(n) for n in force(self.state, unit)[1:]]
                n = self.state.nobles[unit]
                where = f"inside {self.show(n.place)}" if n.inside else "in the open"
                joined = f" with {', '.join(rest)}" if rest else ""
                return f"{self.show(unit)}{joined} ({where})"
            return self.show(unit)
        return f"{unit} ({', '.join(self.show(u) for u in army.units)})"

    def _st_defend(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        unit = self.one(subject, nm.NOBLES, "noble")
        other = self.resolve(first_of(st, "name") or st, nm.NOBLES).id
        return c.Defend(self.by, unit.id, other)
