"""The GM console's part of the game's end (issue 14): closing a sitting Parliament
(PARL.close: the GM may, an open vote lapsing). What each faction still has to do, and
Parliament as the GM sees it (every vote), are shown on the console itself
(``routes_gm``, ``_gm_full.html``)."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response

from . import ops
from . import schemas_end as se
from .auth import GmActor, SiteDep
from .csrf import csrf_guard
from .templating import flash

router = APIRouter(prefix="/gm", dependencies=[Depends(csrf_guard)], include_in_schema=False)

OptText = Annotated[str | None, Form()]


@router.post("/games/{game}/close-parliament")
def close_parliament(
    request: Request, game: str, site: SiteDep, actor: GmActor, key: OptText = None
) -> Response:
    out = ops.parliament.close(site, actor, game, se.CloseIn(), key)
    ok = out.result in ("accepted", "pending", "done")
    flash(
        request,
        f"{out.result}: {out.explanation}" + (f" [{out.rule}]" if out.rule else ""),
        "ok" if ok else "error",
    )
    return RedirectResponse(f"/gm/games/{quote(game)}#todo", status_code=303)
