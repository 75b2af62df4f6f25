"""Account commands sent to the general address (``pbem@<domain>``), one a line.

``help``, ``games``, ``new GAME with ADDRESS... [key=value ...]``, ``join [#N]``,
``decline [#N]``, ``resign #N``, ``name NEW NAME``, ``mode turn|all|digest`` (also
spelled ``mail turns|all|digest``). Each line is independent (one failing line does
not undo the others) and the sender gets one mail with the result of every
line, in the shape of Mailman's command results.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

import engine
from engine import notation
from pbem.games import language, moderation, moderators
from pbem.games import services as game_services
from pbem.games.models import Game, Player, Seat, said_game_title
from pbem.games.services import ServiceError
from pbem.mail import absence_commands, campaign_commands

#: Keys of ``new`` that belong to the game, not to the rules' option schema.
SERVICE_KEYS = {"title", "deadline", "open", "anysender", "any_sender", "bank", "increment"}


@dataclass
class Result:
    line: str
    ok: bool
    text: str


PORTUGUESE_HELP = gettext_noop(
    "In Portuguese too: ajuda, jogos, novo JOGO com ENDEREÇO..., entrar [#N], recusar [#N], desistir #N,\n"
    "prolongar #N, férias até DATA (férias fim), reserva [#N] (reserva fim), nome NOVO NOME,\n"
    "modo turno|todas|resumo, idioma pt|en, campanha, revanche.")


def help_text(general: str) -> str:
    games = []
    for name in engine.names():
        try:
            rules = engine.get(name)
        except Exception:  # noqa: BLE001 - a game being written must not break help
            continue
        # a choice's values too (QA: nothing in help said that mode=78, 79, 74 or 193 plays the Uprising)
        opts = ", ".join(f"{s.name}={s.default}" + (f" ({'|'.join(str(c) for c in s.choices)})" if s.choices else "")
                         for s in rules.option_specs if not s.internal) or _("no options")
        games.append("  " + _("%(name)s: %(title)s, %(min)s-%(max)s players (%(options)s)") % {
            "name": name, "title": said_game_title(rules.title, name), "min": rules.min_players,
            "max": rules.max_players, "options": opts})
    listing = "\n".join(games) or _("  (none installed)")
    return (
        _("Commands for %(general)s, one a line:") % {"general": general} + "\n\n" + _(
        "  help                      this text\n"
        "  games                     your games, and whose turn it is in each\n"
        "  new GAME [with ADDRESS...] [key=value ...]\n"
        "                            a new game; you take the first seat and the addresses get\n"
        "                            an invitation (none: a solo game, e.g. new maracaibo, against\n"
        "                            its automa). Keys: the game's options, and title=\"...\",\n"
        "                            deadline=HOURS, open=N (seats anyone may join), anysender=yes,\n"
        "                            bank=HOURS increment=HOURS (a time bank per player)\n"
        "  join [#N]                 accept your invitation (or take an open seat of game N)\n"
        "  decline [#N]              decline your invitation to game N\n"
        "  resign #N                 give up game N (your seat then plays the game's default move)\n"
        "  extend #N                 more time for your turn in game N (as often as the game allows)\n"
        "  vacation until DATE       your deadlines wait until then (vacation off: back early)\n"
        "  standby [#N]              volunteer to replace an absent player (in game N, or any game;\n"
        "                            standby off: no more)\n") +
        _(campaign_commands.HELP) + _(
        "  name NEW NAME             how the other players see you (no digits)\n"
        "  mode turn|all|digest      which game mails you get: only when it is your turn, after\n"
        "                            every move, or one daily digest per game (also: mail turns)\n"
        "  language pt|en            the language of your mails and pages\n\n"
        "Moves are not sent here: reply to the last mail of the game, which goes to your own\n"
        "secret address for that game. A reply holding only the word undo takes back your\n"
        "last move, while nobody has moved since and it showed nothing new (no card drawn,\n"
        "nothing turned over, no die rolled).\n\n") +
        _(PORTUGUESE_HELP) + "\n\n" +
        _("Games:") + f"\n{listing}\n\n" +
        _("Example:") + "\n  new maretta with bruno@example.org carla@example.org\n"
    )


def _game_number(args: Sequence[str], verb: str) -> int | None:
    if not args:
        return None
    n = notation.number(args[0])
    if n is None or len(args) > 1:
        raise ServiceError(_("%(verb)s takes a game number, like: %(verb)s #12") % {"verb": verb})
    return n


def _named(game: Game) -> str:
    """A game in a list: its number and title, then the game it plays only when the title does not say it
    already (QA, #20: "#9 Maracaibo (substitute content) (Maracaibo (substitute content))")."""
    rules = said_game_title(engine.get(game.rules).title, game.rules)
    title = game.said_title
    # (the game's name without its note: "Maracaibo" of "Maracaibo (substitute content)")
    if title.startswith(rules.split(" (")[0]):
        return f"#{game.pk} {title}"
    return f"#{game.pk} {title} ({rules})"


def _describe(game: Game, seat: Seat) -> str:
    head = _named(game)
    if game.status == Game.Status.OPEN:
        joined = game.seats.filter(status=Seat.Status.JOINED).count()
        total = game.seats.count()
        if seat.status == Seat.Status.INVITED:
            return _("%(head)s: you are invited (%(joined)s of %(total)s seats taken); "
                     "reply 'join #%(n)s' to play or 'decline #%(n)s'") % {
                "head": head, "joined": joined, "total": total, "n": game.pk}
        return _("%(head)s: waiting for players (%(joined)s of %(total)s seats taken)") % {
            "head": head, "joined": joined, "total": total}
    if game.status == Game.Status.FINISHED:
        winners = (game.outcome or {}).get("winners") or []
        names = [str(game.state["players"][w]) for w in winners] if game.state else []
        if names:
            return _("%(head)s: finished, won by %(names)s") % {"head": head, "names": ", ".join(names)}
        return _("%(head)s: finished") % {"head": head}
    if game.status == Game.Status.ABORTED:
        return _("%(head)s: aborted") % {"head": head}
    if seat.status == Seat.Status.RESIGNED:
        return _("%(head)s: you resigned") % {"head": head}
    rules = engine.get(game.rules)
    assert game.state is not None
    pending = rules.pending(game.state)
    if game.status == Game.Status.PAUSED:
        head = _("%(head)s (paused)") % {"head": head}
    if seat.index in pending:
        return _("%(head)s: your turn") % {"head": head}
    waiting = ", ".join(rules.seat_name(game.state, s) for s in pending) or _("nobody")
    return _("%(head)s: waiting for %(names)s") % {"head": head, "names": waiting}


def cmd_games(sender: str, player: Player | None) -> str:
    """The sender's games; with no account yet, the invitations waiting for their address."""
    if player is None:
        # Why: an invited address has no account until it answers (Seat.invited_email), yet its
        # invitations are its games to come.
        mine = Q(player__isnull=True, invited_email=game_services.normalize_email(sender),
                 status=Seat.Status.INVITED, game__status=Game.Status.OPEN)
    else:
        mine = game_services.invitation_for(player)
    seats = (Seat.objects.select_related("game").filter(mine)
             .exclude(status__in=[Seat.Status.DECLINED, Seat.Status.LEFT]).order_by("-game_id"))
    lines = [_describe(s.game, s) for s in seats]
    if lines:
        return _("Your games:") + "\n" + "\n".join(f"  {line}" for line in lines)
    if player is None:
        return _("You have no games yet. Start one with: new GAME with ADDRESS...")
    return _("You have no games yet.")


def cmd_new(sender: str, args: Sequence[str], mail_name: str = "") -> str:
    if not args:
        raise ServiceError(_("new needs a game name, like: new maretta with bruno@example.org"))
    rules_name, rest = args[0], list(args[1:])
    invite: list[str] = []
    options: dict[str, str] = {}
    service: dict[str, str] = {}
    for word in rest:
        if word.lower() in ("with", "and", ",", "com", "e"):
            continue
        if "=" in word:
            key, _eq, value = word.partition("=")
            key = key.strip().lower()
            (service if key in SERVICE_KEYS else options)[key] = value.strip()
        elif "@" in word:
            invite.append(word.strip(",;<>"))
        else:
            raise ServiceError(_("%(word)s is neither an address nor key=value") % {"word": repr(word)})
    try:
        open_seats = int(service.get("open", "0"))
        deadline = int(service.get("deadline", "72"))
        bank = int(service["bank"]) if service.get("bank") else None
        increment = int(service.get("increment") or "0")
    except ValueError:
        raise ServiceError(_("open, deadline, bank and increment take whole numbers")) from None
    any_sender = (service.get("anysender") or service.get("any_sender") or "no").lower() in ("yes", "true", "1", "on")
    creator = game_services.do_get_or_create_player(sender, mail_name)
    game = game_services.do_create_game(creator, rules_name, options=options, invite=invite, open_seats=open_seats,
                                        title=service.get("title", ""), deadline_hours=deadline,
                                        allow_any_sender=any_sender, time_bank_hours=bank,
                                        time_bank_increment_hours=increment)
    if game.status == Game.Status.RUNNING:
        return _("Game #%(n)s (%(title)s) is created and started; your first mail of it follows.") % {
            "n": game.pk, "title": game.said_title}
    said = {"n": game.pk, "title": game.said_title, "who": ", ".join(invite) if invite else _("nobody"),
            "open": open_seats}
    if open_seats:
        return ngettext(
            "Game #%(n)s (%(title)s) is created. Invitations went to %(who)s and %(open)s open seat anyone may "
            "join with 'join #%(n)s'. It starts when every seat is taken.",
            "Game #%(n)s (%(title)s) is created. Invitations went to %(who)s and %(open)s open seats anyone may "
            "join with 'join #%(n)s'. It starts when every seat is taken.", open_seats) % said
    return _("Game #%(n)s (%(title)s) is created. Invitations went to %(who)s. It starts when every seat is "
             "taken.") % said


def _pending_invitation(sender: str, player: Player | None, verb: str) -> int:
    """The one open game inviting ``sender``: by account, or by address while it has none."""
    mine = Q(player__isnull=True, invited_email=sender)
    if player is not None:
        mine |= Q(player=player)
    ids = list(Seat.objects.filter(mine, status=Seat.Status.INVITED, game__status=Game.Status.OPEN)
               .values_list("game_id", flat=True))
    if not ids:
        raise ServiceError(_("you have no pending invitation; %(verb)s which game? like: %(verb)s #12") % {
            "verb": verb})
    if len(ids) > 1:
        listing = ", ".join(f"#{i}" for i in sorted(ids))
        raise ServiceError(_("you are invited to several games (%(listing)s); say which: %(verb)s #%(n)s") % {
            "listing": listing, "verb": verb, "n": min(ids)})
    return ids[0]


def cmd_join(sender: str, player: Player | None, game_id: int | None, mail_name: str = "") -> str:
    if game_id is None:
        game_id = _pending_invitation(sender, player, "join")
    player = player or game_services.do_get_or_create_player(sender, mail_name)
    was_running = Game.objects.filter(pk=game_id, status=Game.Status.RUNNING).exists()
    seat = moderation.do_join(game_id, player)
    game = Game.objects.get(pk=game_id)
    if was_running:
        return _("You took over seat %(seat)s of game #%(n)s (%(title)s), which was open for a replacement. "
                 "Your welcome mail, with the game so far and your options, is on its way.") % {
            "seat": (seat.index or 0) + 1, "n": game_id, "title": game.said_title}
    if game.status == Game.Status.RUNNING:
        return _("You joined game #%(n)s (%(title)s). Every seat is taken: the game starts now.") % {
            "n": game_id, "title": game.said_title}
    free = game.seats.exclude(status=Seat.Status.JOINED).count()
    return ngettext("You joined game #%(n)s (%(title)s). It starts when the last seat is taken (%(free)s left).",
                    "You joined game #%(n)s (%(title)s). It starts when the last seats are taken (%(free)s left).",
                    free) % {"n": game_id, "title": game.said_title, "free": free}


def cmd_decline(sender: str, player: Player | None, game_id: int | None, mail_name: str = "") -> str:
    if game_id is None:
        game_id = _pending_invitation(sender, player, "decline")
    if player is None:
        # Why an account only now: the invited address answered (issue 11); a stranger gets none.
        if not Seat.objects.filter(game_id=game_id, player__isnull=True, invited_email=sender,
                                   status=Seat.Status.INVITED).exists():
            raise ServiceError(_("you have no invitation to game #%(n)s") % {"n": game_id})
        player = game_services.do_get_or_create_player(sender, mail_name)
    game_services.do_decline_game(game_id, player)
    return _("You declined game #%(n)s. Its seat is open for someone else.") % {"n": game_id}


def cmd_resign(player: Player | None, game_id: int | None) -> str:
    if game_id is None:
        raise ServiceError(_("resign needs the game number, like: resign #12"))
    if player is None:
        raise ServiceError(_("you do not play in game #%(n)s") % {"n": game_id})
    game_services.do_resign(game_id, player)
    return _("You resigned from game #%(n)s. Your seat now plays the game's default move (its least committal "
             "choice) each turn.") % {"n": game_id}


#: What ``mode``/``mail`` take, folded and without spaces -> the mail mode.
MAIL_MODE_WORDS = {
    "turn": Player.MailMode.MY_TURN, "turns": Player.MailMode.MY_TURN, "myturn": Player.MailMode.MY_TURN,
    "all": Player.MailMode.EVERY_MOVE, "every": Player.MailMode.EVERY_MOVE,
    "everymove": Player.MailMode.EVERY_MOVE, "moves": Player.MailMode.EVERY_MOVE,
    "digest": Player.MailMode.DIGEST, "daily": Player.MailMode.DIGEST, "dailydigest": Player.MailMode.DIGEST,
    # in Portuguese (issue 27)
    "turno": Player.MailMode.MY_TURN, "vez": Player.MailMode.MY_TURN, "minhavez": Player.MailMode.MY_TURN,
    "todas": Player.MailMode.EVERY_MOVE, "tudo": Player.MailMode.EVERY_MOVE,
    "cadajogada": Player.MailMode.EVERY_MOVE, "resumo": Player.MailMode.DIGEST, "diario": Player.MailMode.DIGEST,
}
#: Verbs that set a preference; a seat address takes them too (see pbem.mail.services).
PREFERENCE_VERBS = ("name", "mode", "mail", "language", "lingua", "idioma", "nome", "modo")
#: What ``language`` is also spelled (folded: Portuguese "língua", "idioma").
LANGUAGE_VERBS = ("language", "lingua", "idioma")


#: the account commands' words in Portuguese (issue 27), folded -> the English verb they stand for (the
#: absence commands' own: ``prolongar``, ``férias``, in absence_commands.VERBS; ``idioma``/``língua`` above)
PORTUGUESE_VERBS = {"ajuda": "help", "jogos": "games", "partidas": "games", "novo": "new", "nova": "new",
                    "entrar": "join", "aceitar": "join", "recusar": "decline", "desistir": "resign",
                    "reserva": "standby", "nome": "name", "modo": "mode", "campanha": "campaign",
                    "campanhas": "campaigns", "revanche": "rematch"}


def _mode_text(mode: str) -> str:
    texts: dict[str, str] = {
        Player.MailMode.MY_TURN: _("a mail when it is your turn (and when a game ends)"),
        Player.MailMode.EVERY_MOVE: _("a mail after every move"),
        Player.MailMode.DIGEST: _("one digest mail a day per game, and the mails that need you "
                                  "(invitations, answers, reminders, the end)"),
    }
    return texts.get(mode, mode)


def cmd_name(sender: str, player: Player | None, args: Sequence[str], mail_name: str) -> str:
    player = player or game_services.do_get_or_create_player(sender, mail_name)
    if not args:
        return _("Your name is %(name)s. To change it: name Anna Silva") % {"name": player.display_name}
    game_services.do_update_preferences(player, display_name=" ".join(args))
    return _("Your name is now %(name)s. Your games show it from now on (where another player of a game has the "
             "same name, a letter is added: Anna B).") % {"name": player.display_name}


def cmd_mode(sender: str, player: Player | None, args: Sequence[str], verb: str, mail_name: str) -> str:
    player = player or game_services.do_get_or_create_player(sender, mail_name)
    if not args:
        return _("Your mail mode is %(mode)s: %(what)s. Change it with: %(verb)s digest") % {
            "mode": player.mail_mode, "what": _mode_text(player.mail_mode), "verb": verb}
    mode = MAIL_MODE_WORDS.get("".join(notation.fold(a) for a in args))
    if mode is None:
        raise ServiceError(_("%(verb)s takes turn, all or digest, like: %(verb)s digest") % {"verb": verb})
    game_services.do_update_preferences(player, mail_mode=mode)
    return _("Your mail mode is now %(mode)s: %(what)s.") % {"mode": mode, "what": _mode_text(mode)}


def cmd_language(sender: str, player: Player | None, args: Sequence[str], mail_name: str) -> str:
    """``language pt``: the language of the player's mails and pages from now on (issue 27)."""
    player = player or game_services.do_get_or_create_player(sender, mail_name)
    choices = ", ".join(language.codes())
    if not args:
        return _("Your language is %(code)s. Change it with: language pt (one of %(choices)s)") % {
            "code": language.of(player), "choices": choices}
    code = language.normalize(" ".join(args))
    if code is None:
        raise ServiceError(_("%(word)s is not a language here; say one of %(choices)s, like: language pt") % {
            "word": " ".join(args), "choices": choices})
    player.language = code
    player.save(update_fields=["language"])
    # Why in the new language: the answer is the first text they read in it.
    translation.activate(code)
    return _("Your language is now %(code)s: your mails and pages are written in it from now on.") % {
        "code": code}


def is_preference_line(line: str) -> bool:
    """A line that sets a preference (``name ...``, ``mode ...``, ``mail ...``)."""
    words = line.split()
    return bool(words) and notation.fold(words[0]) in PREFERENCE_VERBS


def run_line(sender: str, line: str, general: str, mail_name: str = "") -> Result:
    """One account command for the player writing from ``sender`` (``mail_name``: their From name)."""
    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    if not words:
        return Result(line, False, _("empty line"))
    verb = notation.fold(words[0])
    if verb in PORTUGUESE_VERBS:  # ("nova campanha": "new campaign", for the campaign commands too)
        verb = PORTUGUESE_VERBS[verb]
        words = [verb, *(PORTUGUESE_VERBS.get(notation.fold(w), w) if i == 0 else w
                         for i, w in enumerate(words[1:]))]
    args = words[1:]
    player = Player.objects.filter(email=game_services.normalize_email(sender)).first()
    try:
        if verb in ("help", "?"):
            return Result(line, True, help_text(general))
        if verb in ("games", "list", "status"):
            return Result(line, True, cmd_games(sender, player))
        if campaign_commands.is_campaign_line(words):
            return Result(line, True, campaign_commands.run(sender, player, words, mail_name))
        if verb == "new":
            return Result(line, True, cmd_new(sender, args, mail_name))
        if verb == "join":
            return Result(line, True, cmd_join(sender, player, _game_number(args, "join"), mail_name))
        if verb == "name":
            return Result(line, True, cmd_name(sender, player, args, mail_name))
        if verb in LANGUAGE_VERBS:
            return Result(line, True, cmd_language(sender, player, args, mail_name))
        if verb in ("mode", "mail"):
            return Result(line, True, cmd_mode(sender, player, args, verb, mail_name))
        if verb == "decline":
            return Result(line, True, cmd_decline(sender, player, _game_number(args, "decline"), mail_name))
        if verb == "resign":
            return Result(line, True, cmd_resign(player, _game_number(args, "resign")))
        if verb == "standby":
            if args and notation.fold(args[0]) in ("off", "stop", "none", "fim", "parar", "nao"):
                return Result(line, True, moderators.do_volunteer(player, None, on=False) if player else
                              _("You are on no standby list."))
            volunteer = player or game_services.do_get_or_create_player(sender, mail_name)
            return Result(line, True, moderators.do_volunteer(volunteer, _game_number(args, "standby")))
        if absence_commands.is_absence_line(line):
            if player is None:
                return Result(line, False, _("you play no game here yet, so there is no deadline to hold"))
            answer = absence_commands.run(line, player, None)
            return Result(line, answer.ok, answer.text)
    except ServiceError as exc:
        return Result(line, False, exc.message)
    return Result(line, False, _("%(word)s is not a command here (help, games, new, join, decline, resign, name, "
                                 "mode, vacation, extend, campaign, rematch; in Portuguese: ajuda, jogos, novo, "
                                 "entrar, recusar, desistir, nome, modo, férias, prolongar, campanha, revanche)")
                  % {"word": repr(words[0])})
