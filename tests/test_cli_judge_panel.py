"""``wkappa judge`` with a panel too small to judge against."""

from __future__ import annotations

import pytest

from cli_calls import refusal


@pytest.mark.parametrize("raters", ["reader1", "reader1,reader2"])
def test_a_one_member_panel_says_why_and_what_to_use(tmp_path, capsys, raters):
    """It said "--raters needs at least two columns." without why or what to use instead."""
    path = tmp_path / "two.csv"
    path.write_text("reader1,reader2\n1,1\n2,2\n3,2\n")
    err = refusal(capsys, ["judge", str(path), "--candidate", "reader2", "--raters", raters])
    assert "--raters gives the panel 1 member besides --candidate reader2" in err, err
    assert "agreement among the panel's members, which needs two or more" in err
    assert f"use wkappa score {path} --true reader1 --pred reader2" in err


def test_a_one_member_panel_of_a_long_file(tmp_path, capsys):
    path = tmp_path / "long.csv"
    path.write_text("item,rater,rating\n1,a,1\n1,b,1\n2,a,2\n2,b,1\n3,a,3\n3,b,3\n")
    argv = ["judge", str(path), "--candidate", "a", "--item", "item", "--rater", "rater"]
    err = refusal(capsys, [*argv, "--rating", "rating"])
    assert "the file (column 'rater') gives the panel 1 member besides --candidate a" in err
    assert "(--true b --pred a)" in err
