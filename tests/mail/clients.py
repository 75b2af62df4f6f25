"""Reply bodies in the shapes that common mail programs write them.

Each style takes the text of the mail being answered, the player's own lines and their
name, and returns the plain-text body the program would send: where it puts the quote,
its attribution line, the signature and its separator. The shapes were copied from real
replies of each program in its default settings (and the usual bottom-posting setting
where the program offers one).
"""

from __future__ import annotations

from collections.abc import Callable

FROM = "pbem <pbem@pbem.localhost>"


def _quote(original: str, prefix: str = "> ") -> str:
    return "\n".join(f"{prefix}{line}" if line.strip() else prefix.rstrip() for line in original.splitlines())


def thunderbird_bottom(original: str, lines: str, name: str) -> str:
    # Thunderbird with "start my reply below the quote" and "place my signature below my reply".
    return f"On 01/01/2029 10:00, {FROM} wrote:\n{_quote(original)}\n\n{lines}\n\n-- \n{name}\nLisbon\n"


def thunderbird_top(original: str, lines: str, name: str) -> str:
    return f"{lines}\n\n-- \n{name}\n\nOn 01/01/2029 10:00, {FROM} wrote:\n{_quote(original)}\n"


def outlook_top(original: str, lines: str, name: str) -> str:
    # Outlook copies the original without quote marks, under a header block.
    return (f"{lines}\n\n________________________________\nFrom: {FROM}\n"
            f"Sent: Monday, January 1, 2029 10:00 AM\nTo: {name} <player@example.org>\n"
            f"Subject: [pbem #1] game\n\n{original}\n")


def gmail_top(original: str, lines: str, name: str) -> str:
    return (f"{lines}\n\n-- \n{name}\n\nOn Mon, Jan 1, 2029 at 10:00 AM {FROM} wrote:\n\n"
            f"{_quote(original)}\n")


def gmail_bottom(original: str, lines: str, name: str) -> str:
    # Gmail, the quote opened with "..." and the answer typed under it.
    return f"On Mon, Jan 1, 2029 at 10:00 AM {FROM} wrote:\n\n{_quote(original)}\n\n{lines}\n"


def apple_mail(original: str, lines: str, name: str) -> str:
    # iOS Mail quotes its own attribution line.
    return (f"{lines}\n\nSent from my iPhone\n\n> On 1 Jan 2029, at 10:00, {FROM} wrote:\n>\n"
            f"{_quote(original)}\n")


def mutt_bottom(original: str, lines: str, name: str) -> str:
    return f"* {FROM} [2029-01-01 10:00 +0000]:\n{_quote(original)}\n\n{lines}\n\n-- \n{name}\n"


def mutt_interleaved(original: str, lines: str, name: str) -> str:
    # The answer put right under the part of the mail it answers: our marker and the
    # first lines quoted above it, the rest of our mail quoted below it.
    head, _, tail = original.partition("\n\n")
    return (f"On Mon, Jan 01, 2029 at 10:00:00AM +0000, {FROM} wrote:\n{_quote(head)}\n\n{lines}\n\n"
            f"{_quote(tail)}\n\n-- \n{name}\n")


def webmail_pt_bottom(original: str, lines: str, name: str) -> str:
    # A Portuguese webmail (SAPO, Gmail in pt-PT) answering below the quote.
    return (f"Em seg., 1 de jan. de 2029 às 10:00, {FROM} escreveu:\n\n{_quote(original)}\n\n{lines}\n\n"
            f"-- \n{name}\n")


def k9_top(original: str, lines: str, name: str) -> str:
    # K-9 Mail / Thunderbird for Android, top-posting with its "Sent from" line.
    return (f"{lines}\n--\nSent from my Android device with K-9 Mail.\n\n"
            f"On 1 January 2029 10:00:00 UTC, {FROM} wrote:\n{_quote(original)}\n")


STYLES: dict[str, Callable[[str, str, str], str]] = {
    "thunderbird_bottom": thunderbird_bottom,
    "thunderbird_top": thunderbird_top,
    "outlook_top": outlook_top,
    "gmail_top": gmail_top,
    "gmail_bottom": gmail_bottom,
    "apple_mail": apple_mail,
    "mutt_bottom": mutt_bottom,
    "mutt_interleaved": mutt_interleaved,
    "webmail_pt_bottom": webmail_pt_bottom,
    "k9_top": k9_top,
}

#: Styles whose answer comes below the quote.
BOTTOM_POSTED = ["thunderbird_bottom", "gmail_bottom", "mutt_bottom", "mutt_interleaved", "webmail_pt_bottom"]
