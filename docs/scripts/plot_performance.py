"""Draw the performance page's figures from the benchmarks' saved results in BENCHMARKS.md.

Nothing here is typed by hand: the numbers are parsed from the tables and printouts that
``benchmarks/bench_qwk.py``, ``bench_bootstrap.py`` and ``bench_thresholds.py`` produced and
that BENCHMARKS.md records with their command. Writes PNG files to ``docs/_generated/``. Run
by ``docs/conf.py`` at every build (about a second).
"""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "_generated"
PEERS = {  # column of the table: (label, colour)
    "sklearn x": ("scikit-learn cohen_kappa_score", "tab:blue"),
    "torchmetrics x": ("torchmetrics cohen_kappa", "tab:orange"),
    "afajohn x": ("numpy function (Kaggle kernel)", "tab:green"),
    "qwk3 x": ("numba function (Kaggle kernel)", "tab:red"),
    "bincount x": ("np.bincount reference", "tab:purple"),
    "floor x": ("reading both arrays (a.sum() + b.sum())", "tab:gray"),
}


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    following = re.search(r"^## ", text[start + len(heading) :], flags=re.M)
    return text[start : start + len(heading) + following.start()] if following else text[start:]


def _first_table(section: str, first_column: str) -> list[dict[str, str]]:
    lines = section.splitlines()
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first_column:
            rows = []
            for body in lines[i + 2 :]:
                if not body.startswith("|"):
                    break
                values = [c.strip() for c in body.strip().strip("|").split("|")]
                rows.append(dict(zip(cells, values, strict=True)))
            return rows
    raise ValueError(f"no table starting with column {first_column!r}")


def qwk_against_n(text: str) -> Path:
    rows = _first_table(_section(text, "## QWK and table kernels"), "n")
    fig, axes = plt.subplots(2, 1, figsize=(7.5, 9), sharex=True)
    for ax, weights in zip(axes, ("quadratic", "linear"), strict=True):
        chosen = [r for r in rows if r["K"] == "5" and r["dtype"] == "int64"]
        chosen = [r for r in chosen if r["weights"] == weights]
        n = [float(r["n"]) for r in chosen]
        wk_ms = [float(r["wkappa ms"]) for r in chosen]
        ax.loglog(n, wk_ms, "o-", linewidth=2.5, color="black", label="wkappa", zorder=5)
        for column, (name, color) in PEERS.items():
            points = [
                (x, ms * float(r[column]))
                for x, ms, r in zip(n, wk_ms, chosen, strict=True)
                if r[column] not in ("-", "")
            ]
            if points:
                xs, ys = zip(*points, strict=True)
                style = ":" if column == "floor x" else "--"
                ax.loglog(xs, ys, style, marker=".", color=color, label=name)
        ax.set_title(f"{weights} weights, K = 5, int64 ratings")
        ax.set_ylabel("time per call (ms, median)")
        ax.grid(True, which="both", alpha=0.3)
    axes[1].set_xlabel("pairs n")
    axes[0].legend(fontsize=8, loc="upper left")
    fig.suptitle("Time against n, all timed in one run\n(benchmarks/bench_qwk.py)")
    fig.tight_layout()
    path = OUT / "perf_qwk_vs_n.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def thresholds_speedup(text: str) -> Path:
    rows = _first_table(_section(text, "## Thresholds"), "n")
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for classes, marker in (("balanced", "o"), ("skewed", "s")):
        for k, color in (("5", "tab:blue"), ("10", "tab:orange")):
            pick = [r for r in rows if r["classes"] == classes and r["K"] == k]
            n = [float(r["n"]) for r in pick]
            speedup = [float(r["speed-up"].rstrip("x").replace(",", "")) for r in pick]
            ax.loglog(n, speedup, marker, color=color, label=f"K = {k}, {classes}", alpha=0.8)
    ax.set_xlabel("predictions n")
    ax.set_ylabel("OptimizedRounder time / wkappa time")
    ax.set_title("Exact thresholds against OptimizedRounder\n(benchmarks/bench_thresholds.py)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = OUT / "perf_thresholds_speedup.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def bootstrap_speedup(text: str) -> Path:
    section = _section(text, "## Bootstrap and paired tests")
    timings = {
        name.strip(): float(seconds)
        for name, seconds in re.findall(
            r"^(table bootstrap, percentile|table bootstrap, BCa|pairs \+ sklearn \(scaled\)"
            r"|pairs \+ wkappa\.qwk \(scaled\))\s+([\d.]+)",
            section,
            flags=re.M,
        )
    }
    against_n = re.search(r"Cost against n.*?\n(.*?)\n\n", section, flags=re.S)
    assert against_n is not None, "bench_bootstrap's cost-against-n block is missing"
    pairs = re.findall(r"^\s+([\d,]+)\s+([\d.]+)$", against_n.group(1), flags=re.M)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    names = list(timings)
    left.barh(names, [timings[k] for k in names], color="tab:blue")
    left.set_xscale("log")
    left.set_xlabel("seconds for 9,999 replicates (K = 5, n = 1e6)")
    left.set_title("Table bootstrap against resampling pairs")
    left.grid(True, axis="x", which="both", alpha=0.3)
    n = [float(a.replace(",", "")) for a, _ in pairs]
    seconds = [float(b) for _, b in pairs]
    right.semilogx(n, seconds, "o-", color="black")
    right.set_ylim(0, max(seconds) * 1.5)
    right.set_xlabel("pairs n")
    right.set_ylabel("seconds (9,999 replicates)")
    right.set_title("The table bootstrap does not grow with n")
    right.grid(True, which="both", alpha=0.3)
    fig.suptitle("benchmarks/bench_bootstrap.py")
    fig.tight_layout()
    path = OUT / "perf_bootstrap.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main() -> None:
    OUT.mkdir(exist_ok=True)
    text = (ROOT / "BENCHMARKS.md").read_text()
    for draw in (qwk_against_n, thresholds_speedup, bootstrap_speedup):
        draw(text)


if __name__ == "__main__":
    main()
