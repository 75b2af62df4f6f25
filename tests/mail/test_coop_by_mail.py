"""A cooperative game of Maracaibo: The Uprising (``mode=74``: the table together against Jacques)
played only by mail over a real SMTP socket, ending in one shared result that every player's last
mail states with its reasons; ``say`` in a cooperative game reaching the whole table at once; and The
Rescue's (``mode=193``) ransom for Luysa decided by the table, by mail, the result read through the API.
"""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

import engine
from engine.batch import Command
from pbem.games import services
from pbem.games.models import ChatMessage, Game, Move
from tests.factories import token_client
from tests.mail.conftest import Persona, SmtpServer, text_of
from tests.mail.test_maracaibo_by_mail import Captain
from tests.mail.test_maretta_by_mail import GENERAL, Player, is_game_over, play_until_over

pytestmark = [pytest.mark.django_db(transaction=True)]


def _flat(text: str) -> str:
    return " ".join(text.split())


def _invite(people: list[Persona], options: str) -> None:
    host, guests = people[0], people[1:]
    host.send_to(GENERAL, f"new maracaibo with {' '.join(g.email for g in guests)} {options}")
    for guest in guests:
        invitation = guest.latest()
        assert "invites you to play Maracaibo" in text_of(invitation)
        guest.reply(invitation, "join")


@pytest.mark.slow
def test_it_plays_a_cooperative_game_by_mail_to_one_shared_result_told_to_everyone(
        ana: Persona, bruno: Persona, smtp_server: SmtpServer) -> None:
    people = [ana, bruno]
    _invite(people, "rounds=1 mode=74 jacques_level=1")
    rnd = random.Random(74)
    players: list[Player] = [Captain(p, rnd, villages=True) for p in people]
    replies = play_until_over(players, rnd)

    game = Game.objects.get(rules="maracaibo")
    assert game.status == Game.Status.FINISHED and game.options["mode"] == "74"
    assert {m.source for m in Move.objects.filter(game=game)} == {"mail"}
    out = game.outcome or {}
    team = out["team"]
    assert out["ranking"] == [[0, 1]] and out["winners"] == ([0, 1] if team["won"] else [])
    assert "Jacques" in out["automa"]
    said = "The table won together." if team["won"] else "The table lost together."
    for p in people:
        texts = [_flat(text_of(m)) for m in p.inbox()]
        assert any("Jacques reveals" in t for t in texts)  # his turns, told in the players' mails
        last = _flat(text_of(next(m for m in reversed(p.inbox()) if is_game_over(m))))
        assert said in last and f"Why it ended: {out['reason']}" in last
        for condition in team["missed"]:
            assert condition in last
        if team["missed"]:
            assert "Conditions missed: " in last
        # QA (#22): the final scoring's lines and the results' parts are told apart; no winner, no places
        assert "Final scoring: " in last and "VP in the whole game." in last and "(whole game: " in last
        assert "Winner" not in last and "1. " not in last.split(said)[0].split("Final scoring")[-1], last
    # the personal page (the link in each mail) says it too, above the results table
    link = re.search(r"http://pbem\.test(/p/[^/\s]+/)", text_of(ana.latest()))
    assert link is not None
    page = " ".join(Client().get(link.group(1)).content.decode().split())
    assert said in re.sub(r"<[^>]+>", "", page)
    assert "(winner)" not in page and f'<h1 tabindex="-1">{said}</h1>' in page, page[:3000]
    public = " ".join(Client().get(f"/games/{game.pk}/").content.decode().split())
    assert said in re.sub(r"<[^>]+>", "", public)  # the game's public page
    print(f"cooperative mode=74 by mail, 2 players: {replies} replies; {said}")


def test_it_mails_a_say_to_the_whole_cooperative_table_at_once(ana: Persona, bruno: Persona, carla: Persona,
                                                               smtp_server: SmtpServer) -> None:
    people = [ana, bruno, carla]
    _invite(people, "mode=74")
    before = {p.email: len(p.inbox()) for p in people}
    ana.reply(ana.latest(), "say Bruno, Cartagena is yours; I take the French villages")
    assert "mailed to the whole table now" in text_of(ana.latest())
    game = Game.objects.get(rules="maracaibo")
    assert ChatMessage.objects.filter(game=game).count() == 1
    for p in (bruno, carla):
        new = p.inbox()[before[p.email]:]
        assert any("Ana says to the table: Bruno, Cartagena is yours; I take the French villages"
                   in _flat(text_of(m)) for m in new), [text_of(m) for m in new]
    # not in a competitive game: there the message waits for each one's next mail
    game.delete()
    others = [bruno, carla]
    _invite([ana, *others], "mode=79")
    before = {p.email: len(p.inbox()) for p in others}
    ana.reply(ana.latest(), "say good luck")
    for p in others:
        assert not any("says to the table" in text_of(m) for m in p.inbox()[before[p.email]:])


def _asks_ransom(state: dict) -> bool:
    return bool(state["stack"]) and state["stack"][-1]["kind"] == "ransom"


def _ransom_deal(rules: engine.Rules) -> str:
    """The first seed whose 2-player bot game of The Rescue comes to the ransom (the same play as the
    test's: the bot's first pending seat, its choice drawn from ``random.Random(seed)``), asked of
    the seat that did not make the last move: the test's moves go through the API, and a player's
    own API move mails them nothing, so the question must reach the asked seat by mail."""
    for n in range(400):
        seed = f"ransom-{n}"
        state = rules.setup(["Ana", "Bruno"], {"mode": "193", "jacques_level": 1}, seed)
        rnd = random.Random(seed)
        seat = -1
        while not state["over"] and not _asks_ransom(state):
            seat = rules.pending(state)[0]
            rules.apply(state, seat, {"code": rules.bot_choice(state, seat, rules.options(state, seat), rnd).code})
        if _asks_ransom(state) and rules.pending(state)[0] != seat:
            return seed
    raise AssertionError("no deal of 400 comes to the ransom")


@pytest.mark.slow
@pytest.mark.parametrize("door", ["mail", "api"])
def test_it_asks_the_table_by_mail_who_pays_luysas_ransom(ana: Persona, bruno: Persona, smtp_server: SmtpServer,
                                                          monkeypatch: pytest.MonkeyPatch, door: str) -> None:
    # Why a deal searched for: played by the bot, most deals never come to the ransom (Luysa not found,
    # or freed by combat points); the first deal that does, found by the engine alone, is then played
    # through the service move by move (a fixed seed broke whenever the content dealt changed)
    rules = engine.get("maracaibo")
    seed = _ransom_deal(rules)
    monkeypatch.setattr(services, "new_seed", lambda: seed)
    _invite([ana, bruno], "mode=193 jacques_level=1")
    game = Game.objects.get(rules="maracaibo")
    by_seat = {s.index: s.player for s in game.seats.select_related("player")}
    rnd = random.Random(seed)
    while game.state is not None and not game.state["over"] and not _asks_ransom(game.state):
        seat = rules.pending(game.state)[0]
        o = rules.bot_choice(game.state, seat, rules.options(game.state, seat), rnd)
        services.do_submit_moves(game.pk, by_seat[seat], [Command(code=o.code)], source="api")
        game.refresh_from_db()
    assert game.state is not None and _asks_ransom(game.state), f"the deal {seed} came to no ransom"
    asked = rules.pending(game.state)[0]
    payer, other = (ana, bruno) if by_seat[asked].email == ana.email else (bruno, ana)
    mail = _flat(text_of(payer.latest()))
    assert "pay Luysa's ransom of 15 doubloons" in mail
    assert "pay Luysa's ransom" not in _flat(text_of(other.latest()))  # only the asked player chooses
    if door == "mail":
        payer.reply(payer.latest(), "pay the ransom")
    else:  # the REST API: the asked player's options, the other's none, the decision in words
        url = f"/api/v1/games/{game.pk}/"
        mine = token_client(by_seat[asked]).get(f"{url}options/").json()
        assert [o["code"] for o in mine["options"]] == ["ransom", "noransom"]
        assert token_client(by_seat[1 - asked]).get(f"{url}options/").json()["your_turn"] is False
        r = token_client(by_seat[asked]).post(f"{url}moves/?wait=5", {"commands": [{"text": "pay the ransom"}]},
                                              format="json", headers={"If-Match": mine["etag"]})
        assert r.status_code == 200, r.json()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.state is not None
    assert game.state["search"]["freed"] == asked
    told = [(payer, "You pay Luysa's ransom of 15 doubloons: she is free."),
            (other, f"{by_seat[asked].display_name} pays Luysa's ransom of 15 doubloons: she is free.")]
    for p, text in told:  # in the last mail of each
        assert text in _flat(text_of(p.latest())), text_of(p.latest())
    team = token_client(ana.player).get(f"/api/v1/games/{game.pk}/").json()["outcome"]["team"]
    assert any("Luysa" in c for c in team["met"]) and not any("Luysa" in c for c in team["missed"])


def test_it_tells_the_searchs_spaces_in_words_in_the_rescues_mails(ana: Persona, bruno: Persona,
                                                                    smtp_server: SmtpServer) -> None:
    """The Rescue's first mail over SMTP says card 191's red and green spaces as a player reads them:
    what lies on each and its reward, never the view's data (``[None, None]``, ``'X'``: QA found them)."""
    _invite([ana, bruno], "mode=193")
    for p in (ana, bruno):
        text = _flat(text_of(p.latest()))
        line = text[text.index("The Search (card 191)"):]
        line = line[:line.index("finds Luysa.")]
        assert "None" not in line and "[" not in line and "'X'" not in line, line
        assert "red spaces: 1 empty (1 doubloon), 2 empty (1 doubloon);" in line, line
        assert "green spaces: 1 covered by a red hint (1 doubloon), 2 empty (1 doubloon)," in line, line
        assert "8 empty (1 doubloon);" in line, line  # card 191's eight green spaces
