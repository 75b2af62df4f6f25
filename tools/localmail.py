"""Play by mail on this machine without a mail client (README "A first game by mail").

`make run` catches every outbound mail in the Maildir var/maildir/ and takes mail on the SMTP
ingress 127.0.0.1:2525. This script, standard library only, is the mail client of the README's
players there:

    python3 tools/localmail.py send FROM TO WORDS...   mail WORDS (one command) from FROM to TO
    python3 tools/localmail.py show ADDRESS            print the newest mail to ADDRESS (marks it read)
    python3 tools/localmail.py play ADDRESS...         answer each address' unread mail that asks
                                                       for a move with its first option (the
                                                       newest of each game, English or Portuguese)

`play` replies as a player would: to the mail's Reply-To (the seat's secret address), quoting
nothing, with the first option code the mail lists. A mail once shown or answered is moved to
var/maildir/cur/ with the Maildir flags S (seen) or RS (replied), as a mail client does, so
`play` never answers one twice nor one its player read and answered another way (the API).
PBEM_SMTP_ADDR, PBEM_MAILDIR and PBEM_VAR_DIR are read as the server reads them.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import os
import smtplib
import sys
import time
from email.message import EmailMessage
from pathlib import Path

# The Maildir counts as quiet when no mail came for this long. On `make run` (tasks in process)
# the server has judged a mail and written its answers before it says 250; with workers, later.
SETTLE_SECONDS = 0.5
WAIT_SECONDS = 20.0  # the longest wait for the server's answers


def maildir() -> Path:
    if os.environ.get("PBEM_MAILDIR"):
        return Path(os.environ["PBEM_MAILDIR"])
    return Path(os.environ.get("PBEM_VAR_DIR", "var")) / "maildir"


def smtp_addr() -> tuple[str, int]:
    host, _, port = os.environ.get("PBEM_SMTP_ADDR", "127.0.0.1:2525").rpartition(":")
    return host.strip("[]") or "127.0.0.1", int(port)


def settle() -> None:
    """Wait until the server has sent what it is going to send: no new mail for SETTLE_SECONDS
    (a move may bring no mail at all, so there is nothing else to wait for)."""
    new = maildir() / "new"
    deadline = time.monotonic() + WAIT_SECONDS
    quiet_since, last = time.monotonic(), -1.0
    while time.monotonic() < deadline:
        newest = max((t for p in new.iterdir() if (t := _mtime(p)) is not None), default=0.0) if new.is_dir() else 0.0
        if newest != last:
            quiet_since, last = time.monotonic(), newest
        elif time.monotonic() - quiet_since >= SETTLE_SECONDS:
            return
        time.sleep(0.1)


def send(sender: str, to: str, body: str, reply_to: EmailMessage | None = None) -> None:
    m = EmailMessage()
    m["From"], m["To"] = sender, to
    m["Subject"] = f"Re: {reply_to['Subject']}" if reply_to is not None else body.splitlines()[0][:60]
    if reply_to is not None and reply_to["Message-ID"]:
        m["In-Reply-To"] = m["References"] = reply_to["Message-ID"]
    m.set_content(body)
    with smtplib.SMTP(*smtp_addr(), timeout=10) as client:
        client.send_message(m)
    settle()


def _mtime(path: Path) -> float | None:
    """A file's modification time, None when it is gone: another run of this tool sharing the Maildir
    may move a mail to ``cur`` between our listing of ``new`` and our reading it (QA, #22: two ``play``
    runs at once crashed with FileNotFoundError)."""
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return None


def mails_to(address: str, folder: str = "new") -> list[tuple[Path, EmailMessage]]:
    """The mails to ``address`` in the Maildir's ``folder``, oldest first (a mail another process moved
    away meanwhile is left out: it is no longer in ``folder``)."""
    found = []
    path = maildir() / folder
    listed = [(t, p) for p in (path.iterdir() if path.is_dir() else []) if (t := _mtime(p)) is not None]
    for _t, p in sorted(listed, key=lambda tp: (tp[0], tp[1].name)):
        try:
            with p.open("rb") as f:
                m = email.message_from_binary_file(f, policy=email.policy.default)
        except FileNotFoundError:
            continue
        assert isinstance(m, EmailMessage)
        if address.lower() in str(m["To"] or "").lower():
            found.append((p, m))
    return found


def text_of(m: EmailMessage) -> str:
    part = m.get_body(preferencelist=("plain",))
    return part.get_content() if part is not None else ""


def mark(path: Path, flags: str) -> None:
    cur = maildir() / "cur"
    cur.mkdir(exist_ok=True)
    with contextlib.suppress(FileNotFoundError):  # another run marked it first (it moved it to cur)
        path.rename(cur / f"{path.name}:2,{flags}")


#: The line above the options of a mail, in each language of the server's mails.
OPTIONS_HEADINGS = ("Your options:", "As suas opções:")
#: How a mail whose options are those of the mail before it says so instead of listing them.
AGAIN = ("The same as in my last mail (", "As mesmas da minha última mensagem (")


def first_option(text: str) -> str | None:
    lines = text.splitlines()
    heading = next((h for h in OPTIONS_HEADINGS if h in lines), None)
    if heading is None:
        return None
    for line in lines[lines.index(heading) + 1:]:
        if line.strip().startswith(AGAIN):  # "the same as in my last mail (p5, p7, ...)": its first
            return line.partition("(")[2].split(",")[0].split(")")[0].strip() or None
        if line.strip():
            return line.split()[0]
    return None


def cmd_show(address: str) -> int:
    settle()
    mails = mails_to(address) or mails_to(address, "cur")
    if not mails:
        print(f"no mail to {address} in {maildir()}", file=sys.stderr)
        return 1
    path, m = mails[-1]
    print(f"From: {m['From']}\nTo: {m['To']}\nReply-To: {m['Reply-To']}\nSubject: {m['Subject']}\n")
    print(text_of(m))
    if path.parent.name == "new":
        mark(path, "S")
    return 0


def asking_for_a_move(address: str) -> list[tuple[Path, EmailMessage]]:
    return [(p, m) for p, m in mails_to(address) if first_option(text_of(m))]


def newest_of_each_game(asking: list[tuple[Path, EmailMessage]]) -> list[tuple[Path, EmailMessage]]:
    """The newest mail of each game (its seat's Reply-To) among ``asking`` (oldest first); the
    older ones of a game, overtaken by its newest, are marked seen. A player in two games answers
    both, not only the game that mailed last."""
    newest: dict[str, tuple[Path, EmailMessage]] = {}
    for path, m in asking:
        seat = str(m["Reply-To"] or "")
        if seat in newest:
            mark(newest[seat][0], "S")  # an older turn's mail, overtaken by the newest
        newest[seat] = (path, m)
    return list(newest.values())


def cmd_play(addresses: list[str]) -> int:
    settle()
    deadline = time.monotonic() + WAIT_SECONDS
    # with workers (not make run) the mail asking for a move may come a little later
    while not any(asking_for_a_move(a) for a in addresses) and time.monotonic() < deadline:
        time.sleep(0.3)
    played = 0
    for address in addresses:
        asking = asking_for_a_move(address)
        if not asking:
            print(f"{address}: no unread mail asks for a move")
            continue
        for path, m in newest_of_each_game(asking):
            code = first_option(text_of(m))
            assert code is not None
            send(address, str(m["Reply-To"]), code, reply_to=m)
            mark(path, "RS")
            print(f"{address}: {code} (to {m['Reply-To']}, {m['Subject']})")
            played += 1
    if not played:
        print("no move was sent", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str]) -> int:
    if len(argv) >= 4 and argv[0] == "send":
        send(argv[1], argv[2], " ".join(argv[3:]))
        print(f"sent from {argv[1]} to {argv[2]}: {' '.join(argv[3:])}")
        return 0
    if len(argv) == 2 and argv[0] == "show":
        return cmd_show(argv[1])
    if len(argv) >= 2 and argv[0] == "play":
        return cmd_play(argv[1:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
