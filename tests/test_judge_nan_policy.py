"""``wkappa judge --nan-policy``: 'omit' (the default) scores each pair on the items both
rated; 'raise' refuses a missing rating by its file row and column."""

from __future__ import annotations

import json
from pathlib import Path

from test_cli import run

WIDE = "a,b,j\n1,2,1\n2,2,2\n1,1,\n2,1,2\n1,2,1\n2,2,2\n1,1,1\n2,1,2\n"
LONG = "item,who,r\n" + "".join(
    f"{i},{who},{r}\n"
    for i, ratings in enumerate([(1, 2, 1), (2, 2, 2), (1, 1, 2), (2, 1, 2), (1, 2, 1)])
    for who, r in zip("abj", ratings, strict=True)
)
OPTIONS = ("--candidate", "j", "--bootstrap", "99", "--seed", "0", "--format", "json")


def _judge(path: Path, *args: str) -> tuple[int, str, str]:
    done = run("judge", path, *OPTIONS, *args)
    return done.returncode, done.stdout, done.stderr


def test_wide_raise_names_the_row_and_column(tmp_path: Path) -> None:
    path = tmp_path / "wide.csv"
    path.write_text(WIDE, encoding="utf-8")
    code, _, err = _judge(path, "--raters", "a,b", "--nan-policy", "raise")
    assert code == 2
    assert "wide.csv, row 3: column 'j' has a missing rating" in err
    assert "--nan-policy omit uses, for each pair of raters, the items both rated" in err
    code, out, _ = _judge(path, "--raters", "a,b")
    default = json.loads(out)
    assert code == 0 and default["ratings_per_rater"] == {"j": 7, "a": 8, "b": 8}
    code, out, _ = _judge(path, "--raters", "a,b", "--nan-policy", "omit")
    assert code == 0 and json.loads(out) == default


def test_complete_files_pass_raise(tmp_path: Path) -> None:
    path = tmp_path / "wide.csv"
    path.write_text(WIDE.replace("1,1,\n", "1,1,2\n"), encoding="utf-8")
    raised = _judge(path, "--raters", "a,b", "--nan-policy", "raise")
    assert raised[0] == 0 and json.loads(raised[1]) == json.loads(
        _judge(path, "--raters", "a,b")[1]
    )


def test_long_raise_names_an_empty_rating_or_an_unrated_item(tmp_path: Path) -> None:
    layout = ("--item", "item", "--rater", "who", "--rating", "r", "--nan-policy", "raise")
    path = tmp_path / "long.csv"
    path.write_text(LONG + "5,a,1\n5,b,1\n5,j,\n", encoding="utf-8")
    code, _, err = _judge(path, *layout)
    assert code == 2 and "long.csv, row 18: column 'r' has a missing rating" in err
    path.write_text(LONG + "5,a,1\n5,b,1\n6,a,2\n6,b,1\n", encoding="utf-8")
    code, _, err = _judge(path, *layout)
    assert code == 2 and "rater 'j' did not rate 2 items" in err
    assert _judge(path, *layout[:-2])[0] == 0
