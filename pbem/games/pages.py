"""Reads for a player's personal pages (their game page and their dashboard).

Like every reader, these start from the seat's own view and its redacted events: the
page shows a player exactly what their mail would, never another seat's secrets.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote

from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

import engine
from engine import IllegalMove, i18n, svg
from engine.core import Event, Option, visible_events
from pbem.games import clocks, links, turnplan, wording
from pbem.games.models import ChatMessage, Game, Move, Seat, Source


@dataclass
class HistoryLine:
    number: int
    who: str
    at: datetime
    source: str
    lines: list[str]
    new: bool = False  # by another seat, since the player's last visit


@dataclass
class ResultRow:
    place: int
    name: str
    score: Any
    winner: bool
    parts: list[str] = field(default_factory=list)  # the breakdown, in the order of SeatPage.result_parts
    heads: list[str] = field(default_factory=list)  # the breakdown's names, for a phone's line under the row

    @property
    def named_parts(self) -> list[tuple[str, str]]:
        """The phone's line under the row: the parts that say something (QA: a cooperative game's
        Jacques, who has no breakdown, read "nations - · income - · cards - ..." eight times over)."""
        return [(h, v) for h, v in zip(self.heads, self.parts) if v != "-"]


#: The smallest text a board may show on a screen, in CSS px (issue 10: readable on a phone).
READABLE_PX = 11.5


@dataclass(frozen=True)
class BoardPart:
    """One picture of the board as a page shows it: never narrower than ``min_width`` CSS px,
    so that its smallest text is READABLE_PX or more (the page pans it where the screen is
    narrower); 0 when any width shows it readable enough."""

    svg: str
    width: float
    min_width: int


def board_part(doc: str) -> BoardPart:
    width, smallest = svg.drawn_width(doc), svg.smallest_text(doc)
    need = math.ceil(width * READABLE_PX / smallest) if smallest and width else 0
    return BoardPart(doc, width, need)


def board_parts(rules: Any, view: dict[str, Any]) -> tuple[list[BoardPart], list[BoardPart]]:
    """The board for a wide screen and for a phone (the engine's phone pictures)."""
    return [board_part(rules.render_svg(view))], [board_part(d) for d in rules.render_phone_svg(view)]


def board_context(wide: list[BoardPart], phone: list[BoardPart], board_id: str = "board") -> dict[str, Any]:
    """What templates/web/_board.html needs. The engine's svg helpers escape every text they
    draw, so the pictures go into the page as they are."""
    def safe(parts: list[BoardPart]) -> list[BoardPart]:
        return [BoardPart(mark_safe(b.svg), b.width, b.min_width) for b in parts]

    return {"boards": safe(wide), "phone_boards": safe(phone), "board_id": board_id,
            "board_pans": any(b.min_width > 400 for b in phone) or any(b.min_width > 960 for b in wide)}


def game_boards(game: Game, seat: int | None, board_id: str) -> dict[str, Any]:
    """The board of a running game as ``seat`` (None: a spectator) sees it, for _board.html."""
    assert game.state is not None
    rules = engine.get(game.rules)
    return board_context(*board_parts(rules, rules.view(game.state, seat)), board_id=board_id)


@dataclass
class SeatPage:
    game: Game
    seat: Seat
    you: str
    headline: str
    my_turn: bool
    deadline: str
    options: list[Option]
    examples: str
    notation_help: str
    state_text: str
    svg: str
    players: list[dict[str, Any]]
    boards: list[BoardPart] = field(default_factory=list)  # for a wide screen
    phone_boards: list[BoardPart] = field(default_factory=list)  # for a phone
    history: list[HistoryLine] = field(default_factory=list)
    chat: list[tuple[str, datetime, str]] = field(default_factory=list)
    results: list[ResultRow] = field(default_factory=list)
    result_parts: list[str] = field(default_factory=list)  # the breakdown's column headings
    reason: str = ""
    team: dict[str, Any] | None = None  # a cooperative game's shared result (won, met, missed)
    finished: bool = False
    decision: str = ""  # what the reader decides now, when the game's view says it
    option_rows: list[OptionRow] = field(default_factory=list)  # the options, a card's ones drawn as cards
    hand: list[dict[str, Any]] = field(default_factory=list)  # my hand's cards (the catalogue's words)
    planned: list[dict[str, Any]] = field(default_factory=list)  # my planning area's cards
    plan: turnplan.TurnPlan | None = None  # a whole turn being planned (None: one move at a time)
    plan_query: str = ""  # the plan's steps as the page's address carries them (plan=a&plan=b)
    plan_back: str = ""  # the same without its last step
    at: str = ""  # a place clicked on the map: only its options are listed
    at_name: str = ""
    newest: int = 0  # the number of the newest move the page shows (the visit's mark)
    new_count: int = 0  # moves by others since the player's last visit
    chat_mark: int = 0  # the newest message shown (page_version's "chat")
    can_plan: bool = False  # a turn of several steps can be planned now (the page offers it)
    can_undo: bool = False  # the player's own last batch may be taken back (the service has the last word)
    score_name: str = ""  # what the score is, when a part of the breakdown is the score itself (Maretta)
    #: a message said now is mailed to the others at once (a running cooperative game: personal.do_say),
    #: not only shown in their next mail
    say_mails_now: bool = False


@dataclass
class OptionRow:
    option: Option
    card: dict[str, Any] | None  # the catalogue's card an option buys, plans or keeps (None: a plain button)
    verb: str = ""  # (in the reader's language)
    kind: str = ""  # buy, plan or keep
    price: str = ""  # what a buy pays, as its option says (the card's printed cost less a discount)


#: The option kinds (engine option_details) whose card the page draws as a card, with the button's verb.
CARD_KINDS = {"buy": gettext_noop("Buy"), "plan": gettext_noop("Plan"), "keep": gettext_noop("Keep")}


def _cards_by_id(rules: Any) -> dict[Any, dict[str, Any]]:
    catalogue = rules.catalogue() or {}
    cards = catalogue.get("cards")
    if not isinstance(cards, list):
        return {}
    return {c["id"]: c for c in cards if isinstance(c, dict) and "id" in c and "name" in c}


def card_face(card: dict[str, Any], game: str = "") -> dict[str, Any]:
    """A catalogue card as the page draws it: name, cost, good, object and effect in words, in the
    reader's language (``game``'s own words said again by the engine: issue 27)."""
    def said(text: str) -> str:
        if not text or not game or i18n.current() == i18n.DEFAULT:
            return text
        return i18n.render(i18n.said_by(game, text))

    cost = card.get("cost") or {}
    words = f"{cost['d']} d" if isinstance(cost, dict) and "d" in cost else ""
    if isinstance(cost, dict) and cost.get("figure"):
        words += " + " + _("a figure")
    if isinstance(cost, dict) and cost.get("assistant_at"):
        words += " + " + _("an assistant at %(place)s") % {"place": cost["assistant_at"]}
    effects = "; ".join(said(str(e.get("text", ""))) for e in card.get("effects", []) if isinstance(e, dict))
    return {"id": card["id"], "name": said(str(card["name"])), "cost": words, "good": said(str(card.get("good", ""))),
            "object": said(str(card.get("object", ""))), "vp": card.get("vp"), "effect": effects or _("no effect")}


def option_rows(rules: Any, state: Any, seat: int, options: list[Option]) -> list[OptionRow]:
    """Each option, with the card it buys, plans or keeps (from the engine's option details)."""
    cards = _cards_by_id(rules)
    rows = []
    for o in options:
        details = rules.option_details(state, seat, o) if cards else None
        kind = (details or {}).get("kind", "")
        card = cards.get((details or {}).get("card")) if kind in CARD_KINDS else None
        rows.append(OptionRow(o, card_face(card, rules.name) if card else None, _(CARD_KINDS.get(kind, "")) if kind
                              in CARD_KINDS else "", kind, _price(details) if kind == "buy" else ""))
    return rows


def _price(details: dict[str, Any] | None) -> str:
    """What a buy option pays, in words ("" when its details do not say).

    Why not the card's cost: a discount (a village action's, a ship area's) makes the price less than
    the cost printed on the card, and the button said the printed one while the option, its mail and
    the move paid less (play-test: 'Buy Silent Gravedigger (5 d)' for an option of 4 d)."""
    cost = (details or {}).get("cost")
    if not isinstance(cost, dict) or "d" not in cost:
        return ""
    return f"{cost['d']} d" + (" + " + _("a figure") if cost.get("fig") else "")


def map_links(rules: Any, state: Any, seat: int, options: list[Option],
              plan_query: str | None = None) -> tuple[dict[str, str], dict[str, str]]:
    """The places the board draws as links, ringed: every place an option names (Maracaibo's sail
    targets, a combat's annex or displace, a Caravelas move's destination), with each link's title.

    A place of one option opens the page with it picked (``?play=code``), whose button then sends
    the same move as the option's; a place of several (Caravelas: which caravela, which card) opens
    the page with the options at that place (``?at=place``). While a turn is planned
    (``plan_query``), a click adds that option to the plan, or lists the place's options to add."""
    by_place: dict[str, list[Option]] = {}
    for o in options:
        details = rules.option_details(state, seat, o)
        if details and isinstance(details.get("place"), str):
            by_place.setdefault(details["place"], []).append(o)
    links: dict[str, str] = {}
    titles: dict[str, str] = {}
    for place, opts in by_place.items():
        if plan_query is None:
            links[place] = (f"./?play={quote(opts[0].code)}#chosen" if len(opts) == 1
                            else f"./?at={quote(place)}#options")
        else:
            before = f"{plan_query}&" if plan_query else ""
            links[place] = (f"./?{before}plan={quote(opts[0].code)}#plan" if len(opts) == 1
                            else f"./?plan=&{before}at={quote(place)}#options")
        titles[place] = opts[0].label if len(opts) == 1 else f"{len(opts)} options here"
    return links, titles


def options_at(rules: Any, state: Any, seat: int, rows: list[OptionRow], place: str) -> list[OptionRow]:
    """The option rows that name ``place`` (a click on the map's place)."""
    return [r for r in rows if (rules.option_details(state, seat, r.option) or {}).get("place") == place]


def place_name(rules: Any, place: str) -> str:
    for p in (rules.catalogue() or {}).get("places") or []:
        if isinstance(p, dict) and p.get("id") == place:
            return str(p.get("name") or place)
    return place


def plan_query(codes: list[str]) -> str:
    return "&".join(f"plan={quote(c)}" for c in codes)


def my_cards(rules: Any, view: dict[str, Any], seat: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """My hand and my planning area, drawn from the catalogue (games whose view has them: Maracaibo)."""
    cards = _cards_by_id(rules)
    me, players = view.get("me"), view.get("p")
    hand = me.get("hand") if isinstance(me, dict) else None
    mine = players[seat] if isinstance(players, list) and seat < len(players) else None
    plan = mine.get("plan") if isinstance(mine, dict) else None
    setup = me.get("setup") if isinstance(me, dict) else None
    if not plan and isinstance(setup, dict) and setup.get("plan") is not None:  # the card planned at setup
        plan = [setup["plan"]]

    def faces(ids: Any) -> list[dict[str, Any]]:
        return [card_face(cards[i], rules.name) for i in ids if i in cards] if isinstance(ids, list) else []
    return (faces(hand), faces(plan)) if cards else ([], [])


def _names(game: Game) -> list[str]:
    return [str(n) for n in (game.state or {}).get("players", [])]


def seat_page(seat: Seat, *, plan: list[str] | None = None, seen: int | None = None, at: str = "") -> SeatPage:
    """Everything the seat's personal page shows; ``plan``: the steps of a turn being planned
    (``[]``: planning begins), ``seen``: the newest move number at the player's last visit, ``at``:
    a place clicked on the map (only its options are listed)."""
    game = Game.objects.get(pk=seat.game_id)
    rules = engine.get(game.rules)
    assert game.state is not None and seat.index is not None
    state = game.state
    names = _names(game)
    you = rules.seat_name(state, seat.index)
    finished = game.status == Game.Status.FINISHED
    running = game.status == Game.Status.RUNNING
    # (in the game's presented order, as the mail lists them: Maretta's as the hand is shown)
    options = rules.presented(state, seat.index, rules.options(state, seat.index)) if running else []
    pending = rules.pending(state) if running else []
    others = [rules.seat_name(state, s) for s in pending if s != seat.index]
    team = (game.outcome or {}).get("team") if finished else None
    if team:  # a cooperative game: the table's shared result, not a winner
        headline = _("The table won together.") if team.get("won") else _("The table lost together.")
    elif finished:
        winners = [names[int(s)] for s in (game.outcome or {}).get("winners", []) if int(s) < len(names)]
        headline = (ngettext("Winner: %(names)s", "Winners: %(names)s", len(winners)) % {"names": ", ".join(winners)}
                    if winners else _("Game over"))
    elif game.status == Game.Status.PAUSED:
        headline = _("The game is paused by a moderator")
    elif options:
        headline = (_("Your turn (also waiting for %(names)s)") % {"names": ", ".join(others)} if others
                    else _("Your turn"))
    else:
        headline = _("Waiting for %(names)s") % {"names": ", ".join(others) or _("nobody")}
    # a resignation is told on the page too (issue 21), beside the player's name
    resigned = set(Seat.objects.filter(game=game, status=Seat.Status.RESIGNED).values_list("index", flat=True))
    view = rules.view(state, seat.index)
    planned = turnplan.plan_turn(rules, state, seat.index, plan) if plan is not None and options else None
    query = plan_query(planned.codes) if planned is not None else None
    now = planned.state if planned is not None and planned.state is not None else state
    targets, titles = map_links(rules, now, seat.index, planned.options if planned else options, query)
    shown = {**view, "links": targets, "link_titles": titles} if targets else view
    boards, phone_boards = board_parts(rules, shown)
    page = SeatPage(
        game=game, seat=seat, you=you, headline=headline, my_turn=bool(options),
        deadline="" if not running else wording.deadline_words(game.deadline_at, timezone.now()),
        options=options, examples=wording.notation_examples(options),
        notation_help=i18n.translate(rules.notation_help),  # (its examples in the reader's notation, #27)
        decision=_decision(view) if options else "",
        state_text=rules.render_text(view), svg=boards[0].svg, boards=boards, phone_boards=phone_boards,
        finished=finished,
        players=[{"name": n, "you": i == seat.index, "to_move": i in pending, "resigned": i in resigned}
                 for i, n in enumerate(names)],
    )
    bank = clocks.bank_words(game, seat, timezone.now()) if running else None
    if bank is not None:  # a game with time banks: the player's own clock is their deadline
        page.deadline = bank
    if planned is not None:
        page.plan, page.plan_query, page.plan_back = planned, query or "", plan_query(planned.codes[:-1])
        page.option_rows = option_rows(rules, planned.state, seat.index, planned.options) if planned.options else []
    else:
        page.option_rows = option_rows(rules, state, seat.index, options)
    if at and page.option_rows:
        chosen = options_at(rules, now, seat.index, page.option_rows, at)
        if chosen:
            page.option_rows, page.at, page.at_name = chosen, at, place_name(rules, at)
    page.hand, page.planned = my_cards(rules, view, seat.index)
    page.history = history(game, seat.index, you, seen)
    page.newest = max((h.number for h in page.history), default=0)
    page.new_count = sum(1 for h in page.history if h.new)
    page.can_undo = running and can_undo(game, seat.index)
    page.can_plan = planned is None and bool(options) and turnplan.worth_planning(rules, state, seat.index, options)
    said = list(ChatMessage.objects.filter(game=game).order_by("pk"))
    page.chat = [(names[m.seat] if m.seat < len(names) else "?", m.created_at, m.text) for m in said]
    page.chat_mark = said[-1].pk if said else 0
    page.say_mails_now = running and rules.cooperative(state)
    if finished:
        page.results, page.result_parts = results(game.outcome or {}, names)
        # a part of the breakdown that is the score itself (Maretta's "space reached") is not a
        # second score column: it names the score instead
        same = [i for i in range(len(page.result_parts)) if all(r.parts[i] == r.score for r in page.results)]
        if same and page.results:
            page.score_name = page.result_parts[same[0]]
            page.result_parts = [h for i, h in enumerate(page.result_parts) if i not in same]
            for r in page.results:
                r.parts = [v for i, v in enumerate(r.parts) if i not in same]
        for r in page.results:
            r.heads = page.result_parts
        page.reason = i18n.translate(str((game.outcome or {}).get("reason") or ""))
        page.team = (game.outcome or {}).get("team")
    return page


def _decision(view: dict[str, Any]) -> str:
    """The current decision in the view's own words (Maretta's view names it), as a sentence."""
    said = view.get("decision")
    if not isinstance(said, str) or not said.strip():
        return ""
    said = said.strip().rstrip(".")
    names = {str(n) for n in view.get("players") or []}
    if said.split(" ", 1)[0] not in names:  # keep a name's capital: "now Ana puts ..."
        said = said[:1].lower() + said[1:]
    return _("now %(decision)s. ") % {"decision": said}


def results(outcome: dict[str, Any], names: list[str]) -> tuple[list[ResultRow], list[str]]:
    """The results table of a finished game, best first: place, name, each part of the
    score (the engine's breakdown, when it has one) and the score."""
    scores = outcome.get("scores") or {}
    breakdown: dict[str, dict[str, Any]] = outcome.get("breakdown") or {}
    heads: list[str] = []
    for parts in breakdown.values():
        heads += [k for k in parts if k not in heads]
    best = {int(s) for s in outcome.get("winners") or []}
    rows = []
    # a solo game's automa (no seat): first when it beat the seats (nobody won), else last; a cooperative
    # game's (Jacques) is no rival of one seat but the table's opponent: never its winner, after the table
    # (QA, #22: "Jacques (automa) (winner)" on top of a lost cooperative game)
    automa: dict[str, Any] = outcome.get("automa") or {}
    shift = 1 if automa and not best and not outcome.get("team") else 0
    for place, group in enumerate(outcome.get("ranking") or [], start=1):
        for s in group:
            i = int(s)
            parts = breakdown.get(str(i), {})
            rows.append(ResultRow(place + shift, names[i] if i < len(names) else f"player {i + 1}",
                                  wording.number(scores.get(str(i), "-")), i in best,
                                  [wording.number(parts.get(h, "-")) for h in heads]))
    for name, score in automa.items():
        parts = breakdown.get(name, {})
        rows.append(ResultRow(1 if shift else len(rows) + 1, f"{name} (automa)", wording.number(score), bool(shift),
                              [wording.number(parts.get(h, "-")) for h in heads]))
    rows.sort(key=lambda r: r.place)
    # the heads are the engine's English words, stored with the outcome: said in the reader's language
    return rows, [i18n.translate(h) for h in heads]


def history(game: Game, seat: int, you: str, seen: int | None = None) -> list[HistoryLine]:
    """The whole move log as this seat may see it, newest first, told to them; the others'
    moves after move number ``seen`` (the player's last visit) marked new."""
    names = _names(game)
    out = []
    for row in Move.objects.filter(game=game, undone_at__isnull=True).order_by("-number"):
        events = visible_events([Event.from_dict(i18n.told(e)) for e in row.events], seat)
        who = "You" if row.seat == seat else (names[row.seat] if row.seat < len(names) else "?")
        out.append(HistoryLine(row.number, who, row.created_at, row.get_source_display(),
                               wording.story(events, seat, you),
                               new=seen is not None and row.number > seen and row.seat != seat))
    return out


#: Sources of the moves a player may take back (pbem.games.services.OWN_SOURCES).
OWN_SOURCES = (Source.MAIL, Source.API, Source.WEB)


def can_undo(game: Game, seat: int) -> bool:
    """Whether the page offers to take back the seat's last move: the game's newest batch is the
    seat's own, sent by them, and showed nothing hidden. The undo service checks again (and also
    refuses a move that used the random numbers) and says why when it refuses."""
    last = Move.objects.filter(game=game, undone_at__isnull=True).order_by("-number").first()
    if last is None:
        return False
    batch = list(Move.objects.filter(game=game, undone_at__isnull=True, version=last.version))
    return all(r.seat == seat and r.source in OWN_SOURCES and not any(e.get("reveals") for e in r.events)
               for r in batch)


def needs_confirm(game: Game, seat: int, code: str) -> bool:
    """Whether a move deserves a second click: it ends the turn or shows something hidden.

    Why on a copy: the move is tried on a throwaway copy of the state; only this yes/no
    leaves this function (never an event or a state computed from it), and it depends on
    what kind of move it is and on public facts (whose turn it is), not on hidden cards.
    """
    if game.state is None:
        return False
    rules = engine.get(game.rules)
    move = next((o.move for o in rules.options(game.state, seat) if o.code == code), None)
    if move is None:
        return False
    trial = copy.deepcopy(game.state)
    try:
        events = rules.apply(trial, seat, move)
    except IllegalMove:
        return False
    return any(e.reveals for e in events) or seat not in rules.pending(trial)


@dataclass
class DashboardRow:
    game: Game
    url: str
    waiting_for_me: bool
    status: str
    deadline: str


def dashboard(seat: Seat) -> list[DashboardRow]:
    """The games of the seat's player, the ones waiting for them first."""
    player = seat.player
    assert player is not None
    now = timezone.now()
    rows = []
    for s in Seat.objects.filter(player=player, index__isnull=False).select_related("game", "player"):
        game = s.game
        mine = False
        status = str(game.get_status_display())
        if game.status == Game.Status.RUNNING and game.state is not None:
            rules = engine.get(game.rules)
            mine = s.index in rules.pending(game.state)
            status = _("your turn") if mine else _("waiting for %(names)s") % {"names": ", ".join(
                rules.seat_name(game.state, p) for p in rules.pending(game.state))}
        rows.append(DashboardRow(game, links.seat_page_url(s), mine, status,
                                 wording.deadline_words(game.deadline_at, now) if mine else ""))
    order = {Game.Status.RUNNING: 0, Game.Status.PAUSED: 1, Game.Status.OPEN: 2}
    rows.sort(key=lambda r: (not r.waiting_for_me, order.get(Game.Status(r.game.status), 3), -r.game.pk))
    return rows


def page_version(seat: Seat) -> dict[str, int]:
    """A fingerprint of what the seat's page shows: the game's version and the newest message."""
    game = Game.objects.only("version").get(pk=seat.game_id)
    last = ChatMessage.objects.filter(game_id=seat.game_id).order_by("-pk").values_list("pk", flat=True).first()
    return {"version": game.version, "chat": last or 0}
