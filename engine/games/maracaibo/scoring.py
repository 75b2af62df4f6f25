"""The end of a turn, of a round, and the scorings (rulebook: "End of a round",
"Interim scoring", "Final scoring"): frames ``next``, ``score``, ``scoring``, and ``jean``
(the automa's whole turn, in a solo game).
"""

from __future__ import annotations

from engine import i18n
from engine.core import Event, Option, Outcome, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import campaign, coop, homeports, jacques, jean, liberation, scenarios, search
from . import content as C
from .actions import do_village
from .board import HANDLERS, last_round, multiplier, opt, stack, start_turn
from .cards import buy_options
from .effects import add_vp, count_of, doubloons, given_up, player, said, victory_points, who
from .setup import place_quests, refill_display


def _next_options(state: State, f: Frame) -> list[Option]:
    return [opt("next", "end the turn")]


def _next_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    state["turns"] += 1
    n = len(state["players"])
    if campaign.active(state):
        campaign.turn_end(state, seat, rng, ev)
    trigger = state["trigger"]
    if trigger is None:
        if jean.playing(state):
            stack(state).push(frame("jean", seat))  # her turn, resolved by the stack itself
        elif jacques.his_turn_now(state, seat):
            stack(state).push(frame("jacques", seat))  # every player has played once: his turn
        else:
            start_turn(state, (seat + 1) % n, ev)
        return ev
    kind = "final" if last_round(state) else "interim"
    ev.append(new_event("round_end", f"{who(state, trigger)} ended round {state['round']}: "
                        f"{'final' if kind == 'final' else 'interim'} scoring.", {"seat": trigger}))
    order = [(trigger + i) % n for i in range(n)]
    stack(state).push_all([*(frame("score", s, mode=kind, ask=True) for s in order), frame("scoring", trigger,
                                                                                             mode=kind)])
    return ev


def _score_options(state: State, f: Frame) -> list[Option]:
    return [*buy_options(state, f["seat"]), opt("vp2", "score 2 VP")]


def _score_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    p = player(state, seat)
    if o.code == "vp2":
        add_vp(p, 2, "scoring")
        ev.append(new_event("score2", f"{who(state, seat)} scores 2 VP.", {"seat": seat}))
        return ev
    frames = do_village(state, seat, o.code, rng, ev)
    if f["data"]["mode"] == "interim":
        frames.append(frame("draw", seat))  # redraw as in phase C
    stack(state).push_all(frames)
    return ev


def _scoring_options(state: State, f: Frame) -> list[Option]:
    return [opt("go", "scoring")]


def _scoring_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if f["data"]["mode"] == "final":
        asks = [] if f["data"].get("ransom") else search.ransom_frames(state, seat)
        if asks:  # The Search: the table decides who pays Luysa's ransom, then the final scoring
            again = frame("scoring", seat, mode="final", ransom=True)
            again["data"]["jean"] = bool(f["data"].get("jean"))
            stack(state).push_all([*asks, again])
            return ev
        final_scoring(state, rng, ev)
        if campaign.active(state):  # step 6 (the story) before the game ends
            state["over"] = False
            stack(state).push_all(campaign.step6(state, seat, "final"))
        return ev
    for i, p in enumerate(state["seats"]):
        p["doubloons"] += p["income_doubloons"]
        add_vp(p, p["income_victory_points"], "income")
        ev.append(said("income", i18n.text("{player} receives {d} and {vp}.", player=who(state, i),
                                           d=doubloons(p["income_doubloons"]),
                                           vp=victory_points(p["income_victory_points"])), {"seat": i}))
    if jean.playing(state):
        jean.interim(state, ev)
    if jacques.playing(state):
        jacques.round_end(state, rng, ev)
    for loc in state["market"]:
        state["market"][loc] = []
    state["discard"].extend(state["display"])
    state["display"] = []
    refill_display(state, rng, ev)
    for b in state["prestige"]:
        if not b["up"]:
            b["up"] = True
            ev.append(new_event("prestige", f"The {C.PRESTIGE[b['id']]['name']} is revealed.", {"building": b["id"]},
                                reveals=True))
            break
    if campaign.active(state):  # step 6 (the story), then step 7 in the frame rstart
        stack(state).push_all(campaign.step6(state, seat, "interim"))
        return ev
    _round_start(state, f, seat, ev)
    return ev


def _round_start(state: State, f: Frame, seat: int, ev: list[Event]) -> None:
    """Interim scoring step 7 (every ship back in Havana), and the next round's first turn."""
    state["round"] += 1
    scenarios.round_markers(state, ev)  # (the Uprising's scenario 79: set-aside markers, A17)
    place_quests(state, ev)
    for p in state["seats"]:
        p["at"] = "H"
    state["trigger"] = None
    ev.append(new_event("round", f"Round {state['round']} begins; every ship is back in Havana.",
                        {"round": state["round"]}))
    if jean.playing(state) and not f["data"].get("jean"):
        stack(state).push(frame("jean", seat))  # the player ended the round: Jean begins the next
    else:
        start_turn(state, (seat + 1) % len(state["players"]), ev)
    if "ports_box" in state:  # the Uprising's home ports: an income effect (Genova)
        for i in reversed(range(len(state["seats"]))):
            stack(state).push_all(homeports.income(state, i, ev))


def _rstart_options(state: State, f: Frame) -> list[Option]:
    return [opt("go", "the next round")]


def _rstart_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    _round_start(state, f, seat, ev)
    return ev


def final_scores(state: State) -> list[dict[str, int]]:
    """Every scoring source of final scoring steps 2-5, per seat (not yet added)."""
    mult = multiplier(state)
    out = []
    most = {n: max(p["influence"][n] for p in [*state["seats"], *jean.rivals(state)]) for n in C.NATIONS}
    for p in state["seats"]:
        s: dict[str, int] = {}
        s["income"] = p["income_victory_points"] + (p["income_doubloons"] - C.INCOME_D_MIN) // 2
        s["cards"] = sum(C.CARD[c]["vp"] for c in p["display"])
        pv = 0
        for b in state["prestige"]:
            if state["seats"].index(p) in b["investors"]:
                pb = C.PRESTIGE[b["id"]]
                pv += pb["vp"] * count_of(p, pb["per"])
        s["prestige"] = pv
        # (the Uprising's new city: no VP for the nation whose marker was given up, Assumption A37)
        gone = given_up(state, state["seats"].index(p))
        inf = p["influence"]
        s["nations"] = sum(3 for n in C.NATIONS if most[n] > 0 and inf[n] == most[n] and n != gone) + sum(
            C.rank(inf[n]) * mult[n] for n in C.NATIONS if n != gone) if liberation.nation_scoring(state) else 0
        out.append(s)
    return out


def final_scoring(state: State, rng: Rng, ev: list[Event]) -> None:
    for i, s in enumerate(final_scores(state)):
        p = state["seats"][i]
        for src, v in s.items():
            add_vp(p, v, src)
        # "Final scoring:" and "in the whole game": the parts here are this scoring's alone, the results
        # table's are the whole game's by source (QA, #22: "15 for cards" here, "cards 16" there)
        ev.append(new_event("final", f"Final scoring: {who(state, i)} scores "
                            + ", ".join(f"{v} for {k}" for k, v in s.items())
                            + f": {p['victory_points']} VP in the whole game.", {"seat": i}))
    if jean.playing(state):
        jean.final(state, ev)
    if jacques.playing(state):
        jacques.round_end(state, rng, ev)
        jacques.final(state, ev)
    if coop.cooperative(state):
        coop.final(state, ev)
    state["over"] = True


def _jean_options(state: State, f: Frame) -> list[Option]:
    return [opt("jean", f"{jean.NAME}'s turn")]


def _jean_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    """Jean's whole turn; then the player's turn, or the end of the round she triggered."""
    ev: list[Event] = [new_event("jean_turn", f"{jean.NAME}'s turn (round {state['round']}).", {})]
    if not jean.play_turn(state, rng, ev):
        start_turn(state, seat, ev)
        return ev
    kind = "final" if last_round(state) else "interim"
    ev.append(new_event("round_end", f"{jean.NAME} ended round {state['round']}: {kind} scoring.", {"jean": True}))
    stack(state).push_all([frame("score", seat, mode=kind, ask=True), frame("scoring", seat, mode=kind, jean=True)])
    return ev


# ---- the frames of this part (sub-decisions of a turn also offer the free actions) ----

HANDLERS["next"] = FunctionHandler(_next_options, _next_resolve)
HANDLERS["score"] = FunctionHandler(_score_options, _score_resolve)
HANDLERS["scoring"] = FunctionHandler(_scoring_options, _scoring_resolve)
HANDLERS["jean"] = FunctionHandler(_jean_options, _jean_resolve)
HANDLERS["rstart"] = FunctionHandler(_rstart_options, _rstart_resolve)


#: the order the results table lists Maracaibo's sources of victory points in
SOURCES = ("scoring", "nations", "careers", "explorer", "homeward", "income", "cards", "prestige")


def score_breakdown(state: State) -> dict[int, dict[str, float]]:
    if not state["over"]:
        return {}
    out: dict[int, dict[str, float]] = {}
    for i, p in enumerate(state["seats"]):
        src = p.get("victory_points_by_source") or {}
        known = [k for k in SOURCES if k in src] + sorted(k for k in src if k not in SOURCES)
        parts = {k: float(src[k]) for k in known}
        rest = float(p["victory_points"]) - sum(parts.values())
        if rest:
            parts["other"] = rest
        out[i] = parts
    return out


def outcome(state: State) -> Outcome | None:
    if not state["over"]:
        return None
    if jean.playing(state):
        won, reason = jean.outcome_reason(state)
        return Outcome(scores={0: float(state["seats"][0]["victory_points"])}, ranking=((0,),), reason=reason,
                       automa={jean.NAME: float(state["jean"]["victory_points"])}, seats_won=won)
    if coop.cooperative(state):
        return coop.outcome(state)
    if jacques.playing(state) and len(state["players"]) == 1:
        won, reason = jacques.outcome_reason(state)
        return Outcome(scores={0: float(state["seats"][0]["victory_points"])}, ranking=((0,),), reason=reason,
                       automa={jacques.NAME: float(state["jacques"]["victory_points"])}, seats_won=won)
    scores = {i: float(p["victory_points"]) for i, p in enumerate(state["seats"])}
    # tie-break (an assumption): more doubloons, then shared
    keyed = sorted(range(len(scores)), key=lambda i: (-scores[i], -state["seats"][i]["doubloons"]))
    ranking: list[tuple[int, ...]] = []
    for i in keyed:
        if ranking and (scores[ranking[-1][0]], state["seats"][ranking[-1][0]]["doubloons"]) == (scores[i],
                                                                                      state["seats"][i]["doubloons"]):
            ranking[-1] = (*ranking[-1], i)
        else:
            ranking.append((i,))
    return Outcome(scores=scores, ranking=tuple(ranking), reason="final scoring")
