"""How many mails, and how heavy: checks shared by the whole games played by mail.

Issue 10: a player gets a mail when something they need to know happened (their turn
begins, the game waits on them again after others moved, the game ends, a moderator
acted); a step inside a turn is answered to the mail that made it, once; never two mails
in a row with the same options; every mail under 30 KB. See docs/mail.md "When a mail goes".
"""

from __future__ import annotations

import collections
import itertools
import json
import re
import statistics
from dataclasses import dataclass
from email.message import EmailMessage

import engine
from pbem.games.models import Game, Move
from tests.mail.conftest import Persona, text_of

MAX_MAIL_BYTES = 30_000
DEADLINE = re.compile(r"^Deadline: \d+ (day|hour|minute)s?( \d+ (hour|minute)s?)? left, until \w{3} \d+ \w{3} "
                      r"\d\d:\d\d UTC\.$", re.M)
_VERSION = re.compile(r"<pbem\.g\d+\.v(\d+)\.")


def version_shown(m: EmailMessage) -> int:
    found = _VERSION.match(str(m["Message-ID"]))
    assert found, f"not one of our game's ids: {m['Message-ID']}"
    return int(found.group(1))


def wire_size(m: EmailMessage) -> int:
    """The bytes the mail weighs as SMTP carries it (every line ending CRLF)."""
    return len(m.as_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))


def part_sizes(m: EmailMessage) -> dict[str, int]:
    """Where a mail's bytes on the wire go: its text part, its HTML part, its picture (each with
    its MIME headers and transfer encoding), and the rest (the mail's headers, boundaries)."""
    out = {"text": 0, "html": 0, "picture": 0}
    for part in m.walk():
        kind = {"text/plain": "text", "text/html": "html", "image/png": "picture"}.get(part.get_content_type())
        if kind:
            out[kind] += wire_size(part)
    out["rest"] = wire_size(m) - sum(out.values())
    return out


def has_picture(m: EmailMessage) -> bool:
    return any(p.get_content_type() == "image/png" for p in m.walk())


def has_part_of_picture(m: EmailMessage) -> bool:
    """The mail carries a shorter part of its picture (the rest of it left too little room)."""
    return any(p.get_content_type() == "image/png" and "top" in str(p["Content-Description"] or "")
               for p in m.walk())


def game_mails(person: Persona, game: Game) -> list[EmailMessage]:
    """The game's own mails to ``person`` (its notifications; answers to their mails start with Re:)."""
    subject = f"[pbem #{game.pk}] {game.title}"
    return [m for m in person.inbox() if str(m["Subject"]) == subject or str(m["Subject"]).startswith(f"{subject}: ")]


def answers(person: Persona, game: Game) -> list[EmailMessage]:
    """The answers to ``person``'s own mails about the game."""
    subject = f"Re: [pbem #{game.pk}] {game.title}"
    return [m for m in person.inbox() if str(m["Subject"]) == subject]


def options_block(m: EmailMessage) -> str:
    body = text_of(m)
    for heading in ("Your options:", "Your options now:"):
        if heading in body:
            return body.split(heading, 1)[1].split("\n\n", 1)[0]
    return ""


_OPTION_LINE = re.compile(r"^  \S+\s{2,}\S.*$")


def options_listed(m: EmailMessage) -> tuple[str, ...]:
    """The option lines a mail lists (code and words); none where it points to its last
    mail's ("The same as in my last mail (...)": the player chooses again from the same)."""
    return tuple(line for line in options_block(m).splitlines() if _OPTION_LINE.match(line))


def story_of(m: EmailMessage) -> str:
    """The "Since your last mail" part of a mail, with its heading ("" if none)."""
    body = text_of(m)
    if "Since your last mail:" not in body:
        return ""
    return "Since your last mail:" + body.split("Since your last mail:", 1)[1].split("\n\n", 1)[0]


def _signature(rules: engine.Rules, state: dict[str, object], seat: int) -> tuple[tuple[str, str], ...]:
    return tuple((o.code, o.label) for o in rules.options(state, seat))


@dataclass
class Turns:
    """Per seat, found by replaying the game from its revealed seed and move log one change
    (game version) at a time, as the mails went out."""

    #: decisions that began: the game began to wait on the seat; a new turn of its own, or a
    #: new round or phase, was announced while it stayed waited on (solo, after the automa; the
    #: last face-down play of a round); its move made the game wait on others too; or it
    #: stayed waited on and the others' moves changed its options
    decisions: dict[int, int]
    #: its own moves after which its turn went on (steps inside its turn)
    steps: dict[int, int]


def turns_had(game: Game) -> Turns:
    rules = engine.get(game.rules)
    assert game.state is not None and game.seed
    n = len(game.state["players"])
    state = rules.setup(list(game.state["players"]), game.options, game.seed)
    waiting = set(rules.pending(state))
    options = {s: _signature(rules, state, s) for s in waiting}
    decisions = {s: int(s in waiting) for s in range(n)}
    steps = dict.fromkeys(range(n), 0)
    rows = Move.objects.filter(game=game, undone_at__isnull=True).order_by("number")
    for _version, group in itertools.groupby(rows, key=lambda m: m.version):
        movers: set[int] = set()
        announced: set[int] = set()
        new_round = False
        for m in group:
            for e in rules.apply(state, m.seat, m.move):
                if e.kind in ("turn", "phase"):
                    if isinstance(e.data.get("seat"), int):
                        announced.add(int(e.data["seat"]))
                    else:
                        new_round = True
            movers.add(m.seat)
        now = set(rules.pending(state))
        after = {s: _signature(rules, state, s) for s in now}
        for s in now:
            if (s not in waiting or s in announced or new_round
                    or (s in movers and now - waiting - {s})
                    or (s not in movers and after[s] != options.get(s))):
                decisions[s] += 1
            elif s in movers:
                steps[s] += 1
        waiting, options = now, after
    assert json.loads(json.dumps(state)) == game.state, "the replay must reach the game's final state"
    return Turns(decisions, steps)


def check_mail_volume(game: Game, people: list[Persona], *, notices: int = 0) -> dict[str, dict[str, int]]:
    """For each player: their game mails are at most the decisions that began for them, plus
    the game's start, its end and ``notices`` (moderator notices); the answers to their own
    mails are at most the mails they sent, one answer per mail; never two mails in a row
    (game mails and answers together) that list the same options (asked the same again after
    their move, a mail points to the last one instead; a refusal's answer, which changed
    nothing, lists the options it did not change); every turn mail
    says the deadline in words; their mails tell each version once; every mail under 30 KB.

    Returns, per player: game mails, answers, mails sent, decisions (turns) and steps.
    """
    figures: dict[str, dict[str, int]] = {}
    again: dict[str, int] = {}
    turns = turns_had(game)
    for person in people:
        box = game_mails(person, game)
        replies = answers(person, game)
        seat = game.seats.get(player__email=person.email).index
        assert seat is not None
        had, own = turns.decisions[seat], turns.steps[seat]
        assert had > 0, f"{person.name} never had a turn"
        invited = sum("invites you to play" in text_of(m) for m in box)  # the game's start, for a guest
        bound = had + 2 + invited + notices
        assert len(box) <= bound, (f"{person.name} got {len(box)} game mails for {had} turns "
                                   f"(at most {bound} with the start and the end)")
        # one answer to one mail of theirs, never more, never to a mail they did not send
        answered = collections.Counter(str(m["In-Reply-To"]) for m in replies)
        sent = {mid for to, mid in person.sent if to.startswith("seat-")}
        assert set(answered) <= sent, f"{person.name} got answers to mails they never sent"
        assert max(answered.values(), default=0) <= 1, f"{person.name} got two answers to one mail"
        assert len(replies) <= len(sent)
        for m in person.inbox():
            size = wire_size(m)
            assert size <= MAX_MAIL_BYTES, f"a mail to {person.name} weighs {size} bytes"
        # never two mails in a row that list the same options: when they moved and are asked the
        # same again (a second card of one kind to discard), the mail points to the last one
        told = [m for m in person.inbox() if m in box or m in replies]
        for before, after in itertools.pairwise(told):
            if "was not accepted; nothing was changed" in text_of(after):
                continue  # a refused mail is answered with the options it did not change
            same = options_listed(before) and options_listed(before) == options_listed(after)
            assert not same, (f"{person.name} got two mails in a row with the same options:\n"
                              f"{text_of(before)[:600]}\n----\n{text_of(after)[:600]}")
            if "The same as in my last mail (" in options_block(after):
                again[person.name] = again.get(person.name, 0) + 1
        # every turn mail (a game mail or a step's answer that asks something) says the deadline in words
        steps_told = [m for m in replies if "Your mail was applied; your turn in game" in text_of(m)]
        asking = [m for m in box + steps_told if options_block(m)]
        for m in asking:
            assert DEADLINE.search(text_of(m)), f"no deadline in words in a turn mail to {person.name}"
        # each move told once: every mail that tells "since your last mail" shows a later version
        # (a step's answer, and the answer to a mail applied in part, tell it too)
        parts_told = [m for m in replies if "was applied in part" in text_of(m) and story_of(m)]
        story = [m for m in person.inbox() if (m in box and "invites you to play" not in text_of(m))
                 or m in steps_told or m in parts_told]
        shown = [version_shown(m) for m in story]
        assert all(a < b for a, b in itertools.pairwise(shown)), f"{person.name}'s mails overlap: {shown}"
        figures[person.name] = {"game mails": len(box), "answers": len(replies), "sent": len(sent),
                                "turns": had, "steps": own,
                                "asking": sum(1 for m in box if options_block(m)),
                                "again": again.get(person.name, 0),
                                "pictures": sum(1 for m in box if options_block(m) and has_picture(m)),
                                "shortened": sum(1 for m in box if options_block(m) and has_part_of_picture(m)),
                                # the heaviest turn mail that went without its picture (0: none did)
                                "without": max((wire_size(m) for m in box if options_block(m)
                                                and not has_picture(m)), default=0),
                                "largest": max(wire_size(m) for m in box + replies)}
        turn_mails = [part_sizes(m) for m in box if options_block(m)]
        for part in ("text", "html", "picture", "rest"):  # medians over the turn mails (with a picture)
            sizes = [t[part] for t in turn_mails if part != "picture" or t[part]]
            figures[person.name][part] = int(statistics.median(sizes)) if sizes else 0
    return figures


def print_figures(label: str, figures: dict[str, dict[str, int]]) -> None:
    """One line per player: what ``make mail-volume`` prints (docs/mail.md)."""
    for name, f in figures.items():
        print(f"MAILVOLUME {label}: {name}: {f['game mails']} game mails for {f['turns']} turns, "
              f"{f['answers']} answers to {f['sent']} mails sent ({f['steps']} steps inside own turns), "
              f"{f['pictures']} of {f['asking']} turn mails with a picture ({f['shortened']} of them shortened), "
              f"{f['again']} asked the same again (pointing to the last mail's options), "
              f"largest {f['largest']} bytes"
              + (f" (heaviest turn mail without its picture: {f['without']} bytes)" if f["without"] else "")
              + f"; a turn mail's parts (medians, bytes on the wire): text {f['text']}, HTML {f['html']}, "
              f"picture {f['picture']}, headers {f['rest']}")
