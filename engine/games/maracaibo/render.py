"""Text for mails and a simple SVG, both from a view (SUBSTITUTE CONTENT is said so on both)."""

from __future__ import annotations

from html import escape
from typing import Any

from engine.core import View

from . import content as C


def _player_line(view: View, i: int, p: dict[str, Any]) -> str:
    name = view["players"][i]
    inf = ", ".join(f"{n.title()} {p['inf'][n]}" for n in C.NATIONS)
    me = "  <- you" if view["seat"] == i else ""
    return (f"  {name}: at {p['at']} {C.LOC[p['at']]['name']}; {p['vp']} VP, {p['d']} doubloons, "
            f"income {p['inc_d']} d / {p['inc_vp']} VP, combat {p['cp']}, figures {p['fig']}; influence {inf}; "
            f"explorer {p['explorer']}; {p['hand']} cards in hand, planned: "
            f"{', '.join(C.CARD[c]['name'] for c in p['plan']) or 'none'}; display: "
            f"{', '.join(C.CARD[c]['name'] for c in p['display']) or 'none'}; quests {p['quests']}, "
            f"combat tokens {p['tokens']}, upgrades {', '.join(p['areas']) or 'none'}{me}")


def text(view: View) -> str:
    out = [f"Maracaibo - {C.LABEL}",
           f"Round {view['round']} of {view['rounds']}, scenario {view['options']['scenario']}."]
    out.append("Map (location: owner, quest, market, ships):")
    ships: dict[str, list[str]] = {}
    for i, p in enumerate(view["p"]):
        ships.setdefault(p["at"], []).append(view["players"][i])
    for loc in C.LOC_ORDER:
        info = C.LOC[loc]
        bits = [f"{loc} {info['name']} ({info['kind']})"]
        if loc in view["markers"]:
            bits.append(f"{view['markers'][loc].title()}")
        if loc in view["quests"]:
            q = C.QUEST[view["quests"][loc]]
            bits.append(f"quest {q['id']}: pay {C.cost_text(q['cost'])} for {C.gain_text(q['per'])} per compass + "
                        f"{C.gain_text(q['fixed'])}")
        if "market" in info:
            m = info["market"]
            bits.append(f"market {'/'.join(m['goods'])} {len(view['market'][loc])}/{len(m['rewards'])}")
        if loc in view["tiles"]:
            bits.append(C.CITY_ACTION_TEXT[C.CITY_TILE[view["tiles"][loc]]["action"]])
        elif "action" in info:
            bits.append(C.CITY_ACTION_TEXT[info["action"]])
        if loc in ships:
            bits.append("ships: " + ", ".join(ships[loc]))
        out.append("  " + "; ".join(bits))
    out.append("Explorer track quests: " + (", ".join(f"space {s}: {q} (pay {C.cost_text(C.QUEST[q]['cost'])})"
                                                      for s, q in view["tquests"].items()) or "none"))
    mult = view["multiplier"]
    out.append("Nations: " + "; ".join(f"{n.title()} markers left {sum(view['supply'][n])}, multiplier {mult[n]}"
                                       for n in C.NATIONS))
    out.append("Prestige buildings: " + "; ".join(
        (f"{C.PRESTIGE[b['id']]['name']} ({C.PRESTIGE[b['id']]['cost']} d, {C.PRESTIGE[b['id']]['vp']} VP per "
         f"{C.PRESTIGE[b['id']]['per']}) investors {len(b['investors'])}") if b["up"] else "face down"
        for b in view["prestige"]))
    out.append(f"Draw pile {view['deck']}; combat piles {view['piles'][0]} and {view['piles'][1]}.")
    out.append("Display:")
    for i, cid in enumerate(view["display"]):
        out.append(f"  {i + 1}. {C.card_text(cid)}")
    out.append("Players:")
    for i, p in enumerate(view["p"]):
        out.append(_player_line(view, i, p))
    if view.get("jean"):
        from .jean import text_line

        out.append(text_line(view))
    me = view.get("me")
    if me:
        out.append("Your hand:")
        for cid in me["hand"]:
            out.append(f"  {C.card_text(cid)}")
        if me.get("setup"):
            out.append("Your dealt cards to choose from:")
            for cid in me["setup"]["dealt"]:
                out.append(f"  {C.card_text(cid)}")
    if view.get("outcome"):
        out.append("Final scores: " + ", ".join([*(f"{view['players'][int(k)]} {v:g}"
                                                  for k, v in view["outcome"]["scores"].items()),
                                                *(f"{k} {v:g}" for k, v in view["outcome"].get("automa", {}).items())]))
    return "\n".join(out)


def svg(view: View) -> str:
    w, h = 640, 300
    body = [f'<rect width="{w}" height="{h}" fill="#dff1fb"/>',
            f'<text x="8" y="16" font-size="11">Maracaibo - {escape(C.LABEL)} - round {view["round"]}</text>']
    pos: dict[str, tuple[int, int]] = {}
    for i, loc in enumerate(C.LOC_ORDER):
        x = 30 + (i % 12) * 50
        y = 50 + (i // 12) * 70
        pos[loc] = (x, y)
        kind = C.LOC[loc]["kind"]
        fill = {"city": "#c9a", "village": "#9c9", "home": "#aac", "start": "#fc9"}[kind]
        owner = view["markers"].get(loc)
        stroke = {"france": "#23c", "england": "#eee", "spain": "#c22"}.get(owner or "", "#555")
        body.append(f'<circle cx="{x}" cy="{y}" r="14" fill="{fill}" stroke="{stroke}" stroke-width="3"/>')
        body.append(f'<text x="{x - 8}" y="{y + 4}" font-size="10">{escape(loc)}</text>')
        if loc in view["quests"]:
            body.append(f'<rect x="{x + 8}" y="{y - 18}" width="8" height="8" fill="#fd3"/>')
    colours = ["#d22", "#22d", "#2a2", "#a2a"]
    for i, p in enumerate(view["p"]):
        x, y = pos[p["at"]]
        body.append(f'<rect x="{x - 12 + 6 * i}" y="{y + 16}" width="5" height="8" fill="{colours[i]}"/>')
        body.append(f'<text x="10" y="{200 + 16 * i}" font-size="11" fill="{colours[i]}">'
                    f'{escape(view["players"][i])}: {p["vp"]} VP, {p["d"]} d, income {p["inc_d"]}/{p["inc_vp"]}, '
                    f'explorer {p["explorer"]}, influence '
                    f'{"/".join(str(p["inf"][n]) for n in C.NATIONS)}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
            + "".join(body) + "</svg>")
