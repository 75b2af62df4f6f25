"""Reading bounces: delivery status notifications (RFC 3464) and VERP return paths. Pure: the
standard library only; pbem.mail.bounces decides what a bounce does.

A DSN is ``multipart/report; report-type=delivery-status`` whose ``message/delivery-status``
part holds one block of fields per recipient: ``Final-Recipient: rfc822; who@example.org``,
``Action: failed`` (or delayed, delivered, relayed, expanded), ``Status: 5.1.1`` and often a
``Diagnostic-Code``. As Mailman does: ``failed`` with a 5.x.x status is a hard bounce, with a
4.x.x status a soft one; ``delayed`` and the others are no bounce (the mail may still arrive).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from email.message import Message

#: What one bounce says of one recipient.
HARD = "hard"
SOFT = "soft"


@dataclass(frozen=True)
class Bounce:
    address: str  #: lower case
    kind: str  #: HARD or SOFT
    status: str  #: "5.1.1", "" if none
    detail: str  #: the diagnostic, short and on one line


_STATUS_RE = re.compile(r"\b([245])\.(\d{1,3})\.(\d{1,3})\b")


def _field(block: Message, name: str) -> str:
    value = block.get(name, "")
    return " ".join(str(value).split())


def _address(value: str) -> str:
    """``rfc822; who@example.org`` -> ``who@example.org`` (other address types: "")."""
    kind, _, addr = value.partition(";")
    if not addr:
        addr, kind = kind, "rfc822"
    addr = addr.strip().strip("<>").lower()
    return addr if kind.strip().lower() == "rfc822" and "@" in addr else ""


def is_dsn(msg: Message) -> bool:
    return (msg.get_content_type() == "multipart/report"
            and str(msg.get_param("report-type", "") or "").lower() == "delivery-status")


def _status_blocks(msg: Message) -> list[Message]:
    for part in msg.walk():
        if part.get_content_type() == "message/delivery-status":
            payload = part.get_payload()
            if isinstance(payload, list):
                return [p for p in payload if isinstance(p, Message)]
    return []


def bounces_of(msg: Message) -> list[Bounce]:
    """The failed recipients a DSN reports (delayed and delivered ones are left out)."""
    if not is_dsn(msg):
        return []
    found: list[Bounce] = []
    for block in _status_blocks(msg)[1:]:  # the first block is about the message, the rest per recipient
        action = _field(block, "Action").lower()
        if action != "failed":
            continue
        address = _address(_field(block, "Final-Recipient")) or _address(_field(block, "Original-Recipient"))
        if not address:
            continue
        status_match = _STATUS_RE.search(_field(block, "Status"))
        status = ".".join(status_match.groups()) if status_match else ""
        kind = SOFT if status.startswith("4") else HARD
        detail = (_field(block, "Diagnostic-Code") or status or "failed")[:200]
        found.append(Bounce(address, kind, status, detail))
    return found


# ---- VERP: a return path per message ------------------------------------------------------------

_VERP_RE = re.compile(r"^(?P<local>[a-z0-9_.-]+)\+(?P<row>\d{1,12})-(?P<sig>[0-9a-f]{10})$", re.IGNORECASE)


def _signature(row_id: int, secret: str) -> str:
    return hmac.new(secret.encode(), f"verp:{row_id}".encode(), hashlib.sha256).hexdigest()[:10]


def return_path(row_id: int, *, local: str, domain: str, secret: str) -> str:
    """The envelope sender of outbox row ``row_id``: ``bounces+<id>-<signature>@domain``. Why
    signed: a bounce to it counts against the row's address, so nobody may make one up."""
    return f"{local}+{row_id}-{_signature(row_id, secret)}@{domain}"


def row_of_return_path(address: str, *, local: str, domain: str, secret: str) -> int | None:
    """The outbox row a return path names, if it is ours and its signature holds; else None."""
    addr = (address or "").strip().strip("<>")
    loc, _, dom = addr.rpartition("@")
    m = _VERP_RE.match(loc)
    if m is None or dom.lower() != domain.lower() or m.group("local").lower() != local.lower():
        return None
    row_id = int(m.group("row"))
    if not hmac.compare_digest(m.group("sig").lower(), _signature(row_id, secret)):
        return None
    return row_id
