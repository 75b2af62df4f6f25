"""An update mail's HTML (the template ``mail/game_update.html``): every value escaped, the
catalogue's markup kept, values in the reader's language, the game's title in the page's title."""

from __future__ import annotations

from typing import Any

from pbem.games import language
from pbem.mail import compose


def _context(**extra: Any) -> dict[str, Any]:
    c: dict[str, Any] = {
        "game": {"pk": 7, "seed": "", "seed_hash": "ab12"}, "headline": "It is your turn.", "state_text": "BOARD",
        "options": [{"code": "s<8>", "label": "sail & pay \"2\""}], "examples": "Reply with s<8>.",
        "players": ["Ann <a>", "Bob & co"], "you": "Ann <a>", "waiting": ["Bob & co"], "url": "http://x/p?a=1&b=2",
        "general": "pbem@pbem.localhost", "marker": "-- reply above this line --", "events": [], "chat": [],
    }
    return {**c, **extra}


def test_every_value_is_escaped_and_the_translated_markup_kept() -> None:
    html = compose.render_html_body(_context(chat=[["Bob & co", "<script>x</script>"]], events=["a 'b'"]))
    assert '<a href="http://x/p?a=1&amp;b=2"' in html
    assert "<code>s&lt;8&gt;</code></b></td><td>sail &amp; pay &quot;2&quot;</td>" in html
    assert "You are Ann &lt;a&gt;. Players: Ann &lt;a&gt;, Bob &amp; co. Also waiting for: Bob &amp; co." in html
    assert "<li><strong>Bob &amp; co:</strong> &lt;script&gt;x&lt;/script&gt;</li>" in html
    assert "<li>a &#x27;b&#x27;</li>" in html
    assert "reply with <em>say</em> and your message." in html  # a catalogue text's own markup stays
    assert "Account commands: mail pbem@pbem.localhost with the word <em>help</em>." in html


def test_a_result_is_written_in_the_readers_language() -> None:
    results = [[{"place": 1, "name": "Ann", "score": 12.5, "winner": True, "parts": [2.5, "-"]}], ["deliveries", "x"]]
    with language.speaking("pt"):
        html = compose.render_html_body(_context(finished=True, outcome=["Game over."], results=results,
                                                 game={"pk": 7, "seed": "s", "seed_hash": "ab12",
                                                       "outcome": {"reason": "a <b> c"}}))
    assert '<tr style="font-weight:bold;"><td style="padding:3px 8px 3px 0;">1</td>' in html
    assert ">2,5</td>" in html and "<strong>12,5</strong>" in html  # a decimal comma, as Portuguese writes it
    assert ">Deliveries</th>" in html  # a head with a capital, as the template's capfirst gave it
    assert "a &lt;b&gt; c</p>" in html


def test_a_sparse_context_gives_a_page_with_its_gaps_empty() -> None:
    html = compose.render_html_body({"options": [], "state_text": "B", "headline": "H", "game": {}})
    assert html.startswith('<!DOCTYPE html>\n<html lang="en">\n')
    assert "<title> #</title>" in html and html.endswith("</p>\n</div>\n</body>\n</html>\n")
    assert "You are . Players: ." in html


def test_the_pages_title_is_the_games_title_and_number() -> None:
    # (the stored content's game has "title": the template read a "said_title" it never had, so every
    # HTML mail's title was " #7")
    game = {"pk": 7, "title": "Ann's <game> & co", "seed": "", "seed_hash": "ab"}
    html = compose.render_html_body(_context(game=game))
    assert "<title>Ann&#x27;s &lt;game&gt; &amp; co #7</title>" in html
