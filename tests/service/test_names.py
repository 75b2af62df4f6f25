"""Player names: unique within a game, and what a chosen name may hold."""

from __future__ import annotations

import pytest

from pbem.games.services import ServiceError, check_display_name, unique_seat_names


def test_it_gives_a_repeated_name_a_letter_ignoring_case_and_accents() -> None:
    assert unique_seat_names(["Ana", "ana", "Aná", "Bruno"]) == ["Ana", "ana B", "Aná C", "Bruno"]


def test_it_skips_a_letter_another_player_already_has() -> None:
    assert unique_seat_names(["Anna B", "Anna", "Anna"]) == ["Anna B", "Anna", "Anna C"]


def test_it_leaves_different_names_alone() -> None:
    assert unique_seat_names(["Anna Silva", "Anna Costa"]) == ["Anna Silva", "Anna Costa"]


@pytest.mark.parametrize(("given", "kept"), [("  Anna   Silva ", "Anna Silva"), ('"Anna Silva"', "Anna Silva"),
                                             ("Zoë\u200bO'Neil", "Zoë O'Neil")])
def test_it_cleans_a_chosen_name(given: str, kept: str) -> None:
    assert check_display_name(given) == kept


@pytest.mark.parametrize("bad", ["", "   ", "R2D2", "anna@example.org", "x" * 61])
def test_it_refuses_a_name_it_cannot_use(bad: str) -> None:
    with pytest.raises(ServiceError):
        check_display_name(bad)
