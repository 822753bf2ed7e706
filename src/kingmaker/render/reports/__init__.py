"""Forum reports: the orders as given, the resolution, the position summary, each
faction's private report and the GM's private messages, as pure functions of a game's
log and states, each in BBCode, Markdown and plain text.

Build the inputs once (``reports_for(service, game)``, which asks the service for the
timeline it holds, or ``Reports(Fold.of(initial, envelopes).timeline(), names)``), then::

    doc = turn_report(ctx, (round, faction), "public")   # or "gm", or a faction id
    text = render(doc, "bbcode")                        # or "markdown", "plain"
"""

from .context import Reports
from .document import Document
from .formats import FORMATS, Format, render
from .inputs import catch_up, reports_for
from .messages import (
    Message,
    alliance_request,
    allied_order_request,
    army_consent_request,
    permission_request,
)
from .naming import Names
from .order_text import Describe, default_describe
from .position import position
from .private import messages_for, private_report
from .timeline import Timeline, Turn
from .turn import orders_as_given, position_at_end, resolution, turn_report

__all__ = [
    "FORMATS",
    "Describe",
    "Document",
    "Format",
    "Message",
    "Names",
    "Reports",
    "Timeline",
    "Turn",
    "alliance_request",
    "allied_order_request",
    "army_consent_request",
    "catch_up",
    "default_describe",
    "messages_for",
    "orders_as_given",
    "permission_request",
    "position",
    "position_at_end",
    "private_report",
    "render",
    "reports_for",
    "resolution",
    "turn_report",
]
