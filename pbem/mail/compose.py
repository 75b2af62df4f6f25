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

import html
import re
from dataclasses import dataclass
from typing import Any

from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.text import capfirst
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

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
    """The HTML part of an update mail from its rendering context (see :func:`context`).

    Written out here, not as a Django template: rendering ``mail/game_update.html`` was a third of
    a mail's composition (0.3 ms, some 4 % of a worker's CPU a move, issue 28). The output is the
    template's, byte for byte: every value localized and escaped as ``{{ }}`` did (:func:`_h`), a
    catalogue's text as ``{% translate %}`` left it (not escaped: it may hold markup; none of these
    holds a %%, which the tag made %), a missing key empty."""
    get = c.get
    game = get("game") or {}
    # a mail whose options are those of the mail before it points to them (outbox.options_again)
    rows = [] if get("same_options") else get("options")
    url = _h(get("url", ""))
    out = ['<!DOCTYPE html>\n<html lang="', _h(get_language()), '">\n<head>\n<meta charset="utf-8">\n'
           '<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>',
           # Why said_title, which the stored game has not (so the title is " #pk"): as the template had it
           _h(game.get("said_title", "")), " #", _h(game.get("pk", "")), "</title>\n</head>\n", _BODY,
           '<p style="color:#5c5c5c;font-size:12px;margin:0 0 12px 0;">', _h(get("marker", "")), "</p>\n"]
    if get("intro"):
        out += ['<p style="margin:0 0 8px 0;">', _h(c["intro"]), "</p>"]
    out += ['\n<h2 style="font-size:20px;margin:0 0 6px 0;">', _h(get("headline", "")), "</h2>\n"]
    if get("deadline"):
        out += ['<p style="margin:0 0 12px 0;color:#5a3d00;"><strong>', _("Deadline:"), "</strong> ",
                _h(c["deadline"]), "</p>"]
    out += ['\n<p style="margin:0 0 14px 0;"><a href="', url, '" style="', _BUTTON, '">',
            _("Play on your game page") if rows else _("Open your game page"), "</a></p>\n"]
    out += _options_html(c, rows)
    out += _outcome_html(c, game)
    if get("events"):
        out += ['\n<p style="margin:0 0 4px 0;"><strong>', _("Since your last mail"), "</strong></p>\n", _UL]
        for e in c["events"]:
            out += ["\n<li>", _h(e), "</li>"]
        out.append("</ul>\n")
    out.append("\n")
    if get("chat"):
        out += ['\n<p style="margin:0 0 4px 0;"><strong>', _("Messages"), "</strong></p>\n", _UL]
        for who, text in c["chat"]:
            out += ["\n<li><strong>", _h(who), ":</strong> ", _h(text), "</li>"]
        out.append("</ul>\n")
    out.append("\n")
    out += _picture_html(c, url)
    out += ["\n", _PRE, _h(get("state_text", "")), "</pre>\n"]
    out += _footer_html(c, game)
    return "".join(out)


def _h(value: Any) -> str:
    """A value as a template's ``{{ value }}`` shows it (Django's ``render_value_in_context``)."""
    if type(value) is str:  # the usual case, stored JSON: what conditional_escape does to it, quicker
        return html.escape(value)
    if not isinstance(value, str):
        value = str(localize(value))
    return conditional_escape(value)


def _joined(values: Any) -> str:
    """``values|join:", "`` under autoescape: each value escaped."""
    return ", ".join(conditional_escape(v) for v in values or [])


_BODY = ('<body style="margin:0;padding:16px;background:#fbf7ee;color:#1f1f1f;font-family:Helvetica,Arial,sans-serif;'
         'font-size:16px;line-height:1.45;">\n<div style="max-width:640px;margin:0 auto;">\n')
_BUTTON = ("display:inline-block;background:#0b5394;color:#ffffff;text-decoration:none;padding:10px 16px;"
           "border-radius:6px;font-weight:bold;")
_UL = '<ul style="margin:0 0 12px 0;padding-left:20px;">'
_PRE = ('<pre style="font-family:Menlo,Consolas,monospace;font-size:13px;background:#ffffff;border:1px solid #d9cfb4;'
        'padding:8px;white-space:pre-wrap;word-break:break-word;">')
_GREY = '<p style="color:#4a4a4a;font-size:13px;margin:'
_TH = '<th style="text-align:left;padding:3px 8px 3px 0;">'
_TD = '<td style="padding:3px 8px 3px 0;">'
_TD_RIGHT = '<td style="text-align:right;padding:3px 8px 3px 0;">'


def _options_html(c: dict[str, Any], rows: Any) -> list[str]:
    if rows:
        out = ['\n<p style="margin:0 0 4px 0;"><strong>', _("Your options"), "</strong> ",
               _("(or reply with a code, one command a line):"), "</p>\n",
               '<table cellpadding="3" cellspacing="0" style="margin:0 0 8px -3px;">\n']
        for o in rows:
            out += ["<tr><td><b><code>", _h(o.get("code", "")), "</code></b></td><td>", _h(o.get("label", "")),
                    "</td></tr>\n"]
        out += ['</table>\n<p style="color:#4a4a4a;font-size:14px;margin:0 0 14px 0;">', _h(c.get("examples", "")),
                " ", _("Several lines are applied in order."), "</p>\n"]
        if c.get("example_turn"):
            out += ['<p style="margin:0 0 4px 0;">', _h(_(_EXAMPLE_HEADING)), "</p>\n",
                    '<pre style="margin:0 0 14px 0;font-size:14px;white-space:pre-wrap;word-break:break-word;">']
            for line in c["example_turn"]:
                out += [_h(line), "\n"]
            out.append("</pre>")
        out.append("\n")
    elif c.get("same_options"):
        out = ['\n<p style="margin:0 0 14px 0;"><strong>', _("Your options:"), "</strong> ",
               _h(c.get("options_text", "")), " ", _h(c.get("examples", "")), "</p>\n"]
    elif not c.get("finished"):
        out = ['\n<p style="margin:0 0 12px 0;">',
               _("You have nothing to decide now; you will get a mail when it is your turn."), "</p>\n"]
    else:
        out = []
    out.append("\n")
    return out


def _outcome_html(c: dict[str, Any], game: dict[str, Any]) -> list[str]:
    if not c.get("outcome"):
        return ["\n"]
    results = c.get("results") or [[], []]
    rows, heads = results[0], results[1]
    out = ['<p style="margin:0 0 4px 0;font-size:18px;"><strong>', _h(c["outcome"][0]), "</strong></p>\n",
           '<table style="border-collapse:collapse;margin:0 0 8px 0;font-size:14px;">\n<tr>',
           _TH, _("Place"), "</th>", _TH, _("Player"), "</th>"]
    for h in heads:
        out += ['<th style="text-align:right;padding:3px 8px 3px 0;">', _h(capfirst(h)), "</th>"]
    out += ['<th style="text-align:right;padding:3px 0;">', _("Score"), "</th></tr>\n"]
    for r in rows:
        out += ["<tr", ' style="font-weight:bold;"' if r.get("winner") else "", ">",
                _TD, _h(r.get("place", "")), "</td>", _TD, _h(r.get("name", "")), "</td>"]
        for v in r.get("parts") or []:
            out += [_TD_RIGHT, _h(v), "</td>"]
        out += ['<td style="text-align:right;padding:3px 0;"><strong>', _h(r.get("score", "")), "</strong></td></tr>\n"]
    out.append("</table>")
    reason = (game.get("outcome") or {}).get("reason")
    if reason:
        out += ['<p style="margin:0 0 12px 0;">', _("Why it ended:"), " ", _h(reason), "</p>"]
    out.append("\n")
    return out


def _picture_html(c: dict[str, Any], url: str) -> list[str]:
    if not c.get("svg"):
        return []
    out = [PICTURE_START]
    size = c.get("picture_size")
    if size:
        width = _h(size[0])
        out += ['<img src="cid:board" width="', width, '" height="', _h(size[1]), '" alt="',
                _("The board near your pieces"), '" style="display:block;width:100%;max-width:', width,
                'px;height:auto;margin:0 0 6px 0;">']
        if c.get("picture_legend"):
            out += ["\n", _GREY, '0 0 6px 0;">', _h(c["picture_legend"]), "</p>"]
    out += [PICTURE_END, "\n", _GREY, '0 0 12px 0;">', _("The whole board, full size, is on"), ' <a href="', url,
            '" style="color:#0b5394;">', _("your game page"), "</a>.</p>"]
    return out


def _footer_html(c: dict[str, Any], game: dict[str, Any]) -> list[str]:
    get = c.get
    out: list[str] = []
    if not get("compact"):
        out += ['<p style="margin:0 0 8px 0;">',
                _("You are %(you)s. Players: %(players)s.") % {"you": _h(get("you", "")),
                                                                "players": _joined(get("players"))}]
        if get("waiting") and not get("finished"):
            out += [" ", _("Also waiting for: %(names)s.") % {"names": _joined(c["waiting"])}]
        out.append("</p>")
    out += ["\n", _GREY, '0;">']
    if not get("compact"):
        seed_hash = _h(game.get("seed_hash", ""))
        said = (_("Seed: %(seed)s (its SHA-256 %(hash)s was shown from the start).")
                % {"seed": _h(game.get("seed", "")), "hash": seed_hash} if get("finished")
                else _("Seed commitment (SHA-256): %(hash)s") % {"hash": seed_hash})
        out += ['<span style="word-break:break-all;">', said, "</span><br>\n",
                _("The button above is your personal link: do not forward this mail. To write to the other players, "
                   "reply with <em>say</em> and your message."), "<br>\n"]
        if get("mode_note"):
            out += [_h(c["mode_note"]), "<br>\n"]
        if get("language_note"):
            out += [_h(c["language_note"]), "<br>\n"]
    out += [_("Account commands: mail %(general)s with the word <em>help</em>.") % {"general": _h(get("general", ""))},
            "</p>\n</div>\n</body>\n</html>\n"]
    return out


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
