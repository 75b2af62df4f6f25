"""A moderator's command lines (the moderator's command address, issue 24), each run as the mail
door runs it, in a real game (Maretta, three players)."""

from __future__ import annotations

from pbem.games import moderators
from tests.factories import start_game


def test_it_names_the_newcomer_of_a_moderators_replace_by_mail(alice, bob, carol, moderator):
    game = start_game("maretta", alice, [bob, carol], options={"side": "A"})
    nora = moderators.do_assign_moderator(game.pk, moderator, "nora@example.org", lead=True, reason="league")
    done = moderators.run_line(nora, "replace 2 with nina@example.org as Captain Nina -- Bob left the league")
    assert done.ok and "who plays as Captain Nina" in done.text, done.text
    game.refresh_from_db()
    assert game.state["players"][1] == "Captain Nina"
    refused = moderators.run_line(nora, "replace 3 with olga@example.org as Olga Carla left")  # no `--`
    assert not refused.ok and "as NAME -- REASON" in refused.text
    assert game.seats.get(index=2).player == carol
