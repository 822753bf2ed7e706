"""The web app's security settings (``kingmaker serve`` options and their environment
variables; docs/web.md lists them), checked once at start-up with clear errors."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from kingmaker.service import BadRequest

from .ratelimit import DEFAULT_PER_MINUTE


class SettingsError(ValueError):
    """A setting the server cannot start with (the message says which and why)."""


@dataclass(frozen=True)
class WebSettings:
    """``https``: Secure cookies and HSTS (the server is reached over HTTPS, usually
    through a proxy). ``base_url``: where players reach the server; seat links are built
    from it (None: links are paths, ``/play/...``). ``trusted_proxies``: the addresses
    whose ``X-Forwarded-For`` is believed (``serve`` passes them to uvicorn). ``data_root``:
    the folder under which the GM may name a data folder from the web (None: only the
    built-in data set). ``player_requests_per_minute``: each player token's limit."""

    https: bool = False
    base_url: str | None = None
    trusted_proxies: tuple[str, ...] = ()
    data_root: Path | None = None
    player_requests_per_minute: int = DEFAULT_PER_MINUTE


def parse_base_url(text: str | None) -> str | None:
    """``https://host[:port][/prefix]`` (or ``http://``) without a trailing slash."""
    if text is None or not text.strip():
        return None
    url = text.strip()
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises on a bad port)
    except ValueError as e:
        raise SettingsError(f"--base-url {url!r} is not a URL: {e}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SettingsError(f"--base-url {url!r} must be http://host[:port] or https://host[:port]")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise SettingsError(f"--base-url {url!r} must have no query, fragment or user name")
    return url.rstrip("/")


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


def parse_data_root(text: str | Path | None) -> Path | None:
    if text is None or not str(text).strip():
        return None
    root = Path(text).expanduser()
    if not root.is_dir():
        raise SettingsError(f"--data-root {str(root)!r} is not a folder")
    return root.resolve()


def data_folder_within(root: Path | None, folder: str | None) -> str | None:
    """The data folder the GM named from the web, resolved inside ``root`` (None: the
    built-in data set). ``BadRequest`` without a root, for an absolute path, ``..``, or a
    path (through symbolic links too) that leads outside the root."""
    if folder is None or not folder.strip():
        return None
    given = folder.strip()
    if root is None:
        raise BadRequest(
            "this server takes no data folder from the web: leave it empty for England 1455"
            " (the server's operator may allow folders under one root with --data-root)"
        )
    path = Path(given)
    if path.is_absolute() or given.startswith("~"):
        raise BadRequest(f"name the data folder relative to the server's data root, not {given!r}")
    if ".." in path.parts or "\x00" in given:
        raise BadRequest(f"the data folder {given!r} may not go up ('..') out of the data root")
    resolved = (root / path).resolve()
    if not resolved.is_relative_to(root):
        raise BadRequest(f"the data folder {given!r} leads outside the data root")
    if not resolved.is_dir():
        raise BadRequest(f"there is no data folder {given!r} under the data root")
    return str(resolved)
