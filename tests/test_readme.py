"""README's Python snippets run as written, one after the other, as a reader would paste them."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks(text: str) -> list[str]:
    """The bodies of the ```python fences of a Markdown text, in order."""
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.DOTALL | re.MULTILINE)


def test_readme_python_snippets_run(capsys):
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) >= 2
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)
    shown = capsys.readouterr().out
    assert "mean " in str(namespace["imli"].rules_)  # the rule names the table's columns
    assert namespace["fold"].program_ in shown and ":- encoding(utf8)." in shown
    assert "Predicted" in shown  # FOLD's explanation of the first row
