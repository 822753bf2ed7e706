"""Child process for the service concurrency test: N client threads, each submitting
M commands to one game through its own GameService on a shared store. Prints one line
per acknowledged command: ``ack <key> <first_seq> <last_seq> <replayed>``."""

from __future__ import annotations

import sys
import threading

from kingmaker.rules import commands as rc
from kingmaker.service import GM_ACTOR
from kingmaker.service.commands import Submit
from kingmaker.service.game_service import GameService
from kingmaker.storage import open_store


def client_commands(state_control: dict[str, str], factions: list[str], client: int, count: int) -> list[tuple[str, rc.Command]]:
    """The commands of one client: grants, revokes and alliance declarations."""
    f = factions[client % len(factions)]
    mine = sorted(p for p, owner in state_control.items() if owner == f)
    other = factions[(client + 1) % len(factions)]
    out: list[tuple[str, rc.Command]] = []
    for j in range(count):
        key = f"c{client}-{j}"
        if mine and j % 3 == 0:
            out.append((key, rc.Grant(f, other, mine[j % len(mine)], ("road", "enter"))))
        elif mine and j % 3 == 1:
            out.append((key, rc.Revoke(f, other, mine[(j - 1) % len(mine)], ())))
        else:
            out.append((key, rc.DeclareAlliance(f, f"a-{key}", (other,))))
    return out


def run(url: str, game: str, first_client: int, clients: int, count: int) -> None:
    store = open_store(url, pool_size=3)  # more connections only mean more stale appends (measured)
    svc = GameService(store)
    state = svc.state(game)
    factions = list(state.turn_order)
    control = dict(state.control)
    lock = threading.Lock()
    errors: list[str] = []

    def client(i: int) -> None:
        for key, cmd in client_commands(control, factions, i, count):
            try:
                out = svc.execute(GM_ACTOR, Submit(game, cmd), idempotency_key=key)
            except Exception as e:  # reported to the parent, which fails the test
                with lock:
                    errors.append(f"{key}: {type(e).__name__}: {e}")
                return
            with lock:
                print(f"ack {key} {out.first_seq} {out.last_seq} {int(out.replayed)}", flush=True)

    threads = [threading.Thread(target=client, args=(first_client + i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for e in errors:
        print(f"error {e}", flush=True)
    store.close()


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
