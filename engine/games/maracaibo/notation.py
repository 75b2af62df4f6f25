"""How Maracaibo reads what players type: its words and readings for the shared layer.

The shared layer (:mod:`engine.notation`) reads a whole line against the options now, or
refuses it; this module gives it Maracaibo's vocabulary (verbs, nations, goods, objects, the
places, the cards, the buildings, quests and ship areas by all their names, as data), the
texts that name each kind of option (:func:`readings`) and why a line that names nothing legal
is refused (:func:`explain`, and :func:`check` for lines that negate an action). The rules call
it through four small hooks (``_vocabulary``, ``_readings``, ``_read_line``, ``_explain``).

Names are read forgiving: a card by its whole name (``buy bold merchant``), by one word of it
when that picks one card among the options (``buy merchant``), with a typo (``Bold Merchnt``,
read with a note), plural or article (``deliver the tobaccos``), a place by its number or
name (``sail to 9``, ``sail to cartagena``). Numbers keep their meaning: ``sail 5`` is five
locations, ``sail to 5`` is location 5 (``to N`` reads as a location only while sailing).

This module knows the content (:mod:`.content`) and the frames' data in the state, never the
rules module: the rules import it, not the other way round.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from engine import i18n, notation
from engine.core import Option, State
from engine.errors import IllegalMove
from engine.i18n import _, ngettext

from . import content as C
from . import labels
from . import uprising_content as U
from .board import closed_from, hand_limit, window_closed
from .effects import cheapest, good_cards

# ---- the vocabulary -------------------------------------------------------------------------------


_DELIVERY_WITH = re.compile(r"^\s*(deliver\s+\S+)\s+(with\s+.+)$", re.IGNORECASE)


_PILE_DRAWS = re.compile(r"^\s*draw\s+(\d+)\s+(?:cards?\s+)?from\s+(?:the\s+)?(?:pile|deck|stack|monte|baralho|pilha)"
                         r"\s*$",
                         re.IGNORECASE)


def pile_parts(part: str) -> list[str]:
    """``draw 2 from pile`` as two draws from the pile (applied together only when both are sure:
    ``Rules.sure_repeat``)."""
    m = _PILE_DRAWS.match(part)
    times = int(m.group(1)) if m else 1
    return ["draw from the pile"] * times if m and 1 < times <= 12 else [part]


#: a line that keeps a list of dealt cards (``keep A, B and C``, ``guardar A, B e C``), or ends the turn
#: and then draws (``done and draw from the pile``, ``terminar e comprar do monte``)
_KEEP_LIST = re.compile(r"^\s*(?:keep|choose|select|hold|guardar|ficar|manter|done|end|finish|finished|terminar|"
                        r"pronto|fim)\b", re.IGNORECASE)
_LIST_AND = re.compile(r",?\s+(?:and|e)\s+", re.IGNORECASE)


def keep_list(text: str) -> str:
    """``keep A, B and C`` as ``keep A, B, C``: a list's last item after "and" ("e") is a card kept
    too; ``done and draw from the pile`` as the turn's end, then the draw. Why only after these verbs:
    elsewhere "and" joins the parts of one option's label ("1 doubloon and 1 combat point"), and no
    card's name holds the word (a line is split only when it does not read whole: ``engine.batch``)."""
    return _LIST_AND.sub(", ", text) if _KEEP_LIST.match(text) else text


def delivery_parts(part: str) -> list[str]:
    """``deliver sugar with card 12`` as its two decisions, the delivery and its payment."""
    m = _DELIVERY_WITH.match(part)
    return [m.group(1), m.group(2)] if m else [part]


def _words(name: str) -> list[str]:
    """The words of a name as the lexer sees them (``Governor's Palace`` -> governor, palace)."""
    return [w for w in notation.tokens(re.sub(r"'s\b", "", name).replace("-", " ").replace(".", " "))
            if w not in notation.FILLERS and len(w) > 1 and notation.number(w) is None]


def fold_name(loc: str) -> str:
    """A place's name as one folded word, when it is one word (``cartagena``), else ''."""
    words = _words(str(C.LOC[loc]["name"]).split(": ", 1)[-1])
    return words[0] if len(words) == 1 else ""


# Terms are never typed: ``#`` keeps a term's own spelling from reading as words (``card 12``).
def _card_term(cid: int) -> str:
    return f"c#{cid}"


def _loc_term(loc: str) -> str:
    return f"l#{loc}"


def _place_aliases(loc: str) -> list[str]:
    name = str(C.LOC[loc]["name"])
    short = name.split(": ", 1)[-1]
    out = [name.replace(":", ""), short, short.replace(".", "")]
    if short.startswith("St. "):
        out += ["saint " + short[4:], "st " + short[4:]]
    if loc == "H":
        out += ["habana", "la habana", "havanna", "start"]
    if not loc.isdigit() and loc != "H":  # 21a, 9a: their number is a name too
        out += [loc, f"{loc[:-1]} {loc[-1]}"]
    # its name in each other language too, as the options say it to that reader ("São Cristóvão"):
    # a Portuguese player's ``navegar até São Cristóvão`` was refused as unknown words
    for code in i18n.LANGUAGES:
        said = i18n.lookup(name, code) if code != i18n.DEFAULT else None
        if said and said != name:
            out += [said.replace(":", ""), said.split(": ", 1)[-1]]
    return out


def _build() -> tuple[notation.Vocabulary, dict[str, str]]:
    names: dict[str, list[str]] = {
        "france": ["french", "fr", "franca", "francia", "frenchmen"],
        "england": ["english", "britain", "british", "uk", "eng", "brits", "inglaterra"],
        "spain": ["spanish", "espana", "spaniards", "esp", "spaniard"],
        "tobacco": ["tabaco", "tobbaco"],
        "corn": ["maize", "milho"],
        "sugar": ["sugarcane", "sugar cane", "acucar"],
        "cotton": ["algodao"],
        "upper": ["top", "high", "higher", "u"],
        "lower": ["bottom", "low", "l"],
        "against": ["contra", "versus", "vs"],  # (a name, not a verb: a fight for never reads as against)
        # the Liberation's extra liberation by the ship upgrade (a name: "liberate 14" never reads as it)
        "extra": ["additional", "with the upgrade", "with the ship upgrade", "by the upgrade", "upgrade's"],
    }
    display = {"against": "against", "extra": "extra", "france": "France", "england": "England", "spain": "Spain",
               "upper": "upper", "lower": "lower"}
    words: dict[str, set[str]] = {}

    def word(written: str, term: str) -> None:
        words.setdefault(written, set()).add(term)

    for cid, card in C.CARD.items():
        t = _card_term(cid)
        # its name in each other language too: a Portuguese player's ``comprar Cronista Rebelde`` named no
        # card, so a refusal could not say why (its price, the last round) but only "no move uses all of ..."
        names[t] = [card["name"], *sorted({said for code in i18n.LANGUAGES if code != i18n.DEFAULT
                                           for said in [i18n.lookup(str(card["name"]), code)]
                                           if said and said != card["name"]})]
        display[t] = str(card["name"])
        for w in _words(card["name"]) if len(_words(card["name"])) > 1 else ():
            word(w, "w#" + w)
            display["w#" + w] = w
    for loc in C.LOC_ORDER:
        t = _loc_term(loc)
        names[t] = _place_aliases(loc)
        display[t] = f"{loc} {C.LOC[loc]['name']}"
        for w in {w for a in _place_aliases(loc) for w in _words(a) if len(_words(a)) > 1} - {fold_name(loc)}:
            word(w, "w#" + w)
            display["w#" + w] = w
    for bid, b in C.PRESTIGE.items():
        t = f"b#{bid}"
        names[t] = [b["name"], re.sub(r"'s\b", "", b["name"]), re.sub(r"'s\b", "s", b["name"]), bid]
        display[t] = str(b["name"])
        for w in _words(b["name"]) if len(_words(b["name"])) > 1 else ():
            word(w, "w#" + w)
            display["w#" + w] = w
    for hp in U.PORTS:  # the Uprising's home ports (shown as such: the port Nassau is not the place 2 Nassau)
        names[f"h#{hp['id']}"] = sorted({hp["name"], hp["pt"], hp["id"]})
        display[f"h#{hp['id']}"] = f"home port {hp['name']}"
    for area in ("UR", "UH"):  # the Uprising's new ship board: its resistance tile and home port slots
        names[f"u#{area}"] = [area, f"area {area}"]
        display[f"u#{area}"] = area
    for qid in C.QUEST:
        names[f"q#{qid}"] = [qid, f"quest {qid}"]
        display[f"q#{qid}"] = qid
    # the village action's code, typed where it is not an option: understood, so that the refusal
    # says why (no village action left) instead of "not understood"
    names["v#d"] = ["vd"]
    display["v#d"] = "vd"
    for u in C.UPGRADES:
        names[f"u#{u['id']}"] = [u["id"], f"area {u['id']}"]
        display[f"u#{u['id']}"] = u["id"]
    verbs = {
        "sail": ["go", "move", "travel", "voyage", "head", "navegar", "ir", "sailing"],
        "buy": ["purchase", "acquire", "play", "comprar", "pay for", "bought"],
        "invest": ["build", "fund", "finance", "investment"],
        "plan": ["reserve", "park", "planear", "put aside", "set aside"],
        "keep": ["choose", "select", "hold", "guardar", "ficar", "manter"],
        "deliver": ["sell", "unload", "trade", "delivery", "entregar", "vender", "supply"],
        "city": ["town", "cidade"],
        "action": ["act", "acao"],
        "quest": ["mission", "missao", "quests"],
        "fulfil": ["fulfill", "complete", "finish quest", "cumprir"],  # (not "do": Portuguese "do monte", #27)
        "fight": ["attack", "battle", "war", "lutar", "atacar", "fights", "fighting"],
        "influence": ["inf", "infl", "favour", "favor", "influencia"],
        "annex": ["conquer", "occupy", "claim", "capture", "seize", "anexar", "take over"],
        "displace": ["replace", "oust", "kick out", "remove marker"],
        "explore": ["explorer", "expedition", "discover", "explorar"],
        "career": ["task", "tasks", "job", "careers", "carreira"],
        # Why these "comprar" phrases: Brazilians "buy" a card from the pile when they draw it (comprar do monte);
        # "comprar" alone stays "buy" ("comprar 1" is no village action)
        "draw": ["get", "puxar", "tirar", "draws", "comprar do", "comprar da", "comprar carta", "comprar cartas"],
        "display": ["market", "row", "face up", "open cards", "mostrador"],
        "pile": ["deck", "stack", "blind", "monte", "baralho", "pilha", "pilhas"],  # ("pilha": the options' word)
        "end": ["done", "finish", "stop", "finished", "over", "fim", "terminar", "ready"],
        "pass": ["skip", "nothing", "none", "passar", "nada"],
        "yes": ["y", "yep", "yeah", "sure", "sim"],
        "vp": ["vps", "points", "point", "victory points", "victory point", "pontos", "pv"],
        "doubloon": ["d", "money", "gold", "coins", "coin", "dubloon", "dubloons", "cash", "dobroes", "dobrao"],
        "token": ["tokens", "ficha"],
        "reveal": ["flip", "turn over", "open"],
        "score": ["scoring", "pontuar"],
        "disc": ["discs", "cube", "cubes", "remove"],
        "area": ["areas", "space on the ship", "slot"],
        "ship": ["boat", "board", "navio", "barco"],
        "rank": ["noble", "title", "nobility"],
        "assistant": ["assistants", "helper", "agent", "assistente"],
        "village": ["villages", "aldeia", "vila"],
        "leave": ["ignore", "decline", "refuse", "no thanks"],
        "discard": ["throw", "dump", "throw away", "descartar"],
        "hand": ["hands", "mao"],
        "space": ["spaces", "step", "steps", "location", "locations", "loc", "casa", "casas"],
        "turn": ["vez", "turno", "phase"],
        "pay": ["pagar"],
        "port": ["home port", "homeport", "porto de origem", "porto inicial", "starting port"],
        "bonus": ["bonuses", "bonus"],
        "resistance": ["resistencia", "resistence"],
        "liberate": ["liberation", "free", "libertar", "liberar", "free the"],
        "tile": ["tiles", "peca"],
    }
    # words with several meanings (``take`` a card to keep, from the display, or a doubloon)
    several = {
        "take": ["keep", "draw", "take"], "pick": ["keep", "draw"], "combat": ["combat", "fight"],
        "use": ["use"], "cards": ["cards"], "next": ["end", "next"], "pass": ["pass", "end"],
    }
    for written, terms in several.items():
        for term in terms:
            word(written, term)
    vocab = notation.Vocabulary.build(
        verbs=verbs, names=names, words={w: sorted(t) for w, t in words.items()},
        fillers=["each", "per", "its", "it", "now", "up", "please", "again"],
        display=display)
    return vocab, display


VOCABULARY, DISPLAY = _build()

#: The words before a location's number while sailing ("to 9", "location 9", "para 9"; folded).
TO_WORDS = ("to", "to location", "to loc", "location", "loc", "to space", "to number", "till", "until",
            "para", "ate", "para o", "ate o", "para a casa", "ate a casa")  # (#27)

#: only while sailing: ``to 9`` (and ``location 9``) is location 9, so ``sail 5`` stays five locations
SAIL_WORDS = notation.Vocabulary.build(
    names={f"@{loc}": [f"{to} {n}" for to in TO_WORDS
                       for n in ({loc, f"{loc[:-1]} {loc[-1]}"} if not loc.isdigit() else {loc})]
           for loc in C.LOC_ORDER if loc != "H"},
    display={f"@{loc}": f"location {loc}" for loc in C.LOC_ORDER})

_merged: dict[int, tuple[notation.Vocabulary, notation.Vocabulary]] = {}


def vocabulary(base: notation.Vocabulary, state: State) -> notation.Vocabulary:
    """The vocabulary for this decision: ``base`` (the game's words and the players' names),
    with ``to N`` meaning location N while sailing."""
    if _top(state) != "sail":
        return base
    hit = _merged.get(id(base))
    if hit is not None and hit[0] is base:
        return hit[1]
    out = base.merged(SAIL_WORDS)
    if len(_merged) > 64:
        _merged.clear()
    _merged[id(base)] = (base, out)
    return out


# ---- readings ---------------------------------------------------------------------------------------


def _top(state: State) -> str:
    stack = state.get("stack") or []
    return str(stack[-1]["kind"]) if stack else ""


def _frame_data(state: State) -> dict[str, Any]:
    stack = state.get("stack") or []
    return dict(stack[-1].get("data") or {}) if stack else {}


def card_name(cid: int) -> str:
    """A card's name with each of its words as a weak part: ``buy merchant`` names it; and the words
    of its name in each other language (QA, issue 27: a Portuguese player's ``comprar Marinheiro
    Vermelho``, the name the mail shows, was "not understood"; only the English name was)."""
    name = str(C.CARD[cid]["name"])
    words = _words(name)
    for code in i18n.LANGUAGES:
        said = i18n.lookup(name, code) if code != i18n.DEFAULT else None
        words += [w for w in _words(said or "") if w not in words]
    return name + "".join(f" ({w})" for w in words)


def place_name(loc: str) -> str:
    name = str(C.LOC[loc]["name"]).split(": ", 1)[-1]
    return name + "".join(f" ({w})" for w in sorted({w for a in _place_aliases(loc) for w in _words(a)}))


def _nation(letter: str) -> str:
    return next(n for n in C.NATIONS if n[0] == letter)


_SAIL = re.compile(r"sail (\d+) to ")
_YESNO = {
    "discard": (["discard (hand) (yes) (doubloon 4)", "discard hand for 4 doubloons"],
                ["keep (hand) (no)", "no discard"]),
    "assistants": (["doubloon (4) (assistant)", "4 doubloons for each assistant", "doubloons (yes)"],
                   ["vp (2) (assistant)", "2 vp for each assistant"]),
    "pay_cp": (["pay (yes) (2) (combat) (points) (influence) (6 doubloons)"], ["not pay", "no pay", "leave"]),
}


def readings(state: State, seat: int, option: Option) -> list[str]:
    """The texts that name ``option`` (the label is matched exactly before these are tried)."""
    out = _readings(state, seat, option)
    if _top(state) == "main" and option.code != "pass" and not re.fullmatch(r"p\d+|k\d+[ul]", option.code):
        # a main action is one: ``no main action tobacco`` names none of them
        out = [f"{r} (main)" for r in out]
    if _top(state) == "village" and option.code != "done":
        out = [f"{r} (more)" for r in out]  # likewise ``no more village actions gravedigger``
    return out


def _readings(state: State, seat: int, option: Option) -> list[str]:
    code, label = option.code, option.label
    kind = _top(state)
    if kind == "setup" and code.startswith("h"):  # the Uprising: the home port kept
        name = U.PORT[code[1:]]["name"]
        return [f"(keep) port {name}", f"keep {name}"]
    if kind == "portbonus":
        return ["pay (port) (bonus)", "yes", label] if code == "yes" else ["leave (port) (bonus)", "pass", label]
    if kind == "setup":
        cid = int(code[1:])
        verb = "plan (planning area)" if code[0] == "p" else "keep"
        # ``plan 1`` where the option is p1: a card by its number (the code's) too
        return [f"{verb} {card_name(cid)}", f"{verb} (card) {cid}"]
    if code.startswith("p") and code[1:].isdigit():  # plan a card (a free action)
        return [f"plan {card_name(int(code[1:]))} (planning area)"]
    if re.fullmatch(r"k\d+[ul]", code):
        n, which = code[1:-1], "upper" if code.endswith("u") else "lower"
        return [f"career {n} {which}", f"career {n} {which} task", f"{which} career {n} (task) (complete)"]
    if code == "luysa" or re.fullmatch(r"lh\d+c\d+", code):  # The Search's free actions (search.py)
        return [label, "free luysa", "luysa"] if code == "luysa" else [label]
    if kind == "sail" and code.startswith("s"):
        return _sail_readings(code[1:], label)
    if kind == "sail" and code.startswith("x"):  # the Uprising's 13-2 passage (L37)
        return [f"{r} (by) (via) (the) passage" for r in _sail_readings(code[1:], label)]
    if kind == "ruinpay":  # the Uprising's ruin track (L32): the cards that pay its space's objects
        if code == "no":
            return ["pay nothing", "no", "pass", "leave (it) (space) (reward)", label]
        cards = " ".join(card_name(int(c)) for c in code[1:].split("-"))
        return [f"pay (with) {cards} (reveal) (card)", f"(pay) (with) {cards}", label]
    if kind == "newcity":  # the Uprising's new city (L30): the influence marker given up
        n = _nation(code[1])
        return [f"(give) (up) {n} (influence) (marker)", f"give up {n}"]
    if kind == "legacydisc":  # the Uprising's 21a outpost (L33)
        if code == "no":
            return ["leave (it) (outpost) (legacy) (tile)", "no", "pass", label]
        return ["yes (disc) (outpost) (use) (legacy) (tile)", "(use) outpost", "disc (to) (the) outpost", label]
    if kind == "draw":
        # A number without ``display`` or the card's name may be a count (``draw one card``, ``draw
        # up to 4``): refused with both readings (:func:`check`), never a paid display card.
        if code == "pile":
            return ["draw (pile) (cards) (top) (blind)", "pile", "draw from the pile (cards)", "draw 1 pile (top)"]
        i = int(code[1:])
        cid = state["display"][i - 1]
        return [f"draw {i} (display)", f"draw {card_name(cid)} (display)", f"display {i}",
                f"draw (display) {i} {card_name(cid)}"]
    if code.startswith("b") and code[1:].isdigit():
        cid = int(code[1:])
        planned = " (planning area) (planned)" if cid in state["seats"][seat]["plan"] else ""
        extra = " (village action)" if kind in ("main", "village") else ""
        return [f"buy {card_name(cid)}{planned}{extra}"]
    if code.startswith("i") and code[1:] in C.PRESTIGE:
        b = C.PRESTIGE[code[1:]]
        return [f"invest in {b['name']} (building) (prestige)", f"buy {b['name']} (building) (prestige)"]
    if kind in ("main", "village", "score"):
        return _main_readings(state, seat, option)
    if kind == "pay":  # which hand cards pay a delivery or a quest
        if code == "ypay":
            return ["pay (quest) (yes)", label]
        cards = " ".join(card_name(int(c)) for c in code[1:].split("-"))
        data = _frame_data(state)
        if data.get("what") == "three":  # U9: which three cards of the good; or the ones kept
            chosen = {int(c) for c in code[1:].split("-")}
            kept = [c for c in state["seats"][seat]["hand"] if C.CARD[c]["good"] == data["good"] and c not in chosen]
            return [f"(discard) (three) ({data['good']}) {cards}",
                    "keep " + " (and) ".join(card_name(c) for c in kept), label]
        what = f"(deliver) ({data['good']}) (pay)" if data.get("what") == "deliver" else \
            f"(pay) (quest) ({data.get('quest', '')})"
        ids = " ".join(code[1:].split("-"))  # ``with card 12``: a hand card by its number too
        return [f"{what} (with) (use) (discard) {cards}", f"{what} (with) (use) (discard) card {ids}",
                f"{what} (with) (use) (discard) cards {ids}", label]
    if kind == "trade":  # the Uprising: which cards pay a home port's village trade (Bremen, Oranjestad)
        paid = [int(c) for c in code[1:].split("-")]
        kept = [c for c in _frame_data(state).get("cards", ()) if c not in paid]
        return [f"(discard) (pay) (with) {' '.join(card_name(c) for c in paid)}",
                *(["keep " + " (and) ".join(card_name(c) for c in kept)] if kept else []), label]
    if kind == "costgoods":  # the Uprising: which hand cards pay a card's goods (cost_goods)
        names = " ".join(card_name(int(c)) for c in code[1:].split("-"))
        return [f"(pay) (with) (discard) {names}", label]
    if kind == "marknation":  # the Uprising: the nation a card's figure marks (nation_worker)
        n = _nation(code[1])
        return [f"(mark) {n} (figure) (worker) (nation) (influence) (track)", label]
    if kind == "tokenpick":  # the Uprising: a combat token kept of two, the other to a pile's bottom
        keep, _sep, pile = code[1:].partition("p")
        # (the other token is not a word of it: "keep T5, T3 to pile 1" names both tokens and reads as neither)
        return [f"keep (token) {keep} (put) (the) (other) (token) (to) (at) (the) (bottom) (of) pile {pile}"]
    if kind == "oneof":  # the Uprising: one of a card's rewards (one_of)
        return [label, f"(take) (reward) {code[1:]}"]
    if kind == "tradeany":  # the Uprising: how many cards of a good a card's trade takes (trade_any)
        good, k = _frame_data(state).get("good", ""), code[1:]
        if k == "0":  # (not the label: "pay 2 tobacco for 4 doubloons" holds a 4 that is no count of cards)
            return [f"pay no {good}", f"pay 0 {good}", "pass", "none"]
        return [f"pay {k} {good} (cards)", f"{k} {good}"]
    if kind == "libvillage":  # the Uprising: the village a card liberates
        loc = code[1:]
        return [f"liberate (village) {loc}", f"liberate (village) {place_name(loc)}", f"liberate (village) {loc} "
                f"{place_name(loc)}", label]
    if kind == "again":  # the Uprising: Porto, an identical good discarded after a delivery
        if code == "no":
            return ["no (discard) (home) (port)", "keep (cards) (goods)", "pass", label]
        return [f"(discard) {card_name(int(code[1:]))} (home) (port) (for) (combat points)", label]
    if kind == "combat":
        return _combat_readings(state, code, label)
    if kind == "fight" and code.startswith("a"):  # the Uprising (78): against a nation
        n = _nation(code[1])
        return [f"fight against {n} (nation)", f"against {n} (fight)"]
    if kind in ("against", "liberation") and (code == "cend" or code[:2] in ("lc", "lv", "xc", "xv")):
        # the Uprising (78) and the Liberation (79): Liberate City / Village; the ship upgrade's extra
        # liberation (79) needs the word "extra" or "upgrade", so "liberate 14" is never two options
        if code == "cend":
            return ["end (combat) (fight)", "pass", "end (the) combat", "not more (combat) (action)"]
        loc, name = code[2:], place_name(code[2:])
        what = "(city)" if code[1] == "c" else "(village)"
        if code[0] == "x":
            return [f"liberate {what} {loc} extra", f"liberate {what} {name} extra",
                    f"extra liberate {what} {loc}", f"extra liberate {what} {name}"]
        return [f"liberate {what} {loc}", f"liberate {what} {name}", f"liberate {what} {loc} {name}"]
    if kind == "liberation":  # a card's or a home port's combat action against a nation (79)
        return _combat_readings(state, code, label)
    if kind == "fight" and code.startswith("f"):  # (other codes here: free actions, e.g. The Search's)
        n = _nation(code[1])
        return [f"fight {n}", f"fight (for) {n} (nation)", f"{n} (value)"]
    if kind == "pile":
        if code == "x":
            return ["fight (without token)", "combat"]
        no = code[1:]
        return [f"pile {no} (reveal) (token) (combat) (draw) (from)", f"reveal (combat) token {no} (pile) (from)",
                f"token (pile) {no} (reveal) (take) (draw)"]
    if kind == "nation":
        n = _nation(code[1])
        k = _frame_data(state).get("n", 1)
        if "place" in _frame_data(state):
            return [f"{n} (marker) (place) (put) (influence) (1) (doubloon) (village)"]
        return [f"{n} ({k}) (influence) (gain)", f"influence {n} ({k})"]
    if kind == "rankup":
        n = _nation(code[1])
        at = re.search(r"up to (\d+)", label)
        return [f"{n} (rank) (up) (influence) (next)" + (f" ({at.group(1)})" if at else "")]
    if kind == "explore":
        if "r" in code:  # the Uprising's ruin track (L32): the explorer, then the ruin track's figure
            head, _sep, to = code.partition("r")
            fig = f"(and) ruin (track) (figure) (worker) (to) (space) {to}"
            return ([f"explore {head[1:]} (space) {fig}", f"explorer {head[1:]} {fig}"] if head else
                     [f"(explore) (explorer) (stays) {fig}"])
        if "w" in code:  # the Uprising's Roatán: the explorer, then the home port's figure
            head, _sep, fig_to = code.partition("w")
            fig = f"(and) (home) (port) (figure) (worker) (to) {fig_to}"
            return ([f"explore {head[1:]} (space) {fig}", f"explorer {head[1:]} {fig}"] if head else
                    [f"(explore) (explorer) (stays) {fig.replace('(figure) (worker)', 'figure')}",
                     f"(explore) worker (to) (space) {fig_to}"])
        to, _sep, by = code[1:].partition("b")
        if by:  # the Uprising's Panamá: the way there by its second-to-last space
            return [f"explore {to} (space) (by) (via) (and) (space) {by}", f"explore (to) space {to} (and) space {by}"]
        return [f"explore {to} (space)", f"explore (to) space {to}", f"space {to} (explore)"]
    if kind == "disc" and code in ("uR", "uH"):  # the Uprising's new ship board: its two slots
        slot = "resistance (tile)" if code == "uR" else "port"
        return [f"U{code[1:]} (disc) (remove) (take) (draw) (ship) (area) (from)",
                f"(disc) (remove) (take) (draw) (from) {slot} (area)"]
    if kind == "resist":  # the Uprising: a liberated marker to a space of the resistance tile
        if code == "r0":
            return ["leave (marker) (out) (game)", "pass", "discard (marker)"]
        return [f"resistance {code[1:]} (space) (tile) (marker) (put)", f"space {code[1:]} (resistance) (tile)"]
    if kind == "disc":
        # Why "take" and "draw" ("pegar", "tirar"): the rulebook's own verb, "take a disc from your ship"
        n = code[1:]
        return [f"U{n} (disc) (remove) (take) (draw) (ship) (area) (from)",
                f"disc {n} (ship) (area) (remove) (take) (draw) (from)", f"area {n} (disc) (ship) (remove) (take)"]
    if kind == "tquest":
        if code == "quest":
            return ["quest (fulfil) (yes) (take) (pay)", "fulfil (quest) (yes)", "yes (quest)"]
        return ["leave (quest) (it)", "not quest", "not fulfil", "pass", "no quest"]
    if kind == "legacyspace":  # the Uprising's new legacy spaces (L34-L36), before the main action
        if code == "no":
            return ["leave (it) (legacy) (tile)", "no", "pass", "not use (legacy) (tile)", label]
        if code == "yes":
            return ["yes (use) (legacy) (tile) (pay) (reveal)", "use (legacy) (tile)", label]
        return [f"pay (2) {code[1:]} (use) (legacy) (tile) (discard)", label]
    if kind == "yesno":
        what = _frame_data(state).get("what", "")
        said = _YESNO.get(what, ([label], [label]))
        return [*(said[0] if code == "yes" else said[1]), label]
    if kind == "u11":
        return {"explore": ["explore (3) (up)", "explore"],
                "money": ["doubloon (4) (vp) (money)", "4 doubloons 4 vp", "doubloons and vp"],
                "rank": ["rank (influence) (marker) (noble) (next) (up)"]}.get(code, [label])
    if kind == "short":  # the combat value missing: combat points and figures, as the player mixes them
        cp = int(code[2:])
        figs = int(_frame_data(state).get("need", cp)) - cp
        if cp and figs:
            both = f"{cp} (combat) points (and) {figs} figures"
            return [f"pay (with) {both}", both]
        if cp:
            return [f"pay (with) ({cp}) (combat) points (only) (all)", f"({cp}) combat points (only) (pay)"]
        return [f"pay (with) ({figs}) figures (only) (all)", f"({figs}) figures (only) (pay)"]
    if kind == "three":  # U9: which good's three cards to discard
        g = code[1:]
        return [f"discard (three) (3) {g} (goods) (cards) (identical)", f"{g} (three) (3) (discard)",
                f"three {g} (discard)", label]
    if kind == "free" and code == "end":
        return ["end (main) (phase) (turn) (action) (draw) (cards)", "pass", "end main phase draw cards"]
    if kind == "next":
        return ["end (turn)", "next"]
    return [label]


def _sail_readings(loc: str, label: str) -> list[str]:
    m = _SAIL.match(label)
    steps = m.group(1) if m else ""
    name = place_name(loc)
    by_steps = f"sail {steps} (space)"
    to = f"to {loc}"
    out = [by_steps, f"sail {to} (space)", f"sail {name} (space)", f"sail {steps} {to} (space)",
           f"sail {steps} {name} (space)", f"sail {to} {name}", f"sail {steps} {to} {name}"]
    return out if steps else out[1:3] + out[5:6]


def _main_readings(state: State, seat: int, option: Option) -> list[str]:
    code, label = option.code, option.label
    if code == "vd":
        # the 1 is needed (a required slot): ``village action`` alone names none of the village actions
        return ["take 1 doubloon (village action)", "1 doubloon (village action)"]
    if code.startswith("v") and code[1:].isdigit():
        cid = int(code[1:])
        return [f"use {card_name(cid)} (village action)", f"village action {card_name(cid)}",
                f"{card_name(cid)} (village action) (use)"]
    if code == "dH":  # the Uprising: Antwerp, a disc off the market instead of delivering
        return ["take (a) disc (off) (the) market (home) (port) (instead) (delivering)", "(home) port (city) (market)"]
    if code == "vH":  # the Uprising: the home port's village action (Bremen, Oranjestad)
        return ["(use) port (village action) (trade) (pay)", "village action (home) port"]
    if code == "vR":  # the Uprising: the resistance tile's village action
        at = state["seats"][seat]["at"]
        return ["liberate (village) (here) (resistance) (tile) (village action)", f"liberate {C.LOC[at]['name']}",
                "resistance (tile) (village action) (use) (liberate)"]
    if code.startswith("vU"):
        return [f"{code[1:]} (village action) (use) (ship) (area)", f"village action {code[1:]} (ship) (area)"]
    if code.startswith("d") and code[1:] in C.GOODS:
        good, p = code[1:], state["seats"][seat]
        paying = cheapest(p, good_cards(p, good))
        if len(paying) == 1:  # the one card that pays, paid without asking, may be named (QA, #20)
            return [f"deliver {good} (city action) (market) (then) (card)",
                    f"deliver {good} (with) (use) (discard) {card_name(paying[0])}",
                    f"deliver {good} (with) (use) (discard) card {paying[0]}"]
        return [f"deliver {good} (city action) (market) (then) (card)"]
    if code == "city":
        # ``no delivery`` (the rules page's words): a line that only says not to deliver fits this
        # reading whole (its words are all weak); :func:`check` refuses it for any other negation
        return ["city (action)", "(city) (action) not deliver"]
    if code == "quest":
        q = state["quests"].get(state["seats"][seat]["at"], "")
        return [f"quest (fulfil) ({q})", f"fulfil quest ({q})", f"{q} (quest) (fulfil)"]
    if code.startswith("a") and code[1:].isdigit():
        cid = int(code[1:])
        return [f"assistant {card_name(cid)} (action) (use)", f"assistant (action) (use) (of) {card_name(cid)}",
                "assistant (action) (use)"]
    if code == "hfight":
        return ["combat (action)", "fight (action) (combat)"]
    if code == "hexplore":
        return ["explore (2) (action)"]
    if code == "pass":
        # no word of "main action" alone: ``main action`` names no move (the label is read whole first)
        # ``(deliver)``: a line that says not to deliver (``no delivery``) is the city action, not this
        # one; a line that says to deliver is refused by :func:`check` (it names no good)
        return ["skip (deliver)", "not action (deliver)"]
    if code == "vp2":
        return ["(score) 2 vp", "(score) vp", "(take) 2 vp"]
    if code == "done":
        return ["end", "stop", "pass"]  # as for pass: ``village action`` alone names none
    return [label]


def _combat_readings(state: State, code: str, label: str) -> list[str]:
    nation = _frame_data(state).get("nation", "")
    if code.startswith("ci"):
        n = code[2:]
        return [f"influence {n} (gain) (with) (nation) ({nation})", f"{n} influence (gain) (with) ({nation})"]
    if code[:2] in ("ca", "cd", "cv", "cw"):
        loc = code[2:]
        name = place_name(loc)
        verb = {"ca": "annex", "cd": "displace", "cv": "annex village", "cw": "displace village"}[code[:2]]
        # ``annex 12 for england`` while fighting for England: the nation fought for may be said
        ship = " (ship action)" if code[:2] in ("cv", "cw") else ""
        out = [f"{verb} {loc}{ship}", f"{verb} {name}{ship}", f"{verb} {loc} {name}{ship}"]
        if code[:2] == "cd":  # ``annex 6`` when 6 belongs to another nation: displace it
            here = state["markers"].get(loc, "")
            out += [f"annex {loc} (displace)", f"annex {name} (displace)", f"displace {here} (at) ({loc}) ({name})"]
        if code[:2] == "cw":
            out += [f"annex village {loc} (displace) (ship action)"]
        if ship:
            out = [*out, *(f"ship action {x}" for x in out[:3])]
        return [f"{r} ({nation})" for r in out] if nation else out
    if code.startswith("ch"):  # the Uprising: a home port's combat action
        name = U.PORT["HP" + code[2:]]["name"]
        return ["use (home) port (combat action)", f"use {name} (combat action)", f"{name} (combat action)"]
    if code.startswith("cc"):
        cid = int(code[2:])
        return [f"use {card_name(cid)} (combat action)", f"{card_name(cid)} (combat action) (use)"]
    if code == "cend":
        return ["end (combat) (fight)", "pass", "end (the) combat", "not more (combat) (action)"]
    return [label]


# ---- negations --------------------------------------------------------------------------------------

#: verbs that name an action: a line that negates one (``no plan X``, ``don't buy X``) is read only
#: as one of the options that say no (``no delivery`` is the city action without one)
ACTIONS = frozenset({"buy", "plan", "keep", "deliver", "fight", "annex", "displace", "explore", "sail", "career",
                     "draw", "invest", "discard", "fulfil", "quest", "influence", "use", "reveal", "score"})
SAYS_NO = frozenset({"city", "no", "pass", "done", "cend", "end"})


def check(text: str, reading: notation.Reading, vocab: notation.Vocabulary, options: Sequence[Option]) -> None:
    """Refuse a reading that stands on a negated action (``no plan X`` read as buying X)."""
    if notation.tokens(text) == notation.tokens(reading.label):  # the option's whole label, in any language
        return
    if reading.code == "pass" and "deliver" in notation.lex(text, vocab, strict=True).terms():
        goods = [o.code[1:] for o in options if o.code.startswith("d") and o.code[1:] in C.GOODS]
        raise IllegalMove(_("{line}: deliver which good? {which}").format(
            line=repr(text.strip()), which=_(" or ").join(f"'deliver {g}'" for g in goods)
            or _("no good can be delivered here")), notation.listing(options))
    good = reading.code[1:] if reading.code.startswith("d") else ""
    said = notation.lex(text, vocab, strict=True).terms() if good in C.GOODS else set()
    if any(t.startswith("c#") for t in said) and good not in said:
        # the one card that pays may be named after its good (``deliver corn with Wealthy Navigator``),
        # never in its place (``deliver wealthy navigator``)
        goods = [o.code[1:] for o in options if o.code.startswith("d") and o.code[1:] in C.GOODS]
        raise IllegalMove(_("{line}: deliver which good? {which}").format(
            line=repr(text.strip()), which=_(" or ").join(f"'deliver {g}'" for g in goods)), notation.listing(options))
    if notation.fold(text.strip()) == notation.fold(reading.code):  # the option's code, typed as such
        return
    if good in C.GOODS and not {good, "deliver"} & notation.lex(text, vocab, strict=True).terms():
        # a delivery read from words that are only extras of its reading ("discard", "use": the card
        # that pays may be named so) names neither the good nor a delivery (a play-test)
        goods = [o.code[1:] for o in options if o.code.startswith("d") and o.code[1:] in C.GOODS]
        raise IllegalMove(_("{line}: deliver which good? {which}").format(
            line=repr(text.strip()), which=_(" or ").join(f"'deliver {g}'" for g in goods)), notation.listing(options))
    if reading.code == "no" and any(o.code.startswith("y") for o in options):
        line = notation.lex(text, vocab, strict=True)
        if "discard" in line.terms() and not line.terms() & {"no", "pass", "end", "keep"} and not any(
                x.negated for x in line.lexemes):
            # Porto's "discard no tobacco": "discard" alone was read as discarding none (a play-test)
            cards = [o for o in options if o.code.startswith("y")]
            raise IllegalMove(_("{line}: discard which card? {which}; or 'no' to discard none").format(
                line=repr(text.strip()), which=_(" or ").join(
                    f"'discard {_say(C.CARD[int(o.code[1:])]['name'])}'" for o in cards)), notation.listing(options))
    if reading.code == "city":
        line = notation.lex(text, vocab, strict=True)
        if not line.terms() and {t for x in line.lexemes if x.negated for t in x.terms} & ACTIONS - {"deliver"}:
            raise IllegalMove(_("{line} says what not to do; write the move you want instead").format(
                line=repr(text.strip())), notation.listing(options))
    if reading.code == "cend":
        line = notation.lex(text, vocab, strict=True)
        if line.terms() and line.terms() <= {"combat", "fight"} and not any(x.negated for x in line.lexemes):
            # ("fight" alone was read as "end the combat", its one option with that word: a combat
            # action lost to a line that asked for a fight; found by a play-test)
            raise IllegalMove(_("{line}: a combat is under way; choose what it does (an option below), or write "
                                "'end the combat' to end it").format(line=repr(text.strip())),
                              notation.listing(options))
    if reading.code in SAYS_NO:
        return
    if re.match(r"\s*with\b", text, re.I) and re.fullmatch(r"[pbk]\d+\w*", reading.code):
        # (QA, #20: ``deliver sugar with Swift Deserter`` after a delivery paid without asking read its
        # ``with Swift Deserter`` as planning that card)
        raise IllegalMove(_("{line} names a card to pay with, but no payment is asked now").format(
            line=repr(text.strip())), notation.listing(options))
    if re.fullmatch(r"s\w+", reading.code) and re.search(r"(?<![\w-])-\s*\d", text):
        raise IllegalMove(_("{line}: a ship sails forward, 1 to 7 locations; a negative number names no move")
                          .format(line=repr(text.strip())), notation.listing(options))
    if (re.fullmatch(r"x\d+", reading.code) and any(o.code == "pile" for o in options)
            and notation.fold(text.strip()) != reading.code):
        line = notation.lex(text, vocab, strict=True)
        named = any(t.startswith(("c#", "w#")) for x in line.lexemes for t in x.terms)
        if "display" not in line.terms() and not named:
            n = int(reading.code[1:])
            picked = next((o for o in options if o.code == reading.code), None)
            card = (_say(labels.english(picked).split(": ", 1)[-1]) if picked is not None
                    else _("card {n}").format(n=n))
            raise IllegalMove(_("{line} could be a count of cards from the pile or card {n} of the display: write "
                                "'draw' for a card from the pile (one a line; the game asks again while your hand "
                                "has room), or 'draw {n} from the display' for {card}").format(
                line=repr(text.strip()), n=n, card=card), notation.listing(options))
    negated = {t for x in notation.lex(text, vocab, strict=True).lexemes if x.negated for t in x.terms} & ACTIONS
    if negated:
        raise IllegalMove(_("{line} says what not to do ({actions}); write the move you want instead").format(
            line=repr(text.strip()), actions=", ".join(sorted(negated))), notation.listing(options))


# ---- why a line names nothing legal --------------------------------------------------------------------


def _say(text: str) -> str:
    """A game word (a card, a place, a good, a nation) in the context's language (as it is, if none)."""
    return labels.say(text, i18n.current()) or text


def _place(loc: str) -> str:
    return f"{loc} {_say(C.LOC[loc]['name'])}"


def _held(p: dict[str, Any], ids: list[int]) -> int:
    """Of one card's ids, the one in the player's hand or planning area, else today's (the newest)."""
    return next((c for c in ids if c in p["hand"] or c in p["plan"]), max(ids))


def explain(state: State, seat: int, line: notation.Line, options: list[Option]) -> str | None:
    """Why a line whose words are all understood fits no option now (None: nothing particular).
    Said through the engine's catalogue, in the context's language (issue 27)."""
    kind = _top(state)
    terms = line.terms()
    nums = line.numbers()
    p = state["seats"][seat]
    # cards named for certain: a lexeme that means one card only (not a guess among several; a card whose
    # numbers changed is one card under its ids, data/uprising's retired_cards: the one the player holds)
    cards = sorted({_held(p, ids) for x in line.lexemes if not x.negated
                    for ids in [[int(t[2:]) for t in x.terms if t.startswith("c#")]]
                    if ids and len({C.CARD[c]["name"] for c in ids}) == 1})
    codes = {o.code for o in options}
    if kind != "pile" and re.match(r"\s*reveal\s+t\s*\d", line.text, re.I):  # issue 21: was answered
        # about career tasks, a legacy place or the display
        return _("a combat token is revealed in a fight, from the top of a pile ('reveal T1'); there is no fight now")
    if kind == "setup" and "plan" in terms and not any(c.startswith("p") for c in codes):
        s = p.get("setup") or {}
        planned = s.get("plan")
        shown = _say(C.CARD[planned]["name"]) if planned is not None else _("a card")
        return _("you have planned {card} already; now keep {n} more of the dealt cards").format(
            card=shown, n=C.HAND_LIMIT - len(p["hand"]))
    if kind == "setup" and "keep" in terms and any(c.startswith("p") for c in codes):
        return _("first plan one of the dealt cards ('plan <card>'); then keep four")
    ports = [str(U.PORT[o.code[1:]]["name"]) for o in options if o.code[1:] in U.PORT]
    if kind == "setup" and "port" in terms and ports:  # the Uprising: a port not dealt (QA, #20)
        return _("you were dealt the home ports {ports}: keep one of them ('home port {port}')").format(
            ports=", ".join(ports), port=ports[0])
    if "end" in terms and terms & {"combat", "fight"} and not any(o.code == "cend" for o in options):
        # (play-test of 78: a whole turn's "end the combat" after the last liberation, which had ended the fight
        # by itself, was answered "no move uses all of 'end', 'combat'")
        return _("there is no combat to end now: a combat ends by itself once nothing is left to do in it "
                 "(after its last liberation or annexing); leave that line out")
    if "liberate" in terms and "resist" in p and kind not in ("against", "liberation", "libvillage", "resist"):
        # (QA, #20: 'liberate 3' outside a fight was answered "no move uses all of 'liberate', '3'")
        return _("a place is liberated in a fight against a nation (after a combat token: 'fight against spain', "
                 "then 'liberate 12'), or by your resistance tile's village action at a village ('liberate the "
                 "village'), once its two discs are off (ship area UR); neither is possible now")
    places = sorted({t[1:] if t.startswith("@") else t[2:] for t in terms if t.startswith(("@", "l#"))} & set(C.LOC))
    for loc in places:  # a legacy place whose tile is not in play, or not open to this player yet
        tile = C.LOC[loc].get("legacy")
        if tile and tile not in state.get("legacy", ()):
            return _("{place} is not in play in this game (it comes with legacy tile {tile}, which scenario "
                     "{scenario} does not use)").format(place=_place(loc), tile=tile,
                                                        scenario=state.get("options", {}).get("scenario", ""))
        need = int(C.LOC[loc].get("explorer", 0))
        if tile and p["explorer"] < need and kind in ("sail", "combat"):
            return _("{place} opens to you once your explorer reaches space {need} (it is on {at})").format(
                place=_place(loc), need=need, at=p["explorer"])
    if "v#d" in terms:
        return _why_not_vd(state, seat, kind)
    fought = str(_frame_data(state).get("nation", "")) if kind == "combat" else ""
    others = [n for n in ("france", "england", "spain") if n in terms and n != fought]
    if fought and others:
        return _("you are fighting for {nation}: what you annex or gain is {nation}'s, not {other}'s").format(
            nation=_say(fought.title()), other=_say(others[0].title()))
    if kind == "sail" and ("sail" in terms or places or _TO_NUMBER.search(notation.fold(line.text))):
        return _why_not_sail(state, seat, terms, nums, options, line.text)
    if places and kind == "combat" and not any("flag" in C.LOC[loc] for loc in places):
        return _("{place} has no flag: it cannot be annexed").format(place=_place(places[0]))
    if places and kind not in ("combat", "sail") and terms <= {f"l#{loc}" for loc in places}:
        loc = places[0]
        if "flag" in C.LOC[loc]:
            return _("{line} names a place ({place}); places are chosen while sailing ('sail to {loc}') or "
                     "annexing in a combat ('annex {loc}'), not in this decision").format(
                line=repr(line.text.strip()), place=_place(loc), loc=loc)
        return _("{line} names a place ({place}); places are chosen while sailing ('sail to {loc}'), not in this "
                 "decision").format(line=repr(line.text.strip()), place=_place(loc), loc=loc)
    if cards and "plan" in terms and kind in ("main", "village", "sail", "free"):
        cid = cards[0]
        if cid in p["plan"]:
            return _("{card} is in your planning area already").format(card=_say(C.CARD[cid]["name"]))
        if len(p["plan"]) >= C.PLAN_SLOTS:
            return _("your planning area is full ({n} cards)").format(n=C.PLAN_SLOTS)
    if cards and kind in ("main", "village", "score", "sail", "free"):
        return _why_not_buy(state, seat, cards, options)
    goods = [g for g in C.GOODS if g in terms]
    if goods and kind == "main":
        loc = p["at"]
        market = C.LOC[loc].get("market")
        if market is None:
            return _("there is no market at {place}").format(place=_place(loc))
        g = goods[0]
        if len(goods) > 1 or any(o.code == f"d{g}" for o in options):
            return _("one good is delivered at a time, on a line of its own: 'deliver {good}'").format(good=g)
        if g not in market["goods"]:
            return _("the market of {city} takes {goods}, not {good}").format(
                city=_say(C.LOC[loc]["name"]), goods=_(" and ").join(_say(x) for x in market["goods"]),
                good=_say(g))
        if not any(C.CARD[c]["good"] == g for c in p["hand"]):
            return _("you have no {good} card in your hand").format(good=_say(g))
        return _("this market is full, or your ship board has no disc left to remove")
    if "quest" in terms and kind == "main":
        q = state["quests"].get(p["at"])
        if not q:
            return _("there is no quest at {place}").format(place=_place(p["at"]))
        return _("quest {quest} needs {cost}, which you cannot pay").format(
            quest=q, cost=_say(C.cost_text(C.QUEST[q]["cost"])))
    if kind == "three":
        held = _(" or ").join(o.code[1:] for o in options if o.code.startswith("g"))
        return _("you hold three identical goods only in {goods}: name one of them").format(goods=held)
    if kind == "pay":
        ways = "; ".join(o.label for o in options)
        return _("these cards can pay: {ways}").format(ways=ways)
    if kind == "explore" and nums:
        spaces = ", ".join(o.code[1:] for o in options if re.fullmatch(r"e\w+", o.code) and "r" not in o.code)
        ruin = sorted({o.code.partition("r")[2] for o in options if re.fullmatch(r"(e\d+)?r\d+", o.code)}, key=int)
        said = (_("your explorer can move to space {spaces} now").format(spaces=spaces) if spaces
                else _("your explorer cannot move now"))
        if ruin:
            said += _("; the ruin track's figure to space {spaces}").format(spaces=", ".join(ruin))
        return said
    if kind == "draw" and terms & {"sail", "plan", "buy"}:  # not a draw misread (issue 21: 'sail 1' was
        # answered about 'draw 1')
        return _("your main phase has ended: now you draw cards up to your hand limit ('draw' for one from the "
                 "pile, 'draw N from the display' for a display card)")
    if kind == "draw" and nums:
        return _why_not_draw(state, seat, terms, nums)
    if kind == "pile":
        piles = [o.code[1:] for o in options if re.fullmatch(r"t\d+", o.code)]
        return _("a combat token is revealed from the top of pile {piles} ({reveals}); tokens are not chosen by "
                 "their number").format(piles=_(" or ").join(piles),
                                        reveals=", ".join(_("'reveal T{n}'").format(n=n) for n in piles))
    if "career" in terms and not any(c.startswith("k") for c in codes):
        return _("no career task of yours is met now")
    return None


def _why_not_draw(state: State, seat: int, terms: set[str], nums: list[int]) -> str:
    display = state["display"]
    n = nums[0]
    room = hand_limit(state["seats"][seat]) - len(state["seats"][seat]["hand"])  # an upgraded hand holds more
    cards = len(state["deck"]) + len(state["discard"])
    most = min(room, cards)
    if "pile" in terms and n > most:
        one = (ngettext("your hand has room for {room} more card now", "your hand has room for {room} more cards now",
                        room).format(room=room)
               + ngettext(" and {cards} card is left to draw", " and {cards} cards are left to draw",
                          cards).format(cards=cards)
               + _(", so at most 'draw {most} from the pile'").format(most=most))
    else:
        one = ngettext("a draw from the pile is 'draw' (the game asks again while your hand has room: {room} more "
                       "card now) or 'draw N from the pile' for N at once",
                       "a draw from the pile is 'draw' (the game asks again while your hand has room: {room} more "
                       "cards now) or 'draw N from the pile' for N at once", room).format(room=room)
    if "display" in terms or n > len(display):
        return (_("the display has cards 1 to {n}").format(n=len(display)) if "display" in terms
                or "pile" not in terms else one)
    if "pile" in terms:
        return one
    return _("'draw {n}' could be {n} cards from the pile or card {n} of the display: {one}; or write "
             "'draw {n} from the display' for {card}").format(n=n, one=one,
                                                             card=_say(C.CARD[display[n - 1]]["name"]))


def _why_not_vd(state: State, seat: int, kind: str) -> str | None:
    at = state["seats"][seat]["at"]
    if kind == "sail":
        return _("village actions ('vd': 1 doubloon) come after sailing to a village, not before")
    if kind in ("free", "next", ""):
        return _("you have no village action left: the main phase has ended (a ship that sails 1 to 3 spaces "
                 "gets 1 village action, 4 to 6 gets 2, 7 gets 3)")
    if kind == "main" and at not in C.VILLAGES:
        return _("{place} is not a village: 'vd' is a village action").format(place=_place(at))
    return None


#: A line naming a location by its number ("sail to 99", "location 99", "para 99"): the words of
#: :data:`SAIL_WORDS` before a number; a number that is no location stays a number in ``nums``.
# (longest first: "to location 99" is not read as "to" and then "location 99")
_TO_NUMBER = re.compile(r"\b(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+")
                                             for w in sorted(TO_WORDS, key=len, reverse=True))
                        + r")\s+(\d+)\b", re.I)


def _why_not_sail(state: State, seat: int, terms: set[str], nums: list[int], options: list[Option],
                  text: str = "") -> str | None:
    p = state["seats"][seat]
    # (the options come in the reader's language: the steps are read from the English the rules made)
    reach = [labels.english(o) for o in options if o.code.startswith("s")]
    listing = "; ".join(o.label for o in options if o.code.startswith("s"))
    steps = {m.group(1) for label in reach if (m := _SAIL.match(label))}
    named = {int(m.group(1)) for m in _TO_NUMBER.finditer(notation.fold(text))} if text else set()
    for n in nums:
        if n in named:  # "sail to 99": a location by its number, and there is none (a place's number is a term)
            return _("there is no location {n} on the map. You can: {listing}").format(n=n, listing=listing)
        if n > 7:
            return _("'sail {n}' means {n} locations, and a ship sails 1 to 7; to sail to location {n} write "
                     "'sail to {n}'. You can: {listing}").format(n=n, listing=listing)
        if str(n) not in steps:
            return _("no location is {n} steps ahead of {at} this turn. You can: {listing}").format(
                n=n, at=p["at"], listing=listing)
    for t in sorted(terms):  # (sorted: a set's order changes with the process's hash seed)
        loc = t[1:] if t.startswith("@") else t[2:] if t.startswith("l#") else None
        if loc in C.LOC and f"s{loc}" not in {o.code for o in options}:
            return _("{place} cannot be reached from {at} this turn. You can: {listing}").format(
                place=_place(loc), at=p["at"], listing=listing)
    return None


def _why_not_buy(state: State, seat: int, cards: list[int], options: list[Option]) -> str | None:
    p = state["seats"][seat]
    kind = _top(state)
    mine = [c for c in cards if c in p["hand"] or c in p["plan"]]
    if not mine:
        hand = ", ".join(_say(C.CARD[c]["name"]) for c in [*p["hand"], *p["plan"]]) or _("none")
        return _("that card is not in your hand or planning area (yours: {cards})").format(cards=hand)
    if len(mine) > 1:
        return None
    cid = mine[0]
    name = _say(C.CARD[cid]["name"])
    if any(o.code == f"b{cid}" for o in options):
        return _("{card} can be bought, but the line says more than that: write 'buy {card}' on a line of its "
                 "own").format(card=name)
    if kind in ("sail", "free"):
        return _("a card is bought as a main action in a village, not now ({card} stays in your hand)").format(
            card=name)
    if kind == "main" and not any(o.code.startswith("b") for o in options):
        return _("cards are bought in a village; {place} is not one").format(place=_place(p["at"]))
    if window_closed(state, cid):  # (cards.can_buy: its row's buying window, content.sold_before)
        if C.sold_before(C.CARD[cid]) == 0:
            return _("{card} is sold only before the last round ({card} stays in your hand)").format(card=name)
        return _("{card} is sold only before round {round} ({card} stays in your hand)").format(
            card=name, round=closed_from(state, cid))
    if int(C.CARD[cid]["cost"]) > p["doubloons"]:
        cost = int(C.CARD[cid]["cost"])
        return i18n.counted(_("{card} costs {cost} {cost|doubloon|doubloons} and you have {d}"), {"cost": cost}).format(
            card=name, cost=cost, d=p["doubloons"])
    return _("{card} cannot be bought now (the figures or the requirement it needs are missing)").format(card=name)
