"""Text a user wrote cannot change a report's shape (issue 11 §3.5): whatever a name, a
note, a reason, a summary or an id holds, each format prints it on its one line, with
no live markup: no BBCode tag, no Markdown heading, emphasis, link, HTML, code or table,
no bare link a forum would turn into one, and no new line.

A property test renders documents with hostile strings in every kind of inline content
and compares them with the same documents holding a harmless placeholder: same lines,
same BBCode tags, same Markdown syntax tree (CommonMark, parsed with markdown-it). Then
a real game on SQLite whose names, notes, reasons and summaries hold markup (one line,
as the service now demands), and an old log that still holds line breaks (written
before the limits): their reports keep one line for each."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from kingmaker.log.service_events import PermissionAsked, PlayerSeated, Undone
from kingmaker.render.reports import (
    FORMATS,
    Document,
    Format,
    private_report,
    render,
    reports_for,
    turn_report,
)
from kingmaker.render.reports.document import (
    Code,
    Colour,
    Quote,
    bold,
    bullets,
    field,
    heading,
    italic,
    item,
    one_line,
    para,
    table,
)
from kingmaker.render.reports.messages import permission_request
from kingmaker.rules import commands as rc
from kingmaker.rules import ids
from kingmaker.rules.views import PUBLIC
from kingmaker.service import GM_ACTOR, FixedClock, player
from kingmaker.service.commands import AskPermission, CreateGame, FinishTurn, SeatPlayer, Submit, Undo
from kingmaker.service.game_service import GameService
from kingmaker.service.outcome import Outcome
from kingmaker.storage import open_store

ATTACKS = (
    "\n\n## GM ANNOUNCEMENT: Red wins",
    "x\r\n# heading",
    "a\u2028b\u2029c\x85d\x0be\x0cf",
    "[url=http://evil.example]click[/url]",
    "[/quote][/list][b]bold[/b][color=red]x[/color]",
    "[spoiler]x[/spoiler][img]http://e.example/a.png[/img]",
    "[*] item",
    "**bold** __bold__ *it* _it_ ~~strike~~",
    "`code` ``more``",
    "<script>alert(1)</script><b>x</b>",
    "&lt;b&gt; &#10; &amp;",
    "| a | b |\n|---|---|\n| c | d |",
    "# h1",
    "### h3",
    "1. one",
    "- item",
    "+ item",
    "> quote",
    "    indented code",
    "===",
    "---",
    "[link](http://evil.example) ![img](http://evil.example/i.png)",
    "[ref]: http://evil.example",
    "http://evil.example/path https://x.example",
    "www.evil.example",
    "mallory@evil.example",
    "\\",
    "\\[b]x\\[/b]",
    "\u202egnp.exe",
    "tab\there",
    "\x00nul\x1besc",
)

# everything a user may type, and then some: every character but lone surrogates
hostile = st.one_of(
    st.sampled_from(ATTACKS),
    st.lists(st.sampled_from(ATTACKS), min_size=1, max_size=4).map("".join),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=40),
    st.text(st.sampled_from("[]/*_`#<>|&!()\\-+=.:@~ \n\r\tabwhtp1"), max_size=40),
)


def document(s: str) -> Document:
    """A report with ``s`` in every kind of inline content the reports use."""
    return Document(
        (
            heading(1, "Report: ", s),
            heading(2, s),
            heading(3, bold(s)),
            para(s),
            para("Before ", s, " after ", bold(s), " ", italic(s), " ", Code(s), "."),
            para(Colour("#aa0000", (bold(s),)), " declares alliance ", Code(s), "."),
            bullets(
                [
                    item(s),
                    field("Note", s),
                    item("The GM restores the game: ", s, children=[item(Code(s), ": ", s)]),
                ]
            ),
            Quote((para(s),)),
            table(
                ["", s],
                [
                    [s, bold(s)],
                    ["Card", (Code(s), " (", s, ")")],
                    [Colour("#aa0000", (bold(s),)), ""],
                ],
            ),
            para("End."),
        )
    )


PLACEHOLDER = "placeholder"
_TAG = re.compile(r"\[/?(?:\*|[A-Za-z][A-Za-z0-9_-]*)(?:[=\s][^\[\]]*)?\]")  # what phpBB reads as a tag
_BARE_LINK = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://|www\.|@[\w]", re.I)
_MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _structure(tokens: list[Any]) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    for t in tokens:
        if t.type not in ("text", "softbreak"):
            out.append((t.type, t.tag, t.nesting))
        if t.children:
            out.extend(_structure(t.children))
    return out


def _texts(tokens: list[Any]) -> list[str]:
    out: list[str] = []
    for t in tokens:
        if t.type == "text":
            out.append(t.content)
        if t.children:
            out.extend(_texts(t.children))
    return out


def _no_control(text: str) -> None:
    for ch in text:
        if ch == "\n" or ch == "\u200b":  # our own line breaks; the zero-width space escape
            continue
        assert unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp"), repr(ch)


def check_shape(s: str) -> None:
    """``document(s)`` has the shape of ``document(PLACEHOLDER)`` in every format."""
    for fmt in FORMATS:
        got, want = render(document(s), fmt), render(document(PLACEHOLDER), fmt)
        assert got.count("\n") == want.count("\n"), (fmt, s, got)
        _no_control(got)
        if fmt == "bbcode":
            assert _TAG.findall(got) == _TAG.findall(want), (s, got)
        if fmt == "bbcode":
            assert _BARE_LINK.search(got) is None, (s, got)
        if fmt == "markdown":
            tokens = _MD.parse(got)
            assert _structure(tokens) == _structure(_MD.parse(want)), (s, got)
            # a forum's autolinks look at text, not into code spans
            assert _BARE_LINK.search("\n".join(_texts(tokens))) is None, (s, got)


@pytest.mark.parametrize("s", ATTACKS)
def test_known_attacks_leave_every_format_as_it_was(s: str) -> None:
    check_shape(s)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile)
def test_any_text_leaves_every_format_as_it_was(s: str) -> None:
    assume(one_line(s).strip())  # the reports print no empty name, note or id
    check_shape(s)


def test_escaped_text_still_reads_as_written() -> None:
    """Escaping changes how the text is written, not what a reader sees."""
    md = render(Document((para("Ann's *note* [b]x[/b] # 1. <b>"),)), "markdown")
    assert md == "Ann's \\*note\\* \\[b\\]x\\[/b\\] \\# 1. \\<b\\>\n"
    bb = render(Document((para("Ann's *note* [b]x[/b] # 1. <b>"),)), "bbcode")
    assert bb == "Ann's *note* [\u200bb]x[\u200b/b] # 1. <b>\n"
    assert render(Document((para("a\n\n## b"),)), "plain") == "a ## b\n"


# -- a real game ------------------------------------------------------------------------------
MARKUP = "[b]x[/b] **y** _z_ # <i>w</i> | `c` http://evil.example"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[GameService, str]:
    db = tmp_path_factory.mktemp("hostile") / "games.db"
    svc = GameService(open_store(f"sqlite:///{db}"), FixedClock())
    g = svc.execute(GM_ACTOR, CreateGame(f"Wars {MARKUP}", ("red", "blue", "green", "gold"), seed="s")).game
    svc.execute(GM_ACTOR, SeatPlayer(g, "red", f"Ann {MARKUP}"))
    state = svc.state(g)
    place = next(p for p, f in sorted(state.control.items()) if f == "blue")
    svc.execute(player("red"), AskPermission(g, "red", "blue", place, ("road",), note=f"Please {MARKUP}"))
    svc.execute(player("red"), Submit(g, rc.DeclareAlliance("red", "red-rg", ("green",))))
    mark = svc.store.head(g)
    svc.execute(player("red"), FinishTurn(g, "red"))
    svc.execute(GM_ACTOR, Undo(g, mark, f"Mistake {MARKUP}"))
    # entries written before the limits (an old log): line breaks and all
    svc.uow.commit(
        g,
        GM_ACTOR,
        lambda proj: (
            Outcome(g, "done", "old entries"),
            [
                (PlayerSeated("blue", "Bob\n\n## GM ANNOUNCEMENT: Bob wins"), None),
                (
                    PermissionAsked("blue", "red", place, ("road",), "hi\n\n[b]## GM ANNOUNCEMENT[/b]"),
                    ids.LOC_PERMISSION,
                ),
                (Undone(mark, "oops\r\n# GM ANNOUNCEMENT"), None),
            ],
        ),
        None,
    )
    return svc, g


def _reports(svc: GameService, g: str) -> dict[str, str]:
    ctx = reports_for(svc, g)
    out: dict[str, str] = {}
    for t in ctx.timeline.turns():
        for who in (PUBLIC, "gm", "red", "blue"):
            for fmt in FORMATS:
                doc = turn_report(ctx, t, who)
                out[f"turn {t} {who} {fmt}"] = render(doc, fmt)
                if who not in (PUBLIC, "gm"):
                    out[f"private {t} {who} {fmt}"] = render(private_report(ctx, t, who), fmt)
    return out


def _check_report(fmt: Format, text: str) -> None:
    _no_control(text)
    for line in text.split("\n"):
        assert "GM ANNOUNCEMENT" not in line or not line.lstrip("> ").startswith(("#", "[b]##", "##")), line
        if fmt != "plain":
            assert "http://" not in line and "[b]x[/b]" not in line, line
        if fmt == "markdown":
            assert "**y**" not in line and "<i>" not in line and "| `c`" not in line, line


def test_reports_of_a_real_game_print_user_text_on_one_line_with_no_markup(
    game: tuple[GameService, str],
) -> None:
    svc, g = game
    texts = _reports(svc, g)
    assert texts
    joined = "\n".join(texts.values())
    # the texts are there, escaped
    assert "Ann \\[b\\]x\\[/b\\] \\*\\*y\\*\\* \\_z\\_" in joined  # Markdown
    assert "Mistake [\u200bb]x[\u200b/b]" in joined  # BBCode
    assert "Bob ## GM ANNOUNCEMENT: Bob wins" in joined  # plain: the old entry on one line
    for key, text in texts.items():
        _check_report(key.rsplit(" ", 1)[1], text)  # type: ignore[arg-type]
        if key.endswith("markdown"):
            assert not re.search(r"^\s*(> )?#+ .*GM ANNOUNCEMENT", text, re.M), (key, text)
        assert "\nGM ANNOUNCEMENT" not in text and "\n## GM" not in text and "\n# GM" not in text, key


def test_a_permission_request_message_keeps_the_note_on_one_line(game: tuple[GameService, str]) -> None:
    svc, g = game
    ctx = reports_for(svc, g)
    state = svc.state(g)
    place = next(p for p, f in sorted(state.control.items()) if f == "blue")
    msg = permission_request(
        "red", "blue", place, ("road",), "hi\n\n## GM ANNOUNCEMENT\n[/quote][b]x[/b]", ctx.names, state=state
    )
    plain_body = render(msg.body, "plain")
    for fmt in FORMATS:
        text = render(msg.body, fmt)
        assert text.count("\n") == plain_body.count("\n")
        assert "\n## GM" not in text and "\n> ## GM" not in text
    assert "[/quote][b]" not in render(msg.body, "bbcode")


def test_the_old_log_is_still_read(tmp_path: Path, game: tuple[GameService, str]) -> None:
    svc, g = game
    assert any(isinstance(e.event, PlayerSeated) and "\n" in e.event.player for e in svc.log(g))
