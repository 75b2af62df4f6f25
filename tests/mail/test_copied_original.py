"""Replies that copy the mail they answer without quote marks (Outlook, and some Apple Mail, Gmail and
webmail settings): the writer's own text above the copy is read, the copy never, whatever the language
of the client's header block and whether or not our marker line survived in it.

Our own mail is full of lines a game reads as commands (its option lines, "end", "join"): read as the
writer's, they would apply moves nobody typed, or sink a good move under a refusal.
"""

from __future__ import annotations

import pytest

from pbem.games.models import Game, InboundMessage, Move
from pbem.mail import parsing
from pbem.mail.parsing import REPLY_MARKER
from tests.mail.conftest import Persona, text_of

OPTIONS = [("3acores", "move 3 to Açores"), ("end", "end the turn")]
FROM = "pbem <seat-abcdefgh12@pbem.localhost>"
TO = "Ana <ana@example.org>"
#: what we send, with lines a game would read as commands
OURS = """Game #12 (Caravelas II): your turn, Ana.

Your options:
  3acores  move 3 to Açores
  end      end the turn

Reply with one command a line, for example:
end
join
Game page: https://pbem.example/games/12/
"""


def original(marker: bool) -> str:
    return f"{REPLY_MARKER}\n\n{OURS}" if marker else OURS


SHAPES = {
    "outlook_rule": "\n________________________________\nFrom: {f}\nSent: Tuesday, December 1, 2026 10:00 AM\n"
                    "To: {t}\nSubject: [pbem #12] your turn\n\n{o}",
    "outlook_original_message": "\n-----Original Message-----\nFrom: {f}\nSent: Tuesday, December 1, 2026 10:00 AM\n"
                                "To: {t}\nSubject: [pbem #12] your turn\n\n{o}",
    "outlook_no_rule": "\nFrom: {f}\nSent: Tuesday, December 1, 2026 10:00 AM\nTo: {t}\nSubject: game\n\n{o}",
    "outlook_wrapped_from": "\n________________________________\nFrom: pbem\n<seat-abcdefgh12@pbem.localhost>\n"
                            "Sent: Tuesday\nTo: {t}\nSubject: game\n\n{o}",
    "outlook_bold": "\n*From:* {f}\n*Sent:* Tuesday, December 1, 2026 10:00 AM\n*To:* {t}\n*Subject:* game\n\n{o}",
    "outlook_mac": "\nFrom: {f}\nDate: Tuesday, 1 December 2026 at 10:00\nTo: {t}\nSubject: game\n\n{o}",
    "outlook_cc": "\nFrom: {f}\nSent: Tuesday\nTo: {t}\nCc: bob@example.org\nSubject: game\n\n{o}",
    "outlook_pt": "\nDe: {f}\nEnviado: terça-feira, 1 de dezembro de 2026 10:00\nPara: {t}\nAssunto: jogo\n\n{o}",
    "outlook_pt_br": "\n-----Mensagem original-----\nDe: {f}\nEnviada em: terça-feira, 1 de dezembro de 2026 10:00\n"
                     "Para: {t}\nAssunto: jogo\n\n{o}",
    "outlook_es": "\nDe: {f}\nEnviado el: martes, 1 de diciembre de 2026 10:00\nPara: {t}\nAsunto: juego\n\n{o}",
    "outlook_de": "\nVon: {f}\nGesendet: Dienstag, 1. Dezember 2026 10:00\nAn: {t}\nBetreff: Spiel\n\n{o}",
    "outlook_fr": "\nDe : {f}\nEnvoyé : mardi 1 décembre 2026 10:00\nÀ : {t}\nObjet : jeu\n\n{o}",
    "outlook_it": "\nDa: {f}\nInviato: martedì 1 dicembre 2026 10:00\nA: {t}\nOggetto: gioco\n\n{o}",
    "outlook_nl": "\nVan: {f}\nVerzonden: dinsdag 1 december 2026 10:00\nAan: {t}\nOnderwerp: spel\n\n{o}",
    "apple_forward": "\nBegin forwarded message:\n\nFrom: {f}\nSubject: game\nDate: 1 December 2026 at 10:00:00 WET\n"
                     "To: {t}\n\n{o}",
    "gmail_forward": "\n---------- Forwarded message ---------\nFrom: {f}\nDate: Tue, Dec 1, 2026 at 10:00 AM\n"
                     "Subject: game\nTo: {t}\n\n{o}",
    "attribution_unquoted": "\nOn Tue, Dec 1, 2026 at 10:00 AM {f} wrote:\n\n{o}",
    "attribution_wrapped_unquoted": ("\nOn Tue, Dec 1, 2026 at 10:00 AM pbem <\n"
                                     "seat-abcdefgh12@pbem.localhost> wrote:\n\n{o}"),
    "attribution_pt_unquoted": "\nEm ter., 1 de dez. de 2026 às 10:00, {f} escreveu:\n\n{o}",
    "apple_quoted": "\n> On 1 Dec 2026, at 10:00, {f} wrote:\n>\n{q}",
    "gmail_quoted_wrapped": "\nOn Tue, Dec 1, 2026 at 10:00 AM pbem <\nseat-abcdefgh12@pbem.localhost> wrote:\n\n{q}",
}


def reply(shape: str, mine: str, marker: bool) -> str:
    o = original(marker)
    q = "\n".join(f"> {line}" if line else ">" for line in o.splitlines())
    return mine + "\n" + SHAPES[shape].format(f=FROM, t=TO, o=o, q=q)


@pytest.mark.parametrize("marker", [True, False], ids=["marker", "no-marker"])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_it_reads_the_writers_lines_above_a_copy_and_nothing_of_the_copy(shape: str, marker: bool) -> None:
    got = parsing.extract_commands(reply(shape, "move 3 to acores\n\nAna", marker), OPTIONS)
    assert [line for _pos, line in got.commands] == ["move 3 to acores", "Ana"]


@pytest.mark.parametrize("shape", ["outlook_rule", "outlook_original_message", "outlook_pt"])
def test_it_reads_nothing_written_under_an_unquoted_copy(shape: str) -> None:
    # The copy cannot be told from what follows it: a line under it is not the writer's for sure,
    # so nothing is read, and the answer asks for the commands above (see docs/mail.md).
    body = SHAPES[shape].format(f=FROM, t=TO, o=original(False), q="").lstrip("\n") + "\nmove 3 to acores\n"
    assert parsing.extract_commands(body, OPTIONS).commands == []


@pytest.mark.parametrize("line", ["from lisboa to acores with the 3", "3 to acores: please", "to: acores 3",
                                  "de lisboa para os açores: 3", "end", "--------", "on second thought: end"])
def test_it_keeps_a_writers_line_that_only_looks_like_a_header(line: str) -> None:
    got = parsing.extract_commands(f"{line}\nmove 3 to acores\n", OPTIONS)
    assert [text for _pos, text in got.commands] == [line, "move 3 to acores"]


OWA_HTML = ('<html><body><div dir="ltr">move 3 to acores</div><div id="appendonsend"></div>'
            '<hr style="display:inline-block;width:98%"><div id="divRplyFwdMsg" dir="ltr"><font face="Calibri">'
            '<b>From:</b> pbem &lt;seat-x@pbem.localhost&gt;<br><b>Sent:</b> Tuesday<br><b>To:</b> Ana<br>'
            '<b>Subject:</b> game</font><div>&nbsp;</div></div>'
            '<div><p>Your options:<br>3acores move 3 to Açores<br>end</p><p>join</p></div></body></html>')
OUTLOOK_DESKTOP_HTML = (
    '<html><body><div class="WordSection1"><p class="MsoNormal">move 3 to acores<o:p></o:p></p>'
    '<p class="MsoNormal">&nbsp;</p><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm">'
    '<p class="MsoNormal"><b><span lang="EN-US">From:</span></b><span lang="EN-US"> pbem &lt;seat-x@pbem.localhost&gt;'
    '<br><b>Sent:</b> Tuesday, December 1, 2026 10:00<br><b>To:</b> Ana &lt;ana@example.org&gt;<br>'
    '<b>Subject:</b> [pbem #12] your turn<o:p></o:p></span></p></div>'
    '<p class="MsoNormal">Your options:<br>3acores move 3 to Açores<br>end</p><p>join</p></div></body></html>')


@pytest.mark.parametrize("html", [OWA_HTML, OUTLOOK_DESKTOP_HTML], ids=["outlook-web", "outlook-desktop"])
def test_it_reads_an_html_only_outlook_reply_without_the_copy_below(html: str) -> None:
    assert parsing.extract_commands(parsing.html_to_text(html), OPTIONS).commands == [(1, "move 3 to acores")]


# ---- over the real SMTP socket, on the very mail the server sent ----------------------------------------

@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("shape", ["outlook_pt", "outlook_wrapped_from", "attribution_unquoted"])
def test_it_applies_a_move_above_an_unquoted_copy_of_our_mail_without_its_marker(shape: str, bids_game: Game,
                                                                                 bruno: Persona) -> None:
    latest = bruno.latest()
    ours = text_of(latest).replace(REPLY_MARKER, "")
    bids_game.refresh_from_db()
    assert bids_game.state is not None
    card = bids_game.state["hands"][1][0]
    body = f"c{card}\n" + SHAPES[shape].format(f=FROM, t=TO, o=ours, q="")
    bruno.reply(latest, body, quote=False)
    row = InboundMessage.objects.order_by("-pk").first()
    assert row is not None and row.status == InboundMessage.Status.APPLIED, row.result
    assert list(Move.objects.filter(game=bids_game).values_list("seat", "move")) == [(1, {"code": f"c{card}"})]
