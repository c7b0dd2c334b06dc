"""``wkappa plan --report`` and ``--plot``: the curve of power against n is the normal
approximation's, and where it is, the same share simulated in studies of wkappa's own test
is drawn over it and tabled beside it, so that a reader sees where the formula is optimistic
(the plan's check said so at the planned n alone)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import wkappa as wk
from wkappa._cli.app import main

_SPARSE = ["plan", "--kappa1", "0.6", "--marginals", "0.1,0.9", "--weights", "unweighted"]


def _table(page: str) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the report's curve table (its last table)."""
    table = re.findall(r"<table>(.*?)</table>", page, re.S)[-1]
    header = re.findall(r"<th>(.*?)</th>", table)
    rows = [re.findall(r"<td>(.*?)</td>", row) for row in table.split("<tr>")[2:]]
    return [html.unescape(h) for h in header], rows


def test_the_report_tables_the_simulated_power_beside_the_formula(tmp_path: Path, capsys) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "plan.html"
    assert main([*_SPARSE, "--report", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    header, rows = _table(page)
    assert header == ["items (n)", "power", "simulated power", "expected 95% width"]
    formula = {int(r[0]): float(r[1]) for r in rows}
    simulated = {int(r[0]): 0.0 if r[2] == "0/1,000" else float(r[2]) for r in rows}
    assert simulated[2] == 0.0  # two items: no simulated study rejects
    for n in (11, 20):  # the same shares as kappa_power(method='simulation') gives
        expected = wk.kappa_power(
            n, kappa1=0.6, marginals=[0.1, 0.9], weights="unweighted", method="simulation",
            n_simulations=1000, rng=0,
        )  # fmt: skip
        assert simulated[n] == round(expected.power, 3)
    # below the planned n of 22 the formula overstates the power by more than noise
    assert all(formula[n] - simulated[n] > 0.05 for n in formula if 5 <= n <= 20)
    note = html.unescape(re.findall(r'<p class="note">(Curve.*?)</p>', page, re.S)[0])
    assert note.startswith(
        "Curve, and the power in the table: the normal approximation (method asymptotic) at "
        "each n. Points, and the simulated column: the share of 1,000 studies simulated from "
        "the anticipated table in which wkappa's test rejected kappa0 = 0"
    )
    assert re.search(r"The simulated power falls up to 0\.\d\d below the formula's", note)
    # the plan's own row keeps a space before the check it states
    assert "0.806 by the normal approximation; 0.71 in 2,000" in html.unescape(page)


def test_the_plot_draws_the_simulated_points_and_the_check(tmp_path: Path, capsys) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "plan.svg"
    assert main([*_SPARSE, "--plot", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")  # matplotlib writes each text as a comment too
    assert "<!-- asymptotic (normal approximation) -->" in svg
    assert "<!-- simulated, 1,000 studies per n (95% MC band) -->" in svg
    assert "<!-- the plan&#x27;s check, 2,000 studies -->" in svg or (
        "<!-- the plan's check, 2,000 studies -->" in svg
    )


def test_a_lower_limit_plan_simulates_its_assurance(tmp_path: Path, capsys) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "plan.html"
    argv = ["plan", "--kappa1", "0.8", "--marginals", "0.05,0.95", "--weights", "unweighted",
            "--lower-limit", "0.2", "--assurance", "0.8", "--report", str(out)]  # fmt: skip
    assert main(argv) == 0
    page = html.unescape(out.read_text(encoding="utf-8"))
    header = _table(out.read_text(encoding="utf-8"))[0]
    assert header[1:3] == ["P(lower limit > 0.2)", "simulated P(lower limit > 0.2)"]
    assert "the lower limit of the score interval cleared 0.2" in page


@pytest.mark.parametrize(
    "extra",
    [
        ["--ci-width", "0.4"],  # an expected width: not a share
        ["--method", "goodness-of-fit"],  # another test than wkappa's
        ["--n", "30", "--kappa0", "0.6"],  # kappa1 = kappa0: the test's size, no power
    ],
)
def test_curves_without_simulated_points_say_their_method(tmp_path: Path, capsys, extra) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "plan.html"
    assert main([*_SPARSE, *extra, "--report", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "simulated power" not in _table(page)[0]
    assert re.search(r'<p class="note">Curve: method [a-z-]+\.</p>', page)


def test_a_simulated_share_of_one_is_written_as_a_count(tmp_path: Path, capsys) -> None:
    """Every simulated study rejecting is no power of 1: the table writes 1,000/1,000."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "plan.html"
    argv = ["plan", "--kappa1", "0.8", "--kappa0", "0.6", "--marginals", "0.1,0.2,0.4,0.2,0.1",
            "--n", "450", "--report", str(out)]  # fmt: skip
    assert main(argv) == 0
    rows = _table(out.read_text(encoding="utf-8"))[1]
    assert "1,000/1,000" in [row[2] for row in rows]
    assert not any(cell == "1.000" for row in rows for cell in row)
