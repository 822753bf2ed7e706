"""Failed GM logins, with exponential backoff, kept in the database (every server process
shares the counts, and a restart does not forget them). Guards the login form and the
API's ``Bearer gm:<password>`` alike.

Two counters, as mature services keep them:

- per client and account (``login:gm:<client>``): five attempts are free; the fifth
  failure locks that client out of that account for 30 s, each further one doubles the
  lock (1 min, 2 min, ...), up to an hour. A good login clears it; failures are forgotten
  a day after the last. An attempt is counted when it starts (and the lock checked in
  the same transaction), so parallel guesses cannot slip past the count.
- per account (``account:gm``), looser: twenty failures from anywhere within an hour of
  each other lock the account for 1 s, doubling up to a minute. A client that logged in
  to it within 30 days is exempt. So many attackers together get one guess a minute at
  most, one attacker cannot lock the GM out for more than a minute, and the GM's usual
  address is never locked out by others.

The client is the TCP peer (``request.client``), or what a trusted proxy says it is
(``--trusted-proxies``; nobody by default). IPv6 clients count per /64 network.
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from kingmaker.service import ServiceError
from kingmaker.storage.websec import Counter, WebSecurityStore

from .password import GM_ACCOUNT


class TooManyAttempts(ServiceError):
    """Too many failed logins: try again after ``retry_after`` seconds."""

    code = "too_many_attempts"

    def __init__(self, retry_after: int):
        super().__init__(f"too many failed GM logins; try again in {wait_text(retry_after)}")
        self.retry_after = retry_after


def wait_text(seconds: int) -> str:
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


@dataclass(frozen=True)
class Backoff:
    """``free`` failures go unpunished; the ``free``-th locks for ``base`` seconds, each
    further one doubles the lock, up to ``cap``. Failures ``forget`` seconds after the
    last are forgotten."""

    free: int
    base: float
    cap: float
    forget: float

    def lock_for(self, failures: int) -> float:
        if failures < self.free:
            return 0.0
        return float(min(self.cap, self.base * 2 ** min(failures - self.free, 40)))

    def count_after(self, c: Counter, now: float) -> int:
        """The failures ``c`` holds, plus one (its old ones forgotten if they are stale)."""
        return (c.count if c.touched_at > now - self.forget else 0) + 1


PER_CLIENT = Backoff(free=5, base=30.0, cap=3600.0, forget=86400.0)
PER_ACCOUNT = Backoff(free=20, base=1.0, cap=60.0, forget=3600.0)
KNOWN_FOR = 30 * 86400.0
PURGE_EVERY = 256  # failures, per process


def client_key(host: str | None) -> str:
    """The address a client is counted under: its IPv4 address, or its IPv6 /64."""
    if not host:
        return "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:100]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class LoginThrottle:
    def __init__(
        self,
        db: WebSecurityStore,
        *,
        per_client: Backoff = PER_CLIENT,
        per_account: Backoff = PER_ACCOUNT,
        known_for: float = KNOWN_FOR,
        clock: Callable[[], float] = time.time,
    ):
        self.db = db
        self.per_client, self.per_account, self.known_for = per_client, per_account, known_for
        self.clock = clock
        self._failures = 0
        self._lock = threading.Lock()

    @staticmethod
    def _keys(client: str, account: str) -> tuple[str, str, str]:
        c = client_key(client)
        return f"login:{account}:{c}", f"account:{account}", f"known:{account}:{c}"

    def _refuse(self, rows: dict[str, Counter], client: str, account: str, now: float) -> None:
        pair, acct, known = self._keys(client, account)
        waits = []
        p = rows.get(pair)
        if p is not None and p.locked_until > now:
            waits.append(p.locked_until - now)
        a, k = rows.get(acct), rows.get(known)
        is_known = k is not None and k.touched_at > now - self.known_for
        if a is not None and a.locked_until > now and not is_known:
            waits.append(a.locked_until - now)
        if waits:
            raise TooManyAttempts(max(1, math.ceil(max(waits))))

    def check(self, client: str, account: str = GM_ACCOUNT) -> bool:
        """Raise ``TooManyAttempts`` if ``client`` is locked out of ``account``; else
        whether a success should be recorded (failures to clear, or an old "known")."""
        now = self.clock()
        rows = self.db.counters(self._keys(client, account))
        self._refuse(rows, client, account, now)
        pair, _, known = self._keys(client, account)
        k = rows.get(known)
        return pair in rows or k is None or k.touched_at < now - 86400.0

    def attempt(self, client: str, account: str = GM_ACCOUNT) -> None:
        """Raise ``TooManyAttempts`` if ``client`` is locked out of ``account``; else count
        this attempt as a failure (``succeeded`` takes it back)."""
        now = self.clock()
        pair, acct, known = self._keys(client, account)
        with self.db.update_counters([pair], read=[acct, known]) as u:
            self._refuse(u.rows, client, account, now)
            c = u.get(pair)
            n = self.per_client.count_after(c, now)
            lock = self.per_client.lock_for(n)
            u.put(Counter(pair, n, now, now + lock if lock else 0.0))

    def failed(self, client: str, account: str = GM_ACCOUNT) -> None:
        """The attempt failed: count it against the account too."""
        now = self.clock()
        _, acct, _ = self._keys(client, account)
        with self.db.update_counters([acct]) as u:
            c = u.get(acct)
            n = self.per_account.count_after(c, now)
            lock = self.per_account.lock_for(n)
            u.put(Counter(acct, n, now, max(c.locked_until, now + lock) if lock else c.locked_until))
        with self._lock:
            self._failures += 1
            purge = self._failures % PURGE_EVERY == 0
        if purge:
            self.purge(now)

    def succeeded(self, client: str, account: str = GM_ACCOUNT) -> None:
        """A good login: the client's failures are cleared and it is known for a while."""
        now = self.clock()
        pair, _, known = self._keys(client, account)
        self.db.forget_counters([pair])
        self.db.put_counter(Counter(known, 1, now, 0.0))

    def purge(self, now: float) -> None:
        """Forget the counters that no longer matter."""
        self.db.purge_counters("login:", now - self.per_client.forget, now)
        self.db.purge_counters("account:", now - self.per_account.forget, now)
        self.db.purge_counters("known:", now - self.known_for, now)
