"""Sending outbox rows: claim with a conditional update, send, mark; never twice.

``do_send_outbound(row_id)`` is the body of the Celery task ``pbem.send_outbound``
(autoretry with backoff wraps it: it raises on a transport failure after
putting the row back to pending). ``do_requeue_stuck(now)`` is the sweeper the
beat schedule runs: rows left in ``sending`` by a worker that died go back to
pending once, and pending rows whose task was lost or whose backoff has passed
are handed to the queue again. The claim makes every extra task harmless.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import re
import smtplib
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from email.header import Header
from email.message import Message
from email.mime.image import MIMEImage
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.mail import BadHeaderError, EmailMultiAlternatives, get_connection
from django.db import InterfaceError, OperationalError, connection
from django.db.models import Q
from django.utils import timezone

from engine import figure
from engine import svg as engine_svg
from pbem.games import dispatch
from pbem.games.models import MailAddress, OutboundMessage
from pbem.mail import compose, dsn, labels, painter, seatrow
from pbem.mail.folding import QuickMultipart, quick

log = logging.getLogger(__name__)

#: A row still not delivered this long after it was written is given up (``failed``).
#: Why by age, not by a count of attempts: a relay outage of an hour or a day spends any
#: number of attempts, and a mail that could still go out must not be given up for that.
GIVE_UP_AFTER = timedelta(days=5)
#: The longest wait between two attempts, so that pending mail leaves soon after the relay is back.
MAX_BACKOFF = timedelta(minutes=2)
#: A send never takes longer than this: the socket timeout (``EMAIL_TIMEOUT``) and the task's
#: hard time limit (``workers/celery.py``) both stay under it, so a row claimed longer ago
#: belongs to a dead worker and is sent again.
SEND_DEADLINE = timedelta(seconds=40)
STUCK_AFTER = SEND_DEADLINE
#: A pending row never tried this long after it was written lost its task.
LOST_AFTER = timedelta(seconds=15)
#: Content-ID of the board picture inside a mail.
BOARD_CID = "board"

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def backoff(attempts: int) -> timedelta:
    """Wait before the next try after ``attempts`` failures: 5, 10, 20 ... seconds, at most 2 minutes."""
    return min(timedelta(seconds=5 * 2 ** max(attempts - 1, 0)), MAX_BACKOFF) if attempts < 20 else MAX_BACKOFF


def is_permanent(exc: BaseException) -> bool:
    """A failure that no retry can cure: the relay refused the address or the mail (5xx), or the
    mail cannot even be written (a header or address that cannot be encoded)."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return all(500 <= code < 600 for code, _msg in exc.recipients.values())
    if isinstance(exc, (smtplib.SMTPSenderRefused, smtplib.SMTPDataError)):
        return 500 <= exc.smtp_code < 600
    return isinstance(exc, (UnicodeError, BadHeaderError, ValueError)) and not isinstance(exc, OSError)


#: A font that Debian and most Linux servers ship; without any font the picture has no labels
#: (the text part of the mail still says everything).
PNG_FONT = "DejaVu Sans"
#: The heaviest picture a mail carries; what the rest of the mail leaves may be less (png_budget).
#: Why a budget: a mail stays under 30 KB (issue 10); the full board is on the game page.
#: Why 14,000 (12,000 before issue 21): smoothed text costs a board about 4 KB (Maretta 8.3 ->
#: 12.7 KB); the whole mail still stays under 30 KB (png_budget).
PNG_MAX_BYTES = 14_000
#: The widest a picture is rendered: a game's mail picture is drawn 358 px wide for a phone
#: (``engine.svg.MAIL_WIDTH``); one drawn wider is rendered no wider than this.
PNG_MAX_WIDTH = 640
#: How long a rendered board stays in the shared cache.
PNG_CACHE_SECONDS = 15 * 60


def _png_width(svg: str, limit: int = PNG_MAX_WIDTH) -> int | None:
    match = re.search(r'<svg[^>]*\swidth="(\d+)', svg[:400])
    if match is None:
        return None
    return min(int(match.group(1)), limit)


@functools.lru_cache(maxsize=16)
def svg_to_png(svg: str) -> bytes:
    """The board as PNG, through the shared cache.

    Why a shared cache: the players of one game often see the same picture (in Maretta
    everything on the board is public), and the render is the dearest step of a send;
    with Redis as the cache every worker profits from the first one's render.

    Why kept in the process too (issue 28): a move's mails are built by one worker, one after the
    other, and each seat's mail of a Maretta position shows the same board: each asked Redis for
    the picture this process had just drawn or fetched (a SHA-256 of its SVG and a round trip a
    mail). A picture is a function of its SVG, so the kept one is the one Redis would give.
    """
    return _through_cache("p", svg.encode(), lambda: _render_png(svg))


def _through_cache(kind: str, source: bytes, make: Callable[[], bytes]) -> bytes:
    """The PNG ``make`` gives for ``source``, from the shared cache when a worker made it already."""
    key = f"pbem:png:{kind}:{hashlib.sha256(source).hexdigest()}"
    png = cache.get(key)
    if isinstance(png, bytes) and png.startswith(PNG_MAGIC):
        return png
    png = make()
    # Why minutes, not a day: the players of one move are mailed within seconds of each other;
    # a day of every game's pictures would be ~150 GB of Redis for a million active games.
    cache.set(key, png, timeout=PNG_CACHE_SECONDS)
    return png


def picture_png(svg: str) -> bytes:
    """The PNG a mail carries for ``svg``: its text smoothed as the picture asks, or, when that
    weighs more than any mail carries (PNG_MAX_BYTES), the same picture with unsmoothed text if
    that is lighter. Why: smoothed glyphs cost a board about half its bytes again (Maretta's
    4-player board weighed 15 KB so, 11 unsmoothed, before its symbols' key went to words); a
    picture with jagged text beats none. A mail with less
    room than a smoothed picture carries a shorter part of it (_board_image), as before."""
    png = svg_to_png(svg)
    if len(png) > PNG_MAX_BYTES:
        png = _harder(png)
    if len(png) > PNG_MAX_BYTES and SMOOTH_TEXT_ATTR in svg[: svg.find(">")]:
        plain = _harder(svg_to_png(svg.replace(SMOOTH_TEXT_ATTR, "", 1)))
        if len(plain) < len(png):
            return plain
    return png


#: engine.svg.SMOOTH_TEXT as it stands in a root element.
SMOOTH_TEXT_ATTR = " " + engine_svg.SMOOTH_TEXT


@functools.lru_cache(maxsize=64)
def _render_png(svg: str) -> bytes:
    """The board as PNG, for mail programs that do not draw SVG. Raises ValueError on a bad SVG.

    A drawing made of :mod:`engine.figure`'s primitives alone (Maretta's board, Maracaibo's map
    near the reader's ship, Caravelas' map) is painted by Pillow straight onto its palette
    (:mod:`pbem.mail.painter`, issue 28: 22 -> about 5 ms a render for Maretta, 56 -> 5 for
    Maracaibo, 55 -> 6 for Caravelas); any other, or one naming a player in a script the font lacks,
    is drawn by resvg, then put on a palette."""
    png = painter.painted(svg, _png_width(svg)) or _palette(truecolour(svg), svg)
    if not png.startswith(PNG_MAGIC):
        raise ValueError("the renderer did not return a PNG")
    return png


def truecolour(svg: str) -> Any:
    """The picture drawn in full colour (a Pillow RGB image), before its palette: resvg draws it,
    but for the plain labels Pillow draws over it (:mod:`pbem.mail.labels`, issue 28: resvg spent
    two thirds of a Maretta board's render laying out its labels one by one); a drawing made of
    :mod:`engine.figure`'s primitives alone is drawn by Pillow (:func:`painter.truecolour`, the
    same drawing as the mail's PNG without its palette). Raises ValueError on a bad SVG."""
    width = _png_width(svg)
    fig = figure.read(svg) if width is not None else None
    # A label in a script the font lacks (a player named in Chinese) goes to resvg, as in
    # painter.painted: this is _render_png's fallback for exactly that drawing, and Pillow would
    # draw its signs as empty boxes.
    if fig is not None and width is not None and painter.drawable(fig):
        return painter.truecolour(fig, width)
    return resvg_truecolour(svg)


def resvg_truecolour(svg: str) -> Any:
    """The picture drawn by resvg in full colour, but for the plain labels Pillow draws over it
    (:mod:`pbem.mail.labels`). Raises ValueError on a bad SVG."""
    import io

    import resvg_py
    from PIL import Image

    width = _png_width(svg)
    lifted = labels.lift(svg, width)
    # Why these options: resvg maps "sans-serif" to Arial, which few servers have, so the
    # labels vanished. Why shapes unsmoothed ("optimize_speed"): anti-aliased edges were most
    # of a picture's bytes (Maretta 22 KB at 560 px, 8.9 KB without), and without them a board
    # has a score of colours, which a palette PNG stores in a byte a pixel or less (see
    # _palette). Text is unsmoothed too unless the picture asks otherwise on its root element
    # (``text-rendering="optimizeLegibility"``, engine.svg.SMOOTH_TEXT: issue 21, unsmoothed
    # 11 px glyphs lost strokes, "Key Wesl", "rlnged"); resvg honours the attribute, and so do
    # the lifted labels.
    data = resvg_py.svg_to_bytes(svg_string=lifted.svg if lifted else svg, background="#ffffff",
                                 sans_serif_family=PNG_FONT, font_family=PNG_FONT, width=width,
                                 shape_rendering="optimize_speed", text_rendering="optimize_speed")
    data = bytes(data)
    if not data.startswith(PNG_MAGIC):
        raise ValueError("the renderer did not return a PNG")
    with Image.open(io.BytesIO(data)) as im:
        rgb = im.convert("RGB")
    if lifted is not None:
        labels.draw(rgb, lifted)
    return rgb


#: The most colours a mail picture keeps: its own (17-20 on a board drawn unsmoothed) and, for
#: smoothed text, a few tones between a text's ink and what it is drawn over.
PNG_COLOURS = 32
#: How many tones smoothed text's edges get (within PNG_COLOURS). Why 6: they read as smooth as
#: more, and every tone more costs bytes (Maretta's board 12.7 KB with 6, 13.6 with 12, 12.6 with
#: 2; unsmoothed 8.3).
PNG_EDGE_TONES = 6
_HEX_COLOUR = re.compile(r"#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")


def _palette(rgb: Any, svg: str = "") -> bytes:
    """The picture (RGB) as a palette PNG (Pillow) of at most :data:`PNG_COLOURS` colours: its exact
    colours when it has no more, as an unsmoothed board does (17-20); else the colours its drawing
    names (``svg``) and those covering much of it, exact, and the tones of smoothed text's edges
    reduced to the slots left (median cut over those edge pixels only, no dithering).

    Why: resvg writes 4 bytes a pixel; a board's 17 colours in one byte a pixel take about half
    the bytes once compressed (Maretta's phone board 17.7 KB -> 9.0 KB, Caravelas' sea 10.4 ->
    5.5 KB), so a picture drawn big enough to read on a phone fits a mail. Why the drawing's own
    colours kept exact (issue 21): a median cut over the whole smoothed picture merged a player's
    colour with its neighbours; the edge tones only decide how a glyph's edge reads, and a few
    grades between ink and ground keep every stroke (a stroke narrower than a pixel shows as a
    grey, where unsmoothed it vanished).

    Why an exact palette and zlib's default level: median cut over colours already few took
    9 ms of a Maretta board's 32 ms pass (and merged some of them), and ``optimize=True`` (level
    9, every row filter tried) 19 ms more for 10 % fewer bytes; mapping onto the picture's own
    colours takes 0.4 ms and level 6 about 2. Only a picture heavier than its mail's room is
    compressed again harder (:func:`_harder`, issue 28: done here for every picture near the
    heaviest, it was 11 of a Maretta picture's 18 ms of this pass, for pictures that mostly fit)."""
    import io

    from PIL import Image

    colours = rgb.getcolors(PNG_COLOURS)
    # a picture of few colours keeps them exactly; one of more (smoothed text) is reduced
    chosen: list[Any] = [colour for _count, colour in colours] if colours else _smoothed_palette(rgb, svg)
    palette = Image.new("P", (1, 1))
    palette.putpalette([int(channel) for colour in chosen
                        for channel in (colour if isinstance(colour, tuple) else (colour,) * 3)])
    quantised = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantised.save(out, "PNG", compress_level=6)
    return out.getvalue()


@functools.lru_cache(maxsize=64)
def _harder(png: bytes) -> bytes:
    """The same picture compressed as hard as Pillow can (zlib level 9, about 7 % fewer bytes for
    five times the time), or ``png`` itself when that is not smaller: for a picture that does not
    fit its mail's room as it is, where those bytes decide whether it goes whole.

    Through the shared cache, as the picture itself (:func:`svg_to_png`). Why (issue 28): the pass
    takes about 15 ms, and the seats of a position mailed by different workers each made it again."""
    return _through_cache("h", png, lambda: _compressed_harder(png))


def _compressed_harder(png: bytes) -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    with Image.open(io.BytesIO(png)) as im:
        im.save(out, "PNG", optimize=True)
    return out.getvalue() if out.tell() < len(png) else png


def _smoothed_palette(rgb: Any, svg: str) -> list[tuple[int, int, int]]:
    """At most PNG_COLOURS colours for a picture with more (smoothed text): the colours it shows
    that the drawing names or that cover at least half a percent of it (a translucent fill), most
    common first; the other colours the drawing names (a small text's ink, which its glyphs may
    never cover whole pixels of: its darkest edges map to it); then the edge tones, median cut
    into the slots left."""
    from PIL import Image

    counts = sorted(rgb.getcolors(rgb.width * rgb.height), reverse=True)
    named = {_rgb_of(c) for c in _HEX_COLOUR.findall(svg)}
    named.add((255, 255, 255))  # the background resvg draws on
    common = rgb.width * rgb.height // 200
    base = [colour for count, colour in counts if colour in named or count >= common]
    base = (base + sorted(named - set(base)))[:PNG_COLOURS]
    kept = set(base)
    # each edge tone weighed by its count, capped: a few frequent tones must not take every slot
    edges = [colour for count, colour in counts if colour not in kept for _ in range(min(count, 50))]
    slots = min(PNG_EDGE_TONES, PNG_COLOURS - len(base))
    if not edges or slots <= 0:
        return base
    strip = Image.new("RGB", (len(edges), 1))
    strip.putdata(edges)
    cut = strip.quantize(colors=slots, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    tones = (cut.getpalette() or [])[: 3 * slots]
    return base + [(tones[i], tones[i + 1], tones[i + 2]) for i in range(0, len(tones) - 2, 3)]


def _rgb_of(hex_digits: str) -> tuple[int, int, int]:
    """``"3f5a68"`` or ``"111"`` as (r, g, b)."""
    if len(hex_digits) == 3:
        hex_digits = "".join(ch * 2 for ch in hex_digits)
    return int(hex_digits[0:2], 16), int(hex_digits[2:4], 16), int(hex_digits[4:6], 16)


#: How long a game remembers that its pictures are too heavy for any mail.
PNG_WIDTH_HINT_SECONDS = 3600


def _hint_key(game_id: int, svg: str) -> str:
    # Why the root element's width too: it tells the game's board apart, so a hint is never
    # applied to another kind of picture under a reused game id. Why not the whole root: a
    # board's height may grow within a game (Maretta's legend gains a row for this turn's
    # trail), and a taller board at the same width is no lighter than the last one.
    width = re.search(r'\swidth="([0-9.]{1,12})"', svg[: svg.find(">") + 1])
    return f"pbem:png-heavy:{game_id}:{width.group(1) if width else '?'}"


def _too_heavy(game_id: int | None, svg: str) -> bool:
    """Whether this game's last picture weighed more than PNG_MAX_BYTES.

    Why remember it: a render costs 20-75 ms (parsing the SVG dominates) and was the dearest
    step of a move; a game's boards only grow more detailed, so a picture too heavy for every
    mail is followed by others as heavy. The hint expires, so a game whose board shrinks gets
    its picture back within the hour."""
    if game_id is None:
        return False
    key = _hint_key(game_id, svg)
    if _LIGHT_SEEN.get(key, 0.0) > time.monotonic():
        return False
    try:
        heavy = bool(cache.get(key))
    except Exception:  # noqa: BLE001 - no cache: render
        return False
    if not heavy:
        _remember_light(key)
    return heavy


#: How long this process trusts the shared cache's "not too heavy" without asking again.
LIGHT_SEEN_SECONDS = 10.0
#: Hint keys the shared cache answered "not too heavy" for, and until when (time.monotonic()).
#: Why (issue 28): a move's mails of one game asked Redis the same question once a mail (three
#: GETs for a Maretta move's three picture mails). Why only "not too heavy" here: a stale one
#: costs a render at most, never a picture (a picture too heavy is left out either way), while
#: "too heavy" leaves the picture out, so that answer stays the shared cache's, for every worker.
_LIGHT_SEEN: dict[str, float] = {}


def _remember_light(key: str) -> None:
    now = time.monotonic()
    if len(_LIGHT_SEEN) > 1000:  # (bounded: the expired ones go)
        for k in [k for k, until in _LIGHT_SEEN.items() if until <= now]:
            del _LIGHT_SEEN[k]
    _LIGHT_SEEN[key] = now + LIGHT_SEEN_SECONDS


def _remember_heavy(game_id: int | None, svg: str) -> None:
    if game_id is not None:
        key = _hint_key(game_id, svg)
        _LIGHT_SEEN.pop(key, None)
        with contextlib.suppress(Exception):
            cache.set(key, 1, timeout=PNG_WIDTH_HINT_SECONDS)


#: No mail we send weighs more than this (issue 10); the picture gets what the rest leaves.
MAIL_MAX_BYTES = 30_000
#: The picture part's own MIME headers (about 300 bytes), and a margin for the headers a relay adds.
_IMAGE_PART_OVERHEAD = 900


def png_budget(mail_bytes: int) -> int:
    """The most a picture may weigh in a mail that weighs ``mail_bytes`` without it, so that the
    whole stays within :data:`MAIL_MAX_BYTES` (base64: 78 bytes a line for every 57 of PNG)."""
    room = MAIL_MAX_BYTES - mail_bytes - _IMAGE_PART_OVERHEAD
    return max(0, min(PNG_MAX_BYTES, room * 57 // 78))


#: When the rest of a mail leaves too little room for its whole picture: a part of it, down to
#: these shares of its height, at the same scale (a shorter picture stays readable, a narrower
#: one would not): its caption and the rows around the reader's pieces, where the picture says
#: where they are (``data-focus``: a part of a map), else its top part (Maretta: its board
#: above its legend).
PNG_SHORTER = (0.8, 0.65)


_FOCUS = re.compile(r'\sdata-focus="(\d+) (\d+)(?: (\d+))?"')


def _focus(svg: str) -> tuple[int, ...] | None:
    """A mail picture's caption height and the row of the reader's pieces, and where the focused part
    ends when something follows it (engine.svg.focus_attr)."""
    m = _FOCUS.search(svg[: svg.find(">") + 1])
    if not m:
        return None
    return tuple(int(g) for g in m.groups() if g is not None)


def _shorter(png: bytes, share: float, focus: tuple[int, ...] | None = None) -> bytes:
    """``share`` of the picture's height: its top part; or, for a picture that says its focus,
    its caption and the rows around the reader's pieces under it, never past the focused part's end
    (QA, #20: the caption "The whole sea: ringed..." stayed though the overview under it was cut)."""
    import io

    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        height = max(1, round(im.height * share))
        end = min(focus[2], im.height) if focus is not None and len(focus) > 2 else im.height
        if focus is None or not 0 <= focus[0] < height:
            part = im.crop((0, 0, im.width, height))
        elif height >= end:  # the focused part whole, and nothing of what follows it
            part = im.crop((0, 0, im.width, end))
        else:
            caption, row = focus[0], focus[1]
            band = height - caption
            top = int(min(max(row - band / 2, caption), end - band))
            part = im.crop((0, 0, im.width, height))  # the same mode and palette
            part.paste(im.crop((0, top, im.width, top + band)), (0, caption))
        out = io.BytesIO()
        part.save(out, "PNG", optimize=True)
    return out.getvalue()


def png_height(png: bytes) -> int:
    """The height of a PNG, from its header."""
    return int.from_bytes(png[20:24], "big")


def _board_image(row: OutboundMessage, svg: str, budget: int = PNG_MAX_BYTES) -> tuple[MIMEImage, int] | None:
    """The picture's part and its height in px; None when the mail goes without it."""
    if not svg or budget <= 0 or _too_heavy(row.game_id, svg):
        return None
    try:
        png = picture_png(svg)
    except Exception as exc:  # noqa: BLE001 - a bad picture must not stop the mail
        log.warning("outbound %s: board picture not rendered (%s)", row.pk, type(exc).__name__)
        return None
    if len(png) > PNG_MAX_BYTES:
        _remember_heavy(row.game_id, svg)
        return None  # too heavy for any mail: it links the game page
    found = _fitting(png, svg, budget)
    if found is None and SMOOTH_TEXT_ATTR in svg[: svg.find(">")]:
        # Why: smoothed text costs a picture about half its bytes again; a mail whose text leaves
        # too little room even for its shortest part carries it with unsmoothed text rather than
        # none (a crowded 4-player Maracaibo turn mail, issue 21)
        try:
            found = _fitting(svg_to_png(svg.replace(SMOOTH_TEXT_ATTR, "", 1)), svg, budget)
        except Exception:  # noqa: BLE001 - rendered once already; no picture rather than no mail
            found = None
    if found is None:
        return None  # no room left in this mail even for the shortest part: it links the game page
    part, share = found
    image = MIMEImage(part, "png")
    image.add_header("Content-ID", f"<{BOARD_CID}>")
    name = f"board-{row.game_id}.png" if row.game_id else "board.png"
    image.add_header("Content-Disposition", "inline", filename=name)
    # what it is (RFC 2045); a shortened one says so (tests/mail/volume.py counts them)
    image.add_header("Content-Description", "board" if share == 1.0 else f"board, top {round(share * 100)} %")
    return image, png_height(part)


def _fitting(png: bytes, svg: str, budget: int) -> tuple[bytes, float] | None:
    """The whole picture, or its shorter parts (PNG_SHORTER), the first within ``budget``; and its share."""
    for share in (1.0, *PNG_SHORTER):
        part = png if share == 1.0 else _shorter(png, share, _focus(svg))
        if share == 1.0 and len(part) > budget:
            part = _harder(part)  # the whole picture, if compressing it harder makes room
        if len(part) <= budget:
            return part, share
    return None


def bodies(row: OutboundMessage) -> compose.Composed:
    """A row's text, HTML ("" for none) and board SVG ("" for none): composed from its stored
    content (an update mail), or as stored (a plain mail, or a row written before content)."""
    if row.content is not None:
        return compose.compose(row.content)
    html = row.body_html.replace(OutboundMessage.BOARD_SLOT, row.svg, 1) if row.body_html else ""
    return compose.Composed(row.body_text, html, row.svg)


class _Mail(EmailMultiAlternatives):
    """A mail whose MIME may be built already (:func:`build_message`): ``message()`` gives it.

    Why (issue 28): a picture mail's MIME was built twice, once without the picture to weigh the
    rest (its budget, :func:`png_budget`) and once more to send it with the picture (about 1.3 ms
    of a worker's CPU a mail); the picture's part is added to the first build instead (and, for a
    shortened picture, the HTML part that says its height put in place of the first one's)."""

    built: Any = None
    _built_for: Any = None

    def _parts(self) -> Any:
        """What the built MIME was made of; a mail changed since is built anew."""
        return (self.subject, self.body, tuple(self.to), tuple(self.reply_to), tuple(self.extra_headers.items()),
                self.from_email, tuple(id(a) for a in self.attachments), tuple(self.alternatives),
                getattr(self, "mixed_subtype", ""))

    def keep(self, built: Any) -> None:
        self.built, self._built_for = built, self._parts()

    def message(self, *args: Any, **kwargs: Any) -> Any:
        if self.built is not None and self._built_for == self._parts() and not args and not kwargs:
            return self.built
        msg = super().message(*args, **kwargs)
        if "Subject" in msg:
            del msg["Subject"]
            Message.__setitem__(msg, "Subject", subject_header(str(self.subject), self.encoding))
        return quick(msg)  # the same bytes, written out quicker (pbem.mail.folding)


def subject_header(subject: str, encoding: str | None = None) -> Header | str:
    """A Subject that is folded knowing the header's name, so its value reads as written.

    Why (QA of #20): Django encodes a subject without the header's name ("Subject: "): its first
    encoded word takes a whole line, and the generator folded the header once more before it
    ("Subject: " then a new line), which Python's parser and other mail programs read as a leading
    space in a Portuguese subject (accents, so encoded) and in any long one."""
    try:
        subject.encode("ascii")
    except UnicodeEncodeError:
        return Header(subject, encoding or settings.DEFAULT_CHARSET, header_name="Subject")
    # Why a plain value: compat32 folds a str as Header(value, header_name=name), this very header
    # (us-ascii), and QuickFold writes a short one without it (issue 28: the Header's folding was 5 %
    # of building a mail); the same bytes (tests/mail/test_folding.py).
    return subject


#: The headers a MIME part is made with (by its class), which stay with the body when the mail's
#: headers go to the part that wraps it and its picture (:func:`_with_part`).
_PART_HEADERS = frozenset({"content-type", "mime-version", "content-transfer-encoding"})


def _with_part(bare: Any, image: MIMEImage, subtype: str, encoding: str | None) -> Any:
    """``bare`` (a built mail without attachments) and ``image`` under one ``multipart/subtype``
    that takes the mail's headers: what Django's ``message()`` builds for the mail with ``image``
    attached (its ``_create_attachments``, then the headers set on the outer part)."""
    outer = quick(QuickMultipart(_subtype=subtype, encoding=encoding or settings.DEFAULT_CHARSET))
    moved = [(name, value) for name, value in bare.items() if name.lower() not in _PART_HEADERS]
    for name in dict.fromkeys(name for name, _value in moved):
        del bare[name]
    for name, value in moved:
        # as stored already (encoded and folded by Django): not through Django's checks again
        Message.__setitem__(outer, name, value)
    outer.attach(bare)
    outer.attach(image)
    return outer


def build_message(row: OutboundMessage) -> EmailMultiAlternatives:
    """The mail of a row. Built again from the same row (a retry, the resend of a row whose worker
    died) it is the same mail: the same headers, Message-ID and bodies (only MIME boundaries differ)."""
    headers = {**compose.STANDARD_HEADERS, **row.headers}
    if "Message-ID" not in headers and row.pk is not None:
        # Why from the row: a row's Message-ID is made with it (outbox._row) and stored; one that
        # has none (written by hand, or before) must not get a new random one at each build, or a
        # resend after a worker died (at least once: _mark_sent) would read as a second mail.
        headers["Message-ID"] = f"<pbem.o{row.pk}@{settings.PBEM_MAIL_DOMAIN}>"
    reply_to = headers.pop("Reply-To", None)
    from_email = f"pbem <{settings.PBEM_FROM_EMAIL}>"
    envelope = from_email
    # Not through a provider's API: its From is the envelope, and its bounces come by webhook.
    if settings.PBEM_VERP and row.pk is not None and not getattr(settings, "PBEM_MAIL_PROVIDER", ""):
        # VERP: the envelope sender (the bounce address) is this row's own, so a bounce says
        # which mail failed; the From header stays pbem's (pbem.mail.bounces).
        envelope = dsn.return_path(row.pk, local=settings.PBEM_BOUNCE_LOCAL, domain=settings.PBEM_MAIL_DOMAIN,
                                   secret=settings.SECRET_KEY)
        headers.setdefault("From", from_email)
    made = bodies(row)
    msg = _Mail(subject=row.subject, body=made.text, from_email=envelope,
                to=[row.to_email], reply_to=[reply_to] if reply_to else None, headers=headers)
    if made.html:
        msg.attach_alternative(made.html, "text/html")
    if made.svg:
        # Why CRLF: the weight on the wire, as the SMTP backend sends it.
        bare = msg.message()
        raw = bare.as_bytes()
        picture = _board_image(row, made.svg, png_budget(len(raw) + raw.count(b"\n")))
        if picture is not None:
            image, height = picture
            reusable = bool(msg.body) or bare.is_multipart()  # (Django leaves out an empty text alone)
            if compose.PICTURE_START in made.html:
                # The HTML shows the picture in place (cid:board), so the parts are related:
                # mail programs show it there, scaled to the mail's width, not as an attachment.
                msg.mixed_subtype = "related"  # type: ignore[attr-defined]  # Django has it; its stubs do not
                shown = compose.with_picture_height(made.html, height)
                if shown != made.html:  # its top part only: the HTML says the height it has
                    msg.alternatives = []
                    msg.attach_alternative(shown, "text/html")
                    # the HTML part of the first build replaced by the part Django makes of it
                    parts = bare.get_payload() if bare.get_content_subtype() == "alternative" else None
                    if isinstance(parts, list) and parts[-1].get_content_type() == "text/html":
                        parts[-1] = msg._create_mime_attachment(shown, "text/html")  # type: ignore[attr-defined]
                    else:
                        reusable = False
            msg.attach(image)
            if reusable:
                msg.keep(_with_part(bare, image, msg.mixed_subtype, msg.encoding))  # type: ignore[attr-defined]
        elif compose.PICTURE_START in made.html:
            msg.alternatives = []
            msg.attach_alternative(compose.without_picture(made.html), "text/html")
    return msg


#: ``last_error`` of a row not sent because its address bounced (pbem.mail.bounces).
MAIL_OFF = "undeliverable: mail to this address is off after bounces (its player turns it on from their page)"


def _claim(row_ids: list[int]) -> list[OutboundMessage]:
    """Claims the rows of ``row_ids`` still pending, in one statement (``UPDATE ... RETURNING``),
    and gives them as claimed, in the order of ``row_ids``, each with ``mail_off``: whether mail
    to its address is off after bounces (:data:`MAIL_OFF`).

    Why one statement for a batch: a claim, a read and the address's look-up per mail were
    three of its four statements. Why claiming a whole batch at once is safe: a send task is
    killed after ``time_limit`` (35 s), before a claim looks stuck to the sweeper
    (``STUCK_AFTER``, 40 s)."""
    ids = list(dict.fromkeys(int(i) for i in row_ids))
    if not ids:
        return []
    table = connection.ops.quote_name(OutboundMessage._meta.db_table)
    addresses = connection.ops.quote_name(MailAddress._meta.db_table)
    marks = ", ".join(["%s"] * len(ids))
    columns = seatrow.named_columns(OutboundMessage)  # not RETURNING *: see named_columns
    rows = {row.pk: row for row in OutboundMessage.objects.raw(
        f"UPDATE {table} SET status = %s, claimed_at = %s, attempts = attempts + 1 "
        f"WHERE id IN ({marks}) AND status = %s RETURNING {columns}, EXISTS (SELECT 1 FROM {addresses} a "
        f"WHERE a.email = LOWER({table}.to_email) AND a.disabled_at IS NOT NULL) AS mail_off",
        [OutboundMessage.Status.SENDING, timezone.now(), *ids, OutboundMessage.Status.PENDING])}
    return [rows[i] for i in ids if i in rows]


def do_send_outbound(row_id: int, mail_connection: Any = None) -> bool:
    """Send one row if it is still pending; True when this call sent it.

    False: another worker holds it, or it was sent or given up already, or it can never be
    delivered (then it is ``failed`` with the reason, at once, never retried).
    Raises on a transient transport failure (the row is pending again, for the retry).
    ``mail_connection``: an open mail connection to send over (one per batch), else a new one.
    """
    claimed = _claim([row_id])
    if not claimed or not _send_claimed(claimed[0], mail_connection):
        return False
    _mark_sent([row_id])
    return True


def _send_claimed(row: OutboundMessage, mail_connection: Any = None) -> bool:
    """Sends a row this worker claimed (:func:`_claim`); True when the relay took it. The caller
    marks it sent (:func:`_mark_sent`: a batch's rows together); a row not sent is marked here,
    pending or failed, with its reason."""
    row_id = row.pk
    if getattr(row, "mail_off", False):
        OutboundMessage.objects.filter(pk=row_id, status=OutboundMessage.Status.SENDING).update(
            status=OutboundMessage.Status.FAILED, last_error=MAIL_OFF)
        log.info("outbound %s: not sent, mail to its address is off after bounces", row_id)
        return False
    try:
        message = build_message(row)
        message.connection = mail_connection
        message.send()
    except Exception as exc:
        permanent = is_permanent(exc)
        expired = row.created_at < timezone.now() - GIVE_UP_AFTER
        error = f"{'undeliverable: ' if permanent else ''}{type(exc).__name__}: {exc}"
        OutboundMessage.objects.filter(pk=row_id, status=OutboundMessage.Status.SENDING).update(
            status=OutboundMessage.Status.FAILED if permanent or expired else OutboundMessage.Status.PENDING,
            last_error=error[:2000])
        if permanent:
            log.warning("outbound %s: undeliverable, dropped (%s)", row_id, type(exc).__name__)
            return False
        log.warning("sending outbound %s failed (attempt %s): %s", row_id, row.attempts, type(exc).__name__)
        raise
    return True


#: How long the ``sent`` mark is retried after the relay took the mail (a database restart).
MARK_SENT_FOR = 20.0


def _mark_sent(row_ids: list[int]) -> None:
    """Mark rows sent, in one statement however many, retrying across a database hiccup.

    Why retry here: the relay has the mails; if this update is lost the rows stay ``sending``
    and the sweeper sends them again (duplicates with the same Message-IDs). A restart of the
    database was the usual cause in the fault suite (bench/chaos.py).

    Why one statement for a batch (issue 28: it was one a mail, right after each send): delivery
    is at least once. A worker that dies after a send and before this mark leaves its rows
    ``sending``; the sweeper sends them again after ``STUCK_AFTER``, each with its row's own
    Message-ID (:func:`build_message`), so mail programs show it once (docs/mail.md).
    """
    if not row_ids:
        return
    deadline = time.monotonic() + MARK_SENT_FOR
    # Why written out (issue 28): the ORM built this UPDATE anew for every batch sent,
    # 0.4 ms of CPU against 0.1 for the statement itself.
    marks = ", ".join(["%s"] * len(row_ids))
    sql = (f"UPDATE {connection.ops.quote_name(OutboundMessage._meta.db_table)} SET status = %s, sent_at = %s "
           f"WHERE id IN ({marks}) AND status = %s{_UNFLUSHED if _own_transaction() else ''}")
    while True:
        try:
            with connection.cursor() as cursor:
                cursor.execute(sql, [OutboundMessage.Status.SENT, timezone.now(), *row_ids,
                                     OutboundMessage.Status.SENDING])
            return
        except (OperationalError, InterfaceError):
            if time.monotonic() > deadline:
                raise
            connection.close()
            time.sleep(0.5)


#: Makes the statement it ends (on PostgreSQL, a statement that is its own transaction) commit without
#: waiting for its WAL to reach the disk (``SET LOCAL synchronous_commit = off`` for that transaction
#: alone). Why for the ``sent`` mark (issue 28): that wait, 2.5-4 ms on this machine's disk (8 at the
#: 90th percentile), was a fixed part of every move's path in its worker. What it risks is what the
#: mark already allows: were PostgreSQL itself to crash in the next fraction of a second, the mark
#: would be lost, the rows would stay ``sending`` and the sweeper would send them again with their
#: own Message-IDs (at least once, as after a worker killed before its mark). The move, the inbound
#: mail's row and the claims stay committed to the disk before anything depends on them.
_UNFLUSHED = " AND (SELECT set_config('synchronous_commit', 'off', true)) = 'off'"


def _own_transaction() -> bool:
    """Whether a statement run now is a PostgreSQL transaction of its own (autocommit, no atomic block)."""
    return connection.vendor == "postgresql" and not connection.in_atomic_block


def do_send_outbound_batch(row_ids: list[int]) -> int:
    """The mails of one move, over one kept SMTP connection; returns how many this call sent.

    Four statements however many mails, with the rows' INSERT and the story's read that queued
    them (issue 28): one ``UPDATE ... RETURNING`` claims and reads every row still pending (so a
    redelivered batch sends nothing twice), then each is sent, then one UPDATE marks those the
    relay took as sent (also when a later send raised). One failing row does not stop the others;
    the batch raises afterwards, and the outbox sweeper tries the rows left pending. A worker
    killed between a send and the mark leaves its rows ``sending``: the sweeper sends them again
    with the same Message-IDs (at least once, never lost).
    """
    return _send_rows(lambda: _claim(row_ids))


def _send_rows(claimed: Callable[[], Iterable[OutboundMessage]]) -> int:
    """Sends rows this worker claimed over one kept SMTP connection, then marks those the relay
    took as sent in one statement (also when a later send raised); raises the first failure after."""
    sent: list[int] = []
    first_error: Exception | None = None
    try:
        # Why one connection: an SMTP handshake (and TLS) per mail was a large part of a send.
        with get_connection() as mail_connection:
            for row in claimed():
                try:
                    if _send_claimed(row, mail_connection):
                        sent.append(row.pk)
                except Exception as exc:  # noqa: BLE001 - recorded on the row; raised below
                    first_error = first_error or exc
    finally:
        _mark_sent(sent)
    if first_error is not None:
        raise first_error
    return len(sent)


#: A row born claimed (:func:`do_send_born_claimed`) is sent by its deciding task only while its
#: claim is younger than this: the sends are then bounded at ``workers.tasks.SEND_TIME_LIMIT`` (35 s)
#: from their start, so a send ends before the claim is ``STUCK_AFTER`` (40 s) old and the sweeper
#: takes it for a dead worker's. An older claim (a commit that came late) is left to the sweeper.
BORN_CLAIM_FRESH = timedelta(seconds=4)


def do_send_born_claimed(rows: Sequence[OutboundMessage]) -> int:
    """The mails of a move whose deciding task inserted them already claimed by itself (status
    ``sending``, ``claimed_at`` and one attempt set in the INSERT, and ``mail_off`` returned by it:
    ``outbox._queue_updates_together``), sent right after its commit: as
    :func:`do_send_outbound_batch`, without the claim's statement (issue 28). Returns how many
    were sent.

    Crash safety is the claim's, as before: a process that ends between the commit and the sends
    (or during them) leaves the rows ``sending``, and the outbox sweeper sends them again once the
    claim is ``STUCK_AFTER`` old (:func:`do_requeue_stuck`)."""
    rows = [r for r in rows if r.status == OutboundMessage.Status.SENDING and r.claimed_at is not None]
    if not rows:
        return 0
    age = timezone.now() - min(r.claimed_at for r in rows if r.claimed_at is not None)
    if age > BORN_CLAIM_FRESH:
        log.warning("a move's %s mail(s) claimed %.1f s ago: left to the outbox sweeper", len(rows),
                    age.total_seconds())
        return 0
    return _send_rows(lambda: rows)


def do_requeue_stuck(now: datetime | None = None) -> int:
    """The outbox sweeper. Returns how many rows stuck in ``sending`` went back to pending.

    Each stuck row is reset by one conditional update, so two sweepers running
    at once reset it once, and the claim in :func:`do_send_outbound` lets only
    one of the resulting tasks send it.
    """
    now = now or timezone.now()
    stuck_ids = list(OutboundMessage.objects.filter(
        status=OutboundMessage.Status.SENDING, claimed_at__lt=now - STUCK_AFTER).values_list("pk", flat=True))
    reset = 0
    for pk in stuck_ids:
        reset += OutboundMessage.objects.filter(
            pk=pk, status=OutboundMessage.Status.SENDING, claimed_at__lt=now - STUCK_AFTER,
        ).update(status=OutboundMessage.Status.PENDING)
    if reset:
        log.warning("outbox sweeper: %s row(s) stuck in sending went back to pending", reset)
    due = OutboundMessage.objects.filter(status=OutboundMessage.Status.PENDING).filter(
        Q(attempts=0, created_at__lt=now - LOST_AFTER) | Q(attempts__gt=0) | Q(pk__in=stuck_ids))
    for pk, attempts, claimed_at in due.order_by("pk").values_list("pk", "attempts", "claimed_at"):
        if attempts and pk not in stuck_ids and claimed_at is not None and claimed_at > now - backoff(attempts):
            continue  # still backing off
        if pk not in stuck_ids and dispatch.recently_queued("pbem.send_outbound", pk):
            continue  # its task is in the queue
        dispatch.enqueue("pbem.send_outbound", pk)
    return reset
