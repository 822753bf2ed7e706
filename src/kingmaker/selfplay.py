"""Self-play of whole games (issue 14): random legal players with aims
(``simulation_aims``: the random players of ``simulation_full``, who also crown their
heirs, summon Parliament and move the victory motion, hunt the others' heirs, bring
their nobles home by sea) play games on a data set from the deal to a victory, or to a
round limit, while the invariants are checked; then every game's events are replayed
and must give the same state and hash. Every command goes through ``decide``.

The invariants, checked after every accepted step: every card is somewhere, and once
(decks, discards, hands, the Chancery and what is in play make the whole set); no noble
is both dead and on the board; every heir is with a noble in play or stands at a place.
A game that breaks one stops the run with ``InvariantBroken`` (a bug to find), never
silently.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from operator import attrgetter

from .data import DataSet, load_dataset
from .rules.apply import replay
from .rules.deal import new_game
from .rules.events import Event
from .rules.hashing import state_hash
from .rules.state import GameState
from .simulation import decided
from .simulation_aims import AimingPlayer

ROUND_LIMIT = 200
STEP_LIMIT = 400_000  # a game that takes more steps than this is stuck: a bug
FACTIONS = ("red", "blue", "green", "gold", "white", "black")


class InvariantBroken(AssertionError):
    """A self-played game broke an invariant of the rules (a bug)."""


@dataclass(frozen=True)
class GameRun:
    """How one game went: ``ended`` is the rule that ended it (VICTORY.*) or
    ``round limit``; ``winner`` the winning faction, if any."""

    seed: str
    ended: str
    winner: str
    rounds: int
    turns: int
    steps: int
    seconds: float
    hash: str


@dataclass
class Summary:
    runs: list[GameRun] = field(default_factory=list)

    @property
    def endings(self) -> Counter[str]:
        return Counter(r.ended for r in self.runs)

    @property
    def by_rule(self) -> int:
        """Games ended by a rule of the game (not the round limit)."""
        return sum(1 for r in self.runs if r.ended.startswith("VICTORY."))

    def to_data(self) -> dict[str, object]:
        rounds = [r.rounds for r in self.runs] or [0]
        turns = sum(r.turns for r in self.runs)
        seconds = sum(r.seconds for r in self.runs) or 1e-9
        return {
            "games": len(self.runs),
            "ended_by_rule": self.by_rule,
            "endings": dict(sorted(self.endings.items())),
            "rounds": {
                "mean": round(statistics.mean(rounds), 1),
                "median": statistics.median(rounds),
                "min": min(rounds),
                "max": max(rounds),
            },
            "turns": turns,
            "turns_per_second": round(turns / seconds, 1),
            "games_detail": [r.__dict__ for r in self.runs],
        }


def cards_of(state: GameState) -> Counter[str]:
    """Every card of the game where it is now (event and Crown cards alike)."""
    in_play = [*state.nobles, *(a for n in state.nobles.values() for a in n.awards), *state.ships]
    held = [c for hand in state.hands.values() for c in hand]
    return Counter(
        [
            *state.event_deck,
            *state.event_discard,
            *state.crown_deck,
            *state.crown_discard,
            *state.chancery,
            *held,
            *in_play,
        ]
    )


def check_invariants(state: GameState, cards: Counter[str] | None) -> None:
    """Raise ``InvariantBroken`` if ``state`` breaks one of the invariants (``cards``: the
    cards of the game, None when they are known to be where they were: ``Watch``)."""
    if cards is not None:
        now = cards_of(state)
        if not dict.__eq__(now, cards):  # neither counts zeros: dict's equality, without Counter's cost
            lost = cards - now
            found = now - cards
            raise InvariantBroken(f"cards not conserved: missing {dict(lost)}, extra {dict(found)}")
    nobles = state.nobles
    both = {n for n in state.dead if n in nobles}
    if both:
        raise InvariantBroken(f"dead and on the board: {sorted(both)}")
    for h in state.heirs.values():
        if h.with_noble is not None and h.with_noble not in state.nobles:
            raise InvariantBroken(f"{h.id}'s escort {h.with_noble} is not in play")
        if h.with_noble is None and h.place is None:
            raise InvariantBroken(f"{h.id} is unescorted and nowhere")


#: The fields of a state that hold cards, besides the nobles (``cards_of``), read at once.
_card_fields = attrgetter("event_deck", "event_discard", "crown_deck", "crown_discard", "chancery", "hands", "ships")
#: What of a noble holds cards: his own card and his awards.
_HELD = attrgetter("id", "awards")


class Watch:
    """``check_invariants`` after every step of one game, the cards counted again only
    when where they are can have changed: a state's fields are immutable and shared by
    the states after it while no event changes them (``GameState.evolve``), so a step
    that changed none of the fields holding cards, nor the nobles in play and their
    awards, left every card where the last count found it; one that changed neither the
    nobles, the dead nor the heirs left the other invariants as they held."""

    def __init__(self, cards: Counter[str]) -> None:
        self.cards = cards
        self.last: GameState | None = None
        self.held: tuple[tuple[str, tuple[str, ...]], ...] = ()  # the nobles' cards then

    def check(self, state: GameState) -> None:
        last, self.last = self.last, state
        if last is None:
            self.held = tuple(map(_HELD, state.nobles.values()))
            check_invariants(state, self.cards)
            return
        nobles = state.nobles is not last.nobles
        moved = False
        if nobles:
            held = tuple(map(_HELD, state.nobles.values()))
            moved = held != self.held
            self.held = held
        if not moved:
            moved = _card_fields(state) != _card_fields(last)  # by identity first, as tuples compare
        if moved or nobles or state.dead is not last.dead or state.heirs is not last.heirs:
            check_invariants(state, self.cards if moved else None)
        # else nothing the invariants read changed since they last held


def play_game(ds: DataSet, factions: tuple[str, ...], seed: str, *, rounds: int = ROUND_LIMIT) -> GameRun:
    """One whole game from the deal; its events replayed at the end must give the same
    state (``InvariantBroken`` otherwise)."""
    t0 = time.perf_counter()
    start = new_game(
        ds.board,
        ds.catalog,
        factions,
        seed,
        removed=ds.setup.removed,
        crowned=ds.setup.crowned,
        full_game=True,
    )
    watch = Watch(cards_of(start))
    player = AimingPlayer(seed)
    state, events, turns, steps = start, list[Event](), 0, 0
    while not state.game_over and state.round <= rounds:
        steps += 1
        if steps > STEP_LIMIT:
            raise InvariantBroken(f"game {seed} took more than {STEP_LIMIT} steps in round {state.round}")
        d = decided(state, player.command(state))
        if not d.events:
            continue
        state = replay(state, d.events)
        events.extend(d.events)
        turns += sum(e.kind == "turn_ended" for e in d.events)
        watch.check(state)
    again = replay(start, events)
    digest = state_hash(state)
    if again != state or state_hash(again) != digest:
        raise InvariantBroken(f"game {seed} does not replay to the same state")
    ended = state.game_over or "round limit"
    return GameRun(seed, ended, state.winner, state.round, turns, steps, time.perf_counter() - t0, digest)


def selfplay(
    games: int, seed: int, factions: int = 4, *, rounds: int = ROUND_LIMIT, ds: DataSet | None = None
) -> Summary:
    """``games`` whole games of ``factions`` factions, seeded from ``seed``."""
    ds = ds or load_dataset()
    if not ds.setup.min_factions <= factions <= min(ds.setup.max_factions, len(FACTIONS)):
        raise ValueError(f"{ds.name} seats {ds.setup.min_factions} to {ds.setup.max_factions} factions")
    summary = Summary()
    for g in range(games):
        summary.runs.append(play_game(ds, FACTIONS[:factions], f"selfplay-{seed}-{g}", rounds=rounds))
    return summary
