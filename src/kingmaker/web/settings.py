"""The web app's security settings (``kingmaker serve`` options and their environment
variables; docs/web.md lists them), checked once at start-up with clear errors."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from .ratelimit import DEFAULT_PER_MINUTE


class SettingsError(ValueError):
    """A setting the server cannot start with (the message says which and why)."""


@dataclass(frozen=True)
class WebSettings:
    """``https``: Secure cookies and HSTS (the server is reached over HTTPS, usually
    through a proxy). ``trusted_proxies``: the addresses whose ``X-Forwarded-For`` is
    believed (``serve`` passes them to uvicorn). ``player_requests_per_minute``: each
    player token's limit."""

    https: bool = False
    trusted_proxies: tuple[str, ...] = ()
    player_requests_per_minute: int = DEFAULT_PER_MINUTE


def parse_trusted_proxies(text: str | None) -> tuple[str, ...]:
    """A comma-separated list of IP addresses or networks (``10.0.0.0/8``); empty: none."""
    out: list[str] = []
    for item in (text or "").replace(" ", ",").split(","):
        if not item:
            continue
        try:
            net = ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise SettingsError(
                f"--trusted-proxies: {item!r} is not an IP address or network (e.g. 127.0.0.1, 10.0.0.0/8)"
            ) from None
        out.append(str(net.network_address) if net.num_addresses == 1 else str(net))
    return tuple(out)
