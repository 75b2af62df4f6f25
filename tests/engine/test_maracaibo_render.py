"""What Maracaibo's mail text and SVG show (the map, the tracks, the reader's cards, a main action here),
and that they show nothing hidden: both are made from a view only."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.rng import Rng, seed_to_state
from tests.engine import maracaibo_scenarios as S
from tests.engine.test_maracaibo_rules import started

SVG = "{http://www.w3.org/2000/svg}"


def played(n: int = 3, moves: int = 60, seed: int = 3) -> dict:
    state = started(n)
    rnd = random.Random(seed)
    for _ in range(moves):
        seat = RULES.pending(state)[0]
        RULES.apply(state, seat, RULES.bot_choice(state, seat, RULES.options(state, seat), rnd).move)
    return state


def named(text: str, cid: int) -> bool:
    return re.search(rf"\b{re.escape(C.CARD[cid]['name'])}\b", text) is not None


def tracks(text: str, name: str) -> dict[str, str]:
    """A player's rows of the players' tables, by column heading."""
    lines = text.split("\n")
    out: dict[str, str] = {}
    for first in ("VP", "expl"):
        head = next(i for i, line in enumerate(lines) if line.split()[:1] == [first])
        row = next(line for line in lines[head + 1:] if line.startswith(f"  {name} ") and ":" not in line)
        out.update(zip(lines[head].split(), row[2 + len(name):].replace("(you)", "").split(), strict=True))
        assert len(lines[head]) <= 45 and len(row) <= 45, "each table stays whole on a phone"
    return out


@pytest.mark.parametrize("render", ["render_text", "render_mail_text"])
def test_it_writes_the_map_the_tracks_and_my_cards_in_words(render: str) -> None:
    state = played(4, 120)
    view = RULES.view(state, 0)
    text = getattr(RULES, render)(view)
    flat = " ".join(text.split())  # lines are wrapped at mail width
    assert "SUBSTITUTE CONTENT" in text
    for loc in C.LOC_ORDER:
        if "legacy" not in C.LOC[loc]:
            assert f"{loc} {C.LOC[loc]['name']}:" in text
    assert state["markers"]
    for loc, nation in state["markers"].items():
        assert re.search(rf"{loc} {re.escape(C.LOC[loc]['name'])}: \w+; {nation.title()} owns it", flat)
    for loc in set(C.FLAGS) - set(state["markers"]) - {"9a", "16a"}:
        assert re.search(rf"{loc} {re.escape(C.LOC[loc]['name'])}: \w+; annex "
                         + re.escape(C.gain_text(C.LOC[loc]["flag"])), flat)
    for loc, taken in state["market"].items():
        m = C.LOC[loc]["market"]
        assert f"market {'/'.join(m['goods'])} {len(taken)}/{len(m['rewards'])}" in flat
    for qid in [*state["quests"].values(), *state["track_quests"].values()]:
        assert f"quest {qid}: pay {C.cost_text(C.QUEST[qid]['cost'])}" in flat
    for cid in state["seats"][0]["hand"] + state["seats"][0]["plan"]:
        assert f"  {C.card_text(cid)}" in text  # good/object, cost and effect in words
    for i, cid in enumerate(state["display"]):
        assert f"  {i + 1}. {C.card_text(cid)}" in text
    for i, p in enumerate(state["seats"]):
        row = tracks(text, state["players"][i])
        assert row == {"VP": str(p["victory_points"]), "d": str(p["doubloons"]),
                       "income": f"{p['income_doubloons']}+{p['income_victory_points']}",
                       "CP": str(p["combat_points"]), "fig": str(p["figures"]), "hand": str(len(p["hand"])),
                       "at": p["at"],
                       "expl": str(p["explorer"]), "F/E/S": "/".join(str(p["influence"][n]) for n in C.NATIONS),
                       "qst": str(p["quests"]), "tok": str(p["tokens"]), "dlv": str(p.get("delivered", 0))}
        assert f"{state['players'][i]}{' (you)' if i == 0 else ''}: synergy " in flat
    assert "A MAIN ACTION HERE" in text


def test_a_mail_tells_the_other_players_cards_and_careers_by_name_and_count_and_the_page_in_full() -> None:
    state = played(4, 300)
    view = RULES.view(state, 1)
    page, mail = RULES.render_text(view), RULES.render_mail_text(view)
    flat, page_flat = " ".join(mail.split()), " ".join(page.split())
    assert len(mail) < len(page)
    for i, p in enumerate(state["seats"]):
        name = state["players"][i]
        mine = i == 1
        career = f"career {p['careers'][0]['id']} (upper/lower)"
        assert career in page and (career in mail) == mine
        for cid in p["plan"]:
            assert (C.card_text(cid) in flat) == mine and C.card_text(cid) in page_flat
            assert named(flat, cid)  # everyone's planning area by name
        if p["display"]:
            bought = f"{len(p['display'])} card{'s' if len(p['display']) != 1 else ''} bought"
            assert bought in page_flat
            assert bought in flat
            assert all(named(page_flat, c) for c in p["display"])
        if not mine:
            done = [f"{k * 3 + t + 1} {s}" for k, car in enumerate(p["careers"])
                    for t, s in enumerate(car["done"]) if s]
            assert f"{name}: " in flat and f"career tasks done {', '.join(done) or 'none'}" in flat
    assert "on your game page" in mail


def test_it_says_what_a_main_action_here_would_give() -> None:
    state, seat = S.city()  # Cartagena takes corn and sugar; Ana holds cotton, corn, sugar, tobacco
    text = RULES.render_text(RULES.view(state, seat))
    here = " ".join(text.split("A MAIN ACTION HERE", 1)[1].split())
    assert "You are at 14 Cartagena (city)" in here
    assert "Deliver corn or sugar for 3 doubloons" in here and "You hold: corn, sugar" in here
    assert "City action:" in here
    state, seat = S.village()  # San Juan, 20 doubloons, quest Q21 there
    here = " ".join(RULES.render_text(RULES.view(state, seat)).split("A MAIN ACTION HERE", 1)[1].split())
    assert "(village)" in here and "You can pay for: every card in your hand and planning area (20 doubloons)" in here
    cards = [*state["seats"][seat]["hand"], *state["seats"][seat]["plan"]]
    state, seat = S.village()
    state["seats"][seat]["doubloons"] = cheapest = min(int(C.CARD[c]["cost"]) for c in cards)
    here = " ".join(RULES.render_text(RULES.view(state, seat)).split("A MAIN ACTION HERE", 1)[1].split())
    can = ", ".join(f"{C.CARD[c]['name']} ({C.CARD[c]['cost']} d)" for c in cards if C.CARD[c]["cost"] == cheapest)
    assert f"You can pay for: {can} ({cheapest} doubloons)" in here
    assert f"Here: quest {state['quests']['6']}" in here
    state, seat = S.homeward()
    assert "A combat action or explore 2" in " ".join(RULES.render_text(RULES.view(state, seat)).split())


def test_it_shows_no_hidden_card_to_a_player_or_a_spectator() -> None:
    state = played()
    for seat in (0, None):
        view = RULES.view(state, seat)
        text = RULES.render_text(view) + RULES.render_mail_text(view)  # the page's words and the mail's
        svg = RULES.render_svg(view) + "".join(RULES.render_phone_svg(view))
        seen = set(state["display"]) | set(state["discard"])
        for p in state["seats"]:
            seen |= set(p["display"]) | set(p["plan"])
        if seat is not None:
            seen |= set(state["seats"][seat]["hand"])
        hidden = [c for c in [*state["deck"], *state["box"], *(c for i, p in enumerate(state["seats"]) if i != seat
                                                                   for c in p["hand"])] if c not in seen]
        assert hidden
        assert not [c for c in hidden if named(text, c) or named(svg, c)]
        face_down = [b["id"] for b in state["prestige"] if not b["up"]] + state["prestige_box"]
        assert not [b for b in face_down if C.PRESTIGE[b]["name"] in text + svg]
        if seat is None:
            assert "YOUR HAND" not in text and "Your ship board" not in svg
        for trial in range(3):  # whatever is hidden, the pictures are the same
            other = RULES.resample_hidden(state, seat, Rng({"rng": seed_to_state(trial)}))
            assert RULES.render_text(RULES.view(other, seat)) + RULES.render_mail_text(RULES.view(other, seat)) == text
            seen_by = RULES.view(other, seat)
            assert RULES.render_svg(seen_by) + "".join(RULES.render_phone_svg(seen_by)) == svg


def test_it_draws_the_caribbean_the_tracks_my_ship_board_and_display_at_mail_width() -> None:
    state, seat = S.combat()  # France holds 12; Bold Merchant in Ana's display
    state["market"]["14"] = [1, 2]
    state["seats"][0]["assist"] = [{"loc": "14", "card": 8, "since": 0}]
    svg = RULES.render_svg(RULES.view(state, seat))
    root = ET.fromstring(svg)  # well formed
    assert root.get("width") == "640"
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert any("SUBSTITUTE CONTENT" in t for t in texts)
    for loc in C.LOC_ORDER:
        if "legacy" not in C.LOC[loc]:
            assert loc in texts
    assert {"Explorer track", "Influence", "Display (draw for 1 doubloon)"} <= set(texts)
    assert any(t.startswith("Your ship board") for t in texts)
    assert {"U1", "U12"} <= set(texts) and "Bold Merchant" in texts
    rects = [r.get("fill") for r in root.iter(f"{SVG}rect")]
    assert "#2459c4" in rects  # the French marker on 12
    ships = list(root.iter(f"{SVG}path"))
    assert len(ships) == len(state["players"])
    discs = [r for r in root.iter(f"{SVG}rect") if r.get("width") == "6" and r.get("fill") not in ("#fff",)]
    assert len(discs) == 2  # two market discs in Cartagena
    dots = [c for c in root.iter(f"{SVG}circle") if c.get("r") == "2.6"]
    assert dots  # the assistant (and the influence markers)
    assert all(float(t.get("font-size") or 0) >= 6 for t in root.iter(f"{SVG}text"))


def test_it_shows_a_legacy_place_only_while_its_tile_is_in_play() -> None:
    # 9a needs L4 (scenarios 76 and 77), 16a needs L7 (77 only); scenario 75 has neither
    expect = {"75": set(), "76": {"9a"}, "77": {"9a", "16a"}}
    for scenario, shown in expect.items():
        for seat in (0, None):
            view = RULES.view(RULES.setup(["Ana", "Bruno", "Carla"], {"scenario": scenario}, 5), seat)
            text, svg = RULES.render_text(view), RULES.render_svg(view)
            texts = {t.text or "" for pic in [svg, *RULES.render_phone_svg(view)]
                     for t in ET.fromstring(pic).iter(f"{SVG}text")}  # the mail's board and the phone's
            for loc in ("9a", "16a"):
                name = str(C.LOC[loc]["name"])
                assert (f"{loc} {name}:" in text) == (loc in shown), (scenario, seat, loc)
                assert (loc in texts) == (loc in shown), (scenario, seat, loc)
                assert (name.split(": ", 1)[-1] in texts) == (loc in shown), (scenario, seat, loc)
            assert "off" not in [w.strip(";:,.") for w in text.split()]


def test_it_draws_the_campaigns_story_in_the_board_picture_and_the_phones() -> None:
    """The story band (render_story.py): the story tiles and who claimed them, the cards in play with
    what they require, a disc tile's discs, the last card read and the last vote; the pile's count only."""
    from engine.games.maracaibo import render, render_base, render_phone

    state = RULES.setup(["Ana", "Bruno"], {"campaign": True, "mode": "campaign"}, "band")
    rnd = random.Random(2)
    while RULES.pending(state) and not any(x is not None for x in state["story"]["tiles"]):
        seat = RULES.pending(state)[0]
        RULES.apply(state, seat, RULES.bot_choice(state, seat, RULES.options(state, seat), rnd).move)
    claimer = next(x for x in state["story"]["tiles"] if x is not None)
    view = RULES.view(state, 0)
    picture = render.svg(view)
    ET.fromstring(picture)
    texts = re.findall(r">([^<]+)</text>", picture)
    assert "Story: game 1 of the campaign, the Uprising&#x27;s story (SUBSTITUTE story)" in texts
    assert f"1: {state['players'][claimer]}" in texts  # the claimed tile, its claimer named
    for cid in state["story"]["board"]:
        assert any(t.startswith(f"Card {cid}, ") for t in texts)
    pile = len(state['story']['pile'])
    assert f"Story pile: {pile} card{'s' if pile != 1 else ''}" in " ".join(texts)
    assert not any(str(c) in t for c in state["story"]["pile"] for t in texts if t.startswith("Story pile"))
    # a disc tile's discs: one circle a slot, coloured by the seat of each disc
    view["story"]["discs"] = {"W6": {"name": "the rebels' armoury", "loc": "7", "size": 2, "by": [1]}}
    picture = render.svg(view)
    assert "Disc tile W6, the rebels&#x27; armoury at St. Kitts (7): 1 of 2 discs (Bruno)." in picture
    assert picture.count('r="4" fill="') == 2 and f'fill="{render_base._colour(view, 1)}" stroke="#495057"' in picture
    phone = render_phone.phone_svgs(view)[1]
    assert "Story: game 1 of the campaign" in phone and "Story tiles: 1 " in phone
    assert "Story:" not in render.svg(RULES.view(RULES.setup(["Ana", "Bruno"], {}, "band"), 0))


def test_the_board_in_words_cut_in_lines_is_the_same_each_time_and_each_reader_gets_their_own_lines() -> None:
    """The lines a text is cut in are kept from one mail to the next (render_text._cut, issue 28: the same
    texts recur); what a reader gets must be what ``textwrap`` gives, in that reader's language, and
    a caller changing its lines must not change the next mail's."""
    import textwrap

    from engine import i18n
    from engine.games.maracaibo import render_base, render_text

    state = played()
    view = RULES.view(state, 0)
    first = RULES.render_mail_text(view)
    assert RULES.render_mail_text(view) == first
    long = "Barriers: " + "; ".join(f"space {i}: a quest of the governor" for i in range(9))
    assert len(textwrap.wrap(long, render_text.WIDTH)) > 2
    lines = render_text._wrap(long)
    assert lines == textwrap.wrap(render_base.say(long), render_text.WIDTH, initial_indent="  ",
                                  subsequent_indent="    ", break_on_hyphens=False)
    lines.append("changed by its caller")
    assert render_text._wrap(long) == lines[:-1]
    with i18n.language("pt"):  # said in the reader's language before it is cut, not the line kept in English
        said = RULES.render_mail_text(view)
    assert said != first and RULES.render_mail_text(view) == first


def test_a_home_ports_rulebook_words_end_its_part_of_the_players_line_without_a_stray_full_stop() -> None:
    # Play-test (78 by mail): the reader's own line read "... the last space on the explorer track).;
    # resistance tile: ..." (the rulebook's sentence kept its full stop before the next part's "; ").
    from engine.games.maracaibo import uprising_content as C_U
    state = started(3, mode="78")
    for pid in C_U.PORT:
        for p in state["seats"]:
            p["port"] = pid
        state["revision"] += 1  # (an edited state: its views are not the cached ones)
        for seat in (0, None):
            text = RULES.render_text(RULES.view(state, seat))
            assert ".;" not in text, (pid, seat)
            assert f"home port {C_U.PORT[pid]['name']} (" in " ".join(text.split())  # (the port is there)
