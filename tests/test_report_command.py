"""The command line at the end of an HTML report breaks only between its words: a line broken
inside ``--report`` (which Chromium did, after a hyphen) reads ``- -report`` on screen and on
paper, and a reader retyping the command gets it wrong."""

from __future__ import annotations

import html
import re
import shlex

import pytest

from wkappa._cli.app import main

pytestmark = pytest.mark.integration  # a report is drawn


def test_each_word_of_the_command_is_kept_on_one_line(tmp_path, capsys):
    data = tmp_path / "panel data.csv"
    data.write_text("a,b,c\n1,1,2\n2,2,2\n3,3,2\n1,2,1\n")
    out = tmp_path / "r.html"
    argv = ["agree", str(data), "--raters", "a,b,c", "--na-values=.,-", "--strip-labels"]
    assert main([*argv, "--report", str(out), "--quiet"]) == 0
    capsys.readouterr()
    page = out.read_text()
    found = re.search(r'<pre class="command">(.*?)</pre>', page, flags=re.S)
    assert found is not None
    command = found.group(1)
    # Its text is the command as typed, quoted for a shell.
    text = html.unescape(re.sub(r"<[^>]+>", "", command))
    assert shlex.split(text) == ["wkappa", *argv, "--report", str(out), "--quiet"]
    # Every short word is one unbreakable span, the spaces between them the only breaks.
    spans = re.findall(r'<span class="word">(.*?)</span>', command)
    for word in ("--na-values=.,-", "--strip-labels", "--report", "--quiet", "a,b,c"):
        assert word in spans, (word, spans)
    assert "pre.command .word { white-space: nowrap; }" in page


def test_a_long_path_may_still_break(tmp_path, capsys):
    """A word longer than the line (a deep path) is not forced past the page's edge."""
    folder = tmp_path / ("a" * 60)
    folder.mkdir()
    data = folder / "ratings.csv"
    data.write_text("a,b\n1,1\n2,2\n3,3\n1,2\n")
    out = tmp_path / "r.html"
    argv = ["score", str(data), "--true", "a", "--pred", "b", "--report", str(out), "--quiet"]
    assert main(argv) == 0
    capsys.readouterr()
    command = re.search(r'<pre class="command">(.*?)</pre>', out.read_text(), flags=re.S)
    assert command is not None
    assert f'<span class="word">{data}' not in command.group(1)
    assert str(data) in command.group(1)
