"""Real games for the storage tests: the conformance-format mini world, random legal
play wrapped in envelopes, snapshots of the real state, and the checks that a stored
game replays to its snapshots. Used by the tests and by their child processes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kingmaker.log.envelope import Envelope
from kingmaker.log.fold import fold
from kingmaker.rules.apply import apply
from kingmaker.rules.codec import (
    board_from_data,
    board_to_data,
    catalog_from_data,
    catalog_to_data,
    state_from_data,
    state_to_data,
)
from kingmaker.rules.hashing import state_hash
from kingmaker.rules.state import GameState
from kingmaker.simulation import random_play
from kingmaker.storage.base import GameRecord, GameStore, Snapshot
from tests.conftest import FIXTURES, world_from_case

RECORDED_AT = "2026-11-30T06:00:00Z"


def world() -> GameState:
    return world_from_case(FIXTURES / "mini_world.yaml")


def game_record(state: GameState, game_id: str = "real") -> GameRecord:
    return GameRecord(
        id=game_id,
        name="A real game",
        created_at=RECORDED_AT,
        factions=state.turn_order,
        data_set="mini_world",
        board=board_to_data(state.board),
        catalog=catalog_to_data(state.catalog),
        seed="seed",
        commitment="commitment",
        settings={"policy": "hold"},
    )


def snapshot_of(state: GameState, seq: int) -> Snapshot:
    """The state as the snapshot at log seq ``seq`` (the state's own ``seq`` counts
    events applied since the world was built, which need not start at 0)."""
    return Snapshot(seq, state_to_data(state), state_hash(state))


@dataclass(frozen=True)
class Step:
    envelope: Envelope
    state: GameState  # the state after it


def played(state: GameState, steps: int, seed: int | str, start: int = 0, tag: str = "") -> Iterator[Step]:
    """The events of ``random_play(state, steps, seed)`` in envelopes numbered on from
    log seq ``start``, each with the state after it."""
    current = state
    seq = start
    for n, p in enumerate(random_play(state, steps, seed)):
        for e in p.decision.events:
            seq += 1
            env = Envelope(
                seq=seq,
                round=current.round,
                turn=current.turn,
                actor=p.command.by,
                rule=p.decision.rule,
                event=e,
                recorded_at=RECORDED_AT,
                command=f"{tag}cmd{n}",
            )
            current = apply(current, e)
            yield Step(env, current)


def initial_state(store: GameStore, game_id: str) -> GameState:
    """The game's seq-0 state, decoded from what the store holds (record and snapshot)."""
    rec = store.game(game_id)
    snap = store.latest_snapshot(game_id, at_or_before=0)
    return state_from_data(snap.state, board_from_data(rec.board), catalog_from_data(rec.catalog))


def all_snapshots(store: GameStore, game_id: str, after: int = -1) -> list[Snapshot]:
    """Every stored snapshot with seq > ``after``, oldest first (walking ``latest_snapshot`` down)."""
    found = [store.latest_snapshot(game_id)]
    while found[-1].seq > after + 1 and found[-1].seq > 0:
        below = store.latest_snapshot(game_id, at_or_before=found[-1].seq - 1)
        if below.seq <= after:
            break
        found.append(below)
    return [s for s in found[::-1] if s.seq > after]


def check_replay(store: GameStore, game_id: str) -> tuple[int, int]:
    """Replay the stored log from the stored seq-0 state and check every snapshot: it
    decodes, its hash is the hash of its decoded state, and of the replayed state at its
    seq. Returns (head, number of snapshots checked)."""
    rec = store.game(game_id)
    board, catalog = board_from_data(rec.board), catalog_from_data(rec.catalog)
    snaps = all_snapshots(store, game_id)
    assert snaps[0].seq == 0
    state = state_from_data(snaps[0].state, board, catalog)
    assert state_hash(state) == snaps[0].state_hash
    envs = list(store.envelopes(game_id))
    assert [e.seq for e in envs] == list(range(1, len(envs) + 1))
    done = 0
    for snap in snaps[1:]:
        decoded = state_from_data(snap.state, board, catalog)
        assert state_hash(decoded) == snap.state_hash, f"snapshot {snap.seq} does not decode to its hash"
        state = fold(state, envs[done : snap.seq])
        done = snap.seq
        assert state_hash(state) == snap.state_hash, f"replay to {snap.seq} does not match its snapshot"
    return len(envs), len(snaps)
