"""The board picture in a mail: drawn for a phone, shown in place, within the mail's budget."""

from __future__ import annotations

import base64
import io
import struct
from email.message import EmailMessage

import pytest
from django.core.cache import cache
from PIL import Image

import engine
from engine import svg
from pbem.games import services as game_services
from pbem.games.models import Game, OutboundMessage
from pbem.games.services import Command
from pbem.mail import sending
from tests.engine import svg_checks
from tests.mail.conftest import Persona, html_of, start_game
from tests.mail.volume import wire_size

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def dora(smtp_server: object) -> Persona:
    return Persona("dora@example.org", "Dora", smtp_server)  # type: ignore[arg-type]


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


def _record_renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pictures rendered from now on (the real renderer and cache still answer)."""
    asked: list[str] = []
    real = sending.svg_to_png

    def recording(svg: str) -> bytes:
        asked.append(svg)
        return real(svg)

    monkeypatch.setattr(sending, "svg_to_png", recording)
    return asked


def _colours(png: bytes) -> int:
    with Image.open(io.BytesIO(png)) as im:
        assert im.mode == "P", "a palette PNG: a byte a pixel at most"
        return len(im.convert("RGB").getcolors(256) or [])


@pytest.mark.parametrize(("rules", "options", "n"), [("maretta", {"side": "A"}, 3), ("maretta", {"side": "B"}, 3),
                                                     ("caravelas", {}, 2), ("maracaibo", {}, 2),
                                                     ("maracaibo", {}, 4), ("maracaibo", {}, 1)],
                         ids=["maretta-A", "maretta-B", "caravelas", "maracaibo-2", "maracaibo-4", "maracaibo-solo"])
def test_every_games_turn_mail_shows_a_picture_drawn_for_a_phone_in_place(
        rules: str, options: dict[str, object], n: int, ana: Persona, bruno: Persona, carla: Persona,
        dora: Persona) -> None:
    cache.clear()
    people = [ana, bruno, carla, dora][:n]
    game = start_game(rules, people, options=options)
    for person in people:
        mail = person.latest()
        png = _png_of(mail)
        assert png is not None, f"{rules}: {person.name}'s first mail carries its picture"
        assert _width(png) == svg.MAIL_WIDTH, "drawn 358 px wide: a 390 px phone shows it at its own size"
        assert len(png) <= sending.PNG_MAX_BYTES and _colours(png) <= 32
        assert mail.get_content_type() == "multipart/related", "the picture belongs to the HTML that shows it"
        html = html_of(mail)
        assert html.count('src="cid:board"') == 1 and f'width="{svg.MAIL_WIDTH}"' in html
        assert "max-width:358px" in html and "your game page" in html
        row = OutboundMessage.objects.filter(game=game, to_email=person.email, content__picture=True).latest("pk")
        picture = sending.bodies(row).svg
        assert svg.drawn_width(picture) == svg.MAIL_WIDTH
        assert min(size for _text, size in svg_checks.shown_text_sizes(picture)) >= svg.MAIL_TEXT
        assert wire_size(mail) <= sending.MAIL_MAX_BYTES
        if rules != "maretta":  # Maretta draws its legend, with samples of its symbols
            assert "Framed" in svg.description(picture), "the legend of the part shown"


def test_a_mail_without_room_for_its_picture_links_the_page_and_shows_no_broken_image(
        ana: Persona, bruno: Persona, carla: Persona, monkeypatch: pytest.MonkeyPatch) -> None:
    cache.clear()
    monkeypatch.setattr(sending, "MAIL_MAX_BYTES", 5_000)  # no room left for any picture
    start_game("maretta", [ana, bruno, carla])
    mail = ana.latest()
    assert _png_of(mail) is None and mail.get_content_type() == "multipart/alternative"
    html = html_of(mail)
    assert "cid:" not in html and "<img" not in html
    assert "your game page" in html


def test_it_stops_rendering_for_a_game_whose_pictures_are_too_heavy_for_any_mail(
        ana: Persona, bruno: Persona, carla: Persona, monkeypatch: pytest.MonkeyPatch) -> None:
    people = [ana, bruno, carla]
    cache.clear()  # no picture or hint remembered from another test's game of the same id
    monkeypatch.setattr(sending, "PNG_MAX_BYTES", 200)  # no board fits in 200 bytes
    game = start_game("maretta", people, mail_mode="every")
    assert _png_of(ana.latest()) is None
    renders = _record_renders(monkeypatch)
    later = _move_until_mailed(game, ana, people)
    assert _png_of(later) is None
    assert renders == [], "a game's picture known to be too heavy for any mail is not rendered again"


def _record_hint_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The "too heavy" hint keys asked of the shared cache from now on (the real cache answers)."""
    asked: list[str] = []
    real = sending.cache.get

    def recording(key: str, *args: object, **kwargs: object) -> object:
        if key.startswith("pbem:png-heavy:"):
            asked.append(key)
        return real(key, *args, **kwargs)

    monkeypatch.setattr(sending.cache, "get", recording)
    return asked


def _maretta_with_nothing_kept(people: list[Persona]) -> Game:
    """A Maretta game started with no picture hint in the shared cache nor in this process."""
    cache.clear()
    sending._LIGHT_SEEN.clear()
    return start_game("maretta", people, mail_mode="every")


def test_a_moves_picture_mails_ask_the_shared_cache_once_whether_the_game_is_too_heavy(
        ana: Persona, bruno: Persona, carla: Persona, monkeypatch: pytest.MonkeyPatch) -> None:
    people = [ana, bruno, carla]
    game = _maretta_with_nothing_kept(people)
    sending._LIGHT_SEEN.clear()  # (as a worker that has not mailed this game yet)
    asked = _record_hint_reads(monkeypatch)
    mailed = OutboundMessage.objects.filter(game=game, content__picture=True).count()
    _move_until_mailed(game, ana, people)
    assert OutboundMessage.objects.filter(game=game, content__picture=True).count() - mailed > 1
    assert len(asked) == 1, "one question a game's board, not one a mail (issue 28)"
    assert _png_of(ana.latest()) is not None


def test_a_too_heavy_hint_another_worker_left_still_holds_here(
        ana: Persona, bruno: Persona, carla: Persona, monkeypatch: pytest.MonkeyPatch) -> None:
    people = [ana, bruno, carla]
    game = _maretta_with_nothing_kept(people)
    assert _png_of(ana.latest()) is not None
    # another worker found this game's picture too heavy: its hint, in the shared cache alone
    row = OutboundMessage.objects.filter(game=game, to_email=ana.email, content__picture=True).latest("pk")
    cache.set(sending._hint_key(game.pk, sending.bodies(row).svg), 1, timeout=60)
    sending._LIGHT_SEEN.clear()
    renders = _record_renders(monkeypatch)
    later = _move_until_mailed(game, ana, people)
    assert _png_of(later) is None and renders == []


def test_it_shows_the_sea_near_my_fleet_in_a_caravelas_turn_mail(ana: Persona, bruno: Persona) -> None:
    cache.clear()
    game = start_game("caravelas", [ana, bruno])
    rules = engine.get("caravelas")
    assert game.state is not None
    seat = rules.pending(game.state)[0]
    mover = [ana, bruno][seat]
    png = _png_of(mover.latest())
    assert png is not None and len(png) <= sending.PNG_MAX_BYTES
    assert _width(png) == svg.MAIL_WIDTH, "drawn so that its labels read on a phone (11-14 px)"
    row = OutboundMessage.objects.filter(game=game, to_email=mover.email, content__picture=True).latest("pk")
    picture = sending.bodies(row).svg
    assert 'viewBox="0 0 1460' not in picture, "a part of the map, not the whole"
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


def test_a_mail_with_little_room_carries_the_top_part_of_its_picture_at_the_same_scale(
        ana: Persona, bruno: Persona, monkeypatch: pytest.MonkeyPatch) -> None:
    cache.clear()
    game = start_game("caravelas", [ana, bruno])
    whole = _png_of(ana.latest())
    assert whole is not None
    row = OutboundMessage.objects.filter(game=game, to_email=ana.email, content__picture=True).latest("pk")
    # the same mail again, where the rest of it leaves room for a little less than the whole picture
    row.status = OutboundMessage.Status.PENDING
    bare = sending.build_message(row)
    bare.attachments = []
    weight = len(bare.message().as_bytes().replace(b"\n", b"\r\n"))
    # (less than the whole compressed as hard as it goes, which a mail short of room tries first)
    monkeypatch.setattr(sending, "MAIL_MAX_BYTES", weight + 900 + (len(sending._harder(whole)) - 300) * 78 // 57)
    mail = sending.build_message(row).message()
    part = next(p for p in mail.walk() if p.get_content_type() == "image/png").get_payload(decode=True)
    assert _width(part) == _width(whole), "the same scale: its text as big"
    assert "top" in str(next(p for p in mail.walk() if p.get_content_type() == "image/png")["Content-Description"])
    height, full = sending.png_height(part), sending.png_height(whole)
    assert 0.6 * full <= height < full, "its top part: the caption and the fleet at its middle"
    html = next(p for p in mail.walk() if p.get_content_type() == "text/html").get_payload(decode=True).decode()
    assert f'src="cid:board" width="{svg.MAIL_WIDTH}" height="{height}"' in html, "the HTML says its height"
    assert len(mail.as_bytes().replace(b"\n", b"\r\n")) <= sending.MAIL_MAX_BYTES


def test_a_picture_a_little_over_its_room_goes_whole_compressed_harder() -> None:
    """Issue 28: the hard compression (five times the time) is spent only on a picture that does
    not fit its mail's room as it is; then it may make the room, and the picture goes whole."""
    rules = engine.get("maretta")
    state = rules.setup(["Ana", "Bruno", "Carla"], {"side": "A"}, "seed-28")
    board = rules.render_mail_svg(rules.view(state, 0))
    png = sending._render_png.__wrapped__(board)  # as rendered: zlib's default level
    hard = sending._harder(png)
    assert len(hard) < len(png)
    assert sending._fitting(png, board, len(png)) == (png, 1.0)  # fits: not compressed again
    assert sending._fitting(png, board, len(hard)) == (hard, 1.0)  # fits only when compressed harder
    with Image.open(io.BytesIO(hard)) as a, Image.open(io.BytesIO(png)) as b:
        assert a.convert("RGB").tobytes() == b.convert("RGB").tobytes()  # the same picture


def _striped(height: int) -> bytes:
    """A palette PNG 4 px wide whose row y has the colour index y (y < 256)."""
    im = Image.new("P", (4, height))
    im.putpalette([v for y in range(256) for v in (y, 255 - y, (y * 7) % 256)])
    for y in range(height):
        for x in range(4):
            im.putpixel((x, y), y)
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


def _rows(png: bytes) -> list[int]:
    with Image.open(io.BytesIO(png)) as im:
        return [int(im.getpixel((0, y))) for y in range(im.height)]  # type: ignore[arg-type]


def test_a_shorter_picture_keeps_its_caption_and_the_rows_around_the_readers_pieces() -> None:
    png = _striped(100)
    # a part of a map whose reader's pieces are near its bottom (the map's edge): caption rows 0-9 and
    # the 40 rows that hold row 80 (as far as the picture goes)
    assert _rows(sending._shorter(png, 0.5, (10, 80))) == list(range(10)) + list(range(60, 100))
    assert _rows(sending._shorter(png, 0.5, (10, 30))) == list(range(10)) + list(range(10, 50))
    assert _rows(sending._shorter(png, 0.5)) == list(range(50)), "no focus said: the top part (Maretta)"
    assert sending._focus('<svg width="358" data-focus="22 180" height="9">') == (22, 180)


def test_a_shorter_picture_shows_nothing_past_its_focused_part_when_something_follows_it() -> None:
    """QA (#20): a Maracaibo picture shortened to fit kept the caption "The whole sea: ringed..." though
    the overview it announces was cut: a part that ends (row 70 here) is never shown past its end."""
    png = _striped(100)
    assert sending._focus('<svg data-focus="10 60 70" height="9">') == (10, 60, 70)
    assert _rows(sending._shorter(png, 0.5, (10, 60, 70))) == list(range(10)) + list(range(30, 70))
    assert _rows(sending._shorter(png, 0.8, (10, 60, 70))) == list(range(70)), "the part whole, nothing after"
