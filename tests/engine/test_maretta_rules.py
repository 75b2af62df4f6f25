"""Maretta, rule by rule, on states built for each rule; the rulebook's worked examples included.

The helpers here (``game``, ``edit``, ``set_barrels``, ``at_barrel``, ``play``) are shared by the
other ``test_maretta_*`` files.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import get
from engine.errors import IllegalMove, NotYourTurn
from engine.games.maretta.rules import DATA, all_resource_cards

R = get("maretta")
COLOURS = ["Purple", "Pink", "Yellow", "Blue", "Green"]
PURPLE, PINK, YELLOW, BLUE = 0, 1, 2, 3


def game(side: str = "A", n: int = 3, seed: int = 1, start: int | None = None, **options: Any) -> dict[str, Any]:
    """A new game; with ``start``, the first seed from ``seed`` on whose starting player that is."""
    while True:
        st = R.setup(COLOURS[:n], {"side": side, **options}, seed)
        if start is None or st["start"] == start:
            return st
        seed += 1


def edit(st: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """Change a state by hand, as the tests' situations need (bumps the version, like apply does)."""
    st.update(fields)
    st["v"] += 1
    return st


def set_barrels(st: dict[str, Any], spots: dict[int, list[tuple[str, bool]]]) -> None:
    st["bar"] = {str(p): [[k, up] for k, up in bs] for p, bs in spots.items()}
    st["barv"] = {str(p): [k if up else "?" for k, up in bs] for p, bs in spots.items()}
    st["v"] += 1


def at_barrel(st: dict[str, Any], seat: int, barrels: list[tuple[str, bool]]) -> None:
    """Seat's move has just ended on ``barrels`` (as the engine does after a move)."""
    p = st["pos"][seat]
    set_barrels(st, {p: barrels})
    st["todo"].append({"t": "barrel", "s": seat, "at": p})
    st["v"] += 1


def play(st: dict[str, Any], seat: int, code: str) -> list[Any]:
    return R.apply(st, seat, {"code": code})


def codes(st: dict[str, Any], seat: int) -> list[str]:
    return [o.code for o in R.options(st, seat)]


def texts(events: list[Any]) -> str:
    return "\n".join(e.text for e in events)


def side_a_turn(hands: list[list[str]], start: int = 0, pos: list[int] | None = None,
                stock: list[list[str]] | None = None, n: int = 3) -> dict[str, Any]:
    """A side A game at the start of phase one with the given hands, no barrels on the route."""
    st = game("A", n)
    edit(st, hand=[list(h) for h in hands], start=start, pos=pos or [0] * n,
         stock=stock or [[] for _ in range(n)])
    set_barrels(st, {})
    return st


# ---- side A: phase one --------------------------------------------------------------------


def test_it_keeps_phase_one_cards_face_down_until_everyone_has_chosen() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]])
    assert R.pending(st) == [0, 1, 2]
    events = play(st, PURPLE, "3fi")
    assert [e.to for e in events if "3 Fire" in e.text] == [(PURPLE,)]
    assert R.view(st, PINK)["p1"] == ["?", None, None]
    assert R.view(st, PURPLE)["p1"] == ["3fi", None, None]
    assert R.pending(st) == [1, 2]
    play(st, YELLOW, "1ro")
    events = play(st, PINK, "5ro")
    reveal = [e for e in events if e.kind == "reveal"]
    assert reveal and reveal[0].reveals and reveal[0].to is None
    assert R.view(st, None)["p1"] == ["3fi", "5ro", "1ro"]
    assert R.pending(st) == [PURPLE]


def test_it_gives_the_same_result_whatever_order_phase_one_cards_arrive_in() -> None:
    hands = [["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]]
    a, b = side_a_turn(hands), side_a_turn(hands)
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        play(a, s, c)
    for s, c in ((2, "1ro"), (0, "3fi"), (1, "5ro")):
        play(b, s, c)
    a.pop("v"), b.pop("v")
    assert a == b


def test_it_refuses_a_second_phase_one_card_and_changes_nothing() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]])
    play(st, PURPLE, "3fi")
    before = repr(st)
    with pytest.raises(NotYourTurn):
        play(st, PURPLE, "3wo")
    with pytest.raises(IllegalMove) as err:
        play(st, PINK, "3wo")  # Pink has no 3 Wood
    assert "5ro: play 5 Rope" in err.value.allowed
    assert repr(st) == before


# ---- side A: phase two, the rulebook's example ------------------------------------------------


def test_it_plays_the_rulebook_phase_two_example_purple_pink_yellow() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]])
    set_barrels(st, {4: [("cu", True), ("sc", True)]})
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        play(st, s, c)
    # Purple places "3 Wood" on the pink raft: Pink moves 2 (5 - 3), then Purple moves 2.
    ev = play(st, PURPLE, "3wo-2")
    assert st["pos"] == [2, 2, 0]
    assert "Pink moves 2 spaces" in texts(ev) and "Purple moves 2 spaces" in texts(ev)
    # Pink places "1 Water" on Yellow: Yellow does not move (1 - 1 = 0); Pink moves 2 onto barrels.
    ev = play(st, PINK, "1wa-3")
    assert st["pos"] == [2, 4, 0]
    assert "Yellow does not move" in texts(ev)
    assert R.pending(st) == [PINK] and codes(st, PINK) == ["b1", "b2"]
    play(st, PINK, "b1")  # the Cuttlefish
    assert st["cutn"] == [False, True, False]
    # Yellow must place on Purple (Pink's raft is taken): Purple moves 2 (3 - 1) onto the barrel left.
    assert codes(st, YELLOW) == [c + "-1" for c in ("1fo", "3wa", "4wa")]
    ev = play(st, YELLOW, "1fo-1")
    assert "School of Cuttlefish" in texts(ev)  # a single barrel left: taken without asking
    assert st["pos"] == [4, 4, 2]
    assert st["cut"] == [True, True, True]  # the turn is over: this is now "this turn"
    # phase three: the rafts go to stock, the starting player token passes, everybody draws 2
    assert st["turn"] == 2 and st["start"] == PINK
    assert sorted(st["stock"][PURPLE]) == ["1fo", "3fi"]
    assert [len(h) for h in st["hand"]] == [4, 4, 4]


def test_it_allows_one_card_per_raft_and_forces_the_last_player_onto_their_own_raft() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]])
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        play(st, s, c)
    play(st, PURPLE, "3wo-2")
    assert all(c.endswith(("-1", "-3")) for c in codes(st, PINK))
    play(st, PINK, "1wa-1")  # Pink gives to Purple: Purple moves |3 - 1| = 2, Pink moves 2
    assert st["pos"] == [4, 4, 0]
    opts = R.options(st, YELLOW)
    assert {o.move["p"] for o in opts} == {YELLOW}
    assert opts[0].label.startswith("put ") and opts[0].label.endswith("on your own raft")
    ev = play(st, YELLOW, "4wa-3")  # |1 - 4| = 3, and no 2 spaces for placing on oneself
    assert st["pos"][YELLOW] == 3
    assert "for placing a card" not in texts([e for e in ev if "Yellow moves" in e.text])


def test_it_lets_the_placer_steal_instead_of_moving_on_equal_suit_and_number() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]],
                     stock=[[], ["3wo", "2fo"], []])
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        play(st, s, c)
    play(st, PURPLE, "3wo-2")
    assert st["pos"] == [0, 2, 0]  # Pink moved; Purple waits for its decision
    opts = {o.code: o.label for o in R.options(st, PURPLE)}
    assert opts == {"st-2fo": "steal 2 Food from Pink", "st-3wo": "steal 3 Wood from Pink",
                    "move": "move 2 spaces instead of stealing"}
    play(st, PURPLE, "st-2fo")
    assert st["pos"][PURPLE] == 0
    assert st["stock"][PURPLE] == ["2fo"] and st["stock"][PINK] == ["3wo"]


def test_it_lets_the_placer_refuse_the_steal_and_move_two() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]],
                     stock=[[], ["3wo"], []])
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        play(st, s, c)
    play(st, PURPLE, "3wo-2")
    play(st, PURPLE, "move")
    assert st["pos"][PURPLE] == 2 and st["stock"][PINK] == ["3wo"]


def test_it_offers_no_steal_when_only_the_suit_or_only_the_number_matches() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]],
                     stock=[[], ["2wo", "3fo"], []])
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        play(st, s, c)
    play(st, PURPLE, "3wo-2")
    assert st["pos"][PURPLE] == 2 and R.pending(st) == [PINK]


def test_it_resolves_a_barrel_when_a_move_ends_on_barrels_and_not_when_it_passes_them() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]])
    set_barrels(st, {1: [("an", True), ("pe", True)], 2: [("sh", False), ("sx", True)]})
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        play(st, s, c)
    play(st, PURPLE, "3wo-2")  # Pink moves 2, over the barrels at 1, onto those at 2
    assert R.pending(st) == [PINK]
    labels = [o.label for o in R.options(st, PINK)]
    assert labels == ["take barrel 1 (face down)", "take barrel 2 (Sharks)"]


# ---- side A: steamship ---------------------------------------------------------------------


def _steamship_turn(purple_stock: list[str]) -> dict[str, Any]:
    st = side_a_turn([["4wo", "1wa", "2fi", "2wa"], ["1ro", "5fi", "2ro", "2fo"], ["ss", "5fo", "3wa", "4wa"]],
                     start=YELLOW, stock=[purple_stock, ["1wo", "1ro", "1fi", "1wa", "1fo"], []])
    for s, c in ((0, "4wo"), (1, "1ro"), (2, "5fo")):
        play(st, s, c)
    play(st, YELLOW, "ss-1")  # Purple: "4 Wood" minus "0 Steamship" = +4
    play(st, PURPLE, "1wa-2")  # Pink: "1 Rope" minus "1 Water" = 0
    play(st, PURPLE, "move")  # Pink's stock holds a 1 Water: Purple could steal, but moves
    return st


def test_it_boards_the_steamship_as_in_the_rulebook_example_4_plus_3_against_0_plus_5() -> None:
    st = _steamship_turn(["2wo", "2ro", "2fi"])
    ev = play(st, PINK, "5fi-3")
    out = R.outcome(st)
    assert out is not None and out.winners == (PURPLE,) and out.reason == "steamship card"
    board = [e for e in ev if e.kind == "steamship"][0]
    assert board.data["scores"][:2] == [7, 5] and board.data["boarders"] == [PURPLE]
    assert R.pending(st) == []


def test_it_discards_an_unboarded_steamship_card_and_never_puts_it_in_a_stock() -> None:
    st = _steamship_turn(["2wo", "2ro"])
    play(st, PINK, "5fi-3")
    assert R.outcome(st) is None
    assert "ss" in st["disc"] and all("ss" not in s for s in st["stock"])
    assert st["turn"] == 2


def test_it_lets_several_players_board_one_steamship() -> None:
    st = _steamship_turn(["2wo", "2ro", "2fi"])
    st["stock"][PINK] = ["1wo", "1ro", "1fi", "1wa", "1fo"]
    st["mv"][PINK] = 0
    st["stock"][YELLOW] = ["1wo", "1ro", "1fi", "1wa", "1fo"]  # Yellow: |5 - 5| = 0, plus 5: no
    st["hand"][PINK] = ["4fi"]  # Yellow's raft: 5 Food vs 4 Fire: 1 + 5 = 6, no
    st["v"] += 1
    play(st, PINK, "4fi-3")
    out = R.outcome(st)
    assert out is not None and out.winners == (PURPLE,)
    st2 = _steamship_turn(["2wo", "2ro", "2fi"])
    st2["stock"][YELLOW] = ["1wo", "1ro", "1fi", "1wa", "1fo", "2wo"]
    st2["hand"][PINK] = ["3fi"]  # Yellow: |5 - 3| = 2, plus 5 resource types = 7
    st2["v"] += 1
    play(st2, PINK, "3fi-3")
    out = R.outcome(st2)
    assert out is not None and out.winners == (PURPLE, YELLOW)


def test_it_ends_when_a_player_reaches_the_steamship_token_at_the_end_of_the_turn() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]],
                     pos=[0, 21, 0])
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        play(st, s, c)
    play(st, PURPLE, "3wo-2")  # Pink moves 2 from 21: stops on the token (22)
    assert st["pos"][PINK] == 22 and R.outcome(st) is None  # the turn goes on
    play(st, PINK, "1wa-3")
    play(st, YELLOW, "1fo-1")
    out = R.outcome(st)
    assert out is not None and out.winners == (PINK,) and out.reason == "steamship token"
    assert out.ranking[1:] == ((PURPLE,), (YELLOW,))


def test_it_ends_when_the_deck_cannot_be_drawn_from_and_the_most_advanced_win() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]],
                     pos=[5, 3, 0])
    edit(st, deck=["1wo"] * 5)  # fewer than 2 cards for each of the 3 players
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        play(st, s, c)
    play(st, PURPLE, "3wo-2")  # Pink 3 -> 5, Purple 5 -> 7
    play(st, PINK, "1wa-1")  # Purple 7 -> 9, Pink 5 -> 7
    play(st, YELLOW, "4wa-3")  # Yellow 0 -> 3
    out = R.outcome(st)
    assert out is not None and out.reason == "deck exhausted" and out.winners == (PURPLE,)


def test_it_passes_the_starting_player_token_clockwise_each_turn() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]],
                     start=YELLOW)
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        play(st, s, c)
    assert R.pending(st) == [YELLOW]
    play(st, YELLOW, "1fo-1")
    assert R.pending(st) == [PURPLE]
    play(st, PURPLE, "3wo-2")
    play(st, PINK, "1wa-3")
    assert st["start"] == PURPLE and st["turn"] == 2


# ---- side B ----------------------------------------------------------------------------------


def side_b_turn(hands: list[list[str]], start: int = 0, pos: list[int] | None = None,
                stock: list[list[str]] | None = None, n: int = 3) -> dict[str, Any]:
    st = game("B", n, start=start)
    edit(st, hand=[list(h) for h in hands], pos=pos or [0] * n,
         stock=stock or [[] for _ in range(n)])
    set_barrels(st, {})
    return st


def test_it_plays_side_b_phase_one_on_opponents_minecarts_clockwise_with_forced_self_placement() -> None:
    st = side_b_turn([["1fo", "2wo", "3ro", "4wa"], ["5wo", "2fi", "3fi", "4fi"], ["1wa", "2wa", "3wa", "5ro"]])
    assert R.pending(st) == [PURPLE]
    assert R.options(st, PURPLE)[0].label == "give 1 Food to Pink"
    play(st, PURPLE, "1fo-2")
    play(st, PINK, "2fi-1")
    opts = R.options(st, YELLOW)
    assert {o.move["p"] for o in opts} == {YELLOW}
    assert opts[0].label.endswith("on your own minecart")
    assert st["pos"] == [0, 0, 0]  # no movement in phase one


def test_it_forbids_the_suit_and_number_of_position_two_as_in_the_1_food_example() -> None:
    st = side_b_turn([["1fo", "2wo", "3ro", "4wa"], ["5wo", "2fi", "3fi", "4fi"], ["1wa", "2fo", "5wo", "1ro"]])
    play(st, PURPLE, "1fo-3")
    play(st, PINK, "2fi-1")
    play(st, YELLOW, "1wa-2")
    # phase two, from the starting player
    assert R.pending(st) == [PURPLE]
    play(st, PURPLE, "3ro")
    assert R.pending(st) == [PINK]
    play(st, PINK, "3fi")
    assert codes(st, YELLOW) == ["5wo"]  # no Food, no 1: "5 Wood" is a valid choice
    with pytest.raises(IllegalMove):
        play(st, YELLOW, "2fo")


def test_it_skips_a_player_with_no_card_allowed_in_phase_two() -> None:
    st = side_b_turn([["1fo", "2wo", "3ro", "4wa"], ["5wo", "2fi", "3fi", "4fi"], ["2wa", "2fo", "2fi", "5ro"]])
    play(st, PURPLE, "2wo-3")  # Yellow's position 2: 2 Wood
    play(st, PINK, "5wo-1")
    play(st, YELLOW, "5ro-2")  # Yellow keeps 2 Water, 2 Food, 2 Fire: every one shares the number 2
    play(st, PURPLE, "1fo")
    ev = play(st, PINK, "3fi")
    skip = [e for e in ev if e.kind == "skip"]
    assert len(skip) == 1 and "Yellow" in skip[0].text and skip[0].reveals
    assert st["stock"][YELLOW] == ["2wo"]  # only the card an opponent gave
    assert st["turn"] == 2


def test_it_discards_a_stack_over_5_and_moves_by_stacks_as_in_the_yellow_and_purple_example() -> None:
    # Yellow: "1 Food" and "5 Wood" onto a stock of one other stack: 3 stacks, 3 spaces.
    # Purple: "3 Fire" and "4 Water" onto a stock holding Water: Water goes over 5 and is discarded.
    st = side_b_turn([["3fi", "2ro", "2ro", "2ro"], ["1fo", "4wa", "4ro", "2ro"], ["5wo", "4wa", "3ro", "3ro"]],
                     stock=[["2wa"], [], ["2ro"]], pos=[5, 5, 5])
    play(st, PURPLE, "2ro-2")  # Pink gets a card too, so that the turn runs
    play(st, PINK, "1fo-3")  # "1 Food" on Yellow's minecart
    play(st, YELLOW, "4wa-1")  # "4 Water" on Purple's
    play(st, PURPLE, "3fi")
    play(st, PINK, "4wa")
    ev = play(st, YELLOW, "5wo")
    assert sorted(st["stock"][YELLOW]) == ["1fo", "2ro", "5wo"]
    assert st["pos"][YELLOW] == 5 + 3
    assert st["stock"][PURPLE] == ["3fi"] and st["pos"][PURPLE] == 5 + 1
    assert "Water stack adds up to 6, more than 5: it is discarded" in texts(ev)
    assert sorted(st["disc"]) == ["2wa", "4wa"]


def test_it_moves_the_lava_3_spaces_and_takes_caught_players_out() -> None:
    st = side_b_turn([["1fo", "2wo", "3ro", "4wa"], ["5wo", "2fi", "3fi", "4fi"], ["1wa", "2fo", "5wo", "1ro"],
                      ["1wo", "1ro", "1fi", "1fo"]], n=4, pos=[3, 0, 8, 9])
    edit(st, lava=0)
    for s, c in ((0, "1fo-2"), (1, "5wo-3"), (2, "1wa-4"), (3, "1wo-1")):
        play(st, s, c)
    play(st, PURPLE, "3ro")
    play(st, PINK, "2fi")
    ev = play(st, YELLOW, "1ro")  # Blue holds only 1s against a 1 Water: skipped
    assert "Blue holds no card" in texts(ev)
    # stacks: Purple 2 (3 -> 5), Pink 2 (0 -> 2), Yellow 2 (8 -> 10), Blue 1 (9 -> 10); lava 0 -> 3
    assert st["pos"] == [5, 2, 10, 10] and st["lava"] == 3
    assert st["out"] == [None, 1, None, None]
    assert "Pink is caught by the lava" in texts(ev)
    assert st["start"] == YELLOW  # the token skips the caught player
    assert [len(h) for s, h in enumerate(st["hand"]) if s != PINK] == [4, 4, 4]
    assert {o.move["p"] for o in R.options(st, YELLOW)} == {BLUE, PURPLE}  # nobody gives to Pink
    assert R.view(st, None)["out"] == [None, 1, None, None]


def test_it_ends_side_b_with_the_last_survivor() -> None:
    st = side_b_turn([["1fo", "2wo", "3ro", "4wa"], ["5wo", "2fi", "3fi", "4fi"], ["1wa", "2fo", "5wo", "1ro"]],
                     pos=[1, 1, 12])
    edit(st, lava=-2, lspd=5)  # Purple and Pink move at most 2: the lava reaches 3
    play(st, PURPLE, "1fo-2")
    play(st, PINK, "5wo-3")
    play(st, YELLOW, "1wa-1")
    while st["over"] is None and st["turn"] == 1:
        s = R.pending(st)[0]
        play(st, s, codes(st, s)[0])
    out = R.outcome(st)
    assert out is not None and out.reason == "last survivor" and out.winners == (YELLOW,)
    assert st["out"][PURPLE] == 1 and st["out"][PINK] == 1


def test_it_ends_side_b_when_a_player_reaches_the_sea_at_the_end_of_the_turn() -> None:
    st = side_b_turn([["1fo", "2wo", "3ro", "4wa"], ["5wo", "2fi", "3fi", "4fi"], ["1wa", "2fo", "5wo", "1ro"]],
                     pos=[23, 10, 10], stock=[["1wo", "1ro"], [], []])
    play(st, PURPLE, "1fo-2")
    play(st, PINK, "5wo-3")
    play(st, YELLOW, "1wa-1")
    while st["over"] is None:
        s = R.pending(st)[0]
        play(st, s, codes(st, s)[0])
    out = R.outcome(st)
    assert out is not None and out.reason == "reached the sea" and out.winners == (PURPLE,)
    assert st["pos"][PURPLE] == 25 and st["lava"] == 0  # the lava still flowed: the turn was finished


def test_it_ranks_everybody_when_the_lava_catches_the_last_players_together() -> None:
    st = side_b_turn([["1fo"], ["5wo"], ["1wa"]], pos=[1, 2, 2])
    edit(st, lava=0, deck=[], disc=[], lspd=6)
    while st["over"] is None:
        s = R.pending(st)[0]
        play(st, s, codes(st, s)[0])
    out = R.outcome(st)
    assert out is not None and out.reason == "nobody survived"
    best = max(st["pos"])
    assert out.winners == tuple(s for s in range(3) if st["pos"][s] == best)
    assert sorted(s for g in out.ranking for s in g) == [0, 1, 2]


def test_it_draws_up_to_four_and_reshuffles_the_discard_pile_when_the_deck_runs_out() -> None:
    st = side_b_turn([["1fo", "2wo", "3ro", "4wa"], ["5wo", "2fi", "3fi", "4fi"], ["1wa", "2fo", "5wo", "1ro"]],
                     pos=[10, 10, 10])
    edit(st, deck=["1wo"], disc=["2wo", "3wo", "4wo", "5wo", "1fi", "2fi", "3fi"])
    turn = st["turn"]
    while st["turn"] == turn:
        s = R.pending(st)[0]
        play(st, s, codes(st, s)[0])
    assert all(len(h) == 4 for h in st["hand"])
    hand_cards = sum(len(h) for h in st["hand"])
    assert hand_cards == 12


def test_it_changes_the_lava_speed_when_it_crosses_a_crevasse_if_asked() -> None:
    st = side_b_turn([["1fo", "2wo", "3ro", "4wa"], ["5wo", "2fi", "3fi", "4fi"], ["1wa", "2fo", "5wo", "1ro"]],
                     pos=[15, 15, 15])
    st["options"]["lava_crevasse_change"] = 1
    edit(st, lava=5)  # the first crevasse lies between 7 and 8
    while st["turn"] == 1:
        s = R.pending(st)[0]
        play(st, s, codes(st, s)[0])
    assert st["lava"] == 8 and st["lspd"] == 4
    plain = side_b_turn([["1fo", "2wo", "3ro", "4wa"], ["5wo", "2fi", "3fi", "4fi"], ["1wa", "2fo", "5wo", "1ro"]],
                        pos=[15, 15, 15])
    edit(plain, lava=5)
    while plain["turn"] == 1:
        s = R.pending(plain)[0]
        play(plain, s, codes(plain, s)[0])
    assert plain["lava"] == 8 and plain["lspd"] == 3


# ---- barrels -------------------------------------------------------------------------------


def barrel_game(kind: str, side: str = "A", **kw: Any) -> dict[str, Any]:
    st = side_a_turn([["1wo", "2wo", "3wo", "4wo"]] * 3) if side == "A" else side_b_turn([["1wo"]] * 3)
    edit(st, stock=kw.get("stock", [["1fi", "2ro"], ["3fo", "4wa"], ["5wo"]]), pos=kw.get("pos", [4, 4, 4]))
    at_barrel(st, PURPLE, [(kind, kw.get("up", True)), ("an", True)])
    return st


def test_it_resolves_the_monkey_by_the_taker_choosing_an_opponent_and_a_card() -> None:
    st = barrel_game("mo")
    play(st, PURPLE, "b1")
    opts = {o.code: o.label for o in R.options(st, PURPLE)}
    assert opts == {"tk-3fo-2": "take 3 Food from Pink", "tk-4wa-2": "take 4 Water from Pink",
                    "tk-5wo-3": "take 5 Wood from Yellow"}
    play(st, PURPLE, "tk-5wo-3")
    assert st["stock"] == [["1fi", "2ro", "5wo"], ["3fo", "4wa"], []]


def test_it_finds_nothing_for_the_monkey_when_every_opponent_stock_is_empty() -> None:
    st = barrel_game("mo", stock=[["1fi"], [], []])
    ev = play(st, PURPLE, "b1")
    assert "finds nothing" in texts(ev) and st["stock"][PURPLE] == ["1fi"]


def test_it_lets_each_opponent_take_one_card_from_the_troop_of_monkeys_taker_clockwise() -> None:
    st = barrel_game("tr", stock=[["1fi", "2ro"], [], []])
    play(st, PURPLE, "b1")
    assert R.pending(st) == [PINK]
    assert [o.label for o in R.options(st, PINK)] == ["take 1 Fire from Purple", "take 2 Rope from Purple"]
    play(st, PINK, "tk-2ro")
    # Yellow has a single card to take: taken without asking
    assert st["stock"] == [[], ["2ro"], ["1fi"]]


def test_it_makes_the_cuttlefish_taker_play_face_down_next_turn_until_the_second_card_arrives() -> None:
    st = barrel_game("cu")
    play(st, PURPLE, "b1")
    assert st["cutn"] == [True, False, False] and st["cut"] == [False, False, False]
    st2 = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]],
                      start=PINK)
    edit(st2, cut=[True, False, False])
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        play(st2, s, c)
    assert R.view(st2, PINK)["p1"] == ["?", "5ro", "1ro"]
    assert R.view(st2, PURPLE)["p1"] == ["3fi", "5ro", "1ro"]
    labels = [o.label for o in R.options(st2, PINK)]
    assert "3 Fire" not in " ".join(labels)
    ev = play(st2, PINK, "1wa-1")
    reveal = [e for e in ev if e.kind == "reveal"]
    assert reveal and reveal[0].reveals and "3 Fire" in reveal[0].text
    assert st2["pos"][PURPLE] == 2  # |3 - 1| after the reveal
    assert R.view(st2, PINK)["p1"][PURPLE] == "3fi"


def test_it_makes_everybody_play_face_down_next_turn_after_a_school_of_cuttlefish() -> None:
    st = barrel_game("sc")
    play(st, PURPLE, "b1")
    assert st["cutn"] == [True, True, True]
    st2 = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]])
    edit(st2, cut=[True, True, True])
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        play(st2, s, c)
    assert R.view(st2, None)["p1"] == ["?", "?", "?"]
    assert R.view(st2, YELLOW)["p1"] == ["?", "?", "1ro"]
    play(st2, PURPLE, "3wo-2")
    assert R.view(st2, None)["p1"] == ["?", "5ro", "?"]


def test_it_discards_one_stock_card_for_a_shark_and_two_for_an_anchor() -> None:
    st = barrel_game("sh", stock=[["1fi", "2ro", "3wo"], ["3fo"], []])
    play(st, PURPLE, "b1")
    assert codes(st, PURPLE) == ["ds-1fi", "ds-2ro", "ds-3wo"]
    play(st, PURPLE, "ds-2ro")
    assert st["stock"][PURPLE] == ["1fi", "3wo"] and st["disc"] == ["2ro"]
    st = barrel_game("an", stock=[["1fi", "2ro", "3wo"], ["3fo"], []])
    play(st, PURPLE, "b1")
    play(st, PURPLE, "ds-1fi")
    assert R.pending(st) == [PURPLE]
    play(st, PURPLE, "ds-3wo")
    assert st["stock"][PURPLE] == ["2ro"]


def test_it_makes_every_player_discard_one_for_sharks_starting_with_the_taker() -> None:
    st = barrel_game("sx", stock=[["1fi", "2ro"], ["3fo", "4wa"], ["5wo"]])
    play(st, PURPLE, "b1")
    assert R.pending(st) == [PURPLE]
    play(st, PURPLE, "ds-1fi")
    assert R.pending(st) == [PINK]
    play(st, PINK, "ds-4wa")
    assert st["stock"] == [["2ro"], ["3fo"], []]  # Yellow's only card went without asking


def test_it_swaps_places_with_the_meeple_in_front_for_a_fishing_spear_without_triggering_barrels() -> None:
    st = barrel_game("sp", pos=[4, 7, 9])
    set_barrels(st, {4: [("sp", True), ("an", True)], 7: [("mo", True), ("tr", True)]})
    play(st, PURPLE, "b1")
    assert st["pos"] == [7, 4, 9]
    assert R.pending(st) == [0, 1, 2] and st["todo"][-1]["t"] == "p1"  # no barrel choice at 7


def test_it_asks_which_meeple_to_swap_with_when_two_share_the_nearest_space_ahead() -> None:
    st = barrel_game("sp", pos=[4, 6, 6])
    play(st, PURPLE, "b1")
    assert [o.label for o in R.options(st, PURPLE)] == ["swap places with Pink", "swap places with Yellow"]
    play(st, PURPLE, "swap-3")
    assert st["pos"] == [6, 6, 4]


def test_it_lets_the_fishing_spear_swap_with_a_meeple_on_the_steamship_token() -> None:
    st = barrel_game("sp", pos=[19, 22, 4])
    play(st, PURPLE, "b1")
    assert st["pos"] == [22, 19, 4]


def test_it_does_nothing_for_a_fishing_spear_when_nobody_is_in_front() -> None:
    st = barrel_game("sp", pos=[9, 4, 4])
    ev = play(st, PURPLE, "b1")
    assert st["pos"] == [9, 4, 4] and "no effect" in texts(ev)


def test_it_shows_a_pelican_look_only_to_the_looker_and_keeps_it_in_their_view() -> None:
    st = barrel_game("pe")
    edit(st, hand=[["1wo"], ["2fi", "5ro"], ["3wa"]])
    play(st, PURPLE, "b1")
    ev = play(st, PURPLE, "look-2")
    private = [e for e in ev if e.kind == "pelican_look"]
    assert private[0].to == (PURPLE,) and private[0].reveals and "2 Fire, 5 Rope" in private[0].text
    public = [e for e in ev if e.kind == "pelican"]
    assert public[0].to is None and "Fire" not in public[0].text
    assert R.view(st, PURPLE)["known_hands"] == {"1": ["2fi", "5ro"]}
    assert R.view(st, YELLOW)["known_hands"] == {} and R.view(st, None)["known_hands"] == {}


def test_it_shows_a_face_down_barrel_only_to_its_taker_when_it_is_taken() -> None:
    st = barrel_game("cu", up=False)
    assert R.view(st, PURPLE)["barrels"]["4"] == ["?", "an"]
    assert [o.label for o in R.options(st, PURPLE)] == ["take barrel 1 (face down)", "take barrel 2 (Anchor)"]
    ev = play(st, PURPLE, "b1")
    public = [e for e in ev if e.kind == "barrel"]
    assert len(public) == 1 and public[0].to is None and not public[0].reveals
    assert public[0].text == "Purple takes a face-down barrel from space 4" and "barrel" not in public[0].data
    looked = [e for e in ev if e.kind == "barrel_look"]
    assert len(looked) == 1 and looked[0].to == (PURPLE,) and looked[0].reveals
    assert "Cuttlefish" in looked[0].text and looked[0].data["barrel"] == "cu"
    # only its taker knows that Purple plays face down next turn; the table sees it when that turn comes
    assert st["cutn"] == [True, False, False] and R.view(st, PURPLE)["cuttlefish_next"] == [True, False, False]
    assert R.view(st, YELLOW)["cuttlefish_next"] == [False] * 3 and R.view(st, None)["cuttlefish_next"] == [False] * 3
    announced = [e for e in ev if e.kind == "cuttlefish"]
    assert len(announced) == 1 and announced[0].to == (PURPLE,)
    assert R.view(st, PURPLE)["barrels_used"] == ["cu"]
    assert R.view(st, YELLOW)["barrels_used"] == ["?"] and R.view(st, None)["barrels_used"] == ["?"]


def test_it_names_a_face_up_barrel_to_everybody_when_it_is_taken() -> None:
    st = barrel_game("mo")
    ev = play(st, PURPLE, "b1")
    public = [e for e in ev if e.kind == "barrel"]
    assert len(public) == 1 and public[0].to is None and not public[0].reveals
    assert "Monkey" in public[0].text and public[0].data["barrel"] == "mo"
    assert not [e for e in ev if e.kind == "barrel_look"]
    assert "(Monkey)" in R.view(st, YELLOW)["decision"]
    for seat in (None, PURPLE, PINK, YELLOW):
        assert R.view(st, seat)["barrels_used"] == ["mo"]


def test_it_uses_no_steamship_cards_and_no_cuttlefish_on_side_b() -> None:
    st = game("B", 4)
    every = st["deck"] + [c for h in st["hand"] for c in h]
    assert "ss" not in every and sorted(every) == sorted(all_resource_cards())
    kinds = [b[0] for bs in st["bar"].values() for b in bs] + st["bbox"]
    assert len(kinds) == 16 and not {"cu", "sc"} & set(kinds)
    assert st["lava"] == -DATA["B"]["lava_start"]


def test_it_moves_side_b_players_in_turn_order_resolving_barrels_before_the_next_moves() -> None:
    st = side_b_turn([["1fo", "2wo", "3ro", "4wa"], ["5wo", "2fi", "3fi", "4fi"], ["1wa", "2fo", "5wo", "1ro"]],
                     pos=[5, 5, 5], stock=[["1ro"], ["1wo", "1fi"], []])
    set_barrels(st, {7: [("mo", True)]})
    for s, c in ((0, "1fo-2"), (1, "5wo-3"), (2, "1wa-1")):
        play(st, s, c)
    play(st, PURPLE, "3ro")
    play(st, PINK, "2fi")
    ev = play(st, YELLOW, "2fo")
    # Purple: Rope 1+3 and Water 1 = 2 stacks, 5 -> 7, onto the Monkey (the only barrel: taken at once)
    assert st["pos"][PURPLE] == 7 and R.pending(st) == [PURPLE]
    assert "Pink moves" not in texts(ev)
    play(st, PURPLE, "tk-1wo-2")  # Pink had Wood, Fire, Food: 3 stacks; now 2
    assert st["pos"] == [7, 7, 7]


def test_it_counts_a_steamship_card_in_position_one_as_zero() -> None:
    st = side_a_turn([["ss", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]],
                     start=PINK)
    for s, c in ((0, "ss"), (1, "5ro"), (2, "1ro")):
        play(st, s, c)
    play(st, PINK, "2fi-1")
    assert st["pos"][PURPLE] == 2 and st["mv"][PURPLE] == 2


def test_a_caller_changing_an_options_move_changes_neither_what_apply_accepts_nor_later_listings() -> None:
    """Listings share the (code, move) pairs of the rules' tables, and apply finds the chosen one
    among the pairs options just listed: options hand out copies, so whatever a caller does to
    them, apply and every later listing go by the rules."""
    import random

    from engine.games.maretta import tables as maretta

    tables = [maretta._PLAY, maretta._GIVE, maretta._STEAL, maretta._TAKE_FROM, maretta._TAKE, maretta._DISCARD,
              maretta._LOOK, maretta._SWAP, maretta._MOVE_INSTEAD]
    before = repr(tables)
    for side in "AB":
        rnd = random.Random(side)
        st = game(side, 4, seed=7)
        while pending := R.pending(st):
            seat = rnd.choice(pending)
            options = R.options(st, seat)
            chosen = rnd.choice(options)
            for o in options:  # the caller scribbles over every move it was given
                o.move.update(a="scribbled", c="9xx", p=99, b=99)
            R.apply(st, seat, {"code": chosen.code})
        assert R.outcome(st) is not None
    assert repr(tables) == before
