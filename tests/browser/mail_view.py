"""A mail's HTML part as a mail program shows it."""

from __future__ import annotations

import base64
from email.message import EmailMessage

from tests.mail.conftest import html_of


def as_shown(mail: EmailMessage) -> str:
    """The mail's HTML with its inline picture put where it points to it, as a mail program
    does with a ``cid:`` address (a data address here, from the mail's own PNG part)."""
    png = next(p for p in mail.walk() if p.get_content_type() == "image/png")
    assert png["Content-ID"] == "<board>"
    data = base64.b64encode(bytes(png.get_content())).decode()
    html = html_of(mail)
    assert html.count('src="cid:board"') == 1, "the HTML shows the picture in place"
    return html.replace('src="cid:board"', f'src="data:image/png;base64,{data}"')
