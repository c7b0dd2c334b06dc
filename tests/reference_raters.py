"""Exact (fractions.Fraction) reference for the several-raters coefficients.

Written item by item from the defining formulas (Gwet 2014, Handbook of Inter-Rater
Reliability, 4th ed.; irrCAC's R functions), with no shared code with wkappa: ratings are a
list of rows of category indices ``0..K-1`` or None, W a list of lists of Fractions.
Returns the coefficient, pa, pe and Gwet's variance (before the square root), exactly.
"""

from __future__ import annotations

from fractions import Fraction as F


def named_weights(name: str, k: int) -> list[list[F]]:
    scale = max(k - 1, 1)
    out = []
    for i in range(k):
        row = []
        for j in range(k):
            if name == "quadratic":
                row.append(F((i - j) ** 2, scale**2))
            elif name == "linear":
                row.append(F(abs(i - j), scale))
            else:
                row.append(F(int(i != j)))
        out.append(row)
    return out


def _counts(ratings: list[list[int | None]], k: int) -> list[list[int]]:
    return [[sum(1 for x in row if x == c) for c in range(k)] for row in ratings]


def reference(
    ratings: list[list[int | None]],
    k: int,
    weights: list[list[F]],
    coefficient: str,
    population: int | None = None,
) -> tuple[F | None, F, F, F | None]:
    """(coefficient or None if undefined, pa, pe, variance or None)."""
    ratings = [row for row in ratings if any(x is not None for x in row)]
    agree = [[1 - weights[a][b] for b in range(k)] for a in range(k)]
    counts = _counts(ratings, k)
    n = len(ratings)
    n_raters = len(ratings[0])
    r = [sum(c) for c in counts]
    f = F(0) if population is None else F(n, population)

    def sum_q(c: list[int]) -> F:
        return sum((c[a] * (sum(agree[a][b] * c[b] for b in range(k)) - 1) for a in range(k)), F(0))

    if coefficient == "krippendorff":
        keep = [i for i in range(n) if r[i] >= 2]
        m = len(keep)
        rbar = F(sum(r[i] for i in keep), m)
        total = sum(r[i] for i in keep)
        eps = F(1, total)
        pa_prime = sum((sum_q(counts[i]) / (rbar * (r[i] - 1)) for i in keep), F(0)) / m
        pa = (1 - eps) * pa_prime + eps
        pi = [sum((F(counts[i][c]) / rbar for i in keep), F(0)) / m for c in range(k)]
        pe = sum(agree[a][b] * pi[a] * pi[b] for a in range(k) for b in range(k))
        if pe == 1:
            return None, pa, pe, None
        alpha = (pa - pe) / (1 - pe)
        alpha_prime = (pa_prime - pe) / (1 - pe)
        pi_w = [sum((agree[a][b] + agree[b][a]) / 2 * pi[b] for b in range(k)) for a in range(k)]
        terms = []
        for i in keep:
            pa_i = sum_q(counts[i]) / (rbar * (r[i] - 1)) - pa_prime * (r[i] - rbar) / rbar
            kr = (pa_i - pe) / (1 - pe)
            pe_i = sum(counts[i][a] * pi_w[a] for a in range(k)) / rbar - pe * (r[i] - rbar) / rbar
            terms.append(kr - 2 * (1 - alpha_prime) * (pe_i - pe) / (1 - pe))
        variance = None
        if m >= 2:
            variance = (1 - f) / (m * (m - 1)) * sum((t - alpha_prime) ** 2 for t in terms)
        return alpha, pa, pe, variance

    two = [i for i in range(n) if r[i] >= 2]
    n2 = len(two)
    pa = sum((sum_q(counts[i]) / (r[i] * (r[i] - 1)) for i in two), F(0)) / n2
    pi = [sum((F(counts[i][c], r[i]) for i in range(n)), F(0)) / n for c in range(k)]
    sum_a = sum(agree[a][b] for a in range(k) for b in range(k))
    if coefficient == "percent":
        pe = F(0)
    elif coefficient == "fleiss":
        pe = sum(agree[a][b] * pi[a] * pi[b] for a in range(k) for b in range(k))
    elif coefficient == "gwet":
        pe = sum_a / (k * (k - 1)) * sum(p * (1 - p) for p in pi) if k >= 2 else F(1)
    elif coefficient == "brennan_prediger":
        pe = sum_a / (k * k)
    elif coefficient == "conger":
        n_g = [sum(1 for row in ratings if row[g] is not None) for g in range(n_raters)]
        p = [
            [F(sum(1 for row in ratings if row[g] == c), n_g[g]) for c in range(k)]
            for g in range(n_raters)
        ]
        mean = [sum(p[g][c] for g in range(n_raters)) / n_raters for c in range(k)]
        s2 = [
            [
                (sum(p[g][a] * p[g][b] for g in range(n_raters)) - n_raters * mean[a] * mean[b])
                / (n_raters - 1)
                for b in range(k)
            ]
            for a in range(k)
        ]
        pe = sum(
            agree[a][b] * (mean[a] * mean[b] - s2[a][b] / n_raters)
            for a in range(k)
            for b in range(k)
        )
    else:
        raise ValueError(coefficient)
    if pe == 1:
        return None, pa, pe, None
    coef = (pa - pe) / (1 - pe)
    terms = []
    for i in range(n):
        pa_i = sum_q(counts[i]) / (r[i] * (r[i] - 1)) if r[i] >= 2 else F(0)
        if coefficient == "percent":
            terms.append(F(n, n2) * pa_i)
            continue
        base = F(n, n2) * (pa_i - (pe if r[i] >= 2 else 0)) / (1 - pe)
        if coefficient == "brennan_prediger":
            terms.append(base)
            continue
        if coefficient == "fleiss":
            pi_w = [
                sum((agree[a][b] + agree[b][a]) / 2 * pi[b] for b in range(k)) for a in range(k)
            ]
            pe_i = sum(counts[i][a] * pi_w[a] for a in range(k)) / r[i]
        elif coefficient == "gwet":
            pe_i = sum_a / (k * (k - 1)) * sum(counts[i][a] * (1 - pi[a]) for a in range(k)) / r[i]
        else:  # conger: Gwet's lambda terms (irrCAC conger.kappa.raw)
            lam = F(0)
            for g in range(n_raters):
                eps = 1 if ratings[i][g] is not None else 0
                inner = F(0)
                for a in range(k):
                    acc = F(0)
                    for b in range(k):
                        delta = 1 if ratings[i][g] == b else 0
                        acc += agree[a][b] * (delta - (eps - F(n_g[g], n)) * p[g][b])
                    inner += acc * F(n, n_g[g]) * (n_raters * mean[a] - p[g][a])
                lam += inner
            pe_i = lam / (n_raters * (n_raters - 1))
        terms.append(base - 2 * (1 - coef) * (pe_i - pe) / (1 - pe))
    variance = None
    if n >= 2:
        variance = (1 - f) / (n * (n - 1)) * sum((t - coef) ** 2 for t in terms)
    return coef, pa, pe, variance
