"""The child process of the crash-safety test: it opens the store, recovers the game's
state from the latest snapshot and the log after it, then appends random legal play in
batches of 1 to 5 envelopes (with an idempotency key each, and a snapshot whenever a
batch crosses a multiple of 20) until it is killed. It prints ``ready``, then
``<first> <last>`` for each acknowledged append, flushing every line.

Every envelope of a batch carries the command id ``b<first>-<last>``, so the parent can
tell whether a batch landed whole.

Usage: python -m tests.storage.crash_child URL GAME_ID SEED
"""

from __future__ import annotations

import random
import sys
from dataclasses import replace

from kingmaker.log.fold import fold
from kingmaker.rules.codec import board_from_data, catalog_from_data, state_from_data
from kingmaker.storage import open_store
from tests.storage import realgame

SNAPSHOT_EVERY = 20


def main(url: str, game_id: str, seed: int) -> None:
    store = open_store(url)
    head = store.head(game_id)
    rec = store.game(game_id)
    snap = store.latest_snapshot(game_id, at_or_before=head)
    state = state_from_data(snap.state, board_from_data(rec.board), catalog_from_data(rec.catalog))
    state = fold(state, store.envelopes(game_id, after=snap.seq))
    rnd = random.Random(seed)
    steps = realgame.played(state, 1_000_000, seed, start=head)
    print("ready", flush=True)
    while True:
        batch = [next(steps) for _ in range(rnd.randint(1, 5))]
        first, last = batch[0].envelope.seq, batch[-1].envelope.seq
        envelopes = [replace(s.envelope, command=f"b{first}-{last}") for s in batch]
        crosses = last // SNAPSHOT_EVERY > head // SNAPSHOT_EVERY
        result = store.append(
            game_id,
            head,
            envelopes,
            idempotency_key=f"k{first}-{last}",
            response={"first": first, "last": last},
            snapshot=realgame.snapshot_of(batch[-1].state, last) if crosses else None,
        )
        print(f"{result.first_seq} {result.last_seq}", flush=True)
        head = last


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
