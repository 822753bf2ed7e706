"""Who is asking: a player by the secret token of their seat (in the page's path, or
``Authorization: Bearer <token>`` for the API), or the GM (a signed session cookie set
by the login form, or ``Authorization: Bearer gm:<password>`` for the API)."""

from __future__ import annotations

import hashlib
import hmac
from typing import Annotated

from fastapi import Depends, Request

from kingmaker.service import GM_ACTOR, Actor, PermissionDenied, ServiceError

from .ops import Site
from .throttle import LoginThrottle

SESSION_GM = "gm"


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


def password_mark(password: str) -> str:
    """What the session keeps to say "the GM logged in with this password" (so a new
    password ends every old GM session)."""
    return hmac.new(b"kingmaker-gm-session", password.encode("utf-8"), hashlib.sha256).hexdigest()


def gm_password_ok(site: Site, given: str) -> bool:
    if not site.gm_password:
        return False
    return hmac.compare_digest(given.encode("utf-8"), site.gm_password.encode("utf-8"))


def gm_login(request: Request, given: str) -> bool:
    """Whether ``given`` is the GM's password, counting failures per client address
    (raises ``TooManyAttempts`` once the client has used up its attempts)."""
    throttle: LoginThrottle = request.app.state.gm_throttle
    client = request.client.host if request.client else "unknown"
    throttle.check(client)
    if gm_password_ok(site_of(request), given):
        throttle.succeeded(client)
        return True
    throttle.failed(client)
    return False


def is_gm_session(request: Request) -> bool:
    site = site_of(request)
    mark = request.session.get(SESSION_GM)
    return (
        bool(site.gm_password)
        and isinstance(mark, str)
        and hmac.compare_digest(mark, password_mark(site.gm_password or ""))
    )


def api_actor(request: Request) -> Actor:
    """The API's caller, from its bearer credentials (for the game in the path)."""
    site = site_of(request)
    header = request.headers.get("authorization", "")
    scheme, _, credentials = header.partition(" ")
    if scheme.lower() != "bearer" or not credentials.strip():
        raise Unauthorized("send Authorization: Bearer <your token> (the GM: Bearer gm:<password>)")
    token = credentials.strip()
    if token.startswith("gm:"):
        if gm_login(request, token[3:]):
            return GM_ACTOR
        raise PermissionDenied("those are not the GM's credentials")
    game = request.path_params.get("game")
    if not isinstance(game, str):
        raise PermissionDenied("only the GM may do this")
    return site.svc.identify(game, token)


def player_actor(request: Request) -> Actor:
    """The player whose private link this page is (``/play/<game>/<token>``)."""
    site = site_of(request)
    game, token = request.path_params.get("game"), request.path_params.get("token")
    if not isinstance(game, str) or not isinstance(token, str):
        raise PermissionDenied("that link is not valid")
    return site.svc.identify(game, token)


def gm_actor(request: Request) -> Actor:
    """The GM, logged in on this browser; otherwise the login form."""
    if is_gm_session(request):
        return GM_ACTOR
    raise LoginRequired(request.url.path)


ApiActor = Annotated[Actor, Depends(api_actor)]
PlayerActor = Annotated[Actor, Depends(player_actor)]
GmActor = Annotated[Actor, Depends(gm_actor)]
async def _site(request: Request) -> Site:
    """``site_of`` as an async dependency: answered on the event loop, without a trip
    through the thread pool."""
    return site_of(request)


SiteDep = Annotated[Site, Depends(_site)]
