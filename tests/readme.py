"""README.md's fenced code blocks and what each says about itself.

Every block but the first two (setup and tests, which ``.ci/run`` runs verbatim:
``tests/test_packaging.py``) is preceded by one of three comments:

* ``<!-- runnable -->``: ``tests/test_readme.py`` runs it - a shell block line by line, a
  Python block as a script - and checks that the output holds what its ``# → a, b`` comments
  say. ``<!-- runnable: continues -->`` runs it after the runnable block of the same language
  before it, in the same directories (a Python block: in the same namespace), the way a reader
  goes on in the same shell or session.
* ``<!-- tested: tests/test_x.py::test_name -->``: that test runs it, because it needs what only
  the test sets up (a ``langgraph dev`` server, the MCP endpoint, a scripted model server). The
  test reads the block with :func:`blocks_tested_by`, so the link cannot silently break.
* ``<!-- not runnable: reason -->``: a diagram, a synopsis with placeholders, or something that
  needs what the tests do not have (Docker, a licence key, a server left running).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"

_FENCE = re.compile(r"^```(?P<lang>[\w-]*)\n(?P<body>.*?)^```\s*$", re.S | re.M)
_MARKER = re.compile(r"<!--\s*(?P<kind>runnable|tested|not runnable)\s*(?::\s*(?P<arg>.*?))?\s*-->\s*\Z", re.S)
#: The blocks ``.ci/run`` runs verbatim instead of carrying a marker: setup and tests.
UNMARKED = 2


@dataclass(frozen=True)
class Block:
    index: int  #: 0-based position among README's fenced blocks
    line: int  #: 1-based line of the opening fence
    lang: str
    body: str
    kind: str | None  #: "runnable", "tested", "not runnable" or None (no marker)
    arg: str  #: "continues", the test that runs it, or the reason it does not run
    section: str  #: the heading the block is under

    @property
    def where(self) -> str:
        return f"README.md:{self.line} ({self.section})"


def blocks(text: str | None = None) -> list[Block]:
    text = README.read_text(encoding="utf-8") if text is None else text
    out = []
    for i, m in enumerate(_FENCE.finditer(text)):
        before = text[: m.start()].rstrip()
        marker = _MARKER.search(before.rsplit("\n", 1)[-1])
        headings = re.findall(r"^#+ (.+)$", _FENCE.sub("", before), re.M)  # a shell comment is no heading
        out.append(Block(index=i, line=before.count("\n") + 2 if before else 1, lang=m.group("lang"), body=m.group("body"),
                         kind=marker.group("kind") if marker else None, arg=(marker.group("arg") or "").strip() if marker else "",
                         section=headings[-1] if headings else ""))
    return out


def runnable_groups(text: str | None = None) -> list[list[Block]]:
    """The runnable blocks, each group a block and the ``continues`` blocks after it."""
    groups: list[list[Block]] = []
    last: dict[str, list[Block]] = {}
    for b in blocks(text):
        if b.kind != "runnable":
            continue
        if b.arg == "continues" and b.lang in last:
            last[b.lang].append(b)
        else:
            last[b.lang] = [b]
            groups.append(last[b.lang])
    return groups


def blocks_tested_by(test: str) -> list[Block]:
    """The blocks whose marker names ``test`` (a test function's name), in README order."""
    found = [b for b in blocks() if b.kind == "tested" and b.arg.split("::")[-1] == test]
    assert found, f"no README block is marked <!-- tested: ...::{test} -->"
    return found


def expected(line: str) -> tuple[str, list[str]]:
    """A line without its ``# → a, b`` comment, and the texts that comment lists."""
    code, sep, said = line.partition("  # →")
    if not sep:
        return line, []
    return code.rstrip(), [t.strip() for t in said.split(", ") if t.strip()]


def check_printed(block: Block, out: str) -> None:
    """``out`` holds the texts of the block's ``# →`` comments, in the order the block has them."""
    at = 0
    for line in block.body.splitlines():
        for text in expected(line)[1]:
            found = out.find(text, at)
            assert found >= 0, f"{block.where}: {text!r} not printed (after position {at}) in\n{out[-3000:]}"
            at = found + len(text)
