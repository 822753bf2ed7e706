"""Who is asking: a player by the secret token of their seat (in the page's path, or
``Authorization: Bearer <token>`` for the API), or the GM (a session on the server,
started by the login form, or ``Authorization: Bearer gm:<password>`` for the API).

Every GM password tried goes through the login throttle (``throttle.py``); every
request with a player's token counts against that token's rate limit (``ratelimit.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from kingmaker.service import GM_ACTOR, Actor, PermissionDenied, ServiceError
from kingmaker.service.identity import player, token_hash
from kingmaker.storage.websec import WebSecurityStore

from .ops import Site
from .password import GmCredential
from .ratelimit import TokenRateLimit
from .sessions import GmSessions
from .throttle import LoginThrottle


class Unauthorized(ServiceError):
    """No credentials were given (the API answers 401)."""

    code = "unauthorized"


class LoginRequired(Exception):
    """A GM page was asked for without a GM session: the login form answers."""

    def __init__(self, next_url: str):
        super().__init__(next_url)
        self.next_url = next_url


def site_of(request: Request) -> Site:
    site: Site = request.app.state.site
    return site


def gm_credential(request: Request) -> GmCredential | None:
    """The GM's password hash (None: this server has no GM login)."""
    credential: GmCredential | None = request.app.state.gm_credential
    return credential


def gm_sessions(request: Request) -> GmSessions:
    sessions: GmSessions = request.app.state.gm_sessions
    return sessions


def client_of(request: Request) -> str:
    """The client's address: the TCP peer, or what a trusted proxy said it is."""
    return request.client.host if request.client else "unknown"


def gm_login(request: Request, given: str) -> bool:
    """Whether ``given`` is the GM's password, through the login throttle (raises
    ``TooManyAttempts`` while this client, or the account, is locked out)."""
    credential = gm_credential(request)
    if credential is None:
        return False
    throttle: LoginThrottle = request.app.state.gm_throttle
    client = client_of(request)
    if credential.known(given):  # verified before: no scrypt, no write, but still the lock
        if throttle.check(client):
            throttle.succeeded(client)
        return True
    throttle.attempt(client)
    if credential.verify(given):
        throttle.succeeded(client)
        return True
    throttle.failed(client)
    return False


def is_gm_session(request: Request) -> bool:
    return gm_credential(request) is not None and gm_sessions(request).find(request) is not None


def _rate(request: Request, game: str, actor: Actor) -> Actor:
    limit: TokenRateLimit = request.app.state.player_rate
    limit.hit(f"seat:{game}:{actor.faction}")
    return actor


def _seated(request: Request, game: str, token: str) -> Actor:
    """The player whose seat in ``game`` this secret token opens (as
    ``GameService.identify``: ``NotFound`` for no such game, ``PermissionDenied`` for any
    other token), counted against the seat's rate limit. The seat is found by the token's
    hash in one statement (``WebSecurityStore.seat_faction``) rather than by reading
    every seat of the game: every request of a player asks."""
    site_of(request).svc.require_game(game)
    db: WebSecurityStore = request.app.state.websec
    faction = db.seat_faction(game, token_hash(token))
    if faction is None:
        raise PermissionDenied("that link is not valid for this game")
    return _rate(request, game, player(faction))


def _bearer(request: Request) -> str:
    """The bearer credentials of an API request (``Unauthorized`` when there are none)."""
    header = request.headers.get("authorization", "")
    scheme, _, credentials = header.partition(" ")
    if scheme.lower() != "bearer" or not credentials.strip():
        raise Unauthorized("send Authorization: Bearer <your token> (the GM: Bearer gm:<password>)")
    return credentials.strip()


def _actor_of(request: Request, token: str) -> Actor:
    """Whose bearer ``token`` this is (for the game in the path): the GM through the
    login throttle, a player through the seat's hash and the seat's rate limit."""
    if token.startswith("gm:"):
        if gm_login(request, token[3:]):
            return GM_ACTOR
        raise PermissionDenied("those are not the GM's credentials")
    game = request.path_params.get("game")
    if not isinstance(game, str):
        raise PermissionDenied("only the GM may do this")
    return _seated(request, game, token)


def api_actor(request: Request) -> Actor:
    """The API's caller, from its bearer credentials (for the game in the path)."""
    return _actor_of(request, _bearer(request))


#: Where ``api_credentials`` leaves the credentials not yet checked, in the request's scope.
UNCHECKED = "kingmaker.unchecked_credentials"


@dataclass(frozen=True)
class Credentials:
    """Bearer credentials given, not yet checked: ``api_actor`` in two halves, so that
    an endpoint answered in its own thread (``jsonout.json_answer``) checks them there,
    in the same trip through the thread pool as its work, instead of a trip of their
    own before it (FastAPI runs a synchronous dependency in the thread pool)."""

    request: Request
    token: str

    def actor(self) -> Actor:
        """Check the credentials (as ``api_actor``: the seat, the rate limit, the GM's
        login throttle); once."""
        self.request.scope.pop(UNCHECKED, None)
        return _actor_of(self.request, self.token)


async def api_credentials(request: Request) -> Credentials:
    """``api_actor``'s first half, on the event loop: no credentials at all is 401 at
    once. The rest (``Credentials.actor``) is the endpoint's. Kept in the request's
    scope meanwhile: should the request's fields not be valid, the 422 handler checks
    the credentials first (``errors.install``), so that a wrong token, a locked-out GM
    or a spent rate limit answers as it did, before any word on the fields."""
    credentials = Credentials(request, _bearer(request))
    request.scope[UNCHECKED] = credentials
    return credentials


def unchecked(request: Request) -> Credentials | None:
    """The credentials of a request that were given but not checked (see ``Credentials``)."""
    found = request.scope.get(UNCHECKED)
    return found if isinstance(found, Credentials) else None


def player_actor(request: Request) -> Actor:
    """The player whose private link this page is (``/play/<game>/<token>``)."""
    game, token = request.path_params.get("game"), request.path_params.get("token")
    if not isinstance(game, str) or not isinstance(token, str):
        raise PermissionDenied("that link is not valid")
    return _seated(request, game, token)


def gm_actor(request: Request) -> Actor:
    """The GM, logged in on this browser; otherwise the login form."""
    if is_gm_session(request):
        return GM_ACTOR
    raise LoginRequired(request.url.path)


ApiActor = Annotated[Actor, Depends(api_actor)]
#: What ``json_answer`` gives an endpoint's ``ApiActor`` parameter instead (see ``Credentials``).
ApiCredentials = Annotated[Credentials, Depends(api_credentials)]
PlayerActor = Annotated[Actor, Depends(player_actor)]
GmActor = Annotated[Actor, Depends(gm_actor)]


async def _site(request: Request) -> Site:
    """``site_of`` as an async dependency: answered on the event loop, without a trip
    through the thread pool."""
    return site_of(request)


SiteDep = Annotated[Site, Depends(_site)]


def seat_link_base(request: Request) -> str:
    """Where seat links point: the configured base URL (never the request's ``Host``),
    or nothing (the link is then a path)."""
    base: str | None = request.app.state.settings.base_url
    return base or ""
