"""What every report reads: the game's timeline, how to name things, how to write an
order; and each viewer's part of the log (``visible_log`` decides it, nothing else)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kingmaker.log.envelope import Envelope
from kingmaker.log.visibility import numbering
from kingmaker.rules.views import View, view

from .naming import Names
from .order_text import Describe, default_describe
from .timeline import Timeline, Turn, in_turn


@dataclass
class Reports:
    """The inputs of a game's reports: the timeline the service holds
    (``GameService.report_inputs``), how to name things, and how to write an order
    (``describe``; ``reports_for`` passes ``kingmaker.orders_text.format_order``)."""

    timeline: Timeline
    names: Names
    describe: Describe = default_describe

    def visible(self, viewer: str) -> list[Envelope]:
        """The entries ``viewer`` (a faction, ``gm`` or ``public``) may read (worked
        out once per timeline: ``Timeline.visible``)."""
        return self.timeline.visible(viewer)

    def numbering(self, viewer: str) -> Callable[[int], int]:
        """How ``viewer`` numbers log entries (``log.visibility.numbering``)."""
        return numbering(self.visible(viewer), viewer)

    def visible_in(self, turn: Turn, viewer: str) -> list[Envelope]:
        return in_turn(self.visible(viewer), turn)

    def view_at_end(self, turn: Turn, viewer: str) -> View:
        """What ``viewer`` may see of the position at the end of ``turn`` (or now)."""
        return view(self.timeline.state_at_end_of(turn), viewer)
