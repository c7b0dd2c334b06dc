"""``thresholds --apply`` to a file written in another CSV dialect than the fitted one: the
thresholds fitted on a comma-separated export are applied to a spreadsheet saved with ';' and
decimal commas (or the other way round). One --separator read both files, so the only fix was
to edit one of them; ``--apply-separator`` and ``--apply-decimal-comma`` read the other file
as it is, and its grades are those of the library's thresholds."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from cli_calls import refusal
from wkappa._cli.app import main

_RNG = np.random.default_rng(8)
_TRUTH = _RNG.integers(0, 4, 80)
_SCORES = np.round(_TRUTH + _RNG.normal(0, 0.7, 80), 3)
_NEW = np.round(_RNG.uniform(-1, 4.5, 12), 3)


def _write(path, header, rows, separator, comma):
    def cell(value):
        text = f"{value:g}" if isinstance(value, float) else str(value)
        return text.replace(".", ",") if comma else text

    lines = [separator.join(header)]
    lines += [separator.join(cell(v) for v in row) for row in rows]
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture
def files(tmp_path):
    """The fitted file with ',' and points, the new one with ';' and decimal commas; and the
    same two the other way round."""
    rows = list(zip(_TRUTH.tolist(), _SCORES.tolist(), strict=True))
    new = [(f"n{i}", s) for i, s in enumerate(_NEW.tolist())]
    _write(tmp_path / "fit.csv", ["truth", "score"], rows, ",", False)
    _write(tmp_path / "new.csv", ["id", "score"], new, ";", True)
    _write(tmp_path / "fit_eu.csv", ["truth", "score"], rows, ";", True)
    _write(tmp_path / "new_us.csv", ["id", "score"], new, ",", False)
    return tmp_path


def _expected():
    result = wk.optimize_thresholds(_TRUTH, _SCORES)
    return result.predict(_NEW).tolist()


def test_a_semicolon_file_with_decimal_commas_is_graded_as_it_is(files, capsys):
    out = files / "graded.csv"
    argv = ["thresholds", str(files / "fit.csv"), "--true", "truth", "--score", "score",
            "--apply", str(files / "new.csv"), "--out", str(out), "--quiet"]  # fmt: skip
    err = refusal(capsys, argv)
    assert "new.csv (--apply) looks separated by ';', but it is read with ','" in err, err
    assert "Hint: pass --apply-separator ';' (with --apply-decimal-comma if" in err
    err = refusal(capsys, [*argv, "--apply-separator", ";"])
    assert "pass --apply-decimal-comma (with --apply-separator ';'" in err, err
    assert "pass --decimal-comma" not in err
    assert main([*argv, "--apply-separator", ";", "--apply-decimal-comma"]) == 0
    lines = out.read_text().splitlines()
    assert lines[0] == "id;score;grade"
    # its cells written back as they were, the grades the library's thresholds give
    assert [line.rsplit(";", 1)[0] for line in lines[1:]] == (
        (files / "new.csv").read_text().splitlines()[1:]
    )
    assert [int(line.rsplit(";", 1)[1]) for line in lines[1:]] == _expected()


def test_a_comma_file_applied_after_a_semicolon_fit(files, capsys):
    out = files / "graded.csv"
    argv = ["thresholds", str(files / "fit_eu.csv"), "--separator", ";", "--decimal-comma",
            "--true", "truth", "--score", "score", "--apply", str(files / "new_us.csv"),
            "--out", str(out), "--quiet"]  # fmt: skip
    err = refusal(capsys, argv)
    assert "Hint: pass --apply-separator ',' --no-apply-decimal-comma." in err, err
    err = refusal(capsys, [*argv, "--apply-separator", ","])
    assert "--decimal-comma reads" in err and "--no-apply-decimal-comma" in err, err
    assert main([*argv, "--apply-separator", ",", "--no-apply-decimal-comma"]) == 0
    lines = out.read_text().splitlines()
    assert lines[0] == "id,score,grade"
    assert [int(line.rsplit(",", 1)[1]) for line in lines[1:]] == _expected()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--apply-separator", ";;"], "--apply-separator must be one character; got ';;'."),
        (["--apply-separator", "\\t"], "for a tab, --apply-separator $'\\t' in bash"),
        (["--apply-decimal-comma"], "needs its fields separated by another character"),
    ],
)
def test_a_wrong_apply_dialect_is_one_line(files, capsys, extra, message):
    argv = ["thresholds", str(files / "fit.csv"), "--true", "truth", "--score", "score",
            "--apply", str(files / "new_us.csv"), "--out", str(files / "g.csv")]  # fmt: skip
    assert message in refusal(capsys, [*argv, *extra])


def test_a_dialect_for_a_parquet_apply_file_is_refused(files, capsys):
    pl = pytest.importorskip("polars")
    pl.DataFrame({"score": _NEW}).write_parquet(files / "new.parquet")
    argv = ["thresholds", str(files / "fit.csv"), "--true", "truth", "--score", "score",
            "--apply", str(files / "new.parquet"), "--out", str(files / "g.csv")]  # fmt: skip
    for option in ("--apply-separator", "--apply-decimal-comma"):
        extra = [option, ";"] if option == "--apply-separator" else [option]
        err = refusal(capsys, [*argv, *extra])
        assert f"{option} applies to an --apply file that is a CSV or TSV" in err, err


@pytest.mark.parametrize("suffix", ["parquet", "jsonl"])
def test_decimal_comma_scores_keep_their_values_in_a_typed_out(files, capsys, suffix):
    """A CSV with decimal commas graded into Parquet or JSON lines wrote its score column as
    nulls (2,5 parsed with a decimal point): the file's own data lost without a word."""
    pl = pytest.importorskip("polars")
    out = files / f"graded.{suffix}"
    argv = ["thresholds", str(files / "fit_eu.csv"), "--separator", ";", "--decimal-comma",
            "--true", "truth", "--score", "score", "--apply", str(files / "new.csv"),
            "--out", str(out), "--quiet"]  # fmt: skip
    assert main(argv) == 0
    capsys.readouterr()
    written = pl.read_parquet(out) if suffix == "parquet" else pl.read_ndjson(out)
    assert written["score"].to_list() == _NEW.tolist()
    assert written["grade"].to_list() == _expected()
