"""Fuzzing the reader: 100,000 generated and mutated inputs in 20 batches of 5,000, each
batch with its own fixed seed. Whatever the text, ``parse_post`` never raises, and every
line gives an order, a problem that says where and what, chatter ignored (issue 15), or
(blank lines, comments, a label alone) nothing. A tenth of the inputs also go through ``check_post``: the rules
never crash on a command the reader made.

Each batch: 1,000 texts from Hypothesis text strategies (unicode, ASCII, word salad of
keywords and names) and 4,000 mutations of valid orders (deletions, duplications,
random characters, case changes, swapped, dropped and repeated words, joined and split
lines).
"""

from __future__ import annotations

import random
import re
import string

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from kingmaker.orders_text import format_order, parse_post
from kingmaker.orders_text.syntax import keywords
from kingmaker.rules import commands as c
from kingmaker.rules.state import GameState
from tests.orders_text.verdicts import check_post

from .strategies import played_states

BATCHES = 20
PER_BATCH = 5_000
HYPOTHESIS_LISTS = 40  # examples per batch, each a list of
HYPOTHESIS_LIST_SIZE = 25  # texts: 1,000 texts per batch
CHECK_EVERY = 10

VALID = [
    "Percy MOVES FROM York TO Tadcaster",
    "Percy MOVES FROM York TO Leeds VIA Tadcaster",
    "Percy MOVES TO York IN York",
    "Percy MOVES TO Leeds",
    "Percy MOVES CROSS COUNTRY TO Sheriff Hutton",
    "Percy ENTERS York",
    "Percy LEAVES York",
    "Grace Dieu MOVES TO Bristol",
    "Grace Dieu SAILS TO North Sea",
    "Percy EMBARKS ON Grace Dieu",
    "Percy and Stanley EMBARK ON Grace Dieu",
    "Percy LANDS AT Hull",
    "Percy DISEMBARKS AT Hull INSIDE",
    "Percy and Stanley FORM ARMY IN York",
    "Percy and Stanley FORM ARMY a1 IN York",
    "Grace Dieu and Mary FORM FLEET IN North Sea",
    "Percy BESIEGES Alnwick",
    "Percy BATTLES Blue IN York",
    "Percy ATTACKS Clifford",
    "Percy DEFENDS WITH Stanley",
    "Red ALLIES WITH Green AND Blue",
    "Red ALLIES WITH Green AS pact-1",
    "Green ACCEPTS ALLIANCE alliance-2",
    "Green DECLINES ALLIANCE alliance-2",
    "Green CONFIRMS ALLIANCE WITH Blue",
    "Red LEAVES ALLIANCE alliance-1",
    "Red LEAVES ALLIANCE WITH Green",
    "Blue GRANTS Red PASSAGE THROUGH Coventry",
    "Blue GRANTS Red ENTRY TO Coventry AND HARBOUR AT Coventry",
    "Blue GRANTS Red EMBARKATION AT Bristol AND DEPARTURE FROM Bristol",
    "Blue REVOKES Red PASSAGE THROUGH Coventry",
    "Blue REVOKES ALL FROM Red AT Coventry",
    "Green CONFIRMS q6",
    "Green REJECTS q6",
    "GM: STORM Grace Dieu INTO Bristol",
    "SET Coventry TO Red",
    "SET Coventry NEUTRAL",
    "KILL Percy",
    "CAPTURE Percy BY Red",
    "RELEASE Percy AT York INSIDE",
    "Henry VI GOES WITH Percy",
    "Henry VI IS LEFT AT York",
    '"Edward, Prince of Wales" IS LEFT AT York INSIDE',
    "RESOLVE c7: Clifford fled # to York",
    "EXPIRE q6",
    "DEADLINE alliance-2",
    "END TURN",
    "REVEAL SEED",
    "RANDOM 4, 17 and 3",
    "1. Red: the Earl of Warwick MOVES TO Tadc",
    "- Percy moves to St. Albans via Stow-on-the-Wold",
    "# a comment",
    "// another comment",
    "Red:",
    # the full game
    "Mowbray ATTACKS Neville WITH SALLY FROM Ripon: Talbot",
    "Percy BATTLES Blue IN York WITH SALLY: Talbot AS b1",
    "Percy CAPTURES Margaret of Anjou",
    "Grace Dieu TO Hull",
    "Red RANSOMS Stafford FOR City of Bristol AND Henry VI AS r2",
    "Red RANSOMS Stafford FREE",
    "Red RANSOMS Stafford: Blue GIVES Bristol; Red GIVES NOTHING AS r3 PROMISE: our votes",
    "Red CONFIRMS RANSOM OF Stafford",
    "Blue REJECTS r1",
    "Red RELEASES Stafford",
    "Red EXECUTES Henry VI",
    "Red PLAYS Forced March FOR Percy",
    "DRAW EVENT AS s1",
    "RESOLVE c7",
    "RESOLVE c7 BY DRAW",
    "RESOLVE Ripon",
    "ASSAULT Ripon",
    "END PHASE",
    # the Crown's cards, coronation and Parliament
    "Red ASSIGNS Chancellor of England TO Percy",
    "Red BRINGS Talbot INTO PLAY AT Sheffield",
    "Pole ENTERS PLAY",
    "Red CROWNS Richard, Duke of York",
    "DRAW CROWN CARD",
    "Red SUMMONS PARLIAMENT AT York AS p1",
    "Red ATTENDS WITH Percy AND Stanley",
    "Green ATTENDS WITH NO ONE",
    "Red PROPOSES Marshal of England FOR Percy",
    "Red PROPOSES Henry VI AS SOLE KING AS k1",
    "Red PROPOSES VICTORY",
    "Blue VOTES AGAINST m2",
    "Green ABSTAINS ON Earl of Kent FOR Howard",
    "Red VOTES FOR IN THE LORDS AND AGAINST IN THE COMMONS ON m2",
    "Blue ABSTAINS IN THE LORDS AND VOTES FOR IN THE COMMONS ON victory",
    "Red CLOSES PARLIAMENT",
    "CLOSE PARLIAMENT",
]

SPECIAL = ":,.\"“”#/-*•()&'’_\t "
NOISE = string.printable + SPECIAL + "éßø\u00a0\u2003\u200b\u2028\x0b\x0c\r\x00🂡中"
NOTHING = re.compile(
    r"""^[\s.]*(?:(?:\d+[.)]|\(\d+\)|[-*•])[\s.]*)?"""  # a bullet
    r"""(?:(?:"[^"]*"|“[^”]*”|[^:#"“\n]+?)[\s.]*:[\s.]*)?"""  # a label alone
    r"""(?:(?:\#|//).*)?$""",  # a comment
)


_CORPORA: dict[int, tuple[GameState, tuple[str, ...]]] = {}


def corpus(state: GameState) -> tuple[str, ...]:
    """Valid orders: the examples, and canonical texts of commands made from ``state``."""
    hit = _CORPORA.get(id(state))
    if hit is None or hit[0] is not state:
        hit = _CORPORA[id(state)] = (state, _corpus(state))
    return hit[1]


def _corpus(state: GameState) -> tuple[str, ...]:
    rnd = random.Random(0)
    lines = list(VALID)
    for i in range(300):
        cmd = _command(state, rnd, i)
        try:
            lines.append(format_order(cmd, state, label=rnd.random() < 0.2))
        except ValueError:
            continue
    return tuple(lines)


def _command(state: GameState, rnd: random.Random, i: int) -> c.Command:
    """A cheap command for the corpus (the round-trip test covers every kind)."""
    nobles = sorted(state.nobles)
    places = sorted(state.board.places)
    f = rnd.choice(state.turn_order)
    n, p = rnd.choice(nobles), rnd.choice(places)
    pick = i % 14
    if pick == 12 and state.parliament is not None and state.parliament.proposals:
        stances = ("for", "against", "abstain")
        return c.Vote(f, rnd.choice(state.parliament.proposals).id, rnd.choice(stances), rnd.choice(stances))
    if pick == 13:
        return c.Propose(f, f"m{i}", rnd.choice(sorted(state.catalog.awards)), n)
    if pick == 0:
        return c.MoveRoad(f, n, (p, *sorted(state.board.road_neighbours(p))[:2]), rnd.random() < 0.3)
    if pick == 1:
        return c.Siege(f, n, p)
    if pick == 2:
        return c.Attack(f, n, rnd.choice(nobles))
    if pick == 3:
        return c.Grant(f, rnd.choice(state.turn_order), p, ("road", "enter"))
    if pick == 4:
        return c.Release(c.GM, n, p, True)
    if pick == 5:
        return c.FormArmy(f, f"army-{i}", tuple(rnd.sample(nobles, min(2, len(nobles)))))
    if pick == 6:
        return c.Sail(f, rnd.choice(sorted(state.ships)), rnd.choice(sorted(state.board.seas)))
    if pick == 7:
        return c.DeclareAlliance(f, f"alliance-{i}", tuple(x for x in state.turn_order if x != f)[:2])
    cards = sorted(state.catalog.events)
    if pick == 8:
        give = (c.Consideration(f, (rnd.choice(cards),)), c.Consideration(rnd.choice(state.turn_order)))
        return c.Ransom(f, f"r{i}", n, give if rnd.random() < 0.5 else give[:1], "a promise")
    if pick == 9:
        return c.Execute(f, heir=rnd.choice(sorted(state.catalog.heirs))) if rnd.random() < 0.5 else c.Execute(f, n)
    if pick == 10:
        return c.PlayCard(f, rnd.choice(cards), n)
    return c.Attack(f, n, rnd.choice(nobles), None, (rnd.choice(nobles),))


def mutate(text: str, rnd: random.Random, pool: tuple[str, ...]) -> str:
    """One to four random edits of ``text``."""
    vocab = sorted(keywords())
    for _ in range(rnd.randint(1, 4)):
        n = len(text)
        i = rnd.randint(0, n)
        j = min(n, i + rnd.randint(0, 8))
        words = text.split(" ")
        op = rnd.randrange(14)
        if op == 0:  # delete a range
            text = text[:i] + text[j:]
        elif op == 1:  # duplicate a range
            text = text[:j] + text[i:j] + text[j:]
        elif op == 2:  # insert random characters
            text = text[:i] + "".join(rnd.choice(NOISE) for _ in range(rnd.randint(1, 4))) + text[i:]
        elif op == 3:  # replace a character
            if n:
                k = rnd.randrange(n)
                text = text[:k] + rnd.choice(NOISE) + text[k + 1 :]
        elif op == 4:  # change the case of a range
            seg = text[i:j]
            text = text[:i] + (seg.swapcase() if rnd.random() < 0.5 else seg.upper()) + text[j:]
        elif op == 5:  # lower or upper everything
            text = text.lower() if rnd.random() < 0.5 else text.upper()
        elif op == 6 and len(words) > 1:  # drop a word
            del words[rnd.randrange(len(words))]
            text = " ".join(words)
        elif op == 7 and words:  # repeat a word
            k = rnd.randrange(len(words))
            words.insert(k, words[k])
            text = " ".join(words)
        elif op == 8 and len(words) > 1:  # swap two words
            a, b = rnd.randrange(len(words)), rnd.randrange(len(words))
            words[a], words[b] = words[b], words[a]
            text = " ".join(words)
        elif op == 9:  # a keyword somewhere
            words.insert(rnd.randint(0, len(words)), rnd.choice(vocab))
            text = " ".join(words)
        elif op == 10:  # truncate
            text = text[:i]
        elif op == 11:  # splice with another order
            other = rnd.choice(pool)
            text = text[:i] + other[rnd.randint(0, len(other)) :]
        elif op == 12:  # several lines
            text = text + rnd.choice(["\n", "\r\n", "\n\n"]) + rnd.choice(pool)
        else:  # quotes, labels, bullets
            text = rnd.choice(['"', "“", "Red: ", "GM: ", "1. ", "- ", "* ", "(2) "]) + text
    return text


def assert_clear(state: GameState, text: str, author: str, check: bool) -> None:
    """``text`` reads without raising, and each line gives one clear answer or nothing."""
    post = parse_post(state, text, author)
    lines = text.splitlines()
    seen: set[int] = set()
    for p in post.problems:
        assert 1 <= p.line <= len(lines), (text, p)
        assert p.text == lines[p.line - 1], (text, p)
        assert 1 <= p.column <= len(p.text) + 1, (text, p)
        assert p.message.strip(), (text, p)
        assert p.line not in seen, (text, p)
        seen.add(p.line)
    for x in post.ignored:  # chatter (issue 15): a line that looks like no order
        assert 1 <= x.line <= len(lines) and x.line not in seen, (text, x)
        assert x.text == lines[x.line - 1] and x.reason, (text, x)
        seen.add(x.line)
    for o in post.orders:
        assert 1 <= o.line <= len(lines) and o.line not in seen, (text, o)
        seen.add(o.line)
        assert (o.command is None) != (o.refusal is None), (text, o)
        if o.refusal is not None:
            assert o.refusal.refused and o.refusal.explanation, (text, o)
    for i, line in enumerate(lines, start=1):
        if i not in seen:
            assert NOTHING.match(line), (text, line)
    if check:
        verdicts = check_post(state, text, author)
        assert len(verdicts) == len(post.orders) + len(post.problems) + len(post.ignored)
        assert all(v.explanation for v in verdicts)


def _states(*fixed: GameState) -> list[GameState]:
    played = played_states()
    return [*fixed, *played[:: max(1, len(played) // 4)]]


def _hypothesis_texts(states: list[GameState]) -> st.SearchStrategy[tuple[GameState, str, str]]:
    vocab = [
        *sorted(keywords()),
        "Percy",
        "Grace Dieu",
        "York",
        "Red",
        "Blue",
        "GM",
        ":",
        ",",
        '"',
        "1.",
        "#",
    ]
    text = st.one_of(
        st.text(max_size=60),
        st.text(alphabet=string.printable, max_size=80),
        st.lists(st.sampled_from(vocab), max_size=10).map(" ".join),
    )
    return st.tuples(st.sampled_from(states), text, st.sampled_from(["red", "blue", "green", c.GM]))


@pytest.mark.parametrize("batch", range(BATCHES))
def test_reader_never_raises(
    batch: int,
    forum_game: GameState,
    at_hull: GameState,
    aboard: GameState,
    busy_game: GameState,
    full_game: GameState,
    parliament_game: GameState,
) -> None:
    states = _states(forum_game, at_hull, aboard, busy_game, full_game, parliament_game)
    count = 0

    @seed(batch)
    @settings(
        max_examples=HYPOTHESIS_LISTS,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(_hypothesis_texts(states), min_size=HYPOTHESIS_LIST_SIZE, max_size=HYPOTHESIS_LIST_SIZE))
    def generated(cases: list[tuple[GameState, str, str]]) -> None:
        nonlocal count
        for state, text, author in cases:
            assert_clear(state, text, author, count % CHECK_EVERY == 0)
            count += 1

    generated()
    rnd = random.Random(f"orders-text-fuzz-{batch}")
    while count < PER_BATCH:
        state = rnd.choice(states)
        pool = corpus(state)
        text = mutate(rnd.choice(pool), rnd, pool)
        author = rnd.choice([*state.turn_order, c.GM])
        assert_clear(state, text, author, count % CHECK_EVERY == 0)
        count += 1
    assert count >= PER_BATCH
