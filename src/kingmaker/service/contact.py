"""How a game reaches its players outside the forum: a seat's e-mail address and the
game's webhook URL, checked before anything is stored (``docs/limits.md``,
``docs/notifications.md``).

An **e-mail address** is one bare address, ``local@domain``, in ASCII: no display name
(``Alice <a@example.org>``), no comment, no quoting, no second address, no space, line
break or control character (so it can never add a header to a mail), at most
``EMAIL_MAX`` characters (RFC 5321's limit on a path), the part before the ``@`` at most
64. The domain has at least two labels of letters, digits and inner hyphens (an
internationalised domain is written in its ``xn--`` form). It is kept with its domain in
lower case.

A **webhook URL** is ``https://`` (``http://`` only to this machine: ``localhost``,
``127.0.0.0/8``, ``[::1]``), with a host, no user name or password in it, at most
``URL_MAX`` characters of printable ASCII.

>>> normal_email("Alice.Smith+km@Example.ORG")
'Alice.Smith+km@example.org'
>>> email_problem("Alice <alice@example.org>")
"an e-mail address is one bare address (name@example.org): character 6 is ' '"
>>> email_problem("a@b.org\\r\\nBcc: x@y.org")
'an e-mail address is one bare address (name@example.org): character 8 is a line break (U+000D)'
>>> webhook_problem("http://chat.example.org/hook")
'a webhook URL must start https:// (http:// only for localhost)'
>>> webhook_problem("http://127.0.0.1:8080/hook") is None
True
"""

from __future__ import annotations

import ipaddress
import re
from typing import Final
from urllib.parse import urlsplit

from kingmaker.rules.limits import bad_character, shown

from .errors import BadRequest

EMAIL_MAX: Final = 254  # RFC 5321: a forward path is at most 256 octets with its <>
LOCAL_MAX: Final = 64  # RFC 5321: the local part
URL_MAX: Final = 2_000  # a webhook URL
SECRET_MIN: Final = 16  # a webhook secret: 16 to 200 printable ASCII characters
SECRET_MAX: Final = 200

# RFC 5322's dot-atom (atext without the characters mail software handles badly: no
# quotes, no backslash, no backquote, no pipe, no braces)
_LOCAL: Final = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_~-]+)*")
_LABEL: Final = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
_ONE: Final = "an e-mail address is one bare address (name@example.org)"


def email_problem(text: object) -> str | None:
    """What is wrong with ``text`` as a seat's e-mail address, or ``None``."""
    if not isinstance(text, str):
        return f"{_ONE}, not {shown(text)}"
    if not text:
        return f"{_ONE}; it is empty"
    if len(text) > EMAIL_MAX:
        return f"an e-mail address has at most {EMAIL_MAX} characters; this one has {len(text):,}"
    bad = bad_character(text)
    if bad is not None:
        return f"{_ONE}: character {bad[0]} is {bad[1]}"
    for i, ch in enumerate(text, start=1):
        if ch in ' <>,;:"()[]\\' or ch.isspace():
            return f"{_ONE}: character {i} is {ch!r}"
        if not ch.isascii():
            return (
                f"{_ONE} in ASCII (write an international domain in its xn-- form): character {i} is {ch!r}"
            )
    if text.count("@") != 1:
        return f"{_ONE}: it must hold exactly one @"
    local, domain = text.split("@")
    if not local or not _LOCAL.fullmatch(local):
        return f"{_ONE}: {shown(local)} is not a usable name before the @"
    if len(local) > LOCAL_MAX:
        return f"the part before the @ has at most {LOCAL_MAX} characters"
    labels = domain.lower().split(".")
    if len(labels) < 2 or not all(_LABEL.fullmatch(label) for label in labels) or labels[-1].isdigit():
        return f"{_ONE}: {shown(domain)} is not a domain name like example.org"
    return None


def normal_email(text: str) -> str:
    """``text`` checked (``BadRequest`` with ``email_problem``'s sentence) and with its
    domain in lower case."""
    problem = email_problem(text)
    if problem is not None:
        raise BadRequest(problem)
    local, domain = text.split("@")
    return f"{local}@{domain.lower()}"


def is_local_host(host: str) -> bool:
    """Whether ``host`` is this machine (``localhost`` or a loopback address)."""
    h = host.strip("[]").lower()
    if h == "localhost" or h.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False


def webhook_problem(url: object) -> str | None:
    """What is wrong with ``url`` as a webhook's address, or ``None``."""
    if not isinstance(url, str) or not url:
        return "give the webhook's URL (https://...)"
    if len(url) > URL_MAX:
        return f"a webhook URL has at most {URL_MAX:,} characters"
    if not all(33 <= ord(ch) < 127 for ch in url):
        return "a webhook URL is printable ASCII without spaces (percent-encode anything else)"
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        parts.port  # noqa: B018 (a bad port raises here)
    except ValueError:
        return "that is not a usable URL"
    if parts.scheme not in ("https", "http") or not host:
        return "a webhook URL must start https:// and name a host"
    if parts.username is not None or parts.password is not None:
        return "a webhook URL may not hold a user name or password (use the signing secret)"
    if parts.scheme == "http" and not is_local_host(host):
        return "a webhook URL must start https:// (http:// only for localhost)"
    if parts.fragment:
        return "a webhook URL has no #fragment"
    return None


def secret_problem(secret: object) -> str | None:
    """What is wrong with a webhook's signing secret, or ``None``."""
    if not isinstance(secret, str) or not SECRET_MIN <= len(secret) <= SECRET_MAX:
        return f"a webhook secret is {SECRET_MIN} to {SECRET_MAX} characters"
    if not all(33 <= ord(ch) < 127 for ch in secret):
        return "a webhook secret is printable ASCII without spaces"
    return None
