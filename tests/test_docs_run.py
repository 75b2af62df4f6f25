"""The README's first game by mail and docs/api.md's life cycle, run as written (issue 29);
then docs/moderation.md's pause and resume, docs/operations.md's health check and docs/mail.md's
solo game.

Each document marks the shell blocks it promises work with an HTML comment before them:

* ``<!-- docs-test: run -->``: run it;
* ``<!-- docs-test: run if swaks -->`` / ``<!-- docs-test: run unless swaks -->``: one of two
  ways of doing the same thing, the first when swaks is installed, else the second (the
  README's Python variant);
* ``<!-- docs-test: output -->`` before the fenced block that follows a run block: lines its
  output must hold, in that order (``...`` within a line stands for any text; a line of
  ``...`` alone says more lines come and is not matched).

The blocks of one document run in order in one ``bash -eu`` (a failing command, or an unset
variable such as the ``$CAROL`` the API page once used, fails the test), in a folder laid out
like a checkout (``.venv``, ``manage.py``, ``tools``, ``var/``) against ``manage.py runall``
started there on free ports with the embedded default (SQLite in that var/, mail caught in
var/maildir, tasks in process), as ``make run`` runs it. The only change to the text: the
documented ports 8000 and 2525 become the free ones.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.test_run import embedded_env, free_port, http_status

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(  # (a block in a list item is indented: its text is dedented, as Markdown shows it)
    r"<!-- docs-test: (?P<kind>run(?: if swaks| unless swaks)?) -->\s*\n[ ]*```[a-z]*\n(?P<code>.*?)\n[ ]*```"
    r"(?:\s*<!-- docs-test: output -->\s*\n[ ]*```[a-z]*\n(?P<output>.*?)\n[ ]*```)?",
    re.DOTALL,
)
BLOCK_START = "@@docs-block@@"
#: In this order, on one server: each goes on from the game(s) the one before left.
DOCUMENTS = ("README.md", "docs/api.md", "docs/moderation.md", "docs/operations.md", "docs/mail.md")


@dataclass(frozen=True)
class Block:
    document: str
    line: int
    kind: str
    code: str
    expected: tuple[str, ...]


def blocks_of(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    found = []
    for m in MARKER.finditer(text):
        expected = tuple(textwrap.dedent(m["output"]).splitlines()) if m["output"] is not None else ()
        found.append(Block(path.name, text.count("\n", 0, m.start()) + 1, m["kind"], textwrap.dedent(m["code"]),
                           expected))
    return found


def chosen(blocks: list[Block], have_swaks: bool) -> list[Block]:
    return [b for b in blocks if b.kind == "run" or (b.kind == "run if swaks") == have_swaks]


def localize(text: str, http: int, smtp: int) -> str:
    """The documented ports are 8000 (web) and 2525 (SMTP); the test's server listens on free ones."""
    return (text.replace("127.0.0.1:8000", f"127.0.0.1:{http}").replace("127.0.0.1:2525", f"127.0.0.1:{smtp}")
            .replace('"127.0.0.1", 2525', f'"127.0.0.1", {smtp}'))


def line_pattern(expected: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in expected.strip().split("...")))


def missing_lines(expected: tuple[str, ...], output: str) -> list[str]:
    """The expected lines not found in ``output`` in their order (each a whole line, ``...`` any text)."""
    lines = [line.strip() for line in output.splitlines()]
    at = 0
    missing = []
    for want in expected:
        if want.strip() in ("", "..."):
            continue
        pattern = line_pattern(want)
        for i in range(at, len(lines)):
            if pattern.fullmatch(lines[i]):
                at = i + 1
                break
        else:
            missing.append(want)
    return missing


def run_document(blocks: list[Block], cwd: Path, env: dict[str, str], http: int, smtp: int) -> None:
    """Run the blocks in one shell; fail naming the block whose command failed or whose answer differs."""
    script = "\n".join(f"echo '{BLOCK_START}{i}'\n{localize(b.code, http, smtp)}" for i, b in enumerate(blocks))
    # stderr with stdout, as a terminal shows them (manage.py player says whose token it prints there)
    try:
        done = subprocess.run(["bash", "-eu", "-c", script], cwd=cwd, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=300)
    except subprocess.TimeoutExpired as exc:  # pragma: no cover - a hang is a failure; say where
        out = exc.stdout if isinstance(exc.stdout, str) else (exc.stdout or b"").decode(errors="replace")
        pytest.fail(f"{blocks[0].document}: still running after 300 s; output so far:\n{out[-4000:]}")
    parts = done.stdout.split(BLOCK_START)[1:]
    outputs = {int(p.split("\n", 1)[0]): p.split("\n", 1)[1] if "\n" in p else "" for p in parts}
    last = max(outputs, default=-1)
    if done.returncode != 0:
        block = blocks[max(last, 0)]
        pytest.fail(f"{block.document} line {block.line}: a documented command failed (exit {done.returncode})\n"
                    f"--- block:\n{block.code}\n--- output:\n{outputs.get(last, '')[-4000:]}")
    for i, block in enumerate(blocks):
        missing = missing_lines(tuple(localize(e, http, smtp) for e in block.expected), outputs.get(i, ""))
        assert not missing, (f"{block.document} line {block.line}: the documented answer differs; not found: "
                             f"{missing}\n--- block:\n{block.code}\n--- output:\n{outputs.get(i, '')[-4000:]}")


def test_it_reads_the_markers_and_matches_documented_answers() -> None:
    blocks = blocks_of(ROOT / "README.md")
    kinds = [b.kind for b in blocks]
    assert "run if swaks" in kinds and "run unless swaks" in kinds  # the first mail, one way or the other
    assert len(chosen(blocks, True)) == len(chosen(blocks, False)) == len(blocks) - 1
    assert missing_lines(("game ...", "...", '{"status": "accepted", ...}'),
                         'x\ngame 2\n{"status": "accepted", "v": 1}\n') == []
    assert missing_lines(("HTTP/1.1 201 Created",), "HTTP/1.1 422 Unprocessable Entity\n") == ["HTTP/1.1 201 Created"]
    assert missing_lines(("b", "a"), "a\nb\n") == ["a"]  # in order



def test_it_fails_naming_the_block_whose_command_fails_or_whose_answer_differs(tmp_path: Path) -> None:
    env = {"PATH": os.environ["PATH"]}
    ok = Block("page.md", 3, "run", "echo one", ("one",))
    run_document([ok], tmp_path, env, 1, 2)
    failing = Block("page.md", 9, "run", "echo two\nfalse\necho never", ())
    with pytest.raises(pytest.fail.Exception, match=r"page\.md line 9: a documented command failed \(exit 1\)"):
        run_document([ok, failing], tmp_path, env, 1, 2)
    unset = Block("page.md", 12, "run", 'curl -H "Authorization: Token $CAROL" x', ())
    with pytest.raises(pytest.fail.Exception, match=r"page\.md line 12: a documented command failed"):
        run_document([unset], tmp_path, env, 1, 2)  # an undefined variable, as api.md's $CAROL was
    differs = Block("page.md", 15, "run", "echo 'HTTP/1.1 401 Unauthorized'", ("HTTP/1.1 200 OK",))
    with pytest.raises(AssertionError, match=r"page\.md line 15: the documented answer differs"):
        run_document([ok, differs], tmp_path, env, 1, 2)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("curl") is None or shutil.which("jq") is None,
                    reason="the documents' commands need curl and jq")
def test_it_runs_the_documents_commands_as_written(tmp_path: Path) -> None:
    # a folder laid out like a checkout: the documents' relative paths work as written
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    (tmp_path / "manage.py").symlink_to(ROOT / "manage.py")
    (tmp_path / "tools").symlink_to(ROOT / "tools")
    var = tmp_path / "var"
    var.mkdir()
    http, smtp = free_port(), free_port()
    env = embedded_env(var, http, smtp)
    env.pop("PBEM_PUBLIC_URL", None)  # derived from PBEM_HTTP_ADDR, as on a newcomer's machine
    env["PYTHONPATH"] = str(ROOT)  # python -m engine: this checkout's engine
    manage = [str(tmp_path / ".venv" / "bin" / "python"), "manage.py"]
    started = time.monotonic()
    migrate = subprocess.run([*manage, "migrate", "--noinput"], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=300)
    assert migrate.returncode == 0, migrate.stdout + migrate.stderr
    log = tmp_path / "runall.log"
    with log.open("w") as out:
        server = subprocess.Popen([*manage, "runall"], cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 120  # (a loaded CI machine)
            while time.monotonic() < deadline and server.poll() is None:
                if http_status(f"http://127.0.0.1:{http}/api/v1/rules/") == 200:
                    break
                time.sleep(0.3)
            assert server.poll() is None, f"runall exited:\n{log.read_text()[-3000:]}"
            print(f"migrate and runall: serving after {time.monotonic() - started:.1f} s")
            have_swaks = shutil.which("swaks") is not None
            for document in DOCUMENTS:
                blocks = chosen(blocks_of(ROOT / document), have_swaks)
                assert blocks, f"{document} marks no block to run"
                started = time.monotonic()
                run_document(blocks, tmp_path, env, http, smtp)
                print(f"{document}: {len(blocks)} blocks run as written in {time.monotonic() - started:.1f} s")
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:  # pragma: no cover - clean up a hang
                server.kill()
                server.wait()
    assert os.path.exists(var / "pbem.sqlite3")
