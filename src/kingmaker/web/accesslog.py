"""Secrets kept out of the server's logs: a player's private link ``/play/<game>/<token>``
is logged as ``/play/<game>/…``, and a bearer credential (should any log line carry an
``Authorization`` header) as ``Bearer …``.

``RedactSecrets`` is a ``logging.Filter``; ``log_config()`` is uvicorn's logging
configuration with it on every handler (the access log and the error log).
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

_PLAY = re.compile(r"(/play/[^/\s?#\"']+/)[^/\s?#\"']+")
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+[^\s\"',;]+")
_AUTH_HEADER = re.compile(r"(?i)(authorization[\"']?\s*[:=,]\s*[\"']?)[^\"'\r\n]+")


#: Whether a text may hold anything to redact: one search, where most texts (every
#: access-log line of the API: a method, a path, a version, an address) end.
_MAYBE = re.compile(r"(?i)/play/|bearer|basic|authorization")


def redact(text: str) -> str:
    """``text`` with private-link tokens and credentials replaced by ``…``."""
    if _MAYBE.search(text) is None:
        return text
    text = _PLAY.sub(r"\1…", text)
    text = _AUTH_HEADER.sub(r"\1…", text)
    return _BEARER.sub(r"\1 …", text)


def redact_path(path: str) -> str:
    return _PLAY.sub(r"\1…", path)


class RedactSecrets(logging.Filter):
    """Rewrites each record's message and arguments (uvicorn's access log passes the
    path as an argument) so that no token or credential is written."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's default logging configuration, with ``RedactSecrets`` on every handler."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_secrets"] = {"()": RedactSecrets}
    for handler in config.get("handlers", {}).values():
        handler.setdefault("filters", []).append("redact_secrets")
    return config


def install(logger_names: tuple[str, ...] = ("uvicorn.access", "uvicorn.error", "kingmaker.web")) -> None:
    """Put ``RedactSecrets`` on these loggers (for servers configured some other way)."""
    for name in logger_names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
