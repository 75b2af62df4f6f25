"""Reading inbound mail: headers, the text a person wrote, the commands in it.

Pure functions over bytes and strings (no database), so every rule here is
tested without a server. Nothing here raises on bad input: broken MIME gives
empty text and a list of problems, never an exception.

The order of the guards follows Mailman's ``CommandFinder`` and healthchecks:
first text/plain part (HTML converted to text only when there is none), then
our reply marker where it is not quoted, then quote headers and signatures
found with ``mail-parser-reply``, then our own deterministic cuts (``>`` lines,
the attribution line over a quote, lines repeating the option list we sent),
and at most :data:`MAX_COMMAND_LINES` lines. What the writer wrote may be
above the quote, below it or between its lines: all of it is read.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from email.message import Message
from email.utils import getaddresses
from html.parser import HTMLParser

from mailparser_reply.parser import EmailMessage as ReplyParserMessage

#: Everything below this line in a reply is ignored (it opens every mail we send).
REPLY_MARKER = "-- reply above this line --"
#: Lines after this many commands are ignored and reported back.
MAX_COMMAND_LINES = 30
#: Languages whose "On ... wrote:" headers and signatures mail-parser-reply should know.
REPLY_LANGUAGES = ["en", "de", "fr", "it", "es", "nl"]

_AUTO_PRECEDENCE = {"bulk", "list", "junk", "auto_reply"}
_DAEMON_LOCALPARTS = {"mailer-daemon", "mailer_daemon", "postmaster", "mail-daemon"}


def parse_message(raw: bytes) -> Message:
    """A message object for any bytes; the parser records defects instead of raising."""
    try:
        return email.message_from_bytes(raw, policy=email.policy.default)
    except Exception:  # noqa: BLE001 - fall back to the lenient legacy policy
        return email.message_from_bytes(raw)


def header(msg: Message, name: str) -> str:
    """A header as plain text, or "" when absent or unreadable."""
    try:
        value = msg.get(name)
    except Exception:  # noqa: BLE001 - a malformed header must not stop the reading
        try:
            raw = msg.get_all(name, failobj=[])
            value = raw[0] if raw else None
        except Exception:  # noqa: BLE001
            return ""
    if value is None:
        return ""
    try:
        return " ".join(str(value).split())
    except Exception:  # noqa: BLE001
        return ""


def address_of(value: str) -> str:
    """The first address in a header value, lower case; "" if none."""
    try:
        pairs = getaddresses([value])
    except Exception:  # noqa: BLE001
        return ""
    for _name, addr in pairs:
        addr = addr.strip().strip("<>").lower()
        if "@" in addr:
            return addr
    return ""


def sender_name(msg: Message) -> str:
    """The display name of the From header ("Anna Silva" of ``Anna Silva <anna@...>``), or ""."""
    try:
        pairs = getaddresses([header(msg, "From")])
    except Exception:  # noqa: BLE001
        return ""
    for name, addr in pairs:
        if "@" in addr:
            return " ".join(name.split())
    return ""


def sender_address(msg: Message, mail_from: str) -> str:
    """Who wrote the mail: the From header, else the envelope sender."""
    return address_of(header(msg, "From")) or address_of(mail_from or "")


def message_id_of(msg: Message, raw: bytes) -> str:
    """The Message-ID, or a synthetic one from a hash of the bytes (so a resend still dedupes)."""
    mid = header(msg, "Message-ID").strip()
    if mid:
        if not mid.startswith("<"):
            mid = f"<{mid}>"
        if len(mid) <= 255:
            return mid
        return f"<{hashlib.sha256(mid.encode('utf-8', 'replace')).hexdigest()}@long.message-id>"
    return f"<{hashlib.sha256(raw).hexdigest()}@synthetic.message-id>"


def automatic_reason(msg: Message, mail_from: str) -> str | None:
    """Why this mail was sent by a machine (and must never be answered), or None.

    The guards of Mailman's ``can_acknowledge`` plus the usual bounce signs.
    """
    envelope = (mail_from or "").strip().strip("<>")
    if not envelope:
        return "bounce: empty envelope sender"
    local = envelope.split("@", 1)[0].lower()
    if local in _DAEMON_LOCALPARTS:
        return f"bounce: sent by {local}"
    from_local = address_of(header(msg, "From")).split("@", 1)[0]
    if from_local in _DAEMON_LOCALPARTS:
        return f"bounce: From {from_local}"
    try:
        ctype = msg.get_content_type()
    except Exception:  # noqa: BLE001
        ctype = ""
    if ctype == "multipart/report":
        return "bounce: delivery report"
    if header(msg, "X-Failed-Recipients"):
        return "bounce: X-Failed-Recipients"
    auto = header(msg, "Auto-Submitted").lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"automatic: Auto-Submitted {auto.split(';')[0].strip()}"
    precedence = header(msg, "Precedence").lower()
    if precedence in _AUTO_PRECEDENCE:
        return f"automatic: Precedence {precedence}"
    for name in ("List-Id", "List-Post", "List-Unsubscribe"):
        if header(msg, name):
            return f"list mail: {name}"
    if header(msg, "X-Autoreply") or header(msg, "X-Autorespond") or header(msg, "X-Auto-Reply"):
        return "automatic: auto-reply header"
    if header(msg, "Return-Path").replace(" ", "") == "<>":
        return "bounce: empty Return-Path"
    return None


# ---- the body ------------------------------------------------------------------------------


class _TextExtractor(HTMLParser):
    """HTML to plain lines, dropping quoted history (blockquote, Gmail/Outlook quote blocks)."""

    _BLOCK = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol", "hr"}
    _SKIP = {"style", "script", "head", "title", "blockquote"}
    _QUOTE_CLASSES = ("gmail_quote", "moz-cite-prefix", "yahoo_quoted", "protonmail_quote", "divRplyFwdMsg")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip_stack: list[str] = []
        self._done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._done:
            return
        attr = {k: (v or "") for k, v in attrs}
        quoted = any(c in attr.get("class", "") or c == attr.get("id", "") for c in self._QUOTE_CLASSES)
        if self._skip_stack:
            if tag not in ("br", "hr", "img", "meta", "link", "input"):
                self._skip_stack.append(tag)
            return
        if tag in self._SKIP or quoted:
            self._skip_stack.append(tag)
            return
        if tag in self._BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if self._skip_stack:
            # Pop back to the matching tag; tolerate sloppy HTML.
            while self._skip_stack:
                if self._skip_stack.pop() == tag:
                    break
            return
        if tag in self._BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._skip_stack or self._done:
            return
        self.parts.append(data)

    def text(self) -> str:
        joined = "".join(self.parts).replace("\xa0", " ")
        lines = [" ".join(line.split()) for line in joined.splitlines()]
        out: list[str] = []
        for line in lines:
            if line or (out and out[-1]):
                out.append(line)
        return "\n".join(out).strip()


def html_to_text(html: str) -> str:
    parser = _TextExtractor()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # noqa: BLE001 - whatever was read before the error is kept
        pass
    return parser.text()


def _part_text(part: Message) -> str:
    try:
        content = part.get_content()  # type: ignore[attr-defined]
        if isinstance(content, bytes):
            return content.decode("utf-8", "replace")
        return str(content)
    except Exception:  # noqa: BLE001 - unknown charset, bad transfer encoding: decode by hand
        try:
            payload = part.get_payload(decode=True)
        except Exception:  # noqa: BLE001
            return ""
        if isinstance(payload, bytes):
            charset = "utf-8"
            try:
                charset = part.get_content_charset() or "utf-8"
                return payload.decode(charset, "replace")
            except (LookupError, Exception):  # noqa: BLE001
                return payload.decode("utf-8", "replace")
        return payload if isinstance(payload, str) else ""


def _walk(msg: Message) -> Iterable[Message]:
    try:
        yield from msg.walk()
    except Exception:  # noqa: BLE001
        yield msg


def _is_attachment(part: Message) -> bool:
    try:
        return (part.get_content_disposition() or "") == "attachment"
    except Exception:  # noqa: BLE001
        return False


@dataclass
class Body:
    text: str
    #: "plain", "html" or "" when no readable text part was found.
    kind: str
    problems: list[str] = field(default_factory=list)


def body_text(msg: Message) -> Body:
    """The first text/plain part; else the first text/html part as text; never raises."""
    problems: list[str] = []
    try:
        defects = list(getattr(msg, "defects", []))
        for part in _walk(msg):
            defects.extend(getattr(part, "defects", []))
        problems = sorted({type(d).__name__ for d in defects})
    except Exception:  # noqa: BLE001
        problems = ["unreadable structure"]
    plain: Message | None = None
    html: Message | None = None
    for part in _walk(msg):
        try:
            ctype = part.get_content_type()
        except Exception:  # noqa: BLE001
            continue
        if part.is_multipart() or _is_attachment(part):
            continue
        if ctype == "text/plain" and plain is None:
            plain = part
        elif ctype == "text/html" and html is None:
            html = part
    if plain is not None:
        text = _part_text(plain)
        if text.strip():
            return Body(text, "plain", problems)
    if html is not None:
        text = html_to_text(_part_text(html))
        if text.strip():
            return Body(text, "html", problems)
    if plain is not None or html is not None:
        return Body("", "plain" if plain is not None else "html", problems)  # readable, but empty
    return Body("", "", problems)


# ---- commands ------------------------------------------------------------------------------


def normalize_line(line: str) -> str:
    return " ".join(line.split()).casefold()


def option_lines(options: Sequence[tuple[str, str]]) -> set[str]:
    """The normalized lines of an option list as we print it (code, then label)."""
    return {normalize_line(f"{code} {label}") for code, label in options}


@dataclass
class Extracted:
    #: (position in the reply from 1, text) of each command line, in order.
    commands: list[tuple[int, str]]
    #: Lines recognised as quotes of our own option list and skipped.
    quoted_options: list[str] = field(default_factory=list)
    #: Lines beyond the command limit.
    overflow: list[str] = field(default_factory=list)


def _is_quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def _drop_attributions(lines: list[str]) -> list[str]:
    """Drop the unquoted "X wrote:" line that opens each quote.

    mail-parser-reply knows the usual English, German, French... wordings; this catches the
    rest (mutt's ``* pbem <...> [2029-01-01 10:00]:``, Portuguese ``... escreveu:``): an
    unquoted line ending in a colon whose next non-blank line is quoted.
    """
    out = list(lines)
    for i, line in enumerate(lines):
        if _is_quoted(line) or not line.rstrip().endswith(":"):
            continue
        following = next((n for n in lines[i + 1:] if n.strip()), "")
        if _is_quoted(following):
            out[i] = ""
    return out


def strip_reply(text: str) -> str:
    """What the writer wrote in this reply: quotes, attributions, signatures and copies of our mail removed.

    Above the quote (top-posting), below it (bottom-posting, as Thunderbird and mutt users
    write) or between quoted lines (interleaved): every unquoted line counts. Our marker cuts
    the rest of the mail only where it is not quoted (a client that copied our mail without
    ``>``); a quoted marker is just part of the quote, so a command below it is still read.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    kept: list[str] = []
    for line in text.split("\n"):
        if REPLY_MARKER in line and not _is_quoted(line):
            break
        kept.append(line)
    text = "\n".join(kept)
    try:
        parsed = ReplyParserMessage(text=text, languages=list(REPLY_LANGUAGES), keep_hyphen_lists=True).read()
    except Exception:  # noqa: BLE001 - fall back on our own guards alone
        return "\n".join(line for line in _drop_attributions(kept) if not _is_quoted(line))
    written: list[str] = []
    for reply in parsed.replies:
        lines = reply.body.split("\n")
        if reply.headers and not any(_is_quoted(line) for line in lines):
            # A quote header over unquoted text ("From: ... Sent: ..." in Outlook): an earlier
            # mail copied as it was; nothing from here on is new.
            break
        written.extend(["", *lines])
    return "\n".join(line for line in _drop_attributions(written) if not _is_quoted(line)).strip("\n")


def extract_commands(text: str, options: Sequence[tuple[str, str]] = ()) -> Extracted:
    """Command lines of a reply, in order. ``options`` are (code, label) pairs we listed."""
    listed = option_lines(options)
    out = Extracted(commands=[])
    position = 0
    for line in strip_reply(text).split("\n"):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith(">"):
            continue
        if listed and normalize_line(stripped) in listed:
            out.quoted_options.append(stripped)
            continue
        position += 1
        if len(out.commands) >= MAX_COMMAND_LINES:
            out.overflow.append(stripped)
            continue
        out.commands.append((position, stripped))
    return out


_SEAT_RE = re.compile(r"^seat-(?P<token>[A-Za-z0-9_\-]{8,64})$")


def split_recipient(address: str, domain: str, general: Iterable[str] = ("pbem",)) -> tuple[str, str] | None:
    """("seat", token) / ("general", "") / ("postmaster", "") for our addresses, else None.

    ``general`` are the local parts of the general (account commands) address.
    """
    addr = (address or "").strip().strip("<>")
    if "@" not in addr:
        # RFC 5321 4.5.1: "Postmaster" without a domain must be accepted, any case.
        return ("postmaster", "") if addr.lower() == "postmaster" else None
    local, _, dom = addr.rpartition("@")
    if dom.lower() != domain.lower():
        return None
    low = local.lower()
    if low == "postmaster":
        return ("postmaster", "")
    if low in {g.lower() for g in general}:
        return ("general", "")
    m = _SEAT_RE.match(local)
    if m:
        return ("seat", m.group("token"))
    return None


_REDACT_RE = re.compile(r"seat-[A-Za-z0-9_\-]+@", re.IGNORECASE)


def redact(text: str) -> str:
    """Hide seat tokens in anything that may reach a log."""
    return _REDACT_RE.sub("seat-XXXX@", text)
