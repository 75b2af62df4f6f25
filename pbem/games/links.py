"""Personal page links: the signed link in a player's mail is their credential for that seat.

Like Terra Mystica's personal links, there is no password: whoever has the link acts for
the seat on its page. So the link is signed with the site's SECRET_KEY (nobody can forge
one for another seat), carries the seat's ``page_key`` (a new key revokes every older
link) and is shown only in that player's own mails and page.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing

from pbem.games.models import Seat

_SALT = "pbem.seat-page"


def seat_page_token(seat: Seat) -> str:
    return signing.Signer(salt=_SALT).sign(f"{seat.pk}.{seat.page_key}")


def seat_page_url(seat: Seat) -> str:
    return f"{settings.PBEM_PUBLIC_URL}/p/{seat_page_token(seat)}/"


def seat_for_page_token(token: str) -> Seat | None:
    """The seat a link belongs to, or None when it is forged, mangled or revoked."""
    try:
        value = signing.Signer(salt=_SALT).unsign(token)
    except signing.BadSignature:
        return None
    pk, _, key = value.partition(".")
    if not pk.isdigit() or not key:
        return None
    seat = Seat.objects.select_related("game", "player").filter(pk=int(pk)).first()
    if seat is None or seat.page_key != key or seat.player is None or seat.index is None:
        return None
    return seat
