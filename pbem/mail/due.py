"""When a seat's mail is due: which change is something its player needs to hear about now.

Read by :func:`pbem.mail.outbox.queue_game_update` for every seat a change touched; the rules
are docs/mail.md's "When a mail goes". Split from ``outbox.py`` (which writes the rows) so that
the decision reads apart from the writing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Sequence

from engine.core import Event, Option
from pbem.games.models import Game, Move, Player, Seat


def options_signature(options: Sequence[Option]) -> str:
    """A short digest of a list of options; "" for none."""
    if not options:
        return ""
    text = "\n".join(f"{o.code}\t{o.label}" for o in options)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def moved_since_last_mail(game: Game, seat: Seat) -> bool:
    assert seat.index is not None
    return Move.objects.filter(game=game, seat=seat.index, version__gt=seat.last_mailed_version,
                               undone_at__isnull=True).exists()


#: Event kinds that begin a new round or phase for every seat then waited on (Maretta's
#: "Turn 3 begins", "Phase two: ..."); a ``turn`` event with ``data["seat"]`` begins that seat's.
ROUND_EVENTS = ("turn", "phase")


def new_turns(events: Iterable[Event]) -> tuple[set[int], bool]:
    """The seats whose new turn these events announce (an event of kind ``turn`` with
    ``data["seat"]``, as Caravelas and Maracaibo send), and whether a new round or phase began
    for everyone (a ``turn`` or ``phase`` event naming no seat). Why needed beside the pending
    seats: a solo player is waited on before and after Jean's turn, and the last of a face-down
    round is waited on again by the next round; only this tells their new decision began."""
    seats: set[int] = set()
    everyone = False
    for e in events:
        if e.kind not in ROUND_EVENTS:
            continue
        seat = e.data.get("seat")
        if isinstance(seat, int) and not isinstance(seat, bool):
            seats.add(seat)
        else:
            everyone = True
    return seats, everyone


def decision_begins(index: int, *, pending: Collection[int], waited: Collection[int], movers: Collection[int],
                    turns: Collection[int], new_round: bool, options_changed: bool) -> bool:
    """Whether a change gave this seat something new to decide that it has not been told of.

    - the game begins to wait on it (it was not waited on before the change): its turn begins,
      or the game waits on it again after others moved;
    - a new turn of its own, or a new round or phase, began while it stayed waited on (a solo
      player after Jean's turn; the last face-down play of a round);
    - its move made the game wait on others too (it closed a round of simultaneous plays);
    - it stayed waited on, did not move, and what the others did changed its options.

    Not: a step of its own turn (it moved, its turn goes on, nobody else was asked anything);
    that is answered to its own mail (:func:`pbem.mail.outbox.queue_step_answer`), or shown on the page or
    through the API it moved by.
    """
    if index not in pending:
        return False
    if index not in waited or index in turns or new_round:
        return True
    if index in movers:
        return bool(set(pending) - set(waited) - {index})
    return options_changed


def mail_due(game: Game, seat: Seat, options: Sequence[Option], movers: set[int], pending: set[int],
              waited: set[int] | None, turns: set[int], new_round: bool) -> bool:
    """Whether this change is something the player needs to hear about now (docs/mail.md).

    - the first mail of a game and the game-over mail always go;
    - mode "turns" (the default): when a decision begins for them (:func:`decision_begins`),
      never for a step inside a turn; and not when its options are those of their last mail
      and they did not move since (nothing new to decide). When they moved, a new decision
      that offers the same choices is mailed, and the mail points to its last one instead of
      listing them again (:func:`pbem.mail.outbox.options_again`): never two mails in a row with the same options;
    - mode "all": also when a turn ended, theirs or another's (one mail per turn, not per
      step), even when their options did not change: that is what they asked for;
    - mode "digest": nothing else; the daily digest tells it.

    ``waited``: the seats the game waited on before the change; None when the caller does
    not know, then a change of their options counts as a new decision.
    """
    assert seat.player is not None and seat.index is not None
    if game.status == Game.Status.FINISHED or seat.last_mailed_version == 0:
        return True
    mode = seat.player.mail_mode
    if mode == Player.MailMode.DIGEST:
        return False
    if mode == Player.MailMode.EVERY_MOVE and movers - pending:
        return True  # they asked to hear after every turn
    if not options:
        return False
    changed = options_signature(options) != seat.last_mailed_options
    if waited is None:
        return changed or moved_since_last_mail(game, seat)
    if not decision_begins(seat.index, pending=pending, waited=waited, movers=movers, turns=turns,
                           new_round=new_round, options_changed=changed):
        return False
    return changed or moved_since_last_mail(game, seat)
