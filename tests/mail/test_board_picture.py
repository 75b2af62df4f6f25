"""The board picture in a mail: rendered at the width that fits the mail's budget, no wider."""

from __future__ import annotations

import base64
import struct
from email.message import EmailMessage

import pytest
from django.core.cache import cache

import engine
from pbem.games import services as game_services
from pbem.games.models import Game, OutboundMessage
from pbem.games.services import Command
from pbem.mail import sending
from tests.mail.conftest import Persona, start_game

pytestmark = pytest.mark.django_db(transaction=True)


def _png_of(msg: EmailMessage) -> bytes | None:
    part = next((p for p in msg.walk() if p.get_content_type() == "image/png"), None)
    return None if part is None else bytes(part.get_content())


def _width(png: bytes) -> int:
    return int(struct.unpack(">I", png[16:20])[0])  # the IHDR chunk's width


def _move_until_mailed(game: Game, person: Persona, people: list[Persona]) -> EmailMessage:
    """Moves of whoever is to move until ``person`` gets a new mail with a board; that mail."""
    rules = engine.get(game.rules)

    def boards() -> int:
        return OutboundMessage.objects.filter(game=game, to_email=person.email, content__picture=True).count()

    before = boards()
    for _ in range(30):
        game.refresh_from_db()
        assert game.state is not None
        seat = rules.pending(game.state)[0]
        code = rules.options(game.state, seat)[0].code
        game_services.do_submit_moves(game.pk, people[seat].player, [Command(code=code)], source="web")
        if boards() > before:
            return person.latest()
    raise AssertionError(f"{person.name} got no new mail with a board in 30 moves")


def _record_renders(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The widths a picture is asked for from now on (the real renderer and cache still answer)."""
    widths: list[int] = []
    real = sending.svg_to_png

    def recording(svg: str, width: int = sending.PNG_WIDTHS[0]) -> bytes:
        widths.append(width)
        return real(svg, width)

    monkeypatch.setattr(sending, "svg_to_png", recording)
    return widths


def test_it_renders_later_pictures_of_a_game_only_at_the_width_that_fit(
        ana: Persona, bruno: Persona, carla: Persona, monkeypatch: pytest.MonkeyPatch) -> None:
    people = [ana, bruno, carla]
    cache.clear()  # no picture or width remembered from another test's game of the same id
    game = start_game("maretta", people, mail_mode="every")
    first = _png_of(ana.latest())
    assert first is not None and len(first) <= sending.PNG_MAX_BYTES
    fitted = _width(first)
    renders = _record_renders(monkeypatch)
    later = _png_of(_move_until_mailed(game, ana, people))
    assert later is not None and len(later) <= sending.PNG_MAX_BYTES
    assert renders, "the new board is asked for"
    assert max(renders) <= fitted, f"{fitted} px fitted before: wider is not tried again ({renders})"


def test_it_stops_rendering_for_a_game_whose_pictures_fit_no_width(
        ana: Persona, bruno: Persona, carla: Persona, monkeypatch: pytest.MonkeyPatch) -> None:
    people = [ana, bruno, carla]
    cache.clear()  # no picture or width remembered from another test's game of the same id
    monkeypatch.setattr(sending, "PNG_MAX_BYTES", 200)  # no board fits in 200 bytes
    game = start_game("maretta", people, mail_mode="every")
    assert _png_of(ana.latest()) is None
    renders = _record_renders(monkeypatch)
    later = _move_until_mailed(game, ana, people)
    assert _png_of(later) is None
    assert renders == [], "a game's picture known to be too big at every width is not rendered again"


def test_it_shows_the_sea_near_my_fleet_in_a_caravelas_turn_mail(ana: Persona, bruno: Persona) -> None:
    cache.clear()
    game = start_game("caravelas", [ana, bruno])
    rules = engine.get("caravelas")
    assert game.state is not None
    seat = rules.pending(game.state)[0]
    mover = [ana, bruno][seat]
    png = _png_of(mover.latest())
    assert png is not None and len(png) <= sending.PNG_MAX_BYTES
    assert _width(png) in (560, 440), "drawn wide enough that its labels read (10-13 px at 560)"
    row = OutboundMessage.objects.filter(game=game, to_email=mover.email, content__picture=True).latest("pk")
    picture = sending.bodies(row).svg
    assert 'viewBox="0 0 1460' not in picture[:300], "a part of the map, not the whole"
    assert "Near your fleet (framed), at Lisboa" in picture
    assert 'class="mine"' in picture, "my fleet is in the part shown, framed"
    assert len(mover.latest().as_bytes().replace(b"\n", b"\r\n")) <= sending.MAIL_MAX_BYTES


def test_it_leaves_the_picture_out_when_the_rest_of_the_mail_leaves_no_room_for_it() -> None:
    assert sending.png_budget(5_000) == sending.PNG_MAX_BYTES
    room = sending.png_budget(22_000)
    assert 0 < room < sending.PNG_MAX_BYTES
    # a picture of that weight, base64 in 76-character lines, still fits the 30 KB
    encoded = base64.encodebytes(b"\0" * room)
    assert 22_000 + len(encoded) + 300 + encoded.count(b"\n") <= sending.MAIL_MAX_BYTES
    assert sending.png_budget(29_800) == 0
