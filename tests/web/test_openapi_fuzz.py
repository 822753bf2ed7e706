"""Schemathesis fuzzes the JSON API from its own OpenAPI document: no request, however
odd, may end in a server error, and every answer must be one the document describes
(its status code, content type and body schema).

Each operation is fuzzed twice, as the GM and as a player (the checks and secrecy
differ), against a real SQLite store (tmp_path) holding a seated four-faction game (the
``world`` fixture). Generated values are mixed with real ones (the game's id, its units,
places, factions and ships, plausible text orders), so most requests reach the handlers
and the rules, not only "no such game". Deterministic (a fixed seed, derandomized
Hypothesis) and kept to about a minute.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation

from kingmaker.service import FixedClock
from kingmaker.web import create_app
from kingmaker.web.settings import WebSettings

from .conftest import FACTIONS, GAME, GM_PASSWORD, World, bearer, gm_auth

# Examples per operation and generation mode (schema-valid, schema-violating), besides
# the coverage phase's boundary cases, and scenarios (of up to 8 linked requests) per
# stateful test. For a long local run, e.g.
#   KINGMAKER_FUZZ_EXAMPLES=300 KINGMAKER_FUZZ_SCENARIOS=200 KINGMAKER_FUZZ_SEED=7 pytest tests/web/test_openapi_fuzz.py
MAX_EXAMPLES = int(os.environ.get("KINGMAKER_FUZZ_EXAMPLES", "25"))
SCENARIOS = int(os.environ.get("KINGMAKER_FUZZ_SCENARIOS", "20"))
SEED = int(os.environ.get("KINGMAKER_FUZZ_SEED", "1455"))

_SETTINGS = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)


def _template() -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """The app's OpenAPI document, and real values for the fields and parameters the API
    takes (by name), from a game made as the ``world`` fixture makes it."""
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{Path(tmp) / 'games.db'}", gm_password=GM_PASSWORD, clock=FixedClock())
        try:
            doc = TestClient(app).get("/api/openapi.json").json()
            svc = app.state.site.svc
            api = TestClient(app)
            r = api.post(
                "/api/games",
                json={"name": "Wars of the Roses", "factions": list(FACTIONS), "seed": "s", "game_id": GAME},
                headers=gm_auth(),
            )
            assert r.status_code == 201, r.text
            state = svc.state(GAME)
        finally:
            app.state.site.svc.store.close()
    factions = list(FACTIONS)
    places = sorted(state.board.places)
    nobles = sorted(state.nobles)
    ships = sorted(state.ships)
    names = [state.catalog.name_of(n) for n in nobles]
    place_names = [state.board.name_of(p) for p in places[:30]]
    text = [f"{n} MOVES TO {p}" for n, p in zip(names, place_names, strict=False)] + [
        "Red ALLIES WITH Blue AS rb",
        "Blue ALLIES WITH Green",
        f"{names[0]} ENTERS",
        f"{names[0]} LEAVES",
        f"{names[0]} BESIEGES {place_names[0]}",
        "ACCEPT ALLIANCE rb",
        f"{names[1]} MOVES TO {place_names[1]}\n{names[2]} MOVES TO {place_names[2]}",
        "Percy FLIES TO the moon",
    ]
    hints: dict[str, list[Any]] = {
        "game": [GAME],
        "unit": nobles + ships,
        "faction": [*factions, "gm", "public"],
        "by": [*factions, "gm"],
        "of": factions,
        "to": places,
        "place": places,
        "into": places,
        "ship": ships,
        "target": factions,
        "text": text,
        "turn": factions,
        "round": [1, 2],
        "aspects": [["enter"], ["pass"], ["enter", "pass"]],
        "factions": [factions, factions[:2]],
        "data_folder": [None],
    }
    return doc, hints


def _with_links(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with OpenAPI links from one answer to the next request, for the stateful
    tests: from the games (or text orders, a player's way in) to the game's units, their
    destinations, an order to one of them, what is pending and an answer to it, an open
    deadline and its extension, the log and an undo, a ship and a storm."""
    ops = {(method.upper(), path): op for path, item in doc["paths"].items() for method, op in item.items()}

    def link(source: str, status: str, target: str, game: str, body: dict[str, str] | None = None) -> None:
        definition: dict[str, Any] = {
            "operationId": ops[tuple(target.split())]["operationId"],
            "parameters": {"path.game": game},
        }
        if "{unit}" in target:
            definition["parameters"]["path.unit"] = "$response.body#/0/id"
        if body is not None:
            definition["requestBody"] = body
        ops[tuple(source.split())]["responses"][status].setdefault("links", {})[f"to {target}"] = definition

    same = "$request.path.game"
    game = "/api/games/{game}"
    looks = [f"GET {game}/{x}" for x in ("units", "view", "deadlines", "log", "pending")]
    for target in looks:
        link("GET /api/games", "200", target, "$response.body#/0/id")
        link(f"POST {game}/orders/text", "200", target, same)
        link(f"POST {game}/orders/check", "200", target, same)
    for target in (f"GET {game}/units", f"GET {game}/view", f"POST {game}/seats"):
        link("POST /api/games", "201", target, "$response.body#/game")
    link(f"GET {game}/units", "200", f"GET {game}/units/{{unit}}/destinations", same)
    order = {
        "unit": "$response.body#/unit",
        "to": "$response.body#/destinations/0/place",
        "action": "$response.body#/destinations/0/actions/0",
    }
    link(f"GET {game}/units/{{unit}}/destinations", "200", f"POST {game}/orders", same, order)
    for source in (f"POST {game}/orders", f"POST {game}/orders/text"):
        link(source, "200", f"GET {game}/pending", same)
        link(source, "200", f"POST {game}/finish-turn", same)
    answer = {"id": "$response.body#/0/id", "kind": "$response.body#/0/kind"}
    link(f"GET {game}/pending", "200", f"POST {game}/answers", same, answer)
    link(f"GET {game}/deadlines", "200", f"POST {game}/extend", same, {"target": "$response.body#/0/target"})
    link(f"GET {game}/log", "200", f"POST {game}/undo", same, {"to_seq": "$response.body#/1/seq"})
    link(f"GET {game}/view", "200", f"POST {game}/storm", same, {"ship": "$response.body#/ships/0/id"})
    return doc


_DOC, _HINTS = _template()
_with_links(_DOC)
# A well-formed request the rules refuse (a move out of reach, an order out of turn) is
# answered 400, as the document says; no schema can tell which requests the rules allow.
# A schema-valid request answered 422 stays a failure: the document and the validation
# would disagree.
_CONFIG = {
    "seed": SEED,
    "generation": {"deterministic": True, "max-examples": MAX_EXAMPLES},
    # drawing the map as a PNG takes a third of a second: a few suffice
    "operations": [{"include-path-regex": r"/map\.png$", "generation": {"max-examples": 3}}],
    "checks": {
        "positive_data_acceptance": {"expected-statuses": ["2xx", "400", "401", "403", "404", "409"]},
        # a body over 64 KB is refused before it is read (web.limits.BodyLimit): 413, as documented
        "negative_data_rejection": {
            "expected-statuses": [
                "400",
                "401",
                "403",
                "404",
                "405",
                "406",
                "409",
                "413",
                "415",
                "422",
                "428",
                "429",
                "5xx",
            ]
        },
    },
}
schema = schemathesis.openapi.from_dict(_DOC, config=SchemathesisConfig.from_dict(_CONFIG))


_LOCATIONS = (ParameterLocation.PATH, ParameterLocation.QUERY, ParameterLocation.BODY)


@schema.hook
def flatmap_case(context: Any, case: schemathesis.Case) -> st.SearchStrategy[schemathesis.Case]:
    """Swap some generated values for real ones (each stays what schemathesis made up
    now and then). A component generated to violate the schema is left as it is."""
    meta = case.meta
    picks: dict[tuple[str, str], st.SearchStrategy[Any]] = {}
    for location in _LOCATIONS:
        container = getattr(case, location.container_name)
        if not isinstance(container, dict) or (meta is not None and meta.is_negative_at(location)):
            continue
        for key, value in container.items():
            if key in _HINTS:
                picks[(location.container_name, key)] = st.sampled_from([*_HINTS[key], value])
    if not picks:
        return st.just(case)

    def apply(chosen: dict[tuple[str, str], Any]) -> schemathesis.Case:
        for name in {name for name, _ in chosen}:
            values = dict(getattr(case, name))
            values.update({key: v for (n, key), v in chosen.items() if n == name})
            setattr(case, name, values)  # schemathesis revalidates the case before sending it
        return case

    return st.fixed_dictionaries(picks).map(apply)


def _secrets_kept(secrets: list[str]) -> Any:
    """A check: no answer holds any of ``secrets`` (the GM's password; for a player, the
    other players' tokens), not even an error message."""

    def secrets_kept(ctx: Any, response: schemathesis.Response, case: schemathesis.Case) -> None:
        leaked = [secret for secret in secrets if secret.encode() in response.content]
        assert not leaked, "the answer holds a secret"

    return secrets_kept


def _credentials(world: World, who: str) -> tuple[dict[str, str], list[str]]:
    """The caller's Authorization header, and what it must never be shown."""
    if who == "gm":
        return gm_auth(), [GM_PASSWORD]
    others = [token for faction, token in world.tokens.items() if faction != who]
    return bearer(world.tokens[who]), [GM_PASSWORD, *others]


def _run_stateful(world: World, who: str, tmp: Path) -> None:
    """Scenarios of linked requests, each on a fresh copy of the ``world``'s game: what
    one scenario did (a turn ended, an alliance made) must not change what the next one,
    or Hypothesis replaying it, meets (else the same draws lead elsewhere and Hypothesis
    stops with FlakyStrategyDefinition)."""
    headers, secrets = _credentials(world, who)
    check = _secrets_kept(secrets)
    template = tmp / "template.db"
    with sqlite3.connect(str(world.svc.store.engine.url.database)) as src, sqlite3.connect(template) as dst:
        src.backup(dst)
    copies = iter(range(10**9))

    class Scenario(schema.as_state_machine()):  # type: ignore[misc]
        app: FastAPI

        def setup(self) -> None:
            path = tmp / f"scenario-{next(copies)}.db"
            with sqlite3.connect(template) as src, sqlite3.connect(path) as dst:
                src.backup(dst)
            self.app = create_app(
                f"sqlite:///{path}",
                gm_password=GM_PASSWORD,
                clock=FixedClock(),
                settings=WebSettings(player_requests_per_minute=100_000),
            )

        def teardown(self) -> None:
            self.app.state.site.svc.store.close()

        def get_call_kwargs(self, case: schemathesis.Case) -> dict[str, Any]:
            return {"app": self.app, "headers": headers}

        def validate_response(
            self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
        ) -> None:
            super().validate_response(response, case, [*(additional_checks or []), check], **kwargs)

    Scenario.run(settings=settings(_SETTINGS, max_examples=SCENARIOS, stateful_step_count=8))


def test_scenarios_as_the_gm(world: World, tmp_path: Path) -> None:
    _run_stateful(world, "gm", tmp_path)


def test_scenarios_as_a_player(world: World, tmp_path: Path) -> None:
    _run_stateful(world, "red", tmp_path)


@schema.parametrize()
@_SETTINGS
def test_the_api_as_the_gm(case: schemathesis.Case, world: World) -> None:
    headers, secrets = _credentials(world, "gm")
    case.call_and_validate(app=world.app, headers=headers, additional_checks=[_secrets_kept(secrets)])


@schema.parametrize()
@_SETTINGS
def test_the_api_as_a_player(case: schemathesis.Case, world: World) -> None:
    headers, secrets = _credentials(world, "red")
    case.call_and_validate(app=world.app, headers=headers, additional_checks=[_secrets_kept(secrets)])
