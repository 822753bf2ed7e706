"""Sending e-mail by SMTP (``smtplib``), with the settings in the environment:

==========================  ============================================================
``KINGMAKER_SMTP_HOST``     the server (unset: no e-mail is sent; it waits in the outbox)
``KINGMAKER_SMTP_PORT``     its port (default 25; 465 speaks TLS from the start)
``KINGMAKER_SMTP_USER``     the user name to log in with (unset: no login)
``KINGMAKER_SMTP_PASSWORD`` its password
``KINGMAKER_SMTP_FROM``     the sender's address (default ``kingmaker@localhost``)
``KINGMAKER_SMTP_STARTTLS`` ``1`` to upgrade the connection with STARTTLS (default ``0``)
==========================  ============================================================

A password is never sent over a plain connection to another machine: with a user and
neither STARTTLS nor port 465, a server that is not this machine is refused.

An error is *permanent* (the row fails at once) when the server refused the message or
its recipient with a 5xx code; anything else (no connection, a timeout, a 4xx answer)
is tried again later.
"""

from __future__ import annotations

import contextlib
import smtplib
import ssl
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formatdate
from types import TracebackType
from typing import Final

from kingmaker.service.contact import email_problem, is_local_host

ENV: Final = "KINGMAKER_SMTP_"
TIMEOUT: Final = 30.0  # seconds for each SMTP exchange


class SmtpConfigError(ValueError):
    """The SMTP settings in the environment are not usable."""


class SendError(Exception):
    """One message could not be sent; ``permanent``: trying again will not help."""

    def __init__(self, message: str, *, permanent: bool = False, unreachable: bool = False):
        super().__init__(message)
        self.permanent = permanent
        self.unreachable = unreachable  # no server answered: the next message would fail alike


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int = 25
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    sender: str = "kingmaker@localhost"
    starttls: bool = False
    timeout: float = TIMEOUT

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> SmtpSettings | None:
        """The settings in ``env`` (``os.environ``), or None when no host is set."""
        host = env.get(ENV + "HOST", "").strip()
        if not host:
            return None
        port_text = env.get(ENV + "PORT", "").strip() or "25"
        if not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise SmtpConfigError(f"{ENV}PORT is a port number (1 to 65535), not {port_text!r}")
        flag = env.get(ENV + "STARTTLS", "").strip().lower()
        if flag not in ("", "0", "1", "true", "false", "yes", "no", "on", "off"):
            raise SmtpConfigError(f"{ENV}STARTTLS is 1 or 0, not {flag!r}")
        sender = env.get(ENV + "FROM", "").strip() or "kingmaker@localhost"
        problem = email_problem(sender) if sender != "kingmaker@localhost" else None
        if problem is not None:
            raise SmtpConfigError(f"{ENV}FROM: {problem}")
        user = env.get(ENV + "USER", "").strip() or None
        s = cls(
            host,
            int(port_text),
            user,
            env.get(ENV + "PASSWORD") or None,
            sender,
            flag in ("1", "true", "yes", "on"),
        )
        if s.user and not s.encrypted and not is_local_host(host):
            raise SmtpConfigError(
                f"refusing to send the SMTP password to {host} in the clear: set {ENV}STARTTLS=1"
                f" or use port 465"
            )
        return s

    @property
    def encrypted(self) -> bool:
        return self.starttls or self.port == 465


def mail(settings: SmtpSettings, to: str, subject: str, body: str, message_id: str) -> EmailMessage:
    """The e-mail: plain text in UTF-8, marked as sent by a program (``Auto-Submitted``),
    its ``Message-ID`` fixed by the outbox row (a copy sent twice is one message to mail
    programs)."""
    m = EmailMessage()
    m["From"] = settings.sender
    m["To"] = to
    m["Subject"] = subject
    m["Date"] = formatdate(localtime=False, usegmt=True)
    m["Message-ID"] = message_id
    m["Auto-Submitted"] = "auto-generated"
    m.set_content(body, charset="utf-8")
    return m


class SmtpConnection:
    """One connection for a batch of messages, opened at the first ``send``."""

    def __init__(self, settings: SmtpSettings):
        self.settings = settings
        self._smtp: smtplib.SMTP | None = None

    def __enter__(self) -> SmtpConnection:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _open(self) -> smtplib.SMTP:
        s = self.settings
        context = ssl.create_default_context()
        smtp: smtplib.SMTP
        if s.port == 465:
            smtp = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=context)
        else:
            smtp = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
        try:
            smtp.ehlo()
            if s.starttls:
                smtp.starttls(context=context)
                smtp.ehlo()
            if s.user:
                smtp.login(s.user, s.password or "")
        except BaseException:
            smtp.close()
            raise
        return smtp

    def send(self, message: EmailMessage) -> None:
        """Send one message (``SendError`` when it was not accepted)."""
        if self._smtp is None:
            try:
                self._smtp = self._open()
            except smtplib.SMTPResponseException as e:  # a refused login or greeting: the settings
                raise SendError(f"cannot use the SMTP server: {_response(e)}", unreachable=True) from None
            except (smtplib.SMTPException, OSError) as e:
                raise SendError(
                    f"cannot reach the SMTP server: {type(e).__name__}: {e}", unreachable=True
                ) from None
        try:
            refused = self._smtp.send_message(message)
        except smtplib.SMTPRecipientsRefused as e:
            codes = [code for code, _ in e.recipients.values()]
            self._drop()
            raise SendError(
                f"the server refused the recipient ({', '.join(map(str, codes))})",
                permanent=all(500 <= c < 600 for c in codes),
            ) from None
        except smtplib.SMTPResponseException as e:
            self._drop()
            raise SendError(_response(e), permanent=500 <= e.smtp_code < 600) from None
        except (smtplib.SMTPException, OSError) as e:
            self._drop()
            raise SendError(
                f"cannot reach the SMTP server: {type(e).__name__}: {e}", unreachable=True
            ) from None
        if refused:
            raise SendError(f"the server refused the recipient ({refused})", permanent=True)

    def _drop(self) -> None:
        if self._smtp is not None:
            try:
                self._smtp.close()
            finally:
                self._smtp = None

    def close(self) -> None:
        if self._smtp is not None:
            with contextlib.suppress(smtplib.SMTPException, OSError):
                self._smtp.quit()
            self._drop()


def _response(e: smtplib.SMTPResponseException) -> str:
    text = e.smtp_error.decode("utf-8", "replace") if isinstance(e.smtp_error, bytes) else str(e.smtp_error)
    return f"the SMTP server answered {e.smtp_code}: {text.strip()[:300]}"
