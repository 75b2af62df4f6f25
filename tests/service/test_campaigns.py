"""Campaigns and rematches in the service (pbem/games/campaigns.py, issue 23).

Rematches are played on Caravelas II (a real game, finished by the service). Campaigns are
played on the engine tests' toy campaign game (``CampaignGuess``: the next game starts with the
scores the last one ended with), registered as ``guess``: it carries a real archive through the
engine's contract (archive, check_archive, setup from an archive) on games short enough to play
three of in a test. Maracaibo's campaign by mail is in tests/mail/test_campaign_by_mail.py.
"""

from __future__ import annotations

import json
import random
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

import engine
from engine.testing import choose
from pbem.games import campaign_selectors, campaigns, moderation, services
from pbem.games.models import Campaign, CampaignEntry, CampaignSeat, Game, OutboundMessage, Player
from tests.campaign_toy import guess
from tests.engine.test_core_campaign import TOY
from tests.factories import player_at, start_game

__all__ = ["guess"]


def play_out(game_id: int, seed: int = 1) -> None:
    """Play the game to its end through the service, each move the game's bot's choice."""
    rnd = random.Random(seed)
    for _ in range(5000):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.RUNNING:
            return
        rules = engine.get(game.rules)
        assert game.state is not None
        seat = rules.pending(game.state)[0]
        opt = choose(rules, game.state, seat, rules.options(game.state, seat), rnd)
        services.do_submit_moves(game_id, player_at(game, seat), [services.Command(code=opt.code)], source="api")
    raise AssertionError(f"game #{game_id} did not end in 5000 moves")


def finish(game_id: int, capture: Any, seed: int = 1) -> None:
    """Play the game to its end; the tasks its end hands on run."""
    with capture(execute=True):
        play_out(game_id, seed)


def latest(campaign: Campaign) -> Game:
    game = campaign.games.order_by("-campaign_number").first()
    assert game is not None
    return game


# ---- rematch ---------------------------------------------------------------------------------------


def test_it_rematches_a_finished_game_with_the_same_group_and_options(alice: Player, bob: Player, dave: Player,
                                                                     django_capture_on_commit_callbacks: Any) -> None:
    first = start_game("caravelas", alice, [bob], options={"target": 10}, deadline_hours=48)
    finish(first.pk, django_capture_on_commit_callbacks)
    first.refresh_from_db()
    assert first.status == Game.Status.FINISHED
    with pytest.raises(services.Forbidden, match="did not play"):
        campaigns.do_rematch(first.pk, dave)
    again = campaigns.do_rematch(first.pk, bob)
    assert (again.rules, again.options, again.deadline_hours) == ("caravelas", first.options, 48)
    assert again.title == f"{first.title} (rematch)"
    seats = list(again.seats.order_by("id").values_list("player__email", "status"))
    assert seats == [(bob.email, "joined"), (alice.email, "invited")]  # the asker first, the others invited
    assert OutboundMessage.objects.filter(game=again, to_email=alice.email).exists()  # her invitation
    with pytest.raises(services.Conflict, match=f"rematch already: game #{again.pk}"):
        campaigns.do_rematch(first.pk, alice)
    services.do_join_game(again.pk, alice)
    again.refresh_from_db()
    assert again.status == Game.Status.RUNNING


def test_it_refuses_a_rematch_of_a_game_still_running(alice: Player, bob: Player) -> None:
    game = start_game("caravelas", alice, [bob])
    with pytest.raises(services.Conflict, match="a rematch follows a finished game"):
        campaigns.do_rematch(game.pk, alice)


# ---- campaigns ------------------------------------------------------------------------------------


def test_it_sets_up_each_next_game_from_the_archive_of_the_last(guess: str, alice: Player, bob: Player,
                                                                django_capture_on_commit_callbacks: Any) -> None:
    campaign, first = campaigns.do_create_campaign(alice, guess, name="Long summer", invite=[bob.email], games=3)
    assert first.campaign_number == 1 and first.archive is None
    services.do_join_game(first.pk, bob)
    finish(first.pk, django_capture_on_commit_callbacks)
    first.refresh_from_db()
    second = latest(campaign)
    assert second.campaign_number == 2 and second.status == Game.Status.RUNNING
    assert second.archive == TOY.archive(first.state)
    assert second.state is not None and first.state is not None
    assert second.state["scores"] == first.state["scores"]  # carried by the archive
    assert list(second.seats.order_by("index").values_list("player", flat=True)) == [alice.pk, bob.pk]
    assert services.replay_state(second, []) == second.state  # it replays from seed + archive
    mail = OutboundMessage.objects.filter(to_email=bob.email, subject__contains=f"campaign #{campaign.pk}").get()
    assert "Game 1 of campaign" in mail.body_text and "Standings" in mail.body_text
    finish(second.pk, django_capture_on_commit_callbacks, seed=2)
    finish(latest(campaign).pk, django_capture_on_commit_callbacks, seed=3)
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.FINISHED and campaign.games.count() == 3
    table = campaign_selectors.standings(campaign)
    games = list(campaign.games.order_by("campaign_number"))
    for row in table:
        assert row.played == 3
        assert row.scores == {g.campaign_number: g.outcome["scores"][str(row.seat)] for g in games}
        assert row.wins == sum(row.seat in g.outcome["winners"] for g in games)
    assert [r.wins for r in table] == sorted((r.wins for r in table), reverse=True)


def test_it_hands_a_seat_over_between_games_and_tells_the_newcomer_the_story(
        guess: str, alice: Player, bob: Player, carol: Player, dave: Player,
        django_capture_on_commit_callbacks: Any) -> None:
    campaign, first = campaigns.do_create_campaign(alice, guess, invite=[bob.email], games=3, auto_next=False)
    services.do_join_game(first.pk, bob)
    with pytest.raises(services.Forbidden, match="creator"):
        campaigns.do_hand_over_seat(campaign.pk, dave, 1, carol.email, "bob moved away")
    finish(first.pk, django_capture_on_commit_callbacks)
    assert campaign.games.count() == 1  # no auto_next: the moderator sets the next game up
    with pytest.raises(services.ServiceError, match="say why"):
        campaigns.do_hand_over_seat(campaign.pk, alice, 1, carol.email, " ")
    campaigns.do_hand_over_seat(campaign.pk, alice, 1, carol.email, "bob moved away")
    entry = CampaignEntry.objects.get(campaign=campaign, action="handover")
    assert (entry.actor, entry.details["from"], entry.details["to"], entry.details["reason"]) == (
        alice, bob.pk, carol.pk, "bob moved away")
    told = OutboundMessage.objects.filter(to_email=carol.email).get()
    assert "the story so far" in told.body_text and "Game 1 (#" in told.body_text
    second = campaigns.do_next_game(campaign.pk, alice)
    assert list(second.seats.order_by("index").values_list("player", flat=True)) == [alice.pk, carol.pk]
    assert second.state is not None and second.state["players"][1] == "Carol"
    (bob_row,) = [r for r in campaign_selectors.standings(campaign) if r.seat == 1]
    assert (bob_row.name, bob_row.before, bob_row.played) == ("Carol", ["Bob"], 1)  # the seat keeps its record
    with pytest.raises(services.Conflict, match="not over yet"):
        campaigns.do_next_game(campaign.pk, alice)


def test_the_standings_name_who_finished_a_game_in_a_seat_a_moderator_replaced(
        guess: str, alice: Player, bob: Player, dave: Player, django_capture_on_commit_callbacks: Any) -> None:
    """Found by QA (#23): Bob replaced by Dave inside game 2; the seat's record counted Dave's game
    and the standings named Bob alone, as though he had played it."""
    campaign, first = campaigns.do_create_campaign(alice, guess, invite=[bob.email], games=3, auto_next=False)
    services.do_join_game(first.pk, bob)
    finish(first.pk, django_capture_on_commit_callbacks)
    second = campaigns.do_next_game(campaign.pk, alice)
    (before,) = [r for r in campaign_selectors.standings(campaign) if r.seat == 1]
    assert before.before == []
    moderation.do_replace_player(second.pk, None, 1, dave, "bob is away")
    finish(second.pk, django_capture_on_commit_callbacks, seed=2)
    (row,) = [r for r in campaign_selectors.standings(campaign) if r.seat == 1]
    assert (row.name, row.before, row.played) == ("Bob", ["Dave"], 2)
    (alice_row,) = [r for r in campaign_selectors.standings(campaign) if r.seat == 0]
    assert alice_row.before == []  # nobody replaced her
    assert "(before: Dave)" in campaign_selectors.story_so_far(campaign)


def test_a_replacement_inside_the_first_game_leaves_the_seat_to_its_holder_in_the_next_game(
        guess: str, alice: Player, bob: Player, dave: Player, django_capture_on_commit_callbacks: Any) -> None:
    """#23, settled: a moderator's replacement inside the campaign's first game, before the group is
    fixed, made the newcomer the group's holder. As in a later game, it lasts for that game: the next
    game seats Bob again, and the standings name Dave as having played the seat's first game."""
    campaign, first = campaigns.do_create_campaign(alice, guess, invite=[bob.email], games=3, auto_next=False)
    services.do_join_game(first.pk, bob)
    moderation.do_replace_player(first.pk, None, 1, dave, "bob is away this week")
    assert [(seat, p.pk if p else None) for seat, p, _n in campaign_selectors.group(campaign)] == [
        (0, alice.pk), (1, bob.pk)]  # (the group read from the first game, before it is fixed)
    finish(first.pk, django_capture_on_commit_callbacks)
    assert [cs.player_id for cs in CampaignSeat.objects.filter(campaign=campaign).order_by("index")] == [
        alice.pk, bob.pk]
    second = campaigns.do_next_game(campaign.pk, alice)
    assert [s.player_id for s in second.seats.order_by("index")] == [alice.pk, bob.pk]
    (row,) = [r for r in campaign_selectors.standings(campaign) if r.seat == 1]
    assert (row.name, row.before, row.played) == ("Bob", ["Dave"], 1)
    assert "(before: Dave)" in campaign_selectors.story_so_far(campaign)


def test_a_handover_after_a_replacement_inside_the_first_game_seats_the_newcomer_next(
        guess: str, alice: Player, bob: Player, dave: Player, django_capture_on_commit_callbacks: Any) -> None:
    """The same replacement, and a handover of the seat to Dave during that game: the handover says
    otherwise, so Dave holds the seat from the next game on (handed over from Bob)."""
    campaign, first = campaigns.do_create_campaign(alice, guess, invite=[bob.email], games=3, auto_next=False)
    services.do_join_game(first.pk, bob)
    moderation.do_replace_player(first.pk, None, 1, dave, "bob is away this week")
    campaigns.do_hand_over_seat(campaign.pk, alice, 1, dave.email, "bob leaves the group")
    finish(first.pk, django_capture_on_commit_callbacks)
    second = campaigns.do_next_game(campaign.pk, alice)
    assert [s.player_id for s in second.seats.order_by("index")] == [alice.pk, dave.pk]
    (row,) = [r for r in campaign_selectors.standings(campaign) if r.seat == 1]
    assert (row.name, row.before) == ("Dave", ["Bob"])
    entry = CampaignEntry.objects.get(campaign=campaign, action="handover")
    assert (entry.details["from"], entry.details["to"]) == (bob.pk, dave.pk)


def test_next_on_a_campaign_ended_while_its_game_plays_on_says_the_campaign_is_over(
        guess: str, alice: Player, bob: Player) -> None:
    """Found by QA (#23): after `end`, `next` answered 'game #6 of campaign #1 is not over yet; the
    next one follows it', which no game ever would."""
    campaign, first = campaigns.do_create_campaign(alice, guess, invite=[bob.email], games=3)
    services.do_join_game(first.pk, bob)
    campaigns.do_end_campaign(campaign.pk, alice, "the group disbands")
    with pytest.raises(services.Conflict, match=f"campaign #{campaign.pk} is over"):
        campaigns.do_next_game(campaign.pk, alice)
    assert Game.objects.get(pk=first.pk).status == Game.Status.RUNNING  # the game under way plays on


def test_a_maracaibo_archive_holds_the_story_pile_which_no_seat_sees_at_the_games_end() -> None:
    """Why a former member may not export a campaign's archive while it goes on (#23): at a finished
    game's end every seat's view gives the story's pile by its count only; the archive lists its cards."""
    from engine.games.maracaibo import RULES
    from engine.games.maracaibo.upgrade import current

    g = json.loads((Path(__file__).parent.parent / "engine/golden/maracaibo_campaign_5962877_1.json").read_text())
    final = g["final"]
    current(final)
    archive = RULES.archive(final)
    assert archive is not None and len(archive["story"]["pile"]) > 0
    for seat in (None, *range(len(final["players"]))):
        assert RULES.view(final, seat)["story"]["pile"] == len(archive["story"]["pile"])


def test_a_former_member_exports_the_archive_once_the_campaign_is_over(
        guess: str, alice: Player, bob: Player, carol: Player, dave: Player,
        django_capture_on_commit_callbacks: Any) -> None:
    """#23: Bob, handed out after game 1, got a bare 403. While the campaign goes on he is told why (its
    archive holds the story's pile, for the group only) and where his record is; once it is over he
    exports it, as does Carol, who finished game 2 in Alice's seat after a moderator's replacement.
    Someone who never sat in it is refused as before."""
    campaign, first = campaigns.do_create_campaign(alice, guess, invite=[bob.email], games=3, auto_next=False)
    services.do_join_game(first.pk, bob)
    finish(first.pk, django_capture_on_commit_callbacks)
    campaigns.do_hand_over_seat(campaign.pk, alice, 1, dave.email, "bob moves away")
    second = campaigns.do_next_game(campaign.pk, alice)
    moderation.do_replace_player(second.pk, None, 0, carol, "alice is ill")
    for former in (bob, carol):
        with pytest.raises(services.Forbidden, match=f"you no longer hold a seat of campaign #{campaign.pk}: "
                                                     "while it goes on its archive holds what no player sees"):
            campaigns.access_archive(campaign.pk, former)
    assert campaigns.access_archive(campaign.pk, dave)["game"] == 1  # (the group's)
    finish(second.pk, django_capture_on_commit_callbacks, seed=2)
    campaigns.do_end_campaign(campaign.pk, alice, "the group stops here")
    stranger = services.do_get_or_create_player("erin@example.org", "Erin")
    with pytest.raises(services.Forbidden, match="only the players and moderators"):
        campaigns.access_archive(campaign.pk, stranger)
    campaign.refresh_from_db()
    for former in (bob, carol):
        assert campaigns.access_archive(campaign.pk, former) == campaign.carry
    assert campaign.carry["game"] == 2
    assert CampaignEntry.objects.filter(campaign=campaign, action="exported", actor=bob).exists()


def test_it_exports_the_archive_and_a_new_campaign_goes_on_from_it_identically(
        guess: str, alice: Player, bob: Player, carol: Player, dave: Player,
        django_capture_on_commit_callbacks: Any) -> None:
    campaign, first = campaigns.do_create_campaign(alice, guess, invite=[bob.email], games=3, auto_next=False)
    with pytest.raises(services.Conflict, match="no archive yet"):
        campaigns.access_archive(campaign.pk, alice)
    services.do_join_game(first.pk, bob)
    finish(first.pk, django_capture_on_commit_callbacks)
    with pytest.raises(services.Forbidden, match="only the players and moderators"):
        campaigns.access_archive(campaign.pk, dave)
    archive = campaigns.access_archive(campaign.pk, bob)
    assert archive["format"] == "pbem-campaign" and archive["game"] == 1
    imported, game = campaigns.do_create_campaign(carol, guess, invite=[dave.email], archive=archive)
    # the invitation says that the game continues a campaign, and tells its story so far (QA, #23)
    invitation = OutboundMessage.objects.filter(to_email=dave.email, subject__endswith="invitation").get().body_text
    assert f"This game continues campaign #{imported.pk} ({imported.name}): it is its game 2." in invitation
    assert "Imported from an archive after 1 game played elsewhere." in invitation
    assert "Standings (wins, then total score):" in invitation
    services.do_join_game(game.pk, dave)
    game.refresh_from_db()
    assert game.campaign_number == 2 and game.archive == archive
    here = campaigns.do_next_game(campaign.pk, alice)
    assert game.state is not None and here.state is not None
    assert game.state["scores"] == here.state["scores"] and game.state["played"] == here.state["played"] == 1
    assert CampaignEntry.objects.filter(campaign=imported, action="imported").exists()


@pytest.mark.parametrize(("change", "named"), [
    ({"scores": [1]}, "scores must give one number a seat"),
    ({"format": "zip"}, "not a campaign archive"),
    ({"seats": ["Ann", "Bob", "Cy"]}, "3 seats"),
])
def test_it_refuses_an_archive_the_engine_cannot_continue_naming_what_is_wrong(
        guess: str, carol: Player, dave: Player, change: dict[str, Any], named: str) -> None:
    state = TOY.setup(["Ann", "Bob"], {}, 5)
    while TOY.pending(state):
        seat = TOY.pending(state)[0]
        TOY.apply(state, seat, TOY.options(state, seat)[0].move)
    archive = TOY.archive(state)
    assert archive is not None
    with pytest.raises(services.ServiceError, match=named):
        campaigns.do_create_campaign(carol, guess, invite=[dave.email], archive={**archive, **change})
    assert not Campaign.objects.exists() and not Game.objects.exists()


def test_it_refuses_a_malformed_maracaibo_archive_with_an_answer_not_a_crash(alice: Player, bob: Player) -> None:
    rules = engine.get("maracaibo")
    state = rules.setup(["Ana", "Bo"], {"campaign": True, "rounds": 1}, "malformed")
    rnd = random.Random(1)
    while rules.pending(state):
        seat = rules.pending(state)[0]
        rules.apply(state, seat, choose(rules, state, seat, rules.options(state, seat), rnd).move)
    archive = rules.archive(state)
    assert archive is not None
    for bad in ({**archive, "legacy": [{"x": 1}]}, {**archive, "story": {**archive["story"], "tucked": [1, 2]}}):
        # (the engine's check names it: an unknown legacy tile, tucked cards that are not lists)
        with pytest.raises(services.ServiceError,
                           match=r"the archive cannot be continued: (it is malformed|unknown legacy|story\.tucked)"):
            campaigns.do_create_campaign(alice, "maracaibo", invite=[bob.email], archive=bad)
    campaign, game = campaigns.do_create_campaign(alice, "maracaibo", invite=[bob.email], archive=archive)
    assert game.campaign_number == 2 and campaign.options["campaign"] is True


def test_it_imports_an_archive_of_an_older_version_upgraded(alice: Player, bob: Player, carol: Player) -> None:
    """A real version-1 Maracaibo archive (written by main dcadee7): kept and exported upgraded, and its
    campaign's next game is the one the engine sets up from the old archive."""
    old = json.loads((Path(__file__).parents[1] / "engine" / "golden" / "maracaibo_archive_v1_3p.json").read_text())
    assert old["version"] == 1
    campaign, game = campaigns.do_create_campaign(alice, "maracaibo", invite=[bob.email, carol.email], archive=old)
    campaign.refresh_from_db()
    assert campaign.carry["version"] == 2 and campaign.carry["story"]["book"] == "base"
    assert campaign.carry == engine.get("maracaibo").upgrade_archive(old) and game.archive == campaign.carry
    assert campaigns.access_archive(campaign.pk, alice)["version"] == 2
    assert game.campaign_number == 3


def test_it_plays_a_solo_campaign_of_the_uprising_against_jacques(alice: Player,
                                                                  django_capture_on_commit_callbacks: Any) -> None:
    """One player's campaign (no one invited): the first game starts at once, is played to its end
    (the story's votes the player's alone), and the next game is set up from its archive."""
    campaign, first = campaigns.do_create_campaign(
        alice, "maracaibo", options={"mode": "campaign", "automa": "jacques", "rounds": 1})
    assert first.status == Game.Status.RUNNING and first.state is not None
    assert first.state["story"]["book"] == "uprising" and "jacques" in first.state
    finish(first.pk, django_capture_on_commit_callbacks)
    first.refresh_from_db()
    second = latest(campaign)
    assert second.campaign_number == 2 and second.status == Game.Status.RUNNING and second.state is not None
    assert second.archive is not None and second.archive["results"][0]["automa"]["name"] == "jacques"
    assert second.state["story"]["game"] == 2 and second.state["options"]["automa"] == "jacques"
    assert first.outcome is not None and second.archive["results"][0]["winners"] == first.outcome["winners"]
    [row] = campaign_selectors.standings(campaign)
    assert row.played == 1 and row.wins == (0 in first.outcome["winners"])


def test_it_refuses_an_archive_for_a_game_without_campaigns(alice: Player, bob: Player) -> None:
    archive = {"format": "pbem-campaign", "version": 1, "rules": "caravelas", "game": 1, "seats": ["A", "B"]}
    with pytest.raises(services.ServiceError, match="has no campaigns"):
        campaigns.do_create_campaign(alice, "caravelas", invite=[bob.email], archive=archive)


def test_it_plays_a_series_of_a_game_without_campaigns_seated_by_a_moderator(
        moderator: Player, alice: Player, bob: Player, django_capture_on_commit_callbacks: Any) -> None:
    campaign, first = campaigns.do_create_campaign(moderator, "caravelas", players=[alice.email, bob.email], games=2,
                                                    options={"target": 10})
    assert first.status == Game.Status.RUNNING and first.campaign_number == 1
    assert [s.player for s in CampaignSeat.objects.filter(campaign=campaign)] == [alice, bob]
    assert not first.seats.filter(player=moderator).exists()  # the moderator runs it, not plays it
    finish(first.pk, django_capture_on_commit_callbacks)
    second = latest(campaign)
    assert second.campaign_number == 2 and second.archive is None
    finish(second.pk, django_capture_on_commit_callbacks, seed=2)
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.FINISHED
    with pytest.raises(services.Conflict, match="the campaign sets up its next game"):
        campaigns.do_rematch(second.pk, alice)


def test_it_refuses_players_seated_directly_by_someone_not_a_moderator(alice: Player, bob: Player,
                                                                      carol: Player) -> None:
    with pytest.raises(services.Forbidden, match="only a moderator"):
        campaigns.do_create_campaign(alice, "caravelas", players=[bob.email, carol.email])


def test_it_hands_on_a_finished_campaign_game_whose_task_was_lost(guess: str, alice: Player, bob: Player) -> None:
    campaign, first = campaigns.do_create_campaign(alice, guess, invite=[bob.email], games=2)
    services.do_join_game(first.pk, bob)
    play_out(first.pk)  # no commit here: the task that would set up game 2 never runs
    assert campaign.games.count() == 1
    assert campaigns.do_sweep_campaigns() == 0  # not yet: its task may still be on its way
    later = timezone.now() + timedelta(minutes=1)
    assert campaigns.do_sweep_campaigns(later) == 1
    assert latest(campaign).campaign_number == 2
    assert campaigns.do_sweep_campaigns(later) == 0  # idempotent

