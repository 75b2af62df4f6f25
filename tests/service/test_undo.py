"""Undo: a player takes back their own last batch, never across a reveal, a draw or a die roll."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

import engine
import engine.registry
from engine.core import Event, Move, State
from engine.rng import Rng
from engine.testing import replay
from pbem.games import moderation, selectors, services
from pbem.games.models import AuditEntry, Game, OutboundMessage, Player, Source
from pbem.games.models import Move as MoveRow
from pbem.games.services import Command
from tests.factories import mail_text, play_first_options, seat_of, start_game
from tests.fakegame import BlindBids


def _bid(game: Game, seat: int, which: int = 0) -> Command:
    assert game.state is not None
    return Command(code=f"c{game.state['hands'][seat][which]}")


def _move(game: Game, player: Player, which: int = 0) -> Game:
    game.refresh_from_db()
    services.do_submit_moves(game.pk, player, [_bid(game, seat_of(game, player), which)], source=Source.API)
    game.refresh_from_db()
    return game


def _replayed(game: Game) -> State:
    """Setup plus the live log, through the engine's own replay: what the state must be."""
    assert game.state is not None
    rows = selectors.move_log(game)
    state = replay(engine.get(game.rules), game.state["players"], game.options, game.seed,
                   [(r.seat, r.move) for r in rows])
    return services._json_copy(state)


def test_it_takes_back_a_hidden_bid_and_restores_the_exact_previous_state(fake_game, alice, bob, carol):
    game = start_game(fake_game, alice, [bob, carol])
    before = copy.deepcopy(game.state)
    version = game.version
    mails_before = OutboundMessage.objects.filter(game=game).count()
    game = _move(game, alice)
    assert game.state != before
    result = services.do_undo_last_move(game.pk, alice, via="api")
    game.refresh_from_db()
    assert game.state == before
    assert game.state == _replayed(game)
    assert game.version == version + 2 == result.version
    row = MoveRow.objects.get(game=game)
    assert row.undone_at is not None and row.undone_version == game.version
    assert result.undone == [row.number]
    entry = AuditEntry.objects.get(game=game, action="undo")
    assert entry.actor == alice and entry.details["moves"] == [row.number] and entry.details["via"] == "api"
    # Every seat is told, and nobody is told the taken-back bid as if it had happened.
    new_mails = OutboundMessage.objects.filter(game=game).order_by("id")[mails_before:]
    latest = {m.to_email: mail_text(m) for m in new_mails}
    assert set(latest) == {alice.email, bob.email, carol.email}
    for to, body in latest.items():
        since = body.split("Since your last mail:\n")[1].split("\n\n")[0]
        # Told as a story: to Alice in the second person, to the others by her name.
        assert since == ("  - You took back your last move" if to == alice.email
                         else "  - Alice took back their last move")


def test_it_refuses_to_take_back_someone_elses_move(fake_game, alice, bob, carol):
    game = start_game(fake_game, alice, [bob, carol])
    game = _move(game, alice)
    with pytest.raises(services.Conflict, match="only your own last move") as exc:
        services.do_undo_last_move(game.pk, bob)
    assert exc.value.status == 409
    assert not MoveRow.objects.filter(game=game, undone_at__isnull=False).exists()


def test_it_refuses_when_another_player_has_moved_since(fake_game, alice, bob, carol):
    game = start_game(fake_game, alice, [bob, carol])
    game = _move(game, alice)
    game = _move(game, bob)
    state, version = copy.deepcopy(game.state), game.version
    with pytest.raises(services.Conflict, match="Bob has moved since"):
        services.do_undo_last_move(game.pk, alice)
    game.refresh_from_db()
    assert game.state == state and game.version == version
    assert not AuditEntry.objects.filter(game=game, action="undo").exists()


def test_it_refuses_to_take_back_a_move_that_revealed_information(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    game = _move(game, alice)
    game = _move(game, bob)  # the last bid of the round turns every bid over
    assert any(e.get("reveals") for e in MoveRow.objects.get(game=game, seat=seat_of(game, bob)).events)
    with pytest.raises(services.Conflict, match="revealed information"):
        services.do_undo_last_move(game.pk, bob)


def test_it_refuses_when_the_game_is_paused_or_nobody_has_moved(fake_game, alice, bob, moderator):
    game = start_game(fake_game, alice, [bob])
    with pytest.raises(services.Conflict, match="nobody has moved"):
        services.do_undo_last_move(game.pk, alice)
    game = _move(game, alice)
    moderation.do_pause_game(game.pk, moderator, "lunch")
    with pytest.raises(services.Conflict, match="paused"):
        services.do_undo_last_move(game.pk, alice)


def test_it_refuses_a_move_the_deadline_policy_played(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    services.do_submit_moves(game.pk, None, [_bid(game, seat_of(game, alice))], source=Source.DEADLINE,
                             seat_index=seat_of(game, alice))
    with pytest.raises(services.Conflict, match="played for you"):
        services.do_undo_last_move(game.pk, alice)


def test_undone_moves_are_skipped_and_new_moves_continue_the_numbering(fake_game, alice, bob, carol):
    game = start_game(fake_game, alice, [bob, carol])
    game = _move(game, alice, 0)
    services.do_undo_last_move(game.pk, alice)
    game = _move(game, alice, 1)  # a different card this time
    numbers = list(MoveRow.objects.filter(game=game).order_by("number").values_list("number", "undone_at"))
    assert [n for n, _ in numbers] == [1, 2] and numbers[0][1] is not None and numbers[1][1] is None
    assert [r.number for r in selectors.move_log(game)] == [2]
    assert game.state == _replayed(game)
    # Twice in a row: the second undo takes back the new move, again back to the start.
    services.do_undo_last_move(game.pk, alice)
    game.refresh_from_db()
    assert list(selectors.move_log(game)) == []
    # Play to the end: seed plus the live log still replays to the identical state.
    play_first_options(game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.state == _replayed(game)
    numbers_all = list(MoveRow.objects.filter(game=game).order_by("number").values_list("number", flat=True))
    assert numbers_all == list(range(1, len(numbers_all) + 1))


# ---- a move that uses the random generator without an event that says so --------------------------


class DiceBids(BlindBids):
    """Blind Bids where every bid also rolls a die, silently."""

    name = "dicebids"

    def _apply(self, state: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        events = super()._apply(state, seat, move, rng)
        state["last_roll"] = rng.below(6) + 1
        return events


@pytest.fixture
def dicebids(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setitem(engine.registry._MODULES, "dicebids", "tests.fakegame")
    monkeypatch.setitem(engine.registry._loaded, "dicebids", DiceBids())
    yield "dicebids"


def test_it_refuses_to_take_back_a_move_that_used_the_random_generator(dicebids, alice, bob, carol):
    game = start_game(dicebids, alice, [bob, carol])
    game = _move(game, alice)
    with pytest.raises(services.Conflict, match="random numbers"):
        services.do_undo_last_move(game.pk, alice)


# ---- Maretta, side A: the face-down cards of phase one -------------------------------------------------


def _first_option(game: Game, player: Player) -> dict[str, Any]:
    assert game.state is not None
    rules = engine.get(game.rules)
    return rules.options(game.state, seat_of(game, player))[0].move


def test_it_takes_back_a_face_down_card_but_not_the_last_one_that_turns_them_all_over(alice, bob, carol):
    game = start_game("maretta", alice, [bob, carol], options={"side": "A"})
    rules = engine.get("maretta")
    assert game.state is not None
    assert sorted(rules.pending(game.state)) == [0, 1, 2]
    before = copy.deepcopy(game.state)
    services.do_submit_moves(game.pk, alice, [Command(move=_first_option(game, alice))], source=Source.MAIL)
    services.do_undo_last_move(game.pk, alice, via="mail")
    game.refresh_from_db()
    assert game.state == before == _replayed(game)
    players = [alice, bob, carol]
    for p in players:
        game.refresh_from_db()
        services.do_submit_moves(game.pk, p, [Command(move=_first_option(game, p))], source=Source.MAIL)
    last = MoveRow.objects.filter(game=game, undone_at__isnull=True).order_by("-number").first()
    assert last is not None and any(e.get("reveals") for e in last.events)
    with pytest.raises(services.Conflict, match="revealed information"):
        services.do_undo_last_move(game.pk, carol)
    game.refresh_from_db()
    assert game.state == _replayed(game)


def test_replacing_a_player_by_address_creates_the_account(fake_game, alice, bob, moderator):
    game = start_game(fake_game, alice, [bob])
    seat = moderation.do_replace_player_by_address(game.pk, moderator, seat_of(game, bob), "Nina@Example.org", "away")
    assert seat.player is not None and seat.player.email == "nina@example.org"
