"""``wkappa score``, ``icc``, ``compare`` and ``thresholds --report``: one self-contained HTML
file each, checked as text (every number equal to the library's, the methods sentence, the
command line, the references against docs/references.bib) and in a real headless Chromium
(Debian's ``chromium``; ``make test`` installs it when missing); a report file that cannot be
written, or is not named .html, is one line of error for every command."""

from __future__ import annotations

import base64
import html
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import wkappa as wk
from chromium import chromium_binary, run_chromium
from published import SHROUT_FLEISS_RATINGS
from wkappa._cli.app import main
from wkappa._cli.provenance import REFERENCES

pytestmark = pytest.mark.integration  # a real engine, training run or subprocess

DATA = Path(wk.__file__).parent / "data" / "ms_diagnosis.csv"
TRUE, PRED = "new_orleans_neurologist", "winnipeg_neurologist"


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("report") / "report.html"
    proc = subprocess.run(
        [sys.executable, "-m", "wkappa", "score", DATA, "--true", TRUE, "--pred", PRED,
         "--by", "patients", "--report", path, "--quiet"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return path


@pytest.fixture(scope="module")
def expected():
    import polars as pl

    frame = pl.read_csv(DATA)
    result = wk.kappa_test(frame[TRUE], frame[PRED])
    return result, result.confidence_interval(0.95)


def test_report_is_self_contained(report, expected):
    page = report.read_text()
    result, (low, high) = expected
    # Nothing is fetched: no external URL in src/href, every image an inline PNG.
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "<link" not in page and "@import" not in page
    images = re.findall(r'<img[^>]*src="data:image/png;base64,([^"]+)"', page)
    assert len(images) == 3  # all rows and both samples
    for encoded in images:
        assert base64.b64decode(encoded)[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"{result.statistic:.4f}" in page
    assert f"[{low:.4f}, {high:.4f}]" in page
    assert "New Orleans" in page and "Winnipeg" in page and "<style>" in page


def _browser(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    proc = run_chromium(tmp_path / "profile", *args)
    assert isinstance(proc, subprocess.CompletedProcess)
    return proc


def _render(page: Path, tmp_path: Path) -> tuple[bytes, str]:
    """A screenshot of ``page`` (PNG bytes) and its DOM after the load event (the page's
    script has written each image's natural width); skips without a browser."""
    if chromium_binary() is None:
        pytest.skip(
            "Debian's chromium is not installed and `make chromium` could not install it "
            "(apt-get update && apt-get install -y chromium)"
        )
    url = page.resolve().as_uri()
    shot = tmp_path / "page.png"
    proc = _browser(tmp_path, "--window-size=1200,2000", f"--screenshot={shot}", url)
    assert proc.returncode == 0, proc.stderr[-2000:]
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    proc = _browser(
        tmp_path, "--window-size=1200,2000", "--virtual-time-budget=10000", "--dump-dom", url
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return png, proc.stdout


def _command(page: str) -> str:
    """The command line of a report's Reproduce section, as its text reads."""
    found = re.search(r'<pre class="command">(.*?)</pre>', page, flags=re.S)
    assert found is not None
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1)))


def _page_text(dom: str) -> str:
    text = html.unescape(
        re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", " ", dom, flags=re.S)
    )
    return " ".join(text.split())


@pytest.mark.slow
def test_report_renders_in_headless_chromium(report, expected, tmp_path):
    png, dom = _render(report, tmp_path)
    assert len(png) > 20_000
    widths = re.search(r'data-loaded-widths="([^"]*)"', dom)
    assert widths is not None, "the load handler did not run"
    loaded = [int(w) for w in widths.group(1).split(",")]
    assert len(loaded) == 3 and all(w > 0 for w in loaded), loaded

    text = _page_text(dom)
    result, (low, high) = expected
    assert f"KAPPA {result.statistic:.4f}" in text.upper()
    assert f"[{low:.4f}, {high:.4f}]" in text


# ----------------------------------------------------------------- wkappa icc --report


@pytest.fixture(scope="module")
def icc_case(tmp_path_factory):
    """Shrout & Fleiss's table with one rating missing and one subject without ratings (left
    out): REML, as a reliability study with gaps has it; the report and the library's result."""
    pytest.importorskip("polars")
    folder = tmp_path_factory.mktemp("icc")
    ratings = np.array(SHROUT_FLEISS_RATINGS, dtype=float)
    ratings[2, 1] = np.nan
    lines = ["subject,J1,J2,J3,J4"]
    for i, row in enumerate(ratings):
        lines.append(",".join([f"s{i}", *("" if np.isnan(v) else f"{v:g}" for v in row)]))
    lines.append("s99,,,,")
    (folder / "sf.csv").write_text("\n".join(lines) + "\n")
    argv = ["icc", "sf.csv", "--raters", "J1,J2,J3,J4", "--form", "A,1", "--report", "icc.html"]
    return folder, argv, ratings


@pytest.fixture(scope="module")
def icc_report(icc_case):
    folder, argv, _ = icc_case
    proc = subprocess.run(
        [sys.executable, "-m", "wkappa", *argv, "--quiet"],
        capture_output=True, text=True, timeout=300, cwd=folder,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return folder / "icc.html"


def test_icc_report_has_the_numbers_of_the_library(icc_report, icc_case):
    page = html.unescape(icc_report.read_text())
    _, argv, ratings = icc_case
    result = wk.icc(ratings, form="A,1")
    low, high = result.confidence_interval(0.95)
    assert result.method == "reml"
    # The headline, the table and the methods sentence state the library's values.
    assert page.count(f"{result.statistic:.4f}") >= 3
    assert page.count(f"[{low:.4f}, {high:.4f}]") >= 3
    assert f"F({result.df1:.4g}, {result.df2:.5g}) = {result.f_statistic:.4g}" in page
    # Shrout & Fleiss's name and the form in words.
    assert "ICC2 of Shrout and Fleiss (1979)" in page
    assert result.description in page
    # The ANOVA table: each mean square and its sum of squares (df x MS), one decimal count.
    squares = re.findall(
        r"<tr><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td>", page
    )
    anova = {name: (df, ss, ms) for name, df, ss, ms in squares if "(MS" in name}
    assert len(anova) == 4  # one form: its own model
    df, ss, ms = anova["residual (MSE)"]
    assert float(df) == result.df_error
    assert float(ms) == pytest.approx(result.ms_error, abs=0.01)
    assert float(ss) == pytest.approx(result.df_error * result.ms_error, abs=0.01)
    assert float(anova["between raters (MSC)"][2]) == pytest.approx(result.ms_raters, abs=0.01)
    assert len({len(ms.partition(".")[2]) for _, _, ms in anova.values()}) == 1
    # n items / k raters, the ratings used and the subject left out, the method.
    assert (
        "from 6 items rated by 4 raters (23 ratings; items with a missing rating keep their "
        "other ratings: REML variance components, Patterson and Thompson 1971"
    ) in page
    assert "1 of 7 file rows left out: no rating at all" in page
    assert "file rows: 7 read, 6 used, 1 dropped: no rating at all" in page
    # missing ratings: the limits are approximate, and the page says so (never "exact F")
    assert (
        "the F-based interval of McGraw and Wong (1996) (approximate F limits from the REML "
        "mean squares, df of the observed ratings)" in page
    )
    assert "exact F" not in page
    # The command line as typed, the software and version, the date.
    assert f"wkappa {' '.join(argv)} --quiet" == _command(page)
    assert f"wkappa {wk.__version__} on 20" in page


def test_icc_report_methods_sentence_reports_the_ccc(icc_report, icc_case):
    """The report showed Lin's (overall) CCC with its interval and reference, but the methods
    sentence, the paragraph to hand in, left it out."""
    page = html.unescape(icc_report.read_text())
    _, _, ratings = icc_case
    ccc = wk.ccc(ratings, nan_policy="omit")
    low, high = ccc.confidence_interval(0.95)
    methods = page.split('class="methods">')[1].split("</p>")[0]
    assert (
        "Agreement was also summarised by the overall concordance correlation coefficient "
        f"(Barnhart, Haber and Song 2002): overall CCC {ccc.statistic:.4f}, 95% CI "
        f"[{low:.4f}, {high:.4f}] ({ccc.interval_method}) on {ccc.n_items} complete items"
    ) in methods


def test_icc_report_is_self_contained(icc_report):
    page = icc_report.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "<link" not in page and "@import" not in page and "@media print" in page


def test_icc_report_one_sided_and_every_form(icc_case, tmp_path, monkeypatch, capsys):
    folder, argv, ratings = icc_case
    monkeypatch.chdir(folder)
    out = tmp_path / "all.html"
    assert main([*argv[:4], "--alternative", "greater", "--report", str(out)]) == 0
    page = html.unescape(out.read_text())
    results = wk.icc_all(ratings, alternative="greater")
    assert (
        "one-sided 95% lower bound" in page
        and "F test of ICC = 0 against ICC > 0, one-sided" in page
    )
    for result in results.values():
        low, high = result.confidence_interval(0.95)
        assert high == 1.0
        assert f"<td>{result.name}</td><td>{result.shrout_fleiss}</td>" in page
        assert f"<td>{low:.4f}</td>" in page  # the lower bound alone, not [low, 1.0000]
    assert "1.0000]" not in page
    assert "Each form's one-sided 95% lower confidence bound is that of the F-based" in page
    # Every form, REML: both models' between-items mean squares, each the library's.
    one_way, two_way = results["1,1"].ms_items, results["A,1"].ms_items
    assert f"<td>between items (MSR)</td><td>5</td><td>{5 * two_way:.3f}</td>" in page
    assert f"<td>between items, one-way model (MSR)</td><td>5</td><td>{5 * one_way:.3f}" in page
    assert "Lin (1989)" not in page and "Barnhart, Haber and Song (2002)" in page


def test_icc_report_says_which_limits_are_exact(tmp_path, monkeypatch):
    """On a complete table the consistency form's F limits are exact and absolute agreement's
    (Satterthwaite's df) approximate: the report says which, as ICCResult.explain() does."""
    monkeypatch.chdir(tmp_path)
    Path("r.csv").write_text("a,b,c\n1,2,2\n3,3,4\n4,5,5\n2,2,3\n5,4,5\n")
    for form, words in [
        ("C,1", "(exact F limits)"),
        ("A,1", "(approximate F limits with Satterthwaite's df)"),
    ]:
        argv = ["icc", "r.csv", "--raters", "a,b,c", "--form", form, "--report", "o.html"]
        assert main(argv) == 0
        page = html.unescape(Path("o.html").read_text())
        assert f"the F-based interval of McGraw and Wong (1996) {words}" in page
        assert page.count(words.strip("()")) >= 2  # the sentence and the interval's caption


def test_every_reference_matches_the_bibliography():
    """The reports cite in full: each reference's first author, year, journal, volume, issue,
    pages (a book's title and publisher) and doi are those of its entry in docs/references.bib."""
    bib = (Path(__file__).parents[1] / "docs" / "references.bib").read_text()
    for key, text in REFERENCES.items():
        entry = re.search(r"@\w+\{" + key + r",(.*?)\n\}", bib, flags=re.S)
        assert entry is not None, key
        fields = dict(re.findall(r"(\w+)\s*=\s*\{(.*?)\},?\n", entry.group(1) + "\n"))
        surname = fields["author"].split(",")[0].strip("{}")
        assert text.startswith(surname), key
        assert f"({fields['year']})" in text, key
        if "volume" in fields:  # an article
            assert f"{fields['volume']}({fields['number']})" in text, key
            assert fields["pages"].replace("--", "-") in text, key
            assert fields["journal"] in text, key
        else:  # a book, or a manual (howpublished)
            title = fields["title"].replace("{", "").replace("}", "")
            publisher = fields.get("publisher", fields.get("howpublished"))
            assert title in text and publisher in text, key
        if "doi" in fields:
            assert f"doi:{fields['doi']}" in text, key


@pytest.mark.slow
def test_icc_report_renders_in_headless_chromium(icc_report, icc_case, tmp_path):
    _, dom = _render(icc_report, tmp_path)
    assert 'data-loaded-widths=""' in dom  # the page's script ran (no images)
    text = _page_text(dom)
    result = wk.icc(icc_case[2], form="A,1")
    assert f"ICC(A,1) {result.statistic:.4f}" in text
    assert "Analysis of variance" in text and "References" in text


# ------------------------------------------------- what a reader pastes and reruns (score, agree)


def _methods(page: str) -> str:
    found = re.search(r'<p class="methods">(.*?)</p>', page, flags=re.S)
    assert found is not None, "no methods sentence"
    return html.unescape(found.group(1))


def test_score_report_methods_command_and_references(report, expected):
    page = report.read_text()
    methods = _methods(page)
    result, (low, high) = expected
    assert (
        "Cohen's weighted kappa with quadratic weights (Cohen 1968) on 218 rated pairs" in methods
    )
    assert "overall and within each value of patients" in methods
    assert "that of Fleiss, Cohen and Everitt (1969)" in methods
    assert (
        f"Kappa = {result.statistic:.4f}, 95% confidence interval [{low:.4f}, {high:.4f}]"
        in methods
    )
    assert f"wkappa {wk.__version__} on 20" in methods
    assert _command(page).startswith(f"wkappa score {DATA} --true {TRUE}")
    for key in ("cohen1968", "fleiss1969", "landis1977"):
        assert html.escape(REFERENCES[key], quote=False) in page
    assert "@media print" in page


@pytest.fixture
def clustered(tmp_path):
    """The MS data with three patients to a cluster (as three scans of one site)."""
    pl = pytest.importorskip("polars")
    frame = pl.read_csv(DATA).with_columns((pl.int_range(pl.len()) // 3).alias("site"))
    path = tmp_path / "clustered.csv"
    frame.write_csv(path)
    return path, frame


def test_score_report_says_the_se_is_cluster_robust(clustered, tmp_path):
    path, frame = clustered
    out = tmp_path / "cluster.html"
    argv = ["score", str(path), "--true", TRUE, "--pred", PRED, "--cluster", "site"]
    assert main([*argv, "--report", str(out), "--quiet"]) == 0
    page = html.unescape(out.read_text())
    result = wk.kappa_test(frame[TRUE], frame[PRED], weights="quadratic", cluster=frame["site"])
    low, high = result.confidence_interval(0.95)
    groups = frame["site"].n_unique()
    assert result.n_clusters == groups == 73
    methods = _methods(out.read_text())
    assert f"cluster-robust over the {groups} clusters of site" in methods
    assert "estimate ± t(G - 1) × the cluster-robust standard error" in methods
    assert f"[{low:.4f}, {high:.4f}]" in methods
    assert f"{result.standard_error:.4f}" in page and f"cluster-robust, {groups} clusters" in page
    assert f"on t({groups - 1})" in page
    assert REFERENCES["yang2014"] in page and REFERENCES["obuchowski1998"] in page


def test_a_clustered_report_notes_the_t_test_of_its_kappa0(clustered, tmp_path):
    """The note under a clustered report called its t statistic "z" and left out the kappa
    of H0 (--kappa0 0.6 read as a test of kappa = 0 there)."""
    path, _ = clustered
    out = tmp_path / "cluster.html"
    argv = ["score", str(path), "--true", TRUE, "--pred", PRED, "--cluster", "site"]
    assert main([*argv, "--kappa0", "0.6", "--report", str(out), "--quiet"]) == 0
    page = html.unescape(out.read_text())
    assert "z and p" not in page
    assert "t and p test kappa = 0.6 with it (the Wald test), on t with G - 1 df" in page


@pytest.mark.parametrize("seed", [5, None])
def test_a_bootstrap_report_names_its_resamples_and_seed(seed, tmp_path):
    out = tmp_path / "boot.html"
    argv = ["score", str(DATA), "--true", TRUE, "--pred", PRED, "--bootstrap", "199"]
    argv += [] if seed is None else ["--seed", str(seed)]
    assert main([*argv, "--alternative", "greater", "--report", str(out), "--quiet"]) == 0
    methods = _methods(out.read_text())
    assert "one-sided 95% lower confidence bound is that of the bootstrap percentile" in methods
    if seed is None:
        assert "199 resamples, no random seed fixed (a rerun draws others)" in methods
    else:
        assert f"199 resamples, random seed {seed}" in methods
    assert REFERENCES["efron1979"] in html.unescape(out.read_text())


def test_agree_report_methods_with_the_library_numbers(tmp_path):
    pytest.importorskip("polars")
    out = tmp_path / "agree.html"
    raters = f"{TRUE},{PRED}"
    argv = ["agree", str(DATA), "--raters", raters, "--bootstrap", "99", "--seed", "7"]
    assert main([*argv, "--report", str(out), "--quiet"]) == 0
    import polars as pl

    frame = pl.read_csv(DATA)
    result = wk.agreement(frame.select(TRUE, PRED).to_numpy(), coefficient="fleiss")
    methods = _methods(out.read_text())
    assert f"Agreement among 2 raters ({TRUE}, {PRED})" in methods
    assert f"Fleiss' kappa (Fleiss 1971) on {result.n_items} items" in methods
    assert f"Fleiss' kappa = {result.statistic:.4f}" in methods
    assert "99 resamples, random seed 7" in methods
    page = html.unescape(out.read_text())
    assert REFERENCES["fleiss1971"] in page and REFERENCES["gwet2014"] in page
    assert f"wkappa {' '.join(argv)} --report {out} --quiet" == _command(page)


def test_icc_report_when_every_value_is_undefined(icc_case, tmp_path, monkeypatch):
    folder, argv, _ = icc_case
    monkeypatch.chdir(folder)
    out = tmp_path / "undefined.html"
    assert main([*argv[:4], "--nan-policy", "propagate", "--report", str(out), "--quiet"]) == 0
    page = html.unescape(out.read_text())
    methods = _methods(out.read_text())
    assert "Every ICC is undefined: at least one rating is missing, and the analysis" in methods
    assert "--" not in methods  # a paper's words: no option names
    assert "--nan-policy propagate" in page  # the note beside the table names the option
    assert "sum of squares" not in page  # no table of undefined mean squares


@pytest.mark.slow
def test_a_wide_table_scrolls_inside_the_page(tmp_path):
    """Fifteen categories with long names: the page keeps the window's width (the table
    scrolls in its own box) and prints (the print rule lets it out)."""
    labels = [f"grade_{i:02d}_with_a_long_label" for i in range(15)]
    rows = [f"{labels[i % 15]},{labels[(i * 7) % 15]}" for i in range(300)]
    data = tmp_path / "wide.csv"
    data.write_text("a,b\n" + "\n".join(rows) + "\n")
    out = tmp_path / "wide.html"
    argv = ["score", str(data), "--true", "a", "--pred", "b", "--weights", "unweighted"]
    assert main([*argv, "--report", str(out), "--quiet"]) == 0
    _, dom = _render(out, tmp_path)
    assert 'data-overflow="false"' in dom
    assert "@media print" in out.read_text()


def test_judge_report_methods_sentence(tmp_path, capsys):
    """The LLM-judge report states the candidate, the panel, n items, the coefficient, the
    interval with its resamples and seed, and the numbers of the same run's JSON."""
    pytest.importorskip("polars")
    rng = np.random.default_rng(11)
    truth = rng.integers(0, 3, 60)
    noisy = [np.clip(truth + rng.choice([-1, 0, 0, 1], 60), 0, 2) for _ in range(4)]
    data = tmp_path / "panel.csv"
    lines = ["item,ann1,ann2,ann3,judge"]
    lines += [f"i{i},{a},{b},{c},{d}" for i, (a, b, c, d) in enumerate(zip(*noisy, strict=True))]
    data.write_text("\n".join(lines) + "\n")
    argv = ["judge", str(data), "--raters", "ann1,ann2,ann3", "--candidate", "judge"]
    argv += ["--bootstrap", "199", "--seed", "3"]
    out = tmp_path / "judge.html"
    assert main([*argv, "--format", "json", "--report", str(out), "--quiet"]) == 0
    import json

    document = json.loads(capsys.readouterr().out)
    methods = _methods(out.read_text())
    assert "candidate rater judge was compared with a panel of 3 raters (ann1, ann2, ann3)" in (
        methods
    )
    assert f"on 60 items (file {data})" in methods
    assert "199 resamples, random seed 3" in methods
    ci, d = document["confidence_interval"], document
    assert (
        f"The candidate's mean agreement with the members was {d['candidate_agreement']:.4f} "
        f"and the members' with each other {d['panel_agreement']:.4f}: difference = "
        f"{d['difference']:.4f}, 95% confidence "
        f"interval [{ci['low']:.4f}, {ci['high']:.4f}], p = {d['pvalue']:.3f}."
    ) in methods
    assert REFERENCES["efron1979"] in html.unescape(out.read_text())


@pytest.mark.parametrize("cluster", [None, "site"])
def test_score_text_names_the_bootstrap_and_its_resamples(clustered, cluster, capsys):
    path, _ = clustered
    argv = ["score", str(path), "--true", TRUE, "--pred", PRED, "--bootstrap", "99"]
    argv += ["--seed", "1"] + ([] if cluster is None else ["--cluster", cluster])
    assert main(argv) == 0
    kind = "bootstrap" if cluster is None else "cluster bootstrap"
    assert f"{kind}, percentile, 99 resamples" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["score", "agree"])
def test_an_undefined_kappa_is_said_in_words(command, tmp_path):
    data = tmp_path / "same.csv"
    data.write_text("a,b\n" + "1,1\n" * 12)
    out = tmp_path / "same.html"
    columns = ["--true", "a", "--pred", "b"] if command == "score" else ["--raters", "a,b"]
    assert main([command, str(data), *columns, "--report", str(out), "--quiet"]) == 0
    methods = _methods(out.read_text())
    assert "is undefined on these ratings (no disagreement is expected by chance" in methods
    assert "= undefined" not in methods


def test_plan_report_methods_sentence(tmp_path, capsys):
    out = tmp_path / "plan.html"
    argv = ["plan", "--kappa1", "0.6", "--marginals", "0.3,0.4,0.3", "--format", "json"]
    assert main([*argv, "--report", str(out), "--quiet"]) == 0
    import json

    plan = json.loads(capsys.readouterr().out)
    methods = _methods(out.read_text())
    assert f"a power of 0.8 in the test of kappa = 0 ({plan['alternative']}, alpha 0.05)" in (
        methods
    )
    assert f"n = {plan['n']} items give power {plan['power']:.3f}" in methods
    assert "Fleiss, Cohen and Everitt 1969" in methods
    assert REFERENCES["fleiss1969"] in html.unescape(out.read_text())
    assert f"wkappa {' '.join(argv)} --report {out} --quiet" == _command(out.read_text())


# ------------------------------------------------------- wkappa compare and thresholds --report


@pytest.fixture(scope="module")
def compare_case(tmp_path_factory):
    """Two predictions of the MS data's truth (the New Orleans neurologist), 12 clusters of
    patients; the JSON document and the report of one run with --format json --report."""
    pl = pytest.importorskip("polars")
    folder = tmp_path_factory.mktemp("compare")
    rng = np.random.default_rng(5)
    truth = pl.read_csv(DATA)[TRUE].to_numpy()
    near = np.clip(truth + rng.choice([-1, 0, 0, 0, 1], truth.size), truth.min(), truth.max())
    far = np.clip(truth + rng.choice([-1, 0, 1], truth.size), truth.min(), truth.max())
    frame = pl.DataFrame(
        {"truth": truth, "near": near, "far": far, "site": np.arange(truth.size) % 12}
    )
    frame.write_csv(folder / "two.csv")
    argv = ["compare", "two.csv", "--true", "truth", "--pred", "near", "--pred", "far",
            "--bootstrap", "499", "--seed", "4"]  # fmt: skip
    return folder, argv, frame


def _compare_run(case, *extra: str) -> tuple[dict, str, str]:
    """(JSON document, text output, report page) of one compare run with ``extra``."""
    import json

    folder, argv, _ = case
    out = folder / f"compare{'-'.join(extra)}.html"

    def run(*more: str) -> str:
        proc = subprocess.run(
            [sys.executable, "-m", "wkappa", *argv, *extra, *more, "--quiet"],
            capture_output=True, text=True, timeout=300, cwd=folder,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    document = json.loads(run("--format", "json", "--report", str(out)))
    text = run()
    return document, text, out.read_text()


def test_compare_report_has_the_numbers_of_the_json_and_the_library(compare_case):
    document, text, raw = _compare_run(compare_case)
    page = html.unescape(raw)
    _, argv, frame = compare_case
    direct = wk.paired_kappa_test(
        frame["truth"], frame["near"], frame["far"], n_resamples=499, rng=4
    )
    assert document["statistic_a"] == pytest.approx(direct.statistic_a)
    assert document["pvalue"] == pytest.approx(direct.pvalue)
    ci = document["confidence_interval"]
    a, b, d = (f"{document[k]:.4f}" for k in ("statistic_a", "statistic_b", "difference"))
    interval = f"[{ci['low']:.4f}, {ci['high']:.4f}]"
    # The headline, the table and the methods sentence; the text output has the same digits.
    for value in (a, b, d, interval):
        assert page.count(value) >= 3, value
        assert value in text, value
    methods = _methods(raw)
    assert (
        "Two predictions, near (A) and far (B), were each compared with the truth truth by "
        f"Cohen's weighted kappa with quadratic weights (Cohen 1968) on the same "
        f"{document['n']} items (file two.csv)"
    ) in methods
    assert "each resample draws items with replacement" in methods
    assert "95% confidence interval of the difference is the expanded percentile bootstrap" in (
        methods
    )
    assert "499 resamples, random seed 4" in methods
    assert (
        f"Kappa of A = {a}, of B = {b}: difference = {d}, 95% confidence interval {interval}, "
        in methods
    )
    assert re.search(r", p (= |<= |< )\d\.\d+\.$", methods), methods
    assert _command(page).startswith(f"wkappa {' '.join(argv)} --format json --report")
    assert f"wkappa {wk.__version__} on 20" in page
    for key in ("cohen1968", "efron1979"):
        assert REFERENCES[key] in page
    shown = _page_text(raw)
    assert "file rows: 218 read, all used" in shown and "K = 4 categories: 1, 2, 3, 4" in shown
    assert "truth truth · A near · B far · quadratic weights" in shown


def test_compare_report_is_self_contained(compare_case):
    _, _, page = _compare_run(compare_case)
    assert "<!DOCTYPE html>" in page and page.rstrip().endswith("</html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "<link" not in page and "@import" not in page and "@media print" in page


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_compare_report_one_sided_with_clusters(compare_case, alternative):
    document, text, raw = _compare_run(
        compare_case, "--cluster", "site", "--alternative", alternative
    )
    side, end = ("lower", "low") if alternative == "greater" else ("upper", "high")
    bound = f"{document['confidence_interval'][end]:.4f}"
    page = html.unescape(raw)
    methods = _methods(raw)
    assert f"one-sided 95% {side} bound of A - B" in page  # the headline and the table
    assert f"<td>one-sided 95% {side} bound of A - B</td><td>{bound}</td>" in page
    assert f"one-sided 95% {side} confidence bound {bound}, p" in methods
    assert (
        f"The one-sided 95% {side} confidence bound of the difference is that of the expanded "
        "percentile cluster bootstrap interval"
    ) in methods
    assert "each resample draws whole clusters of site (12 clusters) with replacement" in methods
    assert "499 resamples of the clusters of site, random seed 4" in methods
    assert f"the bootstrap test of equal kappas ({alternative})" in methods
    assert "clusters site (G = 12), resampled whole" in _page_text(raw)
    assert "inf" not in re.sub(r"<[^>]+>", " ", page.split("<body>")[1]).split()
    assert "[" not in methods  # no [low, ∞]
    # The console keeps its [low, high] with the open end.
    assert re.search(r"95% CI of A - B\s+\[(-?\d\.\d{4}, ∞|-∞, -?\d\.\d{4})\]", text)


@pytest.fixture(scope="module")
def thresholds_case(tmp_path_factory):
    """Scores of four grades; the JSON document, the text and the report of one fit."""
    import json

    folder = tmp_path_factory.mktemp("thresholds")
    rng = np.random.default_rng(2)
    grade = rng.integers(0, 4, 1500)
    score = grade + rng.normal(0, 0.6, grade.size)
    (folder / "oof.csv").write_text(
        "grade,score\n" + "".join(f"{g},{s:.5f}\n" for g, s in zip(grade, score, strict=True))
    )
    argv = ["thresholds", "oof.csv", "--true", "grade", "--score", "score", "--weights", "linear"]

    def run(*more: str) -> str:
        proc = subprocess.run(
            [sys.executable, "-m", "wkappa", *argv, *more, "--quiet"],
            capture_output=True, text=True, timeout=300, cwd=folder,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    document = json.loads(run("--format", "json", "--report", "fit.html"))
    text = run()
    return folder, argv, document, text, (folder / "fit.html").read_text(), (grade, score)


def test_thresholds_report_has_the_numbers_of_the_text_and_the_json(thresholds_case):
    _, argv, document, text, raw, (grade, score) = thresholds_case
    page = html.unescape(raw)
    fit = wk.optimize_thresholds(grade, np.round(score, 5), weights="linear")
    assert document["statistic"] == pytest.approx(fit.statistic)
    kappa = f"{document['statistic']:.6f}"
    assert f"kappa with these thresholds: {kappa}" in text
    assert f'<div class="value">{kappa}</div>' in raw
    # Each threshold as the text's table writes it, in the report's table.
    rows = re.findall(r"^  (\d \| \d)\s+(\S+)$", text, flags=re.M)
    assert len(rows) == 3 == len(document["thresholds"])
    for (between, shown), value in zip(rows, document["thresholds"], strict=True):
        assert shown == repr(float(value))
        assert f"<tr><td>{between}</td><td>{shown}</td></tr>" in page
    methods = _methods(raw)
    assert (
        "The 3 cut points that turn the scores score into 4 grades were chosen to maximise "
        "Cohen's weighted kappa with linear weights (Cohen 1968) against grade on 1,500 items "
        "(file oof.csv): Dinkelbach's (1967) method"
    ) in methods
    assert f"proved in exact integer arithmetic; {document['n_iter']} iterations" in methods
    assert "a score equal to a threshold gets the lower grade" in methods
    assert f"Kappa with these thresholds = {kappa} on the items they were fitted on" in methods
    iterations = "iteration" if document["n_iter"] == 1 else "iterations"
    assert f"proven optimal, {document['n_iter']} Dinkelbach {iterations}" in page
    assert "file rows: 1,500 read, all used" in page and "K = 4 grades: 0, 1, 2, 3" in page
    # Higher than to expect, not always higher: held-out kappa can beat the fitted optimum.
    assert "so higher than the kappa to expect on new data" in page
    for key in ("cohen1968", "dinkelbach1967"):
        assert REFERENCES[key] in page
    assert f"wkappa {' '.join(argv)} --format json --report fit.html --quiet" == _command(page)
    # The table of the truth against the grades: its kappa is the one the fit reached.
    graded = np.zeros((4, 4), dtype=np.int64)
    np.add.at(graded, (grade, fit.predict(np.round(score, 5))), 1)
    table = re.search(r"<h3>Observed O</h3>.*?(<table>.*?</table>)", raw, flags=re.S)
    assert table is not None
    rows = re.findall(r"<tr><th>(\d)</th>((?:<td>\d+</td>)+)</tr>", table.group(1))
    shown = np.array([[int(c) for c in re.findall(r"\d+", cells)][:4] for _, cells in rows])
    assert np.array_equal(shown, graded)
    assert f"kappa = 1 - sum(W*O) / sum(W*E) of this table = {kappa}." in page
    assert wk.kappa_from_table(graded, weights="linear") == pytest.approx(fit.statistic, abs=1e-12)
    images = re.findall(r'<img[^>]*src="data:image/png;base64,([^"]+)"', raw)
    assert len(images) == 1 and base64.b64decode(images[0])[:8] == b"\x89PNG\r\n\x1a\n"
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", raw)
    assert "<link" not in raw and "@import" not in raw and "@media print" in raw


@pytest.mark.slow
def test_compare_and_thresholds_reports_render_in_headless_chromium(
    compare_case, thresholds_case, tmp_path
):
    document, _, raw = _compare_run(compare_case)
    page = tmp_path / "compare.html"
    page.write_text(raw)
    _, dom = _render(page, tmp_path / "c")
    assert 'data-loaded-widths=""' in dom  # the page's script ran (no images)
    text = _page_text(dom)
    ci = document["confidence_interval"]
    assert f"KAPPA OF A {document['statistic_a']:.4f}" in text.upper()
    assert f"[{ci['low']:.4f}, {ci['high']:.4f}]" in text and "References" in text

    folder, _, fit, _, _, _ = thresholds_case
    _, dom = _render(folder / "fit.html", tmp_path / "t")
    widths = re.search(r'data-loaded-widths="(\d+)"', dom)  # the one figure, loaded
    assert widths is not None and int(widths.group(1)) > 0, dom[-500:]
    assert 'data-overflow="false"' in dom
    text = _page_text(dom)
    assert f"KAPPA REACHED {fit['statistic']:.6f}" in text.upper()
    assert f"0 | 1 {fit['thresholds'][0]!r}" in text and "Thresholds" in text


@pytest.mark.parametrize(
    "argv",
    [
        ["compare", "r.csv", "--true", "a", "--pred", "b", "--pred", "c", "--bootstrap", "99"],
        ["thresholds", "r.csv", "--true", "a", "--score", "s"],
    ],
    ids=lambda argv: argv[0],
)
def test_a_report_that_cannot_be_written_is_one_line_and_exit_2(argv, tmp_path, monkeypatch):
    from test_cli import run

    monkeypatch.chdir(tmp_path)
    Path("r.csv").write_text(
        "a,b,c,s\n" + "".join(f"{i % 3},{i % 2},{i % 3},{i / 7}\n" for i in range(40))
    )
    proc = run(*argv, "--report", "/proc/nonexistent-dir/report.html")
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "wkappa: error: --report /proc/nonexistent-dir/report.html: cannot write the file: "
    ), lines
    Path("folder.html").mkdir()
    proc = run(*argv, "--report", "folder.html")  # a directory
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert proc.stderr.startswith("wkappa: error: ") and "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "r.csv", "--true", "a", "--pred", "b"],
        ["agree", "r.csv", "--raters", "a,b,c"],
        ["judge", "r.csv", "--candidate", "a", "--raters", "b,c"],
        ["icc", "r.csv", "--raters", "a,b,c"],
        ["plan", "--kappa1", "0.6", "--marginals", "0.5,0.5"],
        ["compare", "r.csv", "--true", "a", "--pred", "b", "--pred", "c"],
        ["thresholds", "r.csv", "--true", "a", "--score", "s"],
    ],
    ids=lambda argv: argv[0],
)
def test_a_report_not_named_html_is_refused_before_anything_runs(argv, tmp_path, monkeypatch):
    """``--report out.png`` wrote an HTML page under a picture's name; the file need not even
    exist: the name is refused first."""
    from test_cli import run

    monkeypatch.chdir(tmp_path)
    for name in ("report.png", "report.pdf", "report", "report.html.txt"):
        proc = run(*argv, "--report", name)
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
        assert lines[0].startswith(f"wkappa {argv[0]}: error: argument --report: "), lines[0]
        assert f"'{name}' is not an .html file name" in lines[0], lines[0]
        assert not Path(name).exists() and proc.stdout == ""
    # .html and .htm in any case are report names (the file is missing: that error instead).
    for name in ("R.HTML", "r.htm"):
        proc = run(*argv, "--report", name)
        assert "is not an .html file name" not in proc.stderr
