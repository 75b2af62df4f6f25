"""Maracaibo in Portuguese (issue 27): its option labels said in the reader's language from data
(engine/games/maracaibo/labels.py, data/labels.pt.json), read back whatever the language of the
context, and notation that reads the same line the same way whichever language the labels are in."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from engine import get, i18n
from engine.core import Option
from engine.errors import IllegalMove
from engine.games.maracaibo import labels
from tests.engine.bot_games import bot_game

R = get("maracaibo")


def _labels_of_a_game(options: dict[str, Any], n: int, seed: str, missed: list[str],
                      every: int = 1) -> list[tuple[dict[str, Any], int, dict[str, str], dict[str, str]]]:
    """A whole bot-played game: at every ``every``-th decision, the state, the seat, and its options'
    labels in English and in Portuguese (code -> label)."""
    import copy

    out = []

    def watch(step: int, st: dict[str, Any], seat: int, opts: list[Option]) -> None:
        with i18n.on_miss(lambda m, c: missed.append(m)), i18n.language("pt"):
            pt = {o.code: o.label for o in R.options(st, seat)}
        if step % every == 0:
            out.append((copy.deepcopy(st), seat, {o.code: o.label for o in opts}, pt))

    st, _events = bot_game("maracaibo", [f"P{i}" for i in range(n)], options, seed, seed, watch=watch)
    assert R.outcome(st) is not None
    return out


@pytest.mark.parametrize(("options", "n"), [({}, 3), ({"mode": "78"}, 3), ({"mode": "79", "promos": True}, 4),
                                            ({"mode": "74"}, 2)])
def test_it_says_every_label_of_a_whole_game_in_portuguese(options: dict[str, Any], n: int) -> None:
    missed: list[str] = []
    seen = _labels_of_a_game(options, n, "pt-labels", missed)
    assert not missed, f"labels a Portuguese player read in English: {sorted(set(missed))[:20]}"
    pairs = [(en[c], pt[c]) for _st, _seat, en, pt in seen for c in en]
    assert sum(a != b for a, b in pairs) > 0.95 * len(pairs)  # (a number alone, "2", says the same)
    said = "\n".join(b for _a, b in pairs)
    for portuguese in ("navegar ", "comprar ", "planejar ", "guardar ", "nenhuma ação principal", " dobr"):
        assert portuguese in said, portuguese
    if options.get("mode") in ("78", "79"):
        assert "Porto de Origem" in said and "lutar contra " in said


def test_it_reads_a_portuguese_label_back_as_its_option_in_either_language() -> None:
    missed: list[str] = []
    for st, seat, _en, pt in _labels_of_a_game({"mode": "78"}, 2, "pt-read", missed, every=7):
        for code, label in pt.items():
            assert R.read(label, st, seat).code == code, label
            with i18n.language("pt"):
                read = R.read(label, st, seat)
            assert read.code == code and read.label == label


def test_it_reads_a_line_the_same_way_whatever_language_the_labels_are_in() -> None:
    """The readings come from the English label the rules made (labels.english), never from the
    label the reader was shown: a line is one move or refused, in either context."""
    missed: list[str] = []
    lines = ["sail 3", "navegar 3", "comprar", "pass", "passar", "no main action", "vd", "done", "feito",
             "draw", "tirar do monte", "career 2 upper", "explore 2", "explorar 2", "end", "terminar"]
    for st, seat, en, _pt in _labels_of_a_game({}, 3, "pt-lines", missed, every=5):
        for line in lines + [en[c] for c in list(en)[:3]]:
            got: list[str] = []
            for code in ("en", "pt"):
                with i18n.language(code):
                    try:
                        got.append(R.read(line, st, seat).code)
                    except IllegalMove as e:  # a refusal (Malformed too): the same in both
                        got.append(type(e).__name__)
            assert got[0] == got[1], (line, got)


def test_it_keeps_the_english_label_of_a_translated_option() -> None:
    st = R.setup(["Ana", "Bob"], {}, "pt-english")
    seat = R.pending(st)[0]
    with i18n.language("pt"):
        shown = R.options(st, seat)
    english = {o.code: o.label for o in R.options(st, seat)}
    assert all(labels.english(o) == english[o.code] for o in shown)
    assert any(o.label != english[o.code] for o in shown)


def test_it_says_a_label_it_has_no_words_for_in_english_and_reports_it() -> None:
    missed: list[tuple[str, str]] = []
    with i18n.on_miss(lambda m, c: missed.append((m, c))):
        assert labels.label("frobnicate the quux", "pt") == "frobnicate the quux"
        assert labels.label("sail 3 to 3 Tortuga", "pt") == "navegar 3 até 3 Tortuga"
        assert labels.label("buy Old Scout (3 d) (2 left)", "pt") == "comprar Velho Batedor (3 d) (restam 2)"
        assert labels.label("buy Old Scout (3 d) (1 left)", "pt") == "comprar Velho Batedor (3 d) (resta 1)"
    assert missed == [("frobnicate the quux", "pt")]


def _events(options: dict[str, Any], n: int, seed: str, code: str, missed: list[str]) -> list[dict[str, Any]]:
    with i18n.on_miss(lambda m, c: missed.append(m)), i18n.language(code):
        st, events = bot_game("maracaibo", [f"P{i}" for i in range(n)], options, seed, seed)
    assert R.outcome(st) is not None
    return events


@pytest.mark.parametrize(("options", "n", "kinds", "words"), [
    ({}, 3, {"fight", "token", "combat_end", "annex", "quests"},
     ("luta por", "revela a ficha de combate", "termina o combate")),
    ({"mode": "78"}, 3, {"fight", "resist", "liberate", "port_bonus"},
     ("luta contra", "liberta", "peça de Resistência", "Porto de Origem")),
    ({"mode": "79", "promos": True}, 4, {"fight", "liberate", "quests"}, ("liberta", "Novas missões")),
])
def test_it_tells_combat_quests_and_the_uprising_in_portuguese_and_again_in_english(
        options: dict[str, Any], n: int, kinds: set[str], words: tuple[str, ...]) -> None:
    missed: list[str] = []
    en = _events(options, n, "pt-events", "en", missed)
    pt = _events(options, n, "pt-events", "pt", missed)
    assert not missed, f"texts a Portuguese player read in English: {sorted(set(missed))[:20]}"
    assert [e["kind"] for e in pt] == [e["kind"] for e in en]  # the same game, told in other words
    assert all("msg" in e for e in pt)
    assert {e["kind"] for e in pt} >= kinds
    for a, b in zip(pt, en, strict=True):
        assert i18n.event_text(a, "en") == b["text"]
        assert i18n.event_text(b, "pt") == a["text"]
    said = "\n".join(str(e["text"]) for e in pt if e["kind"] in kinds)
    for portuguese in words:
        assert portuguese in said, portuguese
    assert sum(a["text"] != b["text"] for a, b in zip(pt, en, strict=True)) > 0.9 * len(pt)


def test_it_uses_the_uprising_s_portuguese_rulebook_words() -> None:
    said = {text: labels.label(text, "pt") for text in (
        "liberate city 14 Cartagena (value 6, the England's 3 VP now)", "home port Genova: income: 1 influence "
        "with the nation holding the fewest locations", "resistance 2: the Spain marker there, 1 figure")}
    assert said["liberate city 14 Cartagena (value 6, the England's 3 VP now)"].startswith("Libertar Cidade 14")
    assert "Porto de Origem Gênova" in said["home port Genova: income: 1 influence with the nation holding the "
                                          "fewest locations"]
    assert said["resistance 2: the Spain marker there, 1 figure"].startswith("Resistência 2: o marcador de Espanha")
    assert i18n.translate("Unrest", "pt") == "Agitação"


def _pictures(code: str, options: dict[str, Any], missed: list[str]) -> str:
    """Every picture (wide, phone, mail) of each seat's view every 25 decisions of a bot game."""
    said: list[str] = []

    def watch(step: int, st: dict[str, Any], seat: int, opts: list[Option]) -> None:
        if step % 25 == 0:
            view = R.view(st, seat)
            said.extend([R.render_svg(view), R.render_mail_svg(view), *R.render_phone_svg(view)])

    with i18n.on_miss(lambda m, c: missed.append(m)), i18n.language(code):
        bot_game("maracaibo", ["Ana", "Bob", "Carla"], options, "pt-pictures", 5, watch=watch)
    return "\n".join(said)


@pytest.mark.parametrize("options", [{}, {"mode": "78"}])
def test_it_draws_the_board_pictures_with_portuguese_labels_and_legends(options: dict[str, Any]) -> None:
    missed: list[str] = []
    pt = _pictures("pt", options, missed)
    assert not missed, f"picture texts a Portuguese player read in English: {sorted(set(missed))[:20]}"
    en = _pictures("en", options, missed)
    for english, portuguese in [("circle: village; square: city,", "círculo: vila; quadrado: cidade,"),
                                ("Explorer track", "Trilha do explorador"), (">Influence<", ">Influência<"),
                                ("Your cards in play", "As suas cartas em jogo"), ("Display (draw for",
                                                                                   "Exposição (tirar por"),
                                ("Near your ship (framed)", "Perto do seu navio (enquadrado)")]:
        assert english in en and english not in pt and portuguese in pt, english


def test_it_explains_a_refused_line_to_a_portuguese_reader_in_portuguese() -> None:
    # QA (issue 27): Maracaibo's own reasons ("deliver which good?", "you have planned ... already")
    # reached a Portuguese player in English
    import copy

    st = R.setup(["P0", "P1", "P2"], {}, "pt-why")
    seat = R.pending(st)[0]
    R.apply(st, seat, next(o for o in R.options(st, seat) if o.code.startswith("p")).move)
    other = next(o.label for o in R.options(st, seat) if o.code.startswith("k")).split(" ", 1)[1]
    with i18n.language("pt"), pytest.raises(IllegalMove) as refused:
        R.read(f"planejar {other}", st, seat)
    assert "já planejou" in str(refused.value) and "agora guarde mais 4 das cartas recebidas" in str(refused.value)
    assert "already" not in str(refused.value)
    with pytest.raises(IllegalMove) as refused:
        R.read(f"plan {other}", st, seat)
    assert "you have planned" in str(refused.value) and "now keep 4 more of the dealt cards" in str(refused.value)
    # every reason said along a whole game comes from the catalogue: none is missing in pt
    missed: list[str] = []
    reasons: list[str] = []
    lines = ["entregar tabaco", "entregar", "planejar 99", "navegar 9", "navegar 12", "comprar 1", "vd",
             "missão", "tirar 9", "tirar 3 do monte", "explorar 5", "revelar t1", "lutar contra a frança", "carreira"]

    def watch(step: int, st: dict[str, Any], seat: int, opts: list[Option]) -> None:
        if step % 9 == 0:
            for line in lines:
                with i18n.on_miss(lambda m, c: missed.append(m)), i18n.language("pt"):
                    try:
                        R.read(line, copy.deepcopy(st), seat)
                    except IllegalMove as e:
                        reasons.append(str(e))

    bot_game("maracaibo", [], {}, "pt-why", "pt-why", steps=3000, watch=watch, state=st)
    said = "\n".join(reasons)
    assert not missed, sorted(set(missed))[:20]
    assert "não é uma jogada válida agora" in said or "não foi entendida" in said, said[:500]
    for english in ("you have no", "is not a village", "there is no", "cannot be reached", "a ship sails",
                    "deliver which good", "your main phase has ended", "not in your hand"):
        assert english not in said, english


def test_it_says_the_board_in_words_pieces_qa_found_in_english_in_portuguese() -> None:
    # QA (issue 27): "action:" on city actions, "a nation of your choice", "1 doubloon"/"2 VP" inside
    # quests, "space 11", the reader's "(you)" and "ship upgrades ..., 24 discs left, career" in a pt mail
    missed: list[str] = []
    boards = []

    def watch(step: int, st: dict[str, Any], seat: int, opts: list[Option]) -> None:
        if step % 40 == 0:
            with i18n.on_miss(lambda m, c: missed.append(m)), i18n.language("pt"):
                boards.append(R.render_mail_text(R.view(st, seat)))

    bot_game("maracaibo", ["ana", "dora", "P2"], {}, "probe", 1, steps=400, watch=watch)
    said = "\n".join(boards)
    assert not missed, sorted(set(missed))[:20]
    assert "ação de cidade: " in said and "espaço 11: missão" in said and "discos restantes" in said
    assert "(você)" in said and "carreira K" in said and "PV no fim: " in said
    assert " virados para baixo" in said and " 3 virado para baixo" not in said
    # (the map, the tracks, the players and the reader's cards: up to what they may do here, whose
    # ship areas' texts are not all said yet)
    board = "\n".join(re.split(r"\n(?:UMA AÇÃO|ONDE O SEU)", b)[0] for b in boards)
    for english in ("action: ", " doubloon", " VP", "space 1", "(you)", "discs left", "career ", "a nation of",
                    "owns it", "market "):
        lines = [line for line in board.splitlines() if english in line]
        assert not lines, (english, lines[:3])


def test_no_general_pattern_keeps_an_english_text_unsaid() -> None:
    """QA (issue 27): ``% @`` and ``%: @`` kept a text's first words as they were (``%``: a name,
    kept) when nothing more particular said it, so a half-English line reached a Portuguese player
    without a catalogue miss ("deliver tabaco/algodão", "3 VP now; pegar display cartas por free").
    A ``%`` stands beside words of its own only; a text nothing says is a miss."""
    import json
    from pathlib import Path

    data = json.loads((Path(labels.__file__).parent / "data" / "labels.pt.json").read_text(encoding="utf-8"))
    for pattern, _said in data["patterns"]:
        if "%" in pattern:
            assert re.search(r"[A-Za-z]{2,}", pattern), pattern
    missed: list[str] = []
    with i18n.on_miss(lambda m, c: missed.append(m)):
        assert labels.label("frobnicate 3 doubloons", "pt") == "frobnicate 3 doubloons"
        assert labels.label("Ana frobnicates", "pt") == "Ana frobnicates"
    assert missed == ["frobnicate 3 doubloons", "Ana frobnicates"]


def test_it_says_the_ship_areas_a_disc_may_come_from_whole() -> None:
    """QA (issue 27): the ship areas' texts in the mail's "A MAIN ACTION HERE" were half English: a
    list joined by "; " was cut inside an area's own "; " ("3 VP now; take display cards for free")."""
    missed: list[str] = []
    with i18n.on_miss(lambda m, c: missed.append(m)):
        said = labels.label(
            "The disc may come from ship area U1 (more village actions (2 at 2-4 movement, 3 at 5+)); U2 (hand "
            "limit 6); U3 (3 VP now; take display cards for free); U4 (5 doubloons now); U8 (village action: 1 "
            "combat point and 1 doubloon).", "pt")
        sailing = labels.label("13 Port Royal (2): deliver tobacco/cotton (3 d), city action", "pt")
    assert not missed, missed
    assert said == ("O disco pode vir da área do navio U1 (mais ações de vila (2 com movimento 2-4, 3 com 5+)); U2 "
                    "(limite de mão 6); U3 (3 PV agora; pegar cartas da exposição de graça); U4 (5 dobrões agora); "
                    "U8 (ação de vila: 1 ponto de combate e 1 dobrão).")
    assert sailing == "13 Port Royal (2): entregar tabaco/algodão (3 d), ação de cidade"


def test_it_says_every_cards_text_and_every_ship_area_whole() -> None:
    """What ``% @`` hid (issue 27): card texts a Portuguese mail showed half English ("+5 VP income once
    you have 5 combat tokens", "return a figure (explorer past the blue barrier)"); each card's line and
    each ship area's words are said whole now, and the players' lines say a home port's effect."""
    from engine.games.maracaibo import content as C
    from engine.games.maracaibo import homeports as H

    missed: list[str] = []
    with i18n.on_miss(lambda m, c: missed.append(m)):
        for cid in C.CARD:
            labels.label(C.card_text(cid), "pt")
        for u in C.UPGRADES:
            labels.label(str(u["text"]), "pt")
        for hp in H.U.PORTS:
            labels.label(f"home port {hp['name']} (locked): {H.port_text(hp)}", "pt")
        labels.label("action: 1 VP per combat token on your ship board; you may discard your hand for 4 doubloons",
                     "pt")
    assert not missed, missed


def test_it_says_the_uprisings_legacy_tags_on_the_map() -> None:
    from engine.games.maracaibo.render_map import NEW_TAGS

    missed: list[str] = []
    with i18n.on_miss(lambda m, c: missed.append(m)):
        said = {k: labels.label(v, "pt") for k, v in NEW_TAGS.items()}
    assert not missed, missed
    assert said["L33"] == "disco + vila" and said["L37"] == "disco: segue para 2"


@pytest.mark.parametrize(("options", "n"), [({}, 1), ({"mode": "74"}, 3), ({"campaign": True}, 2),
                                            ({"mode": "193"}, 2)])
def test_it_says_the_automas_and_the_storys_lines_on_the_board_in_words(options: dict[str, Any], n: int) -> None:
    """What ``%: @`` hid (issue 27): "Jean (the automa, difficulty 3): ...", "Jacques (the automa, Medium):
    ...", the story's cards and tiles, The Search's card 191, a legacy tile's stop in the sailing list,
    each said whole now."""
    rnd = random.Random(4)
    missed: list[str] = []
    st = R.setup([f"P{i}" for i in range(n)], options, "pt-automa")
    said = []
    for step in range(600):
        pending = R.pending(st)
        if not pending:
            break
        seat = pending[0]
        if step % 20 == 0:
            with i18n.on_miss(lambda m, c: missed.append(m)), i18n.language("pt"):
                said.append(R.render_text(R.view(st, seat)))
        R.apply(st, seat, R.bot_choice(st, seat, R.options(st, seat), rnd).move)
    text = "\n".join(said)
    assert not missed, sorted(set(missed))[:10]
    if n == 1:
        assert "Jean (o autômato, dificuldade" in text
    if options.get("mode") == "74":
        assert "Jacques (o autômato, " in text
    if options.get("mode") == "193":
        assert "A Busca" in text and "The Search" not in text


def test_jacques_round_line_says_card_or_cards_in_both_languages() -> None:
    """QA (#22, #27): "for the 1 card(s) he revealed"."""
    from engine.games.maracaibo import labels

    assert labels.say("Jacques scores 1 VP for the 1 card he revealed this round; they go under his pile.", "pt") == (
        "Jacques marca 1 PV pela 1 carta que revelou nesta rodada; vão para debaixo da sua pilha.")
    assert labels.say("Jacques scores 3 VP for the 2 cards he revealed this round; they go under his pile.", "pt") == (
        "Jacques marca 3 PV pelas 2 cartas que revelou nesta rodada; vão para debaixo da sua pilha.")
    # the module's source file, not inspect.getsource: CI also runs these tests on the compiled engine
    source = Path(__file__).resolve().parents[2] / "engine" / "games" / "maracaibo" / "jacques.py"
    assert "card(s)" not in source.read_text(encoding="utf-8")


def test_a_portuguese_mail_says_the_turns_played_and_the_table_heads_in_portuguese() -> None:
    """QA (#27): "3 vezes jogadas" (the wrong sense), the English "1 turns played", and the column heads
    at/expl/qst/tok/dlv in English in a Portuguese mail."""
    from engine import get

    rules = get("maracaibo")
    state = rules.setup(["Ana", "Bo"], {"mode": "79"}, "heads")
    english = rules.render_mail_text(rules.view(state, 0))
    assert "(Unrest); turns played: 0." in english and " at\n" in english
    missed: list[str] = []
    with i18n.on_miss(lambda m, c: missed.append(m)), i18n.language("pt"):
        said = rules.render_mail_text(rules.view(state, 0))
    assert "Rodada 1 de 4, cenário 79 (Agitação); turnos jogados: 0." in said and "vezes" not in said
    heads = [line for line in said.splitlines() if line.rstrip().endswith((" nav", " ent"))]
    assert [h.split() for h in heads] == [["PV", "d", "renda", "PC", "fig", "mão", "nav"],
                                          ["expl", "F/I/E", "mis", "fch", "ent"]], heads
    assert not [m for m in missed if "(column)" in m or "turns played" in m], missed


@pytest.mark.parametrize(("english", "portuguese"), [
    ("P0: +5 VP for the explorer (ahead of Jacques); -5 VP for fewer quests than Jacques: 57 VP.",
     "P0: +5 PV pelo explorador (à frente de Jacques); -5 PV por menos missões do que Jacques: 57 PV."),
    ("Bo: -5 VP for the explorer (behind Jacques): 68 VP.", "Bo: -5 PV pelo explorador (atrás de Jacques): 68 PV."),
    ("Jacques reveals no card: he ends the round after each player's next turn (1 more).",
     "Jacques não revela carta: termina a rodada depois do próximo turno de cada jogador (mais 1)."),
    ("Luysa is found! She is held at 19 Campeche (L39): free her there for 5 combat points, or pay 15 doubloons at "
     "the end. Every hint leaves the game.",
     "Luysa foi encontrada! Está presa em 19 Campeche (L39): liberte-a lá por 5 pontos de combate, ou pague 15 "
     "dobrões no fim. Todas as pistas saem do jogo."),
    ("Ana frees Luysa for 5 combat points!", "Ana liberta Luysa por 5 pontos de combate!"),
])
def test_jacques_and_the_searchs_lines_are_said_whole_in_portuguese(english: str, portuguese: str) -> None:
    """QA (#27): half of Jacques's line and The Search's line stayed English in a Portuguese mail."""
    from engine.games.maracaibo import labels

    assert labels.say(english, "pt") == portuguese


def test_a_cards_village_action_option_is_said_in_portuguese() -> None:
    """Options of a bought card's village action stayed English (found playing 79 in Portuguese)."""
    from engine.games.maracaibo import labels

    assert labels.say("village action of Fence: pay 2 identical goods for 5 doubloons (1 left)", "pt") == (
        "ação de vila de Receptador: pagar 2 mercadorias idênticas por 5 dobrões (resta 1)")
    assert labels.say("village action of Adventurer's Board, the last: fulfil quest UQ15 or UQ11", "pt") == (
        "ação de vila de Tabuleiro do Aventureiro, a última: cumprir a missão UQ15 ou UQ11")


def test_it_counts_doubloons_victory_and_combat_points_in_both_languages() -> None:
    """QA (#27): "Ana recebe 1 dobrões", "paga 1 dobrões", "1 pontos de vitória": every counted noun of a
    gain, a payment and the income said with its number's form (ngettext), and a word stored before it
    was counted ({"_": "{n} VP", "n": 1}, an older game's event) said with it too."""
    from engine.games.maracaibo import effects
    from engine.rng import Rng

    def told(g: dict[str, Any], d: int = 5) -> tuple[str, str]:
        state = R.setup(["Ana", "Bruno"], R.check_options(2, {}), "plurals")
        state["seats"][0]["doubloons"] = d
        ev: list[Any] = []
        effects.gain(state, 0, g, Rng(state), ev, "city")
        gained = [e for e in ev if e.kind == "gain"][-1]
        return gained.text, i18n.render(gained.msg, "pt")

    assert told({"d": 1, "vp": 1, "cp": 1}) == ("Ana gets 1 doubloon, 1 VP, 1 combat point.",
                                                 "Ana recebe 1 dobrão, 1 ponto de vitória, 1 ponto de combate.")
    assert told({"d": 2, "vp": 3, "cp": 2}) == ("Ana gets 2 doubloons, 3 VP, 2 combat points.",
                                                 "Ana recebe 2 dobrões, 3 pontos de vitória, 2 pontos de combate.")
    assert told({"d": -1}) == ("Ana pays 1 doubloon.", "Ana paga 1 dobrão.")
    assert told({"d": -3, "vp": 1}) == ("Ana pays 3 doubloons and gets 1 VP.",
                                        "Ana paga 3 dobrões e recebe 1 ponto de vitória.")
    state = R.setup(["Ana", "Bruno"], R.check_options(2, {}), "plurals")
    state["seats"][0]["income_doubloons"], state["seats"][0]["income_victory_points"] = 0, 0
    ev: list[Any] = []
    effects.apply_income(state, 0, {"d": 1}, ev)
    income = [e for e in ev if e.kind == "income"][-1]
    assert i18n.render(income.msg, "pt").endswith(" 1 dobrão e 0 pontos de vitória."), i18n.render(income.msg, "pt")
    # an older game's stored words and texts
    old = i18n.msg("{player} gets {what}.", player="Ana", what=[i18n.word("{n} doubloons", n=1),
                                                                i18n.word("{n} VP", n=1)])
    assert i18n.render(old, "pt") == "Ana recebe 1 dobrão, 1 ponto de vitória."  # (its noun by its number, #27)
    assert i18n.render(i18n.msg("{player} pays {paid} doubloons.", player="Ana", paid=4), "pt") == "Ana paga 4 dobrões."


def test_a_refused_draw_quotes_portuguese_notation_that_reads_as_it_says() -> None:
    """QA (#27): a Portuguese reader's refusal quoted 'draw 2 from the display' and 'draw N from the
    pile'; it quotes 'tirar 2 da exposição', 'tirar N do monte', and each reads as it says ("do" no
    longer a synonym of fulfil in Maracaibo: 'tirar 1 do monte' read as a quest)."""
    from tests.engine import maracaibo_scenarios

    state, seat = maracaibo_scenarios.draw()
    with i18n.language("pt"), pytest.raises(IllegalMove) as refused:
        R.parse("tirar 2", state, seat)
    said = str(refused.value)
    assert "'tirar 2'" in said and "'tirar 2 da exposição'" in said, said
    assert "'draw" not in said and "from the" not in said, said
    with i18n.language("pt"):
        assert R.parse("tirar 2 da exposição", state, seat) == R.parse("draw 2 from the display", state, seat)
        assert R.parse("tirar 1 do monte", state, seat) == R.parse("draw 1 from the pile", state, seat)
    catalogue = Path(__file__).resolve().parents[2] / "engine" / "locale" / "pt" / "LC_MESSAGES" / "engine.po"
    quoted = {q for block in catalogue.read_text(encoding="utf-8").split("\n\n") if "\nmsgstr" in block
              for q in re.findall(r"'([^'\n]+)'", block[block.index("\nmsgstr"):].replace('"\n"', ""))}
    english = {q for q in quoted if re.match(r"(draw|sail|buy|annex|reveal|deliver|plan|keep|fight)\b", q)}
    assert english == set(), english


def test_it_says_one_doubloon_and_a_village_action_count_without_a_plural_after_1() -> None:
    """QA (#27), found playing by mail in Portuguese: 'Pode pagar: nenhuma das suas cartas (1 dobrões).'
    and 'comprar ... (1 de 1 ações de vila)'."""
    assert labels.say("You can pay for: none of your cards (1 doubloons).", "pt") == (
        "Pode pagar: nenhuma das suas cartas (1 dobrão).")
    assert labels.say("You can pay for: none of your cards (3 doubloons).", "pt") == (
        "Pode pagar: nenhuma das suas cartas (3 dobrões).")
    assert labels.say("buy Wealthy Gunner (3 d) (1 of 1 village actions)", "pt") == (
        "comprar Artilheiro Rico (3 d) (ação de vila 1 de 1)")


@pytest.mark.parametrize(("english", "portuguese"), [
    ("P0's Village Elder: 2 different village actions this turn.",
     "Ancião da Vila de P0: 2 ações de vila diferentes neste turno."),
    ("Jean removes a disc from her automa board (5 off it).",
     "Jean remove um disco do seu tabuleiro de automa (5 fora dele)."),
    ("P0 pays Luysa's ransom of 15 doubloons: she is free.",
     "P0 paga o resgate de Luysa de 15 dobrões: ela está livre."),
    ("P2 pays 1 doubloon.", "P2 paga 1 dobrão."),
    ("P1 has voted.", "P1 votou."),
    ("Jean's explorer is at the end of the track already.", "O explorador de Jean já está no fim da trilha."),
    ("Jean reveals her card C4: 2 stops by the lower route, display card 4; round 1: combat, 3 influence and an extra "
     "village, 2 VP.",
     "Jean revela a sua carta C4: 2 paradas pela rota inferior, carta da exposição 4; rodada 1: combate, "
     "3 influência e uma vila extra, 2 PV."),
])
def test_it_says_the_events_other_seeds_showed_in_english(english: str, portuguese: str) -> None:
    """QA (#27): bot games on other seeds than the tests' told these in English to a Portuguese reader (a
    catalogue miss each): a card's count this turn, Jean's disc, Luysa's ransom, a payment, a vote."""
    assert labels.say(english, "pt") == portuguese


def test_a_home_port_is_named_in_portuguese_as_its_row_names_it() -> None:
    """Review (#20): Genova's income event said "(Gênova)" in Portuguese where the port's row, its mails'
    lists and the Portuguese rulebook ("Não recomendamos o uso de 'Genova'") say Genova: every pattern or
    phrase naming a home port says its row's ``pt`` name, and so does the event a Portuguese reader gets."""
    import json

    from engine.games.maracaibo import uprising_content as U

    data = json.loads((Path(labels.__file__).parent / "data" / "labels.pt.json").read_text(encoding="utf-8"))
    said = [*data["patterns"], *([k, v] for k, v in data["phrases"].items())]
    wrong = [(hp["pt"], en, pt) for en, pt in said for hp in U.PORTS
             if re.search(rf"(?<!\w){re.escape(hp['name'])}(?!\w)", en) and hp["pt"] not in pt]
    assert not wrong, wrong
    assert labels.label("Ana scores 4 VP (Genova).", "pt") == "Ana marca 4 PV (Genova)."
