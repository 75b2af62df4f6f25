"""Generated MIME trees over a real SMTP socket: charsets, transfer encodings, nesting,
encoded-word headers, NULs, long lines and forwarded parts.

For each generated mail: the SMTP answer is 250 (the ingress stores anything it can parse
as a mail), the stored row is judged, never an internal error, and the game moves exactly
when the mail holds a valid command in the sender's own text (its first text part, not a
forwarded message or an attachment). Bounded to a few dozen examples (well under a minute).
"""

from __future__ import annotations

import base64
import quopri
from dataclasses import dataclass
from email.utils import make_msgid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.games import services as game_services
from pbem.games.models import Game, InboundMessage, Move
from pbem.mail import outbox
from tests.mail.conftest import Persona, SmtpServer, seat_of, start_game
from tests.mail.test_hostile import deliver

pytestmark = pytest.mark.django_db(transaction=True)

CRLF = b"\r\n"
CHARSETS = ["utf-8", "iso-8859-1", "windows-1252", "us-ascii", "utf-16", "x-unknown", "koi8-r", ""]
ENCODINGS = ["7bit", "8bit", "quoted-printable", "base64"]
JUNK = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)


@dataclass(frozen=True)
class Leaf:
    ctype: str  # text/plain, text/html, application/octet-stream
    text: str
    charset: str
    cte: str
    attachment: bool = False


@dataclass(frozen=True)
class Tree:
    kind: str  # "leaf", "multipart", "forward"
    subtype: str = "mixed"
    leaf: Leaf | None = None
    children: tuple[Tree, ...] = ()


def encode_body(text: str, charset: str, cte: str) -> tuple[bytes, str, str]:
    """Body bytes, the charset label to write and the transfer encoding actually used."""
    codec = charset if charset and charset not in ("x-unknown",) else "utf-8"
    try:
        data = text.encode(codec)
    except (UnicodeEncodeError, LookupError):
        data = text.encode("utf-8")  # the label now lies: a mislabelled part
    if cte == "base64":
        return base64.encodebytes(data).replace(b"\n", CRLF), charset, cte
    if cte == "quoted-printable":
        return quopri.encodestring(data).replace(b"\n", CRLF), charset, cte
    if cte == "7bit" and not data.isascii():
        cte = "8bit"
    return data.replace(b"\r\n", b"\n").replace(b"\n", CRLF), charset, cte


def render(tree: Tree, move: str, depth: int = 0) -> bytes:
    """The part's bytes, with ``@MOVE@`` replaced by ``move`` before it is encoded."""
    if tree.kind == "leaf":
        assert tree.leaf is not None
        leaf = tree.leaf
        body, charset, cte = encode_body(leaf.text.replace("@MOVE@", move), leaf.charset, leaf.cte)
        head = f"Content-Type: {leaf.ctype}" + (f"; charset={charset}" if charset else "")
        head += f"\r\nContent-Transfer-Encoding: {cte}\r\n"
        if leaf.attachment:
            head += 'Content-Disposition: attachment; filename="a.txt"\r\n'
        return head.encode() + CRLF + body + CRLF
    if tree.kind == "forward":
        inner = b"From: Someone <someone@example.net>\r\nSubject: fwd\r\nMIME-Version: 1.0\r\n"
        return b"Content-Type: message/rfc822\r\n\r\n" + inner + render(tree.children[0], move, depth + 1)
    boundary = f"b{depth}x{id(tree) % 997}"
    out = f'Content-Type: multipart/{tree.subtype}; boundary="{boundary}"\r\n\r\n'.encode()
    for child in tree.children:
        out += f"--{boundary}\r\n".encode() + render(child, move, depth + 1)
    return out + f"--{boundary}--\r\n".encode()


def leaves(text: st.SearchStrategy[str]) -> st.SearchStrategy[Tree]:
    return st.builds(lambda ctype, t, cs, cte, att: Tree("leaf", leaf=Leaf(ctype, t, cs, cte, att)),
                     st.sampled_from(["text/plain", "text/html", "application/octet-stream"]), text,
                     st.sampled_from(CHARSETS), st.sampled_from(ENCODINGS), st.booleans())


#: Trees of junk, where a command may hide only inside forwarded messages or attachments.
junk_trees = st.recursive(
    leaves(JUNK | st.just("@MOVE@")),
    lambda kids: st.one_of(
        st.builds(lambda sub, ch: Tree("multipart", sub, children=tuple(ch)),
                  st.sampled_from(["mixed", "alternative", "related"]), st.lists(kids, min_size=1, max_size=3)),
        st.builds(lambda ch: Tree("forward", children=(ch,)), kids)),
    max_leaves=6)


@st.composite
def mails(draw: Any) -> tuple[bytes, Tree, bool]:
    """(headers with placeholders, the body's tree, whether the sender's own text holds the command)."""
    own_command = draw(st.booleans())
    # Never empty: an empty text part would let an HTML alternative speak for the sender.
    own_text = "@MOVE@" if own_command else draw(st.sampled_from(["thanks", "hello there", "thanks\x00"]))
    own_text += draw(st.sampled_from(["", "\n", "\n\n-- \nAna", "\n" + "\n" * 500]))
    first = Tree("leaf", leaf=Leaf("text/plain", own_text, draw(st.sampled_from(["utf-8", "iso-8859-1",
                                                                                "us-ascii", ""])),
                                   draw(st.sampled_from(ENCODINGS))))
    rest = draw(st.lists(junk_trees.filter(lambda t: t.kind != "leaf" or t.leaf is None
                                           or t.leaf.ctype != "text/plain" or t.leaf.attachment),
                         max_size=2))
    # A forwarded command or one in an attachment is not the sender's own text.
    tree = Tree("multipart", draw(st.sampled_from(["mixed", "alternative"])), children=(first, *rest)) \
        if rest else first
    subject = draw(st.sampled_from([b"moves", b"=?utf-8?B?" + base64.b64encode("déjà ½".encode()) + b"?=",
                                    b"a\x00b", b"x" * 3000, b"=?x-bad?Q?=FF?= ok"]))
    extra = draw(st.sampled_from([b"", b"X-Long: " + b"y" * 5000 + CRLF, b"X-Nul: a\x00b" + CRLF]))
    head = (b"From: Ana <@FROM@>\r\nTo: @TO@\r\nSubject: " + subject + CRLF + b"Message-ID: <@MID@>\r\n"
            b"MIME-Version: 1.0\r\n" + extra)
    return head, tree, own_command


@settings(max_examples=20, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(mail=mails())
def test_it_judges_every_generated_mail_and_moves_only_on_the_senders_own_command(
        mail: tuple[bytes, Tree, bool], blindbids: str, ana: Persona, bruno: Persona, carla: Persona,
        smtp_server: SmtpServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # Why: every example starts a game of Ana's; the hourly invitation limit is not under test here
    monkeypatch.setattr(game_services, "INVITATIONS_PER_CREATOR_PER_HOUR", 10_000)
    head, tree, own_command = mail
    game = start_game(blindbids, [ana, bruno, carla])
    assert game.state is not None
    card = game.state["hands"][0][0]
    rcpt = outbox.reply_address(seat_of(game, ana))
    raw = (head.replace(b"@FROM@", ana.email.encode()).replace(b"@TO@", rcpt.encode())
           .replace(b"@MID@", make_msgid(domain="fuzz.example").strip("<>").encode())) + render(tree, f"c{card}")
    before = set(InboundMessage.objects.values_list("pk", flat=True))
    code = deliver(smtp_server, ana.email, [rcpt], raw)
    assert code == 250
    rows = list(InboundMessage.objects.exclude(pk__in=before))
    assert len(rows) == 1
    row = rows[0]
    assert row.status != InboundMessage.Status.RECEIVED
    assert "internal error" not in row.result and "too long" not in row.result, row.result
    moved = Move.objects.filter(game=game).exists()
    assert moved == own_command, f"{row.status}: {row.result}"
    assert Game.objects.get(pk=game.pk).version == game.version + (1 if moved else 0)
