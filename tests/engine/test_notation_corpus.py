"""The notation corpora: lines players type, each with the move it must read as, or ``refused``.

``tests/engine/notation/<game>.txt`` holds them. ``@ scenario`` starts a block read in a state
built below (one per decision kind); each line is ``typed => code`` (the option code it must be
read as) or ``typed => refused`` (it must be refused: Malformed or IllegalMove). A line of
sub-decisions (``buy Pious Gunner, explore 2``) names the codes of its steps in order,
``typed => b14, e2``: read through ``engine.batch.apply_batch`` as a mail's line is, each step the
option of that code where it stands; a ``refused`` line with commas must be refused there too,
whole (no step of it applied). Grow a corpus whenever a line is misread: add it with the
reading it should have had.

``python -m tests.engine.test_notation_corpus`` prints the figures that docs/rules/<game>.md quote.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import get, i18n
from engine.batch import Command, apply_batch
from engine.core import Rules
from engine.errors import IllegalMove
from tests.engine import maracaibo_scenarios
from tests.engine import test_caravelas_rules as C
from tests.engine import test_maretta_rules as M

HERE = Path(__file__).with_name("notation")
State = dict[str, Any]
Scenario = Callable[[], tuple[State, int]]

# ---- Maretta ------------------------------------------------------------------------------------

NAMES = ["Ana", "Bob", "Carla"]


def _named(st: State) -> State:
    st["players"] = list(NAMES)
    return st


def m_p1() -> tuple[State, int]:
    """Side A phase one: Ana holds 3 Fire, 3 Wood, 2 Rope, 4 Food, the Steamship card."""
    st = _named(M.side_a_turn([["3fi", "3wo", "2ro", "4fo", "ss"], ["5ro", "1wa", "2fi", "2wa"],
                               ["1ro", "1fo", "3wa", "4wa"]]))
    return st, 0


def m_place_a() -> tuple[State, int]:
    """Side A phase two: Bob places 1 Water, 2 Fire or 2 Water on Ana's or Carla's raft."""
    st = _named(M.side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"],
                               ["1ro", "1fo", "3wa", "4wa"]], start=1))
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        M.play(st, s, c)
    return st, 1


def m_place_own() -> tuple[State, int]:
    """Side A phase two, last to place: Ana must put a card on her own raft."""
    st = _named(M.side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"],
                               ["1ro", "1fo", "3wa", "4wa"]], start=1))
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        M.play(st, s, c)
    M.play(st, 1, "2fi-3")
    st["pos"] = [0, 0, 0]
    if st["todo"][-1]["t"] == "barrel":
        st["todo"].pop()
    M.play(st, 2, "3wa-2")
    return st, 0


def m_steal() -> tuple[State, int]:
    """Side A: Ana gave 4 Rope to Carla, who has 4 Rope in stock: steal it (or 2 Fire) or move 2."""
    st = _named(M.side_a_turn([["3fi", "4ro", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"],
                               ["1ro", "1fo", "3wa", "4wa"]], stock=[[], [], ["4ro", "2fi"]]))
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        M.play(st, s, c)
    M.play(st, 0, "4ro-3")
    return st, 0


def m_barrel() -> tuple[State, int]:
    """Ana chooses barrel 1 (face down) or barrel 2 (Anchor)."""
    return _named(M.barrel_game("mo", up=False)), 0


def m_barrel_up() -> tuple[State, int]:
    """Ana chooses barrel 1 (Pelican) or barrel 2 (Anchor), both face up."""
    return _named(M.barrel_game("pe")), 0


def m_monkey() -> tuple[State, int]:
    """A Monkey: Ana takes 3 Food or 4 Water from Bob, or 5 Rope or 1 Fire from Carla."""
    st = _named(M.barrel_game("mo", stock=[[], ["3fo", "4wa"], ["5ro", "1fi"]]))
    M.play(st, 0, "b1")
    return st, 0


def m_discard() -> tuple[State, int]:
    """A Shark: Ana discards 1 Fire or 2 Rope from her stock."""
    st = _named(M.barrel_game("sh", stock=[["1fi", "2ro"], [], []]))
    M.play(st, 0, "b1")
    return st, 0


def m_pelican() -> tuple[State, int]:
    """A Pelican: Ana looks at Bob's or Carla's hand."""
    st = _named(M.barrel_game("pe"))
    M.play(st, 0, "b1")
    return st, 0


def m_spear() -> tuple[State, int]:
    """A Fishing Spear: Bob and Carla are both just in front of Ana; she swaps with one."""
    st = _named(M.barrel_game("sp", pos=[4, 6, 6]))
    M.play(st, 0, "b1")
    return st, 0


def m_place_b() -> tuple[State, int]:
    """Side B phase one: Ana gives 1 Food, 2 Wood, 3 Rope or 4 Water to Bob or Carla."""
    st = _named(M.side_b_turn([["1fo", "2wo", "3ro", "4wa"], ["5wo", "2fi", "3fi", "4fi"],
                               ["1wa", "2fo", "5wo", "1ro"]]))
    return st, 0


def m_play_b() -> tuple[State, int]:
    """Side B phase two: Carla has 1 Water in position 2 and holds 2 Food, 5 Wood, 1 Rope: only 5 Wood."""
    st, _ = m_place_b()
    M.play(st, 0, "1fo-3")
    M.play(st, 1, "2fi-1")
    M.play(st, 2, "1wa-2")
    M.play(st, 0, "3ro")
    M.play(st, 1, "3fi")
    return st, 2


def m_play_b_ana() -> tuple[State, int]:
    """Side B phase two: Ana has 2 Fire in position 2 and holds 2 Wood, 3 Rope, 4 Water."""
    st, _ = m_place_b()
    M.play(st, 0, "1fo-3")
    M.play(st, 1, "2fi-1")
    M.play(st, 2, "1wa-2")
    return st, 0


def m_monkey_b() -> tuple[State, int]:
    """Side B Monkey: Ana takes from Bob's or Carla's stock."""
    st = _named(M.barrel_game("mo", side="B", stock=[[], ["3fo", "4wa"], ["5ro", "1fi"]]))
    M.play(st, 0, "b1")
    return st, 0


def m_discard_b() -> tuple[State, int]:
    st = _named(M.barrel_game("an", side="B", stock=[["1fi", "2ro"], [], []]))
    M.play(st, 0, "b1")
    return st, 0


def m_barrel_b() -> tuple[State, int]:
    return _named(M.barrel_game("tr", side="B", up=False)), 0


# ---- Caravelas ----------------------------------------------------------------------------------


def c_lisboa() -> tuple[State, int]:
    """Ana in Lisboa with the 1 and the 3, no cargo, nothing drawn yet."""
    return C.put(C.game(3), 0, hand=[1, 3], disc=["guine"]), 0


def c_hand() -> tuple[State, int]:
    """Ana in Cabo Verde with the 2, the 4 and the 5."""
    return C.put(C.game(3), 0, at="cabo-verde", hand=[2, 4, 5]), 0


def c_arguim() -> tuple[State, int]:
    """Ana in Arguim with the 2 and the 4 (both reach Guiné)."""
    return C.put(C.game(3), 0, at="arguim", hand=[2, 4]), 0


def c_deliver() -> tuple[State, int]:
    """Ana back in Lisboa with a red cube: deliver, move on, or end."""
    st = C.put(C.game(3), 0, at="s1", hand=[1, 2, 3], cargo=["red"])
    C.play(st, 0, "move 1 to lisboa")
    return st, 0


def c_keep() -> tuple[State, int]:
    """Ana drew Guiné, Malaca and São Tomé (holding one card: she may keep all three)."""
    st = C.put(C.game(3), 0, disc=["arguim"])
    for c in ("guine", "malaca", "sao-tome"):
        for f in st["fleets"]:
            if c in f["disc"]:
                f["disc"].remove(c)
                st["dpile"].append(c)
        st["dpile"].remove(c)
    st["dpile"][0:0] = ["guine", "malaca", "sao-tome"]
    C.play(st, 0, "draw")
    return st, 0


def c_keep_one() -> tuple[State, int]:
    """Ana holds three discovery cards and drew Guiné, Malaca and São Tomé: she may keep one."""
    st, seat = c_keep()
    f = st["fleets"][0]
    extra = [c for c in st["dpile"] if c not in ("guine", "malaca", "sao-tome")][:2]
    for c in extra:
        st["dpile"].remove(c)
    f["disc"].extend(extra)
    st["v"] += 1
    return st, seat


def c_sink() -> tuple[State, int]:
    """A 1 at the Cape; caravela 2 is already sunk, Ana carries red and black."""
    st = C.put(C.game(3), 0, at="s25", hand=[1, 2], sunk=[2])
    C.rig_die(st, 1)
    C.play(st, 0, "move 1 to cabo")
    return st, 0


def c_cards() -> tuple[State, int]:
    """Ana ended her turn with 2, 3, 3 and 5: keep or return them."""
    st = C.put(C.game(3), 0, hand=[2, 3, 3, 5])
    C.play(st, 0, "end")
    return st, 0


SCENARIOS: dict[str, dict[str, Scenario]] = {
    "maretta-A": {"p1": m_p1, "place": m_place_a, "place-own": m_place_own, "steal": m_steal,
                  "barrel": m_barrel, "barrel-up": m_barrel_up, "monkey": m_monkey, "discard": m_discard,
                  "pelican": m_pelican, "spear": m_spear},
    "maretta-B": {"place": m_place_b, "play": m_play_b, "play-ana": m_play_b_ana, "monkey": m_monkey_b,
                  "discard": m_discard_b, "barrel": m_barrel_b},
    "caravelas": {"lisboa": c_lisboa, "hand": c_hand, "arguim": c_arguim, "deliver": c_deliver,
                  "keep": c_keep, "keep-one": c_keep_one, "sink": c_sink, "cards": c_cards},
    "maracaibo": maracaibo_scenarios.SCENARIOS,
}
GAME_OF = {"maretta-A": "maretta", "maretta-B": "maretta", "caravelas": "caravelas", "maracaibo": "maracaibo"}
# The Portuguese corpora (issue 27): the same scenarios, lines in Portuguese, read by a Portuguese
# player (the options in Portuguese; an English corpus is read in the default English context)
for _corpus in list(SCENARIOS):
    if (HERE / f"{_corpus}.pt.txt").exists():
        SCENARIOS[f"{_corpus}.pt"] = SCENARIOS[_corpus]
        GAME_OF[f"{_corpus}.pt"] = GAME_OF[_corpus]


def load(corpus: str) -> list[tuple[str, str, str, int]]:
    """(scenario, typed line, expected code or 'refused', line number) for each corpus line."""
    out = []
    scenario = ""
    for no, raw in enumerate((HERE / f"{corpus}.txt").read_text("utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@"):
            scenario = line[1:].split()[0]
            continue
        typed, sep, expect = line.rpartition("=>")
        assert sep, f"{corpus}.txt:{no}: no '=>' in {raw!r}"
        out.append((scenario, typed.strip(), expect.strip(), no))
    return out


def judge(corpus: str) -> tuple[list[str], dict[str, int]]:
    """Every line of a corpus read in its scenario: the failures and the figures (a ``.pt``
    corpus read by a Portuguese player: ``engine.i18n.language("pt")``)."""
    with i18n.language("pt" if corpus.endswith(".pt") else "en"):
        return _judge(corpus)


def _judge(corpus: str) -> tuple[list[str], dict[str, int]]:
    rules = get(GAME_OF[corpus])
    built: dict[str, tuple[State, int]] = {}
    failures: list[str] = []
    figures = {"lines": 0, "understood": 0, "refused": 0}
    for scenario, typed, expect, no in load(corpus):
        if scenario not in built:
            built[scenario] = SCENARIOS[corpus][scenario]()
        st, seat = built[scenario]
        figures["lines"] += 1
        if "," in expect or (expect == "refused" and len(rules.line_parts(typed)) > 1):
            failure = _judge_chain(rules, st, seat, typed, expect)
            if failure:
                failures.append(f"{corpus}.txt:{no} [{scenario}] {typed!r} {failure}")
            else:
                figures["refused" if expect == "refused" else "understood"] += 1
            continue
        try:
            got: Any = rules.parse(typed, st, seat)
        except IllegalMove as exc:
            got = exc
        if expect == "refused":
            if isinstance(got, IllegalMove):
                figures["refused"] += 1
            else:
                failures.append(f"{corpus}.txt:{no} [{scenario}] {typed!r} should be refused, read as {got}")
            continue
        wanted = [o.move for o in rules.options(st, seat) if o.code == expect]
        assert wanted, f"{corpus}.txt:{no}: {expect!r} is not an option code in scenario {scenario}"
        if got == wanted[0]:
            figures["understood"] += 1
        else:
            failures.append(f"{corpus}.txt:{no} [{scenario}] {typed!r} should read as {expect}, got {got}")
    return failures, figures


def _judge_chain(rules: Rules, st: State, seat: int, typed: str, expect: str) -> str:
    """A line of sub-decisions read as a mail's line: '' when it reads as ``expect``, else why not."""
    result = apply_batch(rules, copy.deepcopy(st), seat, [Command(text=typed)])
    if expect == "refused":
        return "" if result.refused is not None and not result.steps else f"should be refused, read as {result.steps}"
    wanted, trial = [], copy.deepcopy(st)
    for code in (c.strip() for c in expect.split(",")):
        move = next((o.move for o in rules.options(trial, seat) if o.code == code), None)
        assert move is not None, f"{code!r} is not an option code where it stands"
        wanted.append(move)
        rules.apply(trial, seat, move)
    got = [s.move for s in result.steps]
    if result.refused is not None or got != wanted:
        return f"should read as {expect}, got {got} ({result.refused and result.refused.error.message})"
    return ""


@pytest.mark.parametrize("corpus", sorted(SCENARIOS))
def test_it_reads_every_line_of_the_corpus_as_intended(corpus: str) -> None:
    failures, figures = judge(corpus)
    assert not failures, "\n".join(failures)
    assert figures["lines"] >= 150
    # every decision kind of the game is covered by a scenario that has lines
    assert {s for s, *_ in load(corpus)} == set(SCENARIOS[corpus])


def test_it_says_why_a_card_cannot_go_in_position_1_on_side_b() -> None:
    st, seat = m_play_b()  # Carla has 1 Food in position 2
    with pytest.raises(IllegalMove, match=r"2 Food is not a card you can use now: it shares a suit with the "
                                          r"card in position 2 \(1 Food\)"):
        get("maretta").parse("play 2 food", st, seat)
    with pytest.raises(IllegalMove, match=r"it shares a number with the card in position 2 \(1 Food\)"):
        get("maretta").parse("play 1 rope", st, seat)


def test_it_says_a_sunk_caravela_is_already_sunk_and_never_between_1_and_1() -> None:
    rules = get("caravelas")
    st, seat = c_sink()
    with pytest.raises(IllegalMove, match="caravela 2 is already sunk"):
        rules.parse("sink caravela 2", st, seat)
    st, seat = c_keep_one()
    with pytest.raises(IllegalMove, match="you can keep only one more discovery card") as err:
        rules.parse("keep guine, malaca", st, seat)
    assert "between" not in str(err.value)


def test_it_says_what_a_guess_was_read_as() -> None:
    st, seat = m_place_a()
    reading = get("maretta").read("give 1 water to Karla", st, seat)
    assert reading.move == {"a": "give", "c": "1wa", "p": 2}
    assert reading.notes == ("read `karla` as Carla",)
    assert get("maretta").read("give 1 water to carla", st, seat).notes == ()


if __name__ == "__main__":  # the figures quoted in docs/rules/<game>.md
    for name in sorted(SCENARIOS):
        fails, figs = judge(name)
        print(f"{name}: {figs['lines']} lines, {figs['understood']} understood, {figs['refused']} refused as "
              f"intended, {len(fails)} misread")
        for f in fails:
            print("  ", f)
