"""Reading inbound mail without a server: body, quotes, commands, machines, broken MIME."""

from __future__ import annotations

import pytest

from pbem.mail import parsing
from pbem.mail.parsing import REPLY_MARKER
from tests.mail import clients

OPTIONS = [("c3", "bid 3"), ("c7", "bid 7"), ("c11", "bid 11")]


def raw_mail(body: str, *, headers: str = "", ctype: str = "text/plain; charset=utf-8") -> bytes:
    return (f"From: Ana <ana@example.org>\r\nTo: seat-abc@pbem.localhost\r\nSubject: Re: game\r\n"
            f"Message-ID: <m1@client.example>\r\nMIME-Version: 1.0\r\nContent-Type: {ctype}\r\n{headers}\r\n"
            f"{body}").encode()


def test_it_reads_the_first_plain_part_before_html() -> None:
    raw = (
        b"From: ana@example.org\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/alternative; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: text/plain\r\n\r\nc3\r\n"
        b"--b\r\nContent-Type: text/html\r\n\r\n<p>c7</p>\r\n--b--\r\n"
    )
    body = parsing.body_text(parsing.parse_message(raw))
    assert body.kind == "plain"
    assert body.text.strip() == "c3"


def test_it_converts_html_only_mail_to_text_without_the_quoted_part() -> None:
    html = ("<div dir='ltr'>c3<br>c7</div><div class='gmail_quote'>On Monday pbem wrote:"
            "<blockquote><pre>c11  bid 11</pre></blockquote></div>")
    body = parsing.body_text(parsing.parse_message(raw_mail(html, ctype="text/html; charset=utf-8")))
    assert body.kind == "html"
    assert parsing.extract_commands(body.text, OPTIONS).commands == [(1, "c3"), (2, "c7")]


def test_it_strips_quoted_history_and_signatures() -> None:
    text = (
        "c3\nc7\n\nThanks,\nAna\n--\nAna Example, Lisbon\n\n"
        "On Mon, 1 Jan 2029 at 10:00, pbem <pbem@pbem.localhost> wrote:\n"
        f"> {REPLY_MARKER}\n> Your options:\n>   c3   bid 3\n>   c11  bid 11\n"
    )
    assert parsing.extract_commands(text, OPTIONS).commands == [(1, "c3"), (2, "c7")]


def test_it_cuts_at_our_marker_even_without_quote_marks() -> None:
    text = f"c3\n\n{REPLY_MARKER}\n\nYour options:\n  c3   bid 3\n  c7   bid 7\nWhatever\n"
    assert parsing.extract_commands(text, OPTIONS).commands == [(1, "c3")]


def test_it_cuts_at_the_marker_of_any_language_a_mail_of_ours_was_written_in() -> None:
    """Issue 27: a Portuguese player's mails open with the marker in Portuguese; a reply to one, or to
    an older mail in English (whatever the player's language now), is cut at either."""
    from django.utils import translation

    from tests.i18n_catalogue import catalogue

    with translation.override("pt"):
        said = parsing.reply_marker()
    assert said == "-- responda acima desta linha --" != REPLY_MARKER
    for marker in (said, REPLY_MARKER):
        text = f"c3\n\n{marker}\n\nAs suas opções:\n  c3   bid 3\n  c7   bid 7\n"
        assert parsing.extract_commands(text, OPTIONS).commands == [(1, "c3")], marker
    # every catalogue's marker is one the parser knows (a changed translation keeps its old one listed)
    assert catalogue("pt")[REPLY_MARKER][0] in parsing.REPLY_MARKERS


def test_it_ignores_lines_that_quote_our_option_list() -> None:
    # An Outlook-style reply copies our list without ">" and without our marker.
    text = "c7\n\nYour earlier mail said:\n  c3   bid 3\n  c11  bid 11\n"
    got = parsing.extract_commands(text, OPTIONS)
    assert [line for _pos, line in got.commands] == ["c7", "Your earlier mail said:"]
    assert got.quoted_options == ["c3   bid 3", "c11  bid 11"]


def test_it_ignores_lines_starting_with_a_quote_mark() -> None:
    assert parsing.extract_commands("> c3\nc7\n>> c11", OPTIONS).commands == [(1, "c7")]


def test_it_keeps_a_hyphen_list_of_commands() -> None:
    assert [c for _p, c in parsing.extract_commands("- c3\n- c7").commands] == ["- c3", "- c7"]


def test_it_reports_lines_beyond_the_limit() -> None:
    text = "\n".join(f"c{i}" for i in range(parsing.MAX_COMMAND_LINES + 3))
    got = parsing.extract_commands(text)
    assert len(got.commands) == parsing.MAX_COMMAND_LINES
    assert len(got.overflow) == 3


@pytest.mark.parametrize(
    ("headers", "mail_from", "ctype", "why"),
    [
        ("Auto-Submitted: auto-replied\r\n", "ana@example.org", "text/plain", "Auto-Submitted"),
        ("Auto-Submitted: auto-generated\r\n", "ana@example.org", "text/plain", "Auto-Submitted"),
        ("", "", "text/plain", "empty envelope"),
        ("", "MAILER-DAEMON@mx.example.org", "text/plain", "mailer-daemon"),
        ("", "ana@example.org", 'multipart/report; report-type=delivery-status; boundary="x"', "report"),
        ("X-Failed-Recipients: ana@example.org\r\n", "ana@example.org", "text/plain", "X-Failed-Recipients"),
        ("Precedence: bulk\r\n", "ana@example.org", "text/plain", "Precedence"),
        ("Precedence: list\r\n", "ana@example.org", "text/plain", "Precedence"),
        ("Precedence: junk\r\n", "ana@example.org", "text/plain", "Precedence"),
        ("List-Id: <games.lists.example.org>\r\n", "ana@example.org", "text/plain", "List-Id"),
        ("X-Autoreply: yes\r\n", "ana@example.org", "text/plain", "auto-reply"),
    ],
)
def test_it_recognises_mail_sent_by_machines(headers: str, mail_from: str, ctype: str, why: str) -> None:
    msg = parsing.parse_message(raw_mail("I am away", headers=headers, ctype=ctype))
    reason = parsing.automatic_reason(msg, mail_from)
    assert reason is not None
    assert why.lower() in reason.lower()


def test_it_answers_people_who_say_auto_submitted_no() -> None:
    msg = parsing.parse_message(raw_mail("c3", headers="Auto-Submitted: no\r\n"))
    assert parsing.automatic_reason(msg, "ana@example.org") is None


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\x00\xff\xfe garbage without headers",
        b"From: ana@example.org\r\nContent-Type: multipart/mixed; boundary=\"nope\"\r\n\r\nno boundary here\r\n",
        b"From: ana@example.org\r\nContent-Type: text/plain; charset=x-no-such-charset\r\n\r\nc3\r\n",
        b"From: ana@example.org\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not base64!!!\r\n",
        b"From: =?utf-8?q?broken\r\nSubject: =?x-bad?b?????=\r\n\r\nc3",
        b"Content-Type: multipart/alternative\r\n\r\n--\r\n--\r\n",
    ],
)
def test_it_never_raises_on_broken_mime(raw: bytes) -> None:
    msg = parsing.parse_message(raw)
    body = parsing.body_text(msg)
    parsing.extract_commands(body.text, OPTIONS)
    parsing.automatic_reason(msg, "ana@example.org")
    parsing.sender_address(msg, "")
    assert parsing.message_id_of(msg, raw).startswith("<")


def test_it_gives_a_mail_without_message_id_a_stable_synthetic_one() -> None:
    raw = b"From: ana@example.org\r\n\r\nc3\r\n"
    msg = parsing.parse_message(raw)
    first = parsing.message_id_of(msg, raw)
    assert first == parsing.message_id_of(parsing.parse_message(raw), raw)
    assert first != parsing.message_id_of(msg, raw + b"x")


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("seat-AbCdEfGh_123-xyz@pbem.localhost", ("seat", "AbCdEfGh_123-xyz")),
        ("seat-AbCdEfGh@PBEM.LOCALHOST", ("seat", "AbCdEfGh")),
        ("pbem@pbem.localhost", ("general", "")),
        ("PostMaster@pbem.localhost", ("postmaster", "")),
        ("seat-short@pbem.localhost", None),
        ("someone@pbem.localhost", None),
        ("seat-AbCdEfGh@elsewhere.example", None),
        ("not an address", None),
    ],
)
def test_it_splits_our_recipient_addresses(address: str, expected: tuple[str, str] | None) -> None:
    assert parsing.split_recipient(address, "pbem.localhost") == expected


def test_it_redacts_seat_tokens_for_logs() -> None:
    assert parsing.redact("RCPT TO:<seat-SeCrEt_123@pbem.localhost>") == "RCPT TO:<seat-XXXX@pbem.localhost>"


OUR_MAIL = (f"{REPLY_MARKER}\n\nIt is your turn in game #1 (game).\n\nYour options:\n  c3   bid 3\n  c7   bid 7\n"
            "  c11  bid 11\n\nReply above the marker line with a code (or the words of an option), one command a "
            "line;\nseveral lines are applied in order, all or nothing.\n\nSince your last mail:\n  - Bruno bids "
            "face down\n\nGame page: http://pbem.test/games/1/\nAccount commands: mail pbem@pbem.localhost with "
            "the word help.\n")


@pytest.mark.parametrize("style", sorted(clients.STYLES))
def test_it_finds_the_commands_wherever_a_mail_program_puts_the_answer(style: str) -> None:
    text = clients.STYLES[style](OUR_MAIL, "c3\nc7", "Ana Silva")
    got = parsing.extract_commands(text, OPTIONS)
    assert [line for _pos, line in got.commands] == ["c3", "c7"]


def test_it_reads_a_command_below_a_quoted_marker() -> None:
    # The bug this guards against: the quoted copy of our marker cut everything after it.
    text = f"> {REPLY_MARKER}\n> Your options:\n>   c3   bid 3\n\njoin\n"
    assert parsing.extract_commands(text).commands == [(1, "join")]


def test_it_cuts_at_an_unquoted_marker_even_below_a_quote() -> None:
    text = f"c3\n\n> some quote\n\nc7\n{REPLY_MARKER}\nc11  bid 11\nc11\n"
    assert [c for _p, c in parsing.extract_commands(text, OPTIONS).commands] == ["c3", "c7"]


def test_it_keeps_a_line_ending_in_a_colon_that_opens_no_quote() -> None:
    assert [c for _p, c in parsing.extract_commands("note:\nc3\n").commands] == ["note:", "c3"]


def test_it_drops_the_signature_below_a_bottom_posted_answer() -> None:
    text = f"On Mon, pbem wrote:\n> {REPLY_MARKER}\n\nc3\n\n-- \nAna Silva\nc7 is my lucky number\n"
    assert [c for _p, c in parsing.extract_commands(text, OPTIONS).commands] == ["c3"]


def test_it_never_swallows_the_workers_soft_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Celery's SoftTimeLimitExceeded derives from Exception: the reader's fallbacks must let it through."""
    from billiard.exceptions import SoftTimeLimitExceeded

    def slow(*args: object, **kwargs: object) -> None:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(parsing.ReplyParserMessage, "read", slow)
    with pytest.raises(SoftTimeLimitExceeded):
        parsing.extract_commands("c3\n\nthanks")
    assert parsing.is_time_limit(SoftTimeLimitExceeded()) and not parsing.is_time_limit(ValueError())


def test_it_reads_a_hundred_thousand_blank_lines_quickly_enough_to_stay_within_a_task() -> None:
    got = parsing.extract_commands("c3\n" + "\n" * 100_000 + "thanks\n")
    assert [c for _p, c in got.commands][:1] == ["c3"]
    assert len(parsing._bounded("x\n" + "\n" * 100_000)) <= parsing.MAX_STRIP_CHARS
