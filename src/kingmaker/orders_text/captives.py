"""Heirs and captives (FULL_GAME 3.5, 3.6): a noble capturing an unescorted heir, a
ransom offered (for cards and heirs, for nothing, or with considerations passing both
ways), a captive released or executed, an heir executed; and the answers to a ransom
named by its captive (``Blue CONFIRMS RANSOM OF Stafford``)."""

from __future__ import annotations

from lark import Token, Tree

from kingmaker.rules import commands as c
from kingmaker.rules import ids
from kingmaker.rules.chance import opaque_id

from . import names as nm
from .reading import LineReader, first_of, span_of, subtrees


class CaptiveOrders(LineReader):
    """The statements of heirs, captives and ransoms."""

    def _st_capture_heir(self, st: Tree[Token]) -> c.Command:
        subject, heir_node = subtrees(st, "names")
        unit = self.one(subject, nm.NOBLES, "noble")
        heir = self.one(heir_node, nm.HEIRS, "heir")
        return c.CaptureHeir(self.by, unit.id, heir.id)

    def _st_release_captive(self, st: Tree[Token]) -> c.Command:
        by, captive = self.faction_and_object(st)
        return c.ReleaseCaptive(by, self.one(captive, nm.NOBLES, "captive").id)

    def _st_execute(self, st: Tree[Token]) -> c.Command:
        by, victim = self.faction_and_object(st)
        who = self.one(victim, nm.CAPTIVES, "captive or heir")
        if who.kind == nm.HEIR:
            return c.Execute(by, heir=who.id)
        return c.Execute(by, captive=who.id)

    # .. ransom ................................................................................
    def _st_ransom(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        captive_node = first_of(st, "name")
        assert captive_node is not None
        captive = self.resolve(captive_node, nm.CAPTIVES).id
        terms = next(
            ch
            for ch in st.children
            if isinstance(ch, Tree) and ch.data in ("ransom_for", "ransom_free", "ransom_gifts")
        )
        give: tuple[c.Consideration, ...] = ()
        if terms.data == "ransom_for":
            give = (self.consideration(by, first_of(terms, "names")),)
        elif terms.data == "ransom_gifts":
            give = tuple(self.gift(g) for g in subtrees(terms, "gift"))
        as_id = first_of(st, "as_id")
        ident = self.new_ident(as_id.children[0]) if as_id is not None else self.ransom_id(captive)
        return c.Ransom(by, ident, captive, give, self.promise(st))

    def gift(self, node: Tree[Token]) -> c.Consideration:
        giver = first_of(node, "name")
        assert giver is not None
        return self.consideration(self.resolve(giver, nm.FACTIONS).id, first_of(node, "names"))

    def consideration(self, giver: str, items: Tree[Token] | None) -> c.Consideration:
        """What ``giver`` gives: the cards (from its hand, or its nobles' awards) and the
        heirs it names, each in the order written."""
        cards: list[str] = []
        heirs: list[str] = []
        for part in self.items(items):
            e = self.resolve(part, nm.RANSOM_ITEMS)
            (heirs if e.kind == nm.HEIR else cards).append(e.id)
        return c.Consideration(giver, tuple(cards), tuple(heirs))

    def promise(self, st: Tree[Token]) -> str:
        """RANSOM.future: a promise noted with the ransom (``PROMISE: <words>``)."""
        node = first_of(st, "promise")
        if node is None:
            return ""
        spans = [span_of(t) for t in node.children if isinstance(t, Token) and t.type == "TEXT"]
        return self.text[spans[0][0] : spans[0][1]].strip() if spans else ""

    def ransom_id(self, captive: str) -> str:
        """A new ransom's id when the author gave none: made from the secret seed and the
        log's position (as the rules make a request's), so that it never meets a request
        the author may not know of, and says nothing of them."""
        state = self.state
        n = 1
        while True:
            ident = f"ransom-{opaque_id(state.rng.seed, f'ransom:{captive}:{n}', state.seq)[:6]}"
            if ident not in state.requests and ident not in state.closed and ident not in self.post.taken:
                self.post.taken.add(ident)
                return ident
            n += 1

    # .. answers ..............................................................................
    def ransom_request(self, st: Tree[Token], by: str) -> str:
        """The one ransom of the captive ``st`` names that awaits ``by``'s answer."""
        node = first_of(st, "name")
        assert node is not None
        captive = self.resolve(node, nm.CAPTIVES)
        found = sorted(
            r.id
            for r in self.state.requests.values()
            if r.rule == ids.RANSOM_OFFER
            and getattr(r.command, "captive", None) == captive.id
            and by in r.awaiting
        )
        return self.one_of(
            found,
            node,
            f"no ransom of {captive.name} awaits {by}'s answer",
            f"several ransoms of {captive.name} await {by}'s answer",
        )

    def _st_confirm_ransom(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        return c.Confirm(by, self.ransom_request(st, by))

    def _st_reject_ransom(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        return c.Reject(by, self.ransom_request(st, by))
