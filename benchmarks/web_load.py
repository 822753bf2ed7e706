"""Load benchmark of the web app: many players ordering in one game through the JSON API.

Run: ``.venv/bin/python benchmarks/web_load.py`` (both back ends; ``--help`` for options).

For each back end it starts real server processes (``kingmaker serve``: uvicorn, one
process each, on free ports):

- SQLite: one server process on a temporary database file;
- PostgreSQL: two server processes on one database (a schema made for this run and
  dropped at the end, even on failure); the players are spread over both ports.

Then it creates one six-faction game, seats its players and lets ``--players``
concurrent players (asyncio, one ``httpx.AsyncClient`` and so one keep-alive connection
each; several players share each faction's token) send orders for ``--duration``
seconds after a warm-up. Most requests are writes through the service and the store:
text orders granting and revoking permissions, alliance declarations, answers to the
declarations awaiting the player; the rest are reads (the view, the inbox, a unit's
destinations) and checks of text orders. The same players then hammer ``/healthz`` (the
same app and middleware, no service) for the same time: the bare figure. Each of the two
is run ``--repeat`` times, alternating; every figure printed is the median over the runs.

Last, it creates ``--games`` more games, asks each server for each game's view (so every
game is loaded into that server's caches) and reads the servers' resident memory
(``VmRSS`` in ``/proc/<pid>/status``).

Aims: orders p99 under 50 ms; orders throughput at least half the bare endpoint's;
resident memory under 300 MB with 100 games loaded. A missed aim says "NOT MET"; any
5xx or transport error is printed loudly and makes the exit status 1.

The load generator runs on the same machine as the servers (and the database): its CPU
use is printed next to the servers', as it competes with them for the cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import httpx

PG_URL = os.environ.get("KINGMAKER_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
GM_PASSWORD = "bench-" + secrets.token_hex(4)
PLAYER_RATE = 1_000_000  # requests per token per minute (see start_server)
FACTIONS = ("red", "blue", "green", "gold", "purple", "black")
GAME = "load"
KINGMAKER = Path(sys.executable).with_name("kingmaker")

AIM_P99_MS = 50.0  # issue 7's aim at 50 players
AIM_P99_MS_16 = 100.0  # issue 16's, at 50 players
AIM_RATIO = 0.5
AIM_RSS_MB = 300.0

# The order workload: (operation, weight). Writes: grant, revoke, declare, answer.
MIX: tuple[tuple[str, int], ...] = (
    ("grant", 30),
    ("revoke", 22),
    ("declare", 8),
    ("answer", 12),  # reads the inbox (a "pending" request), then answers (a write)
    ("check", 8),
    ("view", 8),
    ("pending", 6),
    ("destinations", 6),
)
WRITES = {"grant", "revoke", "declare", "answer"}
ASPECTS = ("PASSAGE THROUGH", "ENTRY TO", "PASSAGE THROUGH {p} AND ENTRY TO")


# -- servers ---------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def start_server(db: str, workdir: Path, n: int) -> Server:
    port = free_port()
    log = workdir / f"server{n}.log"
    env = {**os.environ, "KINGMAKER_SESSION_SECRET": "bench-secret", "KINGMAKER_GM_PASSWORD": GM_PASSWORD}
    # Each of the six tokens is shared by about eight players ordering as fast as the
    # server answers: thousands of requests a minute per token, far past what a person
    # or a polite bot sends (the default limit, 300 a minute). The limit stays on (its
    # cost is measured) but set out of the way.
    rate = ["--player-requests-per-minute", str(PLAYER_RATE)]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(KINGMAKER), "serve", "--db", db, "--port", str(port), *rate],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
        )
    server = Server(proc, port, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server {n} exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(server.base + "/healthz", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    server.stop()
    raise RuntimeError(f"server {n} did not answer /healthz within 60 s:\n{log.read_text()[-3000:]}")


@contextlib.contextmanager
def postgres_schema(base_url: str) -> Iterator[str]:
    """A schema of this run's own on the PostgreSQL server (dropped afterwards, whatever
    happens); yields the URL whose connections use it."""
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url

    base = make_url(base_url).set(drivername="postgresql+psycopg")
    name = f"kmbench_{secrets.token_hex(6)}"
    admin = sa.create_engine(base, poolclass=sa.NullPool, connect_args={"connect_timeout": 5})
    try:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{name}"')
        try:
            yield base.update_query_dict({"options": f"-csearch_path={name}"}).render_as_string(
                hide_password=False
            )
        finally:
            with admin.begin() as conn:
                conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
            print(f"  (dropped schema {name})")
    finally:
        admin.dispose()


# -- the game and its players ------------------------------------------------------------------
def gm() -> dict[str, str]:
    return {"Authorization": f"Bearer gm:{GM_PASSWORD}"}


@dataclass
class Table:
    """The game the players order in: a token, the places and units of each faction."""

    tokens: dict[str, str]
    places: dict[str, list[str]]  # the places each faction controls
    units: dict[str, list[str]]  # the units each faction may order


def create_game(client: httpx.Client, game: str, seed: str) -> None:
    r = client.post(
        "/api/games",
        json={"name": f"Bench {game}", "factions": list(FACTIONS), "seed": seed, "game_id": game},
        headers=gm(),
    )
    if r.status_code != 201:
        raise RuntimeError(f"cannot create game {game}: {r.status_code} {r.text}")


def set_table(base: str) -> Table:
    with httpx.Client(base_url=base, timeout=60) as client:
        create_game(client, GAME, "load-bench")
        tokens: dict[str, str] = {}
        for f in FACTIONS:
            r = client.post(
                f"/api/games/{GAME}/seats", json={"faction": f, "player": f"{f} player"}, headers=gm()
            )
            r.raise_for_status()
            tokens[f] = r.json()["token"]
        control = client.get(f"/api/games/{GAME}/view", headers=gm()).json()["control"]
        places: dict[str, list[str]] = defaultdict(list)
        for place, f in control.items():
            places[f].append(place)
        # each faction's own units (the API's /units lists only what may be ordered now:
        # on another's turn, nothing; the load sends orders whatever the turn)
        v = client.get(f"/api/games/{GAME}/view", headers=gm()).json()
        units: dict[str, list[str]] = defaultdict(list)
        for x in [*v["nobles"], *v["ships"]]:
            if x.get("faction") in FACTIONS and x.get("place"):
                units[x["faction"]].append(x["id"])
    missing = [f for f in FACTIONS if not places[f] or not units[f]]
    if missing:
        raise RuntimeError(f"factions with no place or no unit: {missing}")
    return Table(tokens, dict(places), units)


# -- measuring -----------------------------------------------------------------------------------
@dataclass
class Sample:
    op: str
    seconds: float
    status: int  # 0: a transport error
    verdict: str = ""  # "went" (the service took it), "ruled-out" (the rules refused it), ""


@dataclass
class Run:
    samples: list[Sample] = field(default_factory=list)
    elapsed: float = 0.0
    client_cpu: float = 0.0
    server_cpu: float = 0.0
    errors: list[str] = field(default_factory=list)

    @property
    def throughput(self) -> float:
        return len(self.samples) / self.elapsed

    @property
    def cpu_per_request(self) -> float:
        """The servers' CPU time per request (ms): unlike throughput, it hardly depends on
        what else the machine is running."""
        return self.server_cpu / len(self.samples) * 1e3

    def percentile(self, q: float) -> float:
        xs = sorted(s.seconds for s in self.samples)
        return xs[min(len(xs) - 1, int(q * len(xs)))] * 1e3


class Player:
    """One player: its own connection, a faction, its own random choices."""

    def __init__(self, no: int, base: str, table: Table, players: int):
        self.no = no
        self.faction = FACTIONS[no % len(FACTIONS)]
        self.others = [f for f in FACTIONS if f != self.faction]
        self.table = table
        self.rng = random.Random(no)
        self.client = httpx.AsyncClient(
            base_url=base,
            headers={"Authorization": f"Bearer {table.tokens[self.faction]}"},
            timeout=60,
            limits=httpx.Limits(max_connections=1, max_keepalive_connections=1),
        )
        self.granted: list[tuple[str, str]] = []  # (to, place) this player granted
        self.ops = [op for op, _ in MIX]
        self.weights = [w for _, w in MIX]

    async def close(self) -> None:
        await self.client.aclose()

    async def call(self, run: Run, op: str, method: str, url: str, json: Any = None) -> httpx.Response | None:
        t0 = time.perf_counter()
        try:
            r = await self.client.request(method, url, json=json)
        except httpx.HTTPError as e:
            run.samples.append(Sample(op, time.perf_counter() - t0, 0))
            run.errors.append(f"{op}: {type(e).__name__}: {e}")
            return None
        dt = time.perf_counter() - t0
        verdict = ""
        if r.status_code < 300 and op in WRITES:
            verdict = self.verdict(op, r.json())
        run.samples.append(Sample(op, dt, r.status_code, verdict))
        if r.status_code >= 500:
            run.errors.append(f"{op}: {r.status_code} {r.text[:300]}")
        return r

    @staticmethod
    def verdict(op: str, body: Any) -> str:
        if op == "answer":  # a decline settles the declaration as "refused": the answer went
            return "went"
        results = [v["result"] for v in body]
        return "went" if all(x in ("accepted", "pending") for x in results) else "ruled-out"

    async def bare(self, run: Run, until: float) -> None:
        while time.perf_counter() < until:
            await self.call(run, "healthz", "GET", "/healthz")

    async def orders(self, run: Run, until: float, think: float = 0.0) -> None:
        """Orders until ``until``; ``think``: the mean pause (s) before each (none: as fast
        as the server answers)."""
        game = f"/api/games/{GAME}"
        me = self.faction.capitalize()
        while time.perf_counter() < until:
            if think:
                await asyncio.sleep(
                    min(self.rng.expovariate(1 / think), max(0.0, until - time.perf_counter()))
                )
                if time.perf_counter() >= until:
                    break
            op = self.rng.choices(self.ops, self.weights)[0]
            if op == "revoke" and not self.granted:
                op = "grant"
            if op == "grant":
                to = self.rng.choice(self.others)
                place = self.rng.choice(self.table.places[self.faction])
                aspect = self.rng.choice(ASPECTS).format(p=place)
                text = f"{me} GRANTS {to.capitalize()} {aspect} {place}"
                r = await self.call(run, op, "POST", f"{game}/orders/text", {"text": text})
                if r is not None and r.status_code == 200:
                    self.granted.append((to, place))
            elif op == "revoke":
                to, place = self.granted.pop(self.rng.randrange(len(self.granted)))
                text = f"{me} REVOKES ALL FROM {to.capitalize()} AT {place}"
                await self.call(run, op, "POST", f"{game}/orders/text", {"text": text})
            elif op == "declare":
                text = f"{me} ALLIES WITH {self.rng.choice(self.others).capitalize()}"
                await self.call(run, op, "POST", f"{game}/orders/text", {"text": text})
            elif op == "answer":
                r = await self.call(run, "pending", "GET", f"{game}/pending")
                mine = [p for p in r.json() if p["for_you"]] if r is not None and r.status_code == 200 else []
                if mine:
                    item = self.rng.choice(mine)
                    body = {"kind": item["kind"], "id": item["id"], "accept": self.rng.random() < 0.1}
                    await self.call(run, op, "POST", f"{game}/answers", body)
            elif op == "check":
                place = self.rng.choice(self.table.places[self.faction])
                to = self.rng.choice(self.others).capitalize()
                text = f"{me} GRANTS {to} ENTRY TO {place}\n{me} ALLIES WITH {to}"
                await self.call(run, op, "POST", f"{game}/orders/check", {"text": text})
            elif op == "view":
                await self.call(run, op, "GET", f"{game}/view")
            elif op == "pending":
                await self.call(run, op, "GET", f"{game}/pending")
            else:
                unit = self.rng.choice(self.table.units[self.faction])
                await self.call(run, op, "GET", f"{game}/units/{unit}/destinations")


async def phase(
    players: list[Player],
    servers: list[Server],
    seconds: float,
    work: Callable[[Player], Callable[..., Awaitable[None]]],
) -> Run:
    run = Run()
    cpu0 = time.process_time()
    srv0 = sum(s.cpu_seconds() for s in servers)
    t0 = time.perf_counter()
    until = t0 + seconds
    await asyncio.gather(*(work(p)(run, until) for p in players))
    run.elapsed = time.perf_counter() - t0
    run.client_cpu = time.process_time() - cpu0
    run.server_cpu = sum(s.cpu_seconds() for s in servers) - srv0
    return run


def show(label: str, run: Run) -> None:
    print(
        f"    {label:<13}: {run.throughput:7.1f} req/s, p50 {run.percentile(0.5):7.2f} ms,"
        f" p99 {run.percentile(0.99):7.2f} ms; server CPU {run.cpu_per_request:5.2f} ms/request;"
        f" CPU s used: servers {run.server_cpu:.1f}, load generator {run.client_cpu:.1f}"
        f" (of {(os.cpu_count() or 1) * run.elapsed:.0f} on {os.cpu_count()} cores)",
        flush=True,
    )


async def load(
    table: Table, servers: list[Server], args: argparse.Namespace
) -> tuple[list[Run], list[Run], Run | None]:
    players = [Player(i, servers[i % len(servers)].base, table, args.players) for i in range(args.players)]
    try:
        await phase(players, servers, min(2.0, args.warmup), lambda p: p.bare)
        await phase(players, servers, args.warmup, lambda p: p.orders)
        bare: list[Run] = []
        orders: list[Run] = []
        for i in range(args.repeat):
            first, second = ("bare", "orders") if i % 2 == 0 else ("orders", "bare")
            for kind in (first, second):
                if kind == "bare":
                    bare.append(await phase(players, servers, args.duration, lambda p: p.bare))
                else:
                    orders.append(await phase(players, servers, args.duration, lambda p: p.orders))
                show(f"run {i + 1} {kind}", (bare if kind == "bare" else orders)[-1])
        paced = None
        if args.think > 0:
            paced = await phase(
                players, servers, args.duration, lambda p: partial(p.orders, think=args.think)
            )
            show("paced orders", paced)
        return bare, orders, paced
    finally:
        await asyncio.gather(*(p.close() for p in players))


# -- memory ---------------------------------------------------------------------------------------
async def memory(servers: list[Server], games: int) -> tuple[list[float], list[float]]:
    """RSS of each server before and after ``games`` more games are created and viewed."""
    before = [s.rss_mb() for s in servers]
    names = [f"mem-{i:03d}" for i in range(games)]
    sem = asyncio.Semaphore(4)
    async with contextlib.AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(httpx.AsyncClient(base_url=s.base, headers=gm(), timeout=120))
            for s in servers
        ]

        async def make(i: int, name: str) -> None:
            async with sem:
                r = await clients[i % len(clients)].post(
                    "/api/games",
                    json={"name": f"Bench {name}", "factions": list(FACTIONS), "seed": name, "game_id": name},
                )
                if r.status_code != 201:
                    raise RuntimeError(f"cannot create game {name}: {r.status_code} {r.text}")

        await asyncio.gather(*(make(i, n) for i, n in enumerate(names)))

        async def touch(client: httpx.AsyncClient, name: str) -> None:
            async with sem:
                r = await client.get(f"/api/games/{name}/view")
                if r.status_code != 200:
                    raise RuntimeError(f"cannot view game {name}: {r.status_code} {r.text}")

        for c in clients:  # every server loads every game
            await asyncio.gather(*(touch(c, n) for n in names))
    return before, [s.rss_mb() for s in servers]


# -- reporting ------------------------------------------------------------------------------------
def med(xs: list[float]) -> float:
    return statistics.median(xs)


def summarise(label: str, runs: list[Run]) -> tuple[float, float, float, float]:
    tput = med([r.throughput for r in runs])
    p50 = med([r.percentile(0.5) for r in runs])
    p99 = med([r.percentile(0.99) for r in runs])
    cpu = med([r.cpu_per_request for r in runs])
    print(
        f"  {label:<24} {tput:8.1f} req/s   p50 {p50:8.2f} ms   p99 {p99:8.2f} ms   server CPU {cpu:5.2f} ms/request"
    )
    return tput, p50, p99, cpu


def breakdown(runs: list[Run]) -> tuple[int, int]:
    """Per operation: requests, status classes, verdicts, latency. Returns (5xx + transport
    errors, total requests)."""
    per: dict[str, list[Sample]] = defaultdict(list)
    for r in runs:
        for s in r.samples:
            per[s.op].append(s)
    total = sum(len(v) for v in per.values())
    print(
        f"  {'operation':<13}{'requests':>9}{'share':>7}{'2xx':>8}{'4xx':>6}{'5xx':>5}{'err':>5}"
        f"{'went':>8}{'ruled-out':>10}{'p50 ms':>9}{'p99 ms':>9}"
    )
    bad = 0
    writes_ok = 0
    for op, _ in (*MIX, ("pending", 0)):
        xs = per.pop(op, [])
        if not xs:
            continue
        st = Counter(
            "2xx"
            if 200 <= s.status < 300
            else "4xx"
            if 400 <= s.status < 500
            else "5xx"
            if s.status >= 500
            else "err"
            for s in xs
        )
        vd = Counter(s.verdict for s in xs)
        lat = sorted(s.seconds for s in xs)
        p50, p99 = lat[len(lat) // 2] * 1e3, lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1e3
        bad += st["5xx"] + st["err"]
        if op in WRITES:
            writes_ok += st["2xx"]
        print(
            f"  {op:<13}{len(xs):>9}{len(xs) / total:>7.0%}{st['2xx']:>8}{st['4xx']:>6}{st['5xx']:>5}{st['err']:>5}"
            f"{vd['went'] if op in WRITES else '-':>8}{vd['ruled-out'] if op in WRITES else '-':>10}{p50:>9.2f}{p99:>9.2f}"
        )
    print(
        f"  writes answered 2xx (through the service into the log): {writes_ok} of {total} requests"
        f" ({writes_ok / total:.0%}); 'ruled-out' writes are refusals by the rules, logged too"
    )
    return bad, total


def bench_backend(backend: str, args: argparse.Namespace) -> bool:
    """Run the whole benchmark on one back end; True if there was no server error."""
    workdir = Path(tempfile.mkdtemp(prefix="kingmaker-webload-"))
    servers: list[Server] = []
    try:
        with contextlib.ExitStack() as stack:
            if backend == "sqlite":
                db = f"sqlite:///{workdir / 'games.db'}"
                count = 1
            else:
                db = stack.enter_context(postgres_schema(args.pg))
                count = 2
            for n in range(count):  # one after the other: the first migrates the schema
                servers.append(start_server(db, workdir, n))
            print(
                f"\n== {backend}: {count} server process{'es' if count > 1 else ''} (kingmaker serve, uvicorn, one"
                f" worker each; pids {', '.join(str(s.proc.pid) for s in servers)}), {args.players} players,"
                f" {args.repeat} x {args.duration:g} s per figure after a {args.warmup:g} s warm-up"
            )
            table = set_table(servers[0].base)
            bare, orders, paced = asyncio.run(load(table, servers, args))
            print(f"\n  medians of {args.repeat} runs, {args.players} players sending as fast as answered:")
            b_tput, _, _, b_cpu = summarise("bare /healthz", bare)
            o_tput, _, o_p99, o_cpu = summarise("orders (mixed API load)", orders)
            ratio = o_tput / b_tput
            print(
                f"  ratio orders / bare: throughput {ratio:.2f}, server CPU per request {o_cpu / b_cpu:.1f} x"
            )
            bad, _ = breakdown(orders)
            bare_bad = sum(1 for r in bare for s in r.samples if s.status == 0 or s.status >= 500)
            errors = [e for r in (*bare, *orders) for e in r.errors]
            if bad or bare_bad:
                print(f"  !!! {bad + bare_bad} SERVER ERRORS (5xx or transport); the first ones:")
                for e in errors[:10]:
                    print(f"  !!!   {e}")
            else:
                print("  no 5xx, no transport errors")
            print(
                f"  aim p99 < {AIM_P99_MS:g} ms: {'met' if o_p99 < AIM_P99_MS else 'NOT MET'},"
                f" < {AIM_P99_MS_16:g} ms: {'met' if o_p99 < AIM_P99_MS_16 else 'NOT MET'} ({o_p99:.1f} ms);"
                f" aim throughput >= {AIM_RATIO:g} x bare: {'met' if ratio >= AIM_RATIO else 'NOT MET'}"
                f" ({ratio:.2f})"
            )
            if paced is not None:
                p99 = paced.percentile(0.99)
                print(
                    f"  paced (each player pauses {args.think:g} s on average: {args.players / args.think:.0f} req/s"
                    f" offered): {paced.throughput:.1f} req/s, p50 {paced.percentile(0.5):.2f} ms, p99 {p99:.2f} ms;"
                    f" p99 < {AIM_P99_MS:g} ms at this load: {'met' if p99 < AIM_P99_MS else 'NOT MET'},"
                    f" < {AIM_P99_MS_16:g} ms: {'met' if p99 < AIM_P99_MS_16 else 'NOT MET'}"
                )
                paced_bad = sum(1 for s in paced.samples if s.status == 0 or s.status >= 500)
                if paced_bad:
                    print(
                        f"  !!! {paced_bad} SERVER ERRORS (5xx or transport) in the paced run; the first ones:"
                    )
                    for e in paced.errors[:10]:
                        print(f"  !!!   {e}")
                bad += paced_bad
            before, after = asyncio.run(memory(servers, args.games))
            for i, (b, a) in enumerate(zip(before, after, strict=True)):
                print(
                    f"  server {i} RSS with {args.games} more games loaded: {a:.0f} MB (before: {b:.0f} MB,"
                    f" {(a - b) / max(args.games, 1) * 1024:.0f} kB per game); aim < {AIM_RSS_MB:g} MB:"
                    f" {'met' if a < AIM_RSS_MB else 'NOT MET'}"
                )
            return not (bad or bare_bad)
    finally:
        for s in servers:
            s.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--players", type=int, default=50, help="concurrent players (default 50)")
    parser.add_argument("--duration", type=float, default=15.0, help="seconds per measured run (default 15)")
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="seconds of orders before measuring (default 5)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="measured runs of each kind (default 3)")
    parser.add_argument(
        "--think",
        type=float,
        default=2.0,
        help="mean pause (s) of each player in one extra paced run of orders (0: no paced run; default 2)",
    )
    parser.add_argument(
        "--games", type=int, default=100, help="games loaded for the memory figure (default 100)"
    )
    parser.add_argument(
        "--pg", default=PG_URL, help="PostgreSQL server (default: $KINGMAKER_TEST_PG or local test)"
    )
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # clean up (finally blocks) on kill too
    print(
        f"web load benchmark: {os.cpu_count()} CPUs (shared with the load generator, the database and"
        f" whatever else runs here), load average {os.getloadavg()[0]:.2f} at start"
    )
    backends = ("sqlite", "postgresql") if args.backend == "both" else (args.backend,)
    ok = True
    for b in backends:
        ok = bench_backend(b, args) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
