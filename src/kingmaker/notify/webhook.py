"""The webhook: a JSON POST of the public turn report to the game's URL, signed.

The body is the JSON the outbox row holds (fixed when it was queued: a retry posts the
same bytes). Headers:

- ``Content-Type: application/json; charset=utf-8``
- ``X-Kingmaker-Event: turn_report``
- ``X-Kingmaker-Delivery``: the delivery's id (the same on every retry: a receiver that
  saw it already ignores it)
- ``X-Kingmaker-Signature-256: sha256=<hex>``: HMAC-SHA256 of the body with the game's
  webhook secret; the receiver computes it again and compares (in constant time).

A 2xx answer is a delivery. A redirect is not followed (it is a failure). Trying again
helps for no answer, a timeout, 408, 429 and 5xx; any other answer fails at once.

>>> signature(b'{"a":1}', "0123456789abcdef")
'sha256=1c76fbb930d3aa8b1633728fae212c68ca68a6752bb319b98be6fe17e86cf5b8'
"""

from __future__ import annotations

import hashlib
import hmac
import urllib.error
import urllib.request
from typing import Final
from urllib.parse import urlsplit

from kingmaker.service.contact import is_local_host

from .smtp import SendError

TIMEOUT: Final = 15.0
SIGNATURE_HEADER: Final = "X-Kingmaker-Signature-256"
DELIVERY_HEADER: Final = "X-Kingmaker-Delivery"
EVENT_HEADER: Final = "X-Kingmaker-Event"
_RETRY_CODES: Final = frozenset({408, 425, 429})


def signature(body: bytes, secret: str) -> str:
    """The value of the signature header for ``body``."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


def verify(body: bytes, secret: str, header: str) -> bool:
    """Whether ``header`` is ``body``'s signature with ``secret`` (for receivers, and tests)."""
    return hmac.compare_digest(signature(body, secret), header)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def post(
    url: str, secret: str, body: bytes, delivery: str, event: str = "turn_report", timeout: float = TIMEOUT
) -> int:
    """POST ``body`` to ``url``; its HTTP status on a 2xx answer, else ``SendError``."""
    handlers: list[urllib.request.BaseHandler] = [_NoRedirect()]
    if is_local_host(urlsplit(url).hostname or ""):
        handlers.append(urllib.request.ProxyHandler({}))  # this machine: never through a proxy
    opener = urllib.request.build_opener(*handlers)
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json; charset=utf-8",
            "User-Agent": "kingmaker-notify/1",
            EVENT_HEADER: event,
            DELIVERY_HEADER: delivery,
            SIGNATURE_HEADER: signature(body, secret),
        },
    )
    try:
        with opener.open(request, timeout=timeout) as answer:
            answer.read(65536)
            return int(answer.status)
    except urllib.error.HTTPError as e:
        code = e.code
        permanent = not (code >= 500 or code in _RETRY_CODES)
        if 300 <= code < 400:
            raise SendError(
                f"the webhook answered {code} (a redirect, not followed)", permanent=True
            ) from None
        raise SendError(f"the webhook answered {code} {e.reason}", permanent=permanent) from None
    except (urllib.error.URLError, OSError, ValueError) as e:
        reason = getattr(e, "reason", e)
        raise SendError(f"cannot reach the webhook: {reason}") from None
