"""The GM password, kept only as a slow hash (scrypt with a random salt).

The server is given the password at start-up (``KINGMAKER_GM_PASSWORD`` or
``--gm-password-file``); ``GmCredential.start`` hashes it, stores the hash in the
database (so every server process uses the same one, and a new password ends the old
GM sessions) and keeps nothing else. A login pays one scrypt (about 65 ms and 32 MiB;
at most ``VERIFIERS`` run at once). The API's ``Bearer gm:<password>`` would pay it on
every call, so a password that verified is remembered as ``HMAC(key, password)`` under
a random key of this process, never written anywhere: a later call with it is answered
at HMAC speed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from kingmaker.storage.websec import WebSecurityStore

#: scrypt's cost: N = 2**15, r = 8, p = 1 (32 MiB; "interactive logins" in the scrypt paper).
LOG2_N, R, P = 15, 8, 1
#: scrypt computations allowed at once (each takes 128 * r * N bytes).
VERIFIERS = 2
GM_ACCOUNT = "gm"


@dataclass(frozen=True)
class PasswordHash:
    """``scrypt(password, salt, N=2**log2_n, r, p)``, written ``scrypt$log2_n$r$p$salt$digest``."""

    log2_n: int
    r: int
    p: int
    salt: bytes
    digest: bytes

    @classmethod
    def make(cls, password: str, log2_n: int = LOG2_N, r: int = R, p: int = P) -> PasswordHash:
        salt = secrets.token_bytes(16)
        return cls(log2_n, r, p, salt, _scrypt(password, salt, log2_n, r, p))

    def verify(self, password: str) -> bool:
        return hmac.compare_digest(_scrypt(password, self.salt, self.log2_n, self.r, self.p), self.digest)

    @property
    def current(self) -> bool:
        """Made with today's cost parameters."""
        return (self.log2_n, self.r, self.p) == (LOG2_N, R, P)

    def encode(self) -> str:
        b64 = base64.urlsafe_b64encode
        return f"scrypt${self.log2_n}${self.r}${self.p}${b64(self.salt).decode()}${b64(self.digest).decode()}"

    @classmethod
    def decode(cls, text: str) -> PasswordHash | None:
        """The hash ``text`` describes (None: not one this program can read)."""
        parts = text.split("$")
        if len(parts) != 6 or parts[0] != "scrypt":
            return None
        try:
            log2_n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
            salt, digest = base64.urlsafe_b64decode(parts[4]), base64.urlsafe_b64decode(parts[5])
        except ValueError:
            return None
        if not (10 <= log2_n <= 20 and 1 <= r <= 32 and 1 <= p <= 16 and salt and len(digest) == 32):
            return None
        return cls(log2_n, r, p, salt, digest)


_slots = threading.BoundedSemaphore(VERIFIERS)


def _scrypt(password: str, salt: bytes, log2_n: int, r: int, p: int) -> bytes:
    n = 1 << log2_n
    with _slots:
        return hashlib.scrypt(
            password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=256 * r * n + (1 << 20), dklen=32
        )


class GmCredential:
    """The GM's password as the server knows it: its scrypt hash, and the passwords that
    verified in this process (as HMACs under a random key; at most ``remember`` of them)."""

    def __init__(self, hashed: PasswordHash, remember: int = 4):
        self.hashed = hashed
        self._key = secrets.token_bytes(32)
        self._verified: OrderedDict[bytes, None] = OrderedDict()
        self._remember = remember
        self._lock = threading.Lock()

    @classmethod
    def start(
        cls, db: WebSecurityStore, password: str, clock: Callable[[], float] = time.time
    ) -> GmCredential:
        """The credential for ``password``, agreed with the database: the stored hash if
        ``password`` matches it, else a new hash replaces it and every GM session ends."""
        stored = db.credential(GM_ACCOUNT)
        found = PasswordHash.decode(stored) if stored else None
        if found is not None and found.current and found.verify(password):
            return cls(found)
        mine = PasswordHash.make(password)
        if stored is None:
            if db.add_credential(GM_ACCOUNT, mine.encode(), clock()):
                return cls(mine)
            # another process stored one at the same moment: the same password?
            theirs = PasswordHash.decode(db.credential(GM_ACCOUNT) or "")
            if theirs is not None and theirs.current and theirs.verify(password):
                return cls(theirs)
        db.replace_credential(GM_ACCOUNT, mine.encode(), clock())  # a new password
        return cls(mine)

    def _tag(self, given: str) -> bytes:
        return hmac.new(self._key, given.encode("utf-8"), hashlib.sha256).digest()

    def _remember_verified(self, given: str) -> None:
        with self._lock:
            self._verified[self._tag(given)] = None
            while len(self._verified) > self._remember:
                self._verified.popitem(last=False)

    def known(self, given: str) -> bool:
        """``given`` verified before in this process (an HMAC, no scrypt)."""
        tag = self._tag(given)
        with self._lock:
            return tag in self._verified

    def verify(self, given: str) -> bool:
        """Whether ``given`` is the password (scrypt, unless it verified before)."""
        if self.known(given):
            return True
        if not self.hashed.verify(given):
            return False
        self._remember_verified(given)
        return True
