"""A game update mail, composed at send time from the one thing its outbox row stores.

An update mail (a player's view, their story since the last mail, their options, a picture
of the board) used to be stored three times over: its text, its HTML (the same words with
markup) and its board SVG (a rendering of the view again), 16-38 KB a move. The row now
stores only its *content* (``OutboundMessage.content``): the seat's own view as the engine
gave it, and the few lines the mail tells around it (headline, story, options, chat...),
~1-2 KB. The text body, the HTML body and the SVG (then the PNG) are derived from it when
the mail is built for sending, by the functions below, deterministically: a retry or the
resend of a row whose worker died builds the same mail again (same Message-ID, same bodies).

Why the view and not the state: the row must show the game as it was when the change was
made, and the game's state moves on (the next move may come before the send); the state of
that version could only be had again by replaying the log, which grows. The view is what the
seat may know, so storing it adds nothing hidden to the outbox. Why the lines stay stored,
not recomputed: they depend on the seat's mail marks and the move log at that moment.

Nothing here imports the outbox or the sender: both call down into it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

import engine
from engine import svg as drawing
from pbem.games import language

#: The version of the stored content's shape; :func:`context` refuses others rather than guess.
CONTENT_VERSION = 1

#: Headers every mail of ours carries; not stored in each row, the sender puts them first.
STANDARD_HEADERS = {
    "Auto-Submitted": "auto-generated",
    # Why: asks Exchange/Outlook not to answer us with out-of-office mail.
    "X-Auto-Response-Suppress": "All",
}


#: Around the HTML of the inline picture (``<img src="cid:board">``); the sender takes the part
#: out when the mail goes without the picture (no room left in its 30 KB: it links the page).
PICTURE_START, PICTURE_END = "<!--pbem:picture-->", "<!--/pbem:picture-->"
_ROOT_SIZE = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)"[^>]*?\sheight="([0-9.]+)"')


def without_picture(html: str) -> str:
    """The HTML of a mail that goes without its picture."""
    start, end = html.find(PICTURE_START), html.find(PICTURE_END)
    return html[:start] + html[end + len(PICTURE_END):] if 0 <= start < end else html


_PICTURE_HEIGHT = re.compile(r'(<img src="cid:board" width="\d+" height=")(\d+)"')


def with_picture_height(html: str, height: int) -> str:
    """The HTML of a mail whose picture is ``height`` px high (its top part, when the mail has no
    room for the whole: see pbem.mail.sending.PNG_SHORTER)."""
    return _PICTURE_HEIGHT.sub(lambda m: f'{m.group(1)}{height}"', html, count=1)


@dataclass(frozen=True)
class Composed:
    text: str
    html: str
    svg: str


_EXAMPLE_HEADING = gettext_noop("A whole turn in one mail, for example (from your options now):")


def render_text_body(c: dict[str, Any]) -> str:
    """The text part of an update mail from its rendering context (see :func:`context`)."""
    game = c["game"]
    parts = [c["marker"], ""]
    if c["intro"]:
        parts += [c["intro"], ""]
    parts += [c["headline"]]
    if c["deadline"]:
        parts.append(_("Deadline: %(deadline)s.") % {"deadline": c["deadline"]})
    parts.append("")
    if c["options"]:
        parts += [
            _("Your options:"),
            c["options_text"],
            "",
            c["examples"],
            _("One command a line, above the marker line; several lines are applied in order."),
            "",
        ]
        if c.get("example_turn"):  # (stored contents before it have none)
            parts += [_(_EXAMPLE_HEADING), *(f"  {line}" for line in c["example_turn"]), ""]
    elif not c["finished"]:
        parts += [_("You have nothing to decide now; you will get a mail when it is your turn."),
                  _("(A reply holding only the word undo takes back your last move while nobody has moved "
                    "since.)"),
                  ""]
    if c["outcome"]:
        parts += c["outcome"] + [""]
    if c["events"]:
        parts += [_("Since your last mail:")] + [f"  - {t}" for t in c["events"]] + [""]
    if c["chat"]:
        parts += [_("Messages:")] + [f"  {who}: {text}" for who, text in c["chat"]] + [""]
    parts += [c["state_text"].rstrip(), ""]
    if c["compact"]:
        parts += [_("Your game page (your personal link, do not share it): %(url)s") % {"url": c["url"]}, ""]
        return "\n".join(parts)
    parts.append(_("You are %(you)s. Players: %(players)s.") % {"you": c["you"], "players": ", ".join(c["players"])})
    if c["waiting"] and not c["finished"]:
        parts.append(_("Also waiting for: %(names)s.") % {"names": ", ".join(c["waiting"])})
    if c["finished"]:
        parts.append(_("Seed: %(seed)s (its SHA-256 %(hash)s was shown from the start), "
                       "so anyone can replay and check the game.") % {"seed": game["seed"], "hash": game["seed_hash"]})
    else:
        parts.append(_("Seed commitment (SHA-256): %(hash)s") % {"hash": game["seed_hash"]})
    parts += ["", _("Your game page (your personal link, do not share it): %(url)s") % {"url": c["url"]},
              _("To write to the other players, reply with: say your message")]
    if c["mode_note"]:
        parts.append(c["mode_note"])
    if c.get("language_note"):
        parts.append(c["language_note"])
    parts += [_("Account commands: mail %(general)s with the word help.") % {"general": c["general"]}, ""]
    return "\n".join(parts)


def render_html_body(c: dict[str, Any]) -> str:
    """The HTML part of an update mail from its rendering context (see :func:`context`)."""
    ctx = dict(c)
    # a mail whose options are those of the mail before it points to them (outbox.options_again)
    ctx["option_rows"] = [] if c.get("same_options") else c["options"]
    ctx["example_heading"] = _(_EXAMPLE_HEADING)
    return render_to_string("mail/game_update.html", ctx)


def context(content: dict[str, Any]) -> dict[str, Any]:
    """The rendering context of a stored content: the stored lines, and the view's text and
    board picture made by the game's renderer."""
    if content.get("v") != CONTENT_VERSION:
        raise ValueError(f"unknown mail content version {content.get('v')!r}")
    rules = engine.get(content["rules"])
    view = content["view"]
    c = dict(content)
    c["state_text"] = rules.render_mail_text(view)
    c["svg"] = rules.render_mail_svg(view) if content["picture"] else ""
    size = _ROOT_SIZE.search(c["svg"][:600])
    # the picture's own size in px: the mail shows it so, or narrower on a narrower screen
    c["picture_size"] = (round(float(size.group(1))), round(float(size.group(2)))) if size else None
    c["picture_legend"] = drawing.description(c["svg"]) if c["svg"] else ""
    outcome = (c.get("game") or {}).get("outcome") or {}
    if outcome.get("reason"):  # the engine's English words, stored: said in the reader's language
        c["game"] = {**c["game"], "outcome": {**outcome, "reason": language.translate(str(outcome["reason"]))}}
    return c


def compose(content: dict[str, Any]) -> Composed:
    """The text, HTML and board SVG ("" when the mail has no picture) of a stored content."""
    # Why at send time too: the fixed texts and the engine's board text are made here (issue 27).
    with language.speaking(content.get("lang")):
        c = context(content)
        return Composed(render_text_body(c), render_html_body(c), c["svg"])
