"""stats.py: the statistics of the fuzzing benchmark (bench/fuzz/bench.py),
standard library only (no scipy).

Times to trigger are censored at the budget: a trial that did not trigger
the bug counts as `budget` seconds (ties at the budget), as the
fuzz-evaluation guidelines (Klees et al. 2018) and FuzzBench do.

    mann_whitney_u(x, y) -> (U, p)   U of x (pairs with x > y, ties 1/2),
                                     two-sided p: exact permutation
                                     distribution of U over all splits of
                                     the pooled values (ties included) when
                                     C(n1+n2, n1) <= EXACT_LIMIT, else the
                                     normal approximation with tie
                                     correction and continuity correction.
    a12(x, y) -> float               Vargha-Delaney A12: P(X > Y) + P(X = Y)/2.
    median(v) -> float               the usual median.
"""
import itertools
import math

EXACT_LIMIT = 200000


def _u(x, y):
    u = 0.0
    for a in x:
        for b in y:
            if a > b:
                u += 1.0
            elif a == b:
                u += 0.5
    return u


def a12(x, y):
    """Vargha-Delaney A12 of x over y: probability that a value of x is larger
    than one of y (ties count half).  0.5: no difference."""
    if not x or not y:
        return float("nan")
    return _u(x, y) / (len(x) * len(y))


def median(v):
    s = sorted(v)
    n = len(s)
    if n == 0:
        return float("nan")
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def _normal_sf(z):
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def mann_whitney_u(x, y):
    """Two-sided Mann-Whitney U test; returns (U of x, p)."""
    n1, n2 = len(x), len(y)
    if n1 == 0 or n2 == 0:
        return float("nan"), float("nan")
    u_obs = _u(x, y)
    mean = n1 * n2 / 2.0
    dev_obs = abs(u_obs - mean)
    pooled = list(x) + list(y)
    n = n1 + n2
    if math.comb(n, n1) <= EXACT_LIMIT:
        # U from ranks: U = R1 - n1(n1+1)/2 with mid-ranks for ties
        order = sorted(range(n), key=lambda i: pooled[i])
        ranks = [0.0] * n
        i = 0
        while i < n:
            j = i
            while j + 1 < n and pooled[order[j + 1]] == pooled[order[i]]:
                j += 1
            r = (i + j) / 2.0 + 1.0
            for k in range(i, j + 1):
                ranks[order[k]] = r
            i = j + 1
        base = n1 * (n1 + 1) / 2.0
        hits = total = 0
        eps = 1e-9
        for comb in itertools.combinations(range(n), n1):
            u = sum(ranks[i] for i in comb) - base
            total += 1
            if abs(u - mean) >= dev_obs - eps:
                hits += 1
        return u_obs, hits / total
    # normal approximation, tie-corrected variance
    counts = {}
    for v in pooled:
        counts[v] = counts.get(v, 0) + 1
    tie = sum(t ** 3 - t for t in counts.values())
    var = n1 * n2 / 12.0 * ((n + 1) - tie / (n * (n - 1)))
    if var <= 0:
        return u_obs, 1.0
    z = (dev_obs - 0.5) / math.sqrt(var)
    return u_obs, min(1.0, 2.0 * _normal_sf(max(z, 0.0)))


if __name__ == "__main__":
    # self-check (ctest test_bug_stats): values worked by hand / from tables
    # identical samples: p = 1, A12 = 0.5
    u, p = mann_whitney_u([1, 2, 3], [1, 2, 3])
    assert u == 4.5 and abs(p - 1.0) < 1e-12, (u, p)
    assert a12([1, 2, 3], [1, 2, 3]) == 0.5
    # complete separation, n = 3 + 3: exact two-sided p = 2 / C(6, 3) = 0.1
    u, p = mann_whitney_u([4, 5, 6], [1, 2, 3])
    assert u == 9.0 and abs(p - 0.1) < 1e-12, (u, p)
    assert a12([4, 5, 6], [1, 2, 3]) == 1.0 and a12([1, 2, 3], [4, 5, 6]) == 0.0
    # complete separation, n = 5 + 5: p = 2 / 252
    u, p = mann_whitney_u([6, 7, 8, 9, 10], [1, 2, 3, 4, 5])
    assert abs(p - 2.0 / 252.0) < 1e-12, p
    # censored ties: 10 trials at the budget vs 10 found early: p = 2 / C(20, 10)
    u, p = mann_whitney_u([120.0] * 10, [float(i) for i in range(1, 11)])
    assert abs(p - 2.0 / 184756.0) < 1e-12, p
    # all values tied: p = 1
    u, p = mann_whitney_u([120.0] * 10, [120.0] * 10)
    assert abs(p - 1.0) < 1e-12, p
    # n = 5 + 4 without ties: U = 17 of 20; P(U >= 17) = P(U_y <= 3) = (1+1+2+3)/C(9, 4)
    # (partitions of 0..3 into at most 4 parts of at most 5), two-sided 14/126
    u, p = mann_whitney_u([19, 22, 16, 29, 24], [20, 11, 17, 12])
    assert u == 17.0 and abs(p - 14.0 / 126.0) < 1e-9, (u, p)
    # large samples use the normal approximation: a shift of one sd, n = 30 + 30
    xs = [float(i) for i in range(30)]
    ys = [float(i) + 30 for i in range(30)]
    u, p = mann_whitney_u(xs, ys)
    assert u == 0.0 and p < 1e-9, p
    assert median([3, 1, 2]) == 2 and median([4, 1, 2, 3]) == 2.5
    print("stats.py: self-check passed")
