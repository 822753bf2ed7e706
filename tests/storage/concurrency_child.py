"""Concurrent clients for the concurrency test: ``threads`` client threads in this
process, each appending ``events`` envelopes one at a time to the same game (read the
head, append with it as ``expected_seq``, retry on ``ConcurrencyError``). Each
envelope's command is ``<client>-<n>``. Prints one JSON object: every client's
acknowledged seqs, in order, how many conflicts it met, and how many appends the
database's primary key refused.

Usage: python -m tests.storage.concurrency_child URL GAME_ID PREFIX THREADS EVENTS POOL_SIZE
"""

from __future__ import annotations

import json
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

from kingmaker.storage import AppendResult, ConcurrencyError, GameStore, SqlStore, open_store
from tests.storage.contract import envs


@dataclass
class Client:
    name: str
    acked: list[int] = field(default_factory=list)
    conflicts: int = 0
    error: str | None = None


def run_client(store: GameStore, game_id: str, client: Client, n: int, start: threading.Barrier) -> None:
    start.wait()
    try:
        while len(client.acked) < n:
            head = store.head(game_id)
            env = replace(
                envs(head + 1, 1, actor=client.name)[0], command=f"{client.name}-{len(client.acked)}"
            )
            try:
                result = store.append(game_id, head, [env])
            except ConcurrencyError:
                client.conflicts += 1
                continue
            client.acked.append(result.first_seq)
    except Exception as e:  # reported to the parent, which fails the test
        client.error = f"{type(e).__name__}: {e}"


def run_clients(store: GameStore, game_id: str, prefix: str, threads: int, events: int) -> dict[str, Any]:
    """Run the clients to the end; what each acknowledged, and how many appends the
    database itself refused (the primary key, after both writers passed the head check)."""
    clients = [Client(f"{prefix}{i}") for i in range(threads)]
    refused_by_key = count_refusals_by_key(store)
    start = threading.Barrier(threads)
    workers = [
        threading.Thread(target=run_client, args=(store, game_id, c, events, start), daemon=True)
        for c in clients
    ]
    began = time.monotonic()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return {
        "seconds": time.monotonic() - began,
        "refused_by_key": refused_by_key[0],
        "clients": {c.name: {"acked": c.acked, "conflicts": c.conflicts, "error": c.error} for c in clients},
    }


def count_refusals_by_key(store: GameStore) -> list[int]:
    """Count the appends that got past the head check and were stopped by the database
    (``SqlStore._after_conflict`` runs once for each)."""
    count = [0]
    if isinstance(store, SqlStore):
        original = store._after_conflict
        lock = threading.Lock()

        def counted(*args: Any) -> AppendResult:
            with lock:
                count[0] += 1
            return original(*args)

        store._after_conflict = counted  # type: ignore[method-assign, assignment]
    return count


def main(url: str, game_id: str, prefix: str, threads: int, events: int, pool_size: int) -> None:
    with open_store(url, pool_size=pool_size) as store:
        print(json.dumps(run_clients(store, game_id, prefix, threads, events)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))
