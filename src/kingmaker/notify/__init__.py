"""Players told by e-mail and groups by a webhook (``docs/notifications.md``): the
messages a log entry makes for each seat (``compose``), the outbox they wait in
(``kingmaker.storage.outbox``), and the sender (``sender``: SMTP by ``smtp``, the
webhook by ``webhook``)."""

from .sender import Background, Sender, backoff, queue_all, queue_game, run_once
from .smtp import SmtpConfigError, SmtpSettings

__all__ = [
    "Background",
    "Sender",
    "SmtpConfigError",
    "SmtpSettings",
    "backoff",
    "queue_all",
    "queue_game",
    "run_once",
]
