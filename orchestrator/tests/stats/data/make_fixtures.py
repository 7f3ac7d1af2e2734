#!/usr/bin/python3
"""Reference values for rlab's statistics tests, computed independently with SciPy.

Run with Debian's python3-scipy (1.10):  /usr/bin/python3 make_fixtures.py > fixtures.json
The tests read fixtures.json only; SciPy is not needed to build or test rlab.
Inputs are drawn from a fixed numpy seed so the file is reproducible.
"""
import itertools
import json
import math
import sys
import warnings

import numpy as np
import scipy
from scipy import special, stats

rng = np.random.RandomState(20261130)


def lpm(n, level=145.0, rsd=0.11, decimals=None):
    """n loops-per-minute samples around `level` with relative stddev `rsd`."""
    x = rng.normal(level, level * rsd, n)
    return [round(float(v), decimals) if decimals is not None else float(v) for v in x]


def has_ties(a, b):
    pooled = list(a) + list(b)
    return len(set(pooled)) != len(pooled)


samples = []  # (a, b) pairs used by every two-sample test
for na, nb, shift in [(3, 3, 0.0), (4, 6, 0.2), (5, 5, 0.3), (5, 5, 0.0), (6, 9, -0.15),
                      (8, 8, 0.1), (10, 10, 0.25), (10, 10, 0.0), (7, 13, 0.12),
                      (20, 20, -0.08), (15, 25, 0.05), (30, 30, 0.1), (40, 40, 0.0),
                      (50, 50, 0.05), (12, 80, -0.06)]:
    samples.append((lpm(na), lpm(nb, level=145.0 * (1 + shift))))
# Tied samples (integer loop counts), where the tie correction matters.
for na, nb, shift in [(6, 6, 0.0), (10, 12, 0.1), (20, 20, 0.05), (40, 60, -0.03)]:
    samples.append((lpm(na, rsd=0.03, decimals=0), lpm(nb, level=145 * (1 + shift), rsd=0.03, decimals=0)))
# Hand-made corner cases: total separation, all tied, interleaved, heavy ties.
samples += [([1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]),
            ([5.0, 5.0, 5.0], [5.0, 5.0]),
            ([1.0, 3.0, 5.0, 7.0, 9.0], [2.0, 4.0, 6.0, 8.0, 10.0]),
            ([1.0, 1.0, 2.0, 2.0, 3.0], [2.0, 3.0, 3.0, 4.0, 4.0, 4.0])]

descriptive = []
for x in [lpm(1), lpm(2), lpm(5), lpm(10), lpm(11, decimals=0), lpm(80), [3.0, 1.0, 2.0],
          [1e9 + 1, 1e9 + 2, 1e9 + 3, 1e9 + 4]]:
    arr = np.array(x)
    d = {"x": x, "median": float(np.median(arr)), "mean": float(np.mean(arr))}
    if len(x) >= 2:
        d["stddev"] = float(np.std(arr, ddof=1))
        d["relative_stddev"] = float(np.std(arr, ddof=1) / abs(np.mean(arr)))
    descriptive.append(d)

mann_whitney = []
for a, b in samples:
    methods = ["asymptotic"] if has_ties(a, b) else ["asymptotic", "exact"]
    if not has_ties(a, b) and len(a) * len(b) > 10000:
        methods = ["asymptotic"]
    for m in methods:
        r = stats.mannwhitneyu(a, b, alternative="two-sided", method=m, use_continuity=True)
        mann_whitney.append({"a": a, "b": b, "method": m, "u_a": float(r.statistic),
                             "p": float(r.pvalue)})

# Exact null distribution of U by brute-force enumeration of all arrangements.
mwu_exact_sf = []
for m, n in [(1, 1), (2, 3), (3, 4), (4, 4), (5, 6), (3, 9)]:
    counts = {}
    for pos in itertools.combinations(range(m + n), m):  # ranks (0-based) of the a values
        u = sum(pos) - m * (m - 1) // 2
        counts[u] = counts.get(u, 0) + 1
    total = math.comb(m + n, m)
    for u in range(m * n + 2):
        mwu_exact_sf.append({"m": m, "n": n, "u": u,
                             "sf": sum(c for k, c in counts.items() if k >= u) / total})

kolmogorov_smirnov = []
for a, b in samples:
    e = len(a) * len(b) / (len(a) + len(b))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exact = stats.ks_2samp(a, b, alternative="two-sided", method="exact")
    # SciPy falls back to the asymptotic p when its exact recursion fails: omit those.
    p_exact = None if caught else float(exact.pvalue)
    d = float(exact.statistic)
    lam = (math.sqrt(e) + 0.12 + 0.11 / math.sqrt(e)) * d
    kolmogorov_smirnov.append({"a": a, "b": b, "d": d, "p_exact": p_exact,
                               "p_asymptotic": float(special.kolmogorov(lam))})

normal_sf = [{"z": z, "sf": float(stats.norm.sf(z))}
             for z in [-3.0, -1.0, 0.0, 0.5, 1.959963984540054, 2.5758293035489, 4.0, 8.0]]
kolmogorov_sf = [{"lambda": x, "sf": float(special.kolmogorov(x))}
                 for x in [0.0, 0.2, 0.5, 0.8, 1.0, 1.17, 1.19, 1.358, 1.63, 2.0, 3.0]]

json.dump({"generator": "make_fixtures.py", "scipy": scipy.__version__, "numpy": np.__version__,
           "descriptive": descriptive, "mann_whitney": mann_whitney,
           "mann_whitney_exact_sf": mwu_exact_sf, "kolmogorov_smirnov": kolmogorov_smirnov,
           "normal_sf": normal_sf, "kolmogorov_sf": kolmogorov_sf},
          sys.stdout, indent=1)
sys.stdout.write("\n")
