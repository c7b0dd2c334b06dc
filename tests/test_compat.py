"""State written by wkappa 0.1.0 (before the package moved into subpackages) still loads:
the accumulator's JSON and pickles of the accumulator and the result objects, each written by
that release and pasted here."""

from __future__ import annotations

import base64
import pickle

import numpy as np

import wkappa as wk

ACCUMULATOR_JSON = [
    {"format": "wkappa.KappaAccumulator", "version": 1, "min_rating": 1, "max_rating": 5,
     "weights": "linear", "dtype": "int64",
     "table": [[1, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 1],
               [0, 0, 0, 1, 1]]},
    {"format": "wkappa.KappaAccumulator", "version": 1, "labels": ["lo", "mid", "hi"],
     "weights": "quadratic", "dtype": "float64",
     "table": [[1.5, 0.0, 0.0], [0.0, 0.5, 0.0], [0.0, 2.0, 0.0]]},
]  # fmt: skip

ACCUMULATOR_PICKLE = (
    "gASVrAEAAAAAAACME3drYXBwYS5fYWNjdW11bGF0b3KUjBBLYXBwYUFjY3VtdWxhdG9ylJOUKYGUjAhidWlsdGlu"
    "c5SMBXJhbmdllJOUSwFLBksBh5RSlIwGbGluZWFylIwWbnVtcHkuX2NvcmUubXVsdGlhcnJheZSMDF9yZWNvbnN0"
    "cnVjdJSTlIwFbnVtcHmUjAduZGFycmF5lJOUSwCFlEMBYpSHlFKUKEsBSwVLBYaUaA2MBWR0eXBllJOUjAJpOJSJ"
    "iIeUUpQoSwOMATyUTk5OSv////9K/////0sAdJRiiUPIAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAAQAAAAAAAACUdJRih5RiLg=="
)
KAPPA_RESULT_PICKLE = (
    "gASVWAIAAAAAAACMD3drYXBwYS5fcmVzdWx0c5SMC0thcHBhUmVzdWx0lJOUKYGUfZQojAlzdGF0aXN0aWOURz/p"
    "mZmZmZmajA5zdGFuZGFyZF9lcnJvcpRHP8k/20irCI6ME3N0YW5kYXJkX2Vycm9yX251bGyURz/bF62mLMO8jAZ6"
    "c2NvcmWURz/+PLZgUfXfjAZwdmFsdWWURz+uGKNFpc/bjAFulEsFjAthbHRlcm5hdGl2ZZSMCXR3by1zaWRlZJSM"
    "BmxhYmVsc5RLAEsBSwKHlIwHd2VpZ2h0c5SMCXF1YWRyYXRpY5SMDXdlaWdodF9tYXRyaXiUjBZudW1weS5fY29y"
    "ZS5tdWx0aWFycmF5lIwMX3JlY29uc3RydWN0lJOUjAVudW1weZSMB25kYXJyYXmUk5RLAIWUQwFilIeUUpQoSwFL"
    "A0sDhpRoFYwFZHR5cGWUk5SMAmY4lImIh5RSlChLA4wBPJROTk5K/////0r/////SwB0lGKJQ0gAAAAAAAAAAAAA"
    "AAAAANA/AAAAAAAA8D8AAAAAAADQPwAAAAAAAAAAAAAAAAAA0D8AAAAAAADwPwAAAAAAANA/AAAAAAAAAACUdJRi"
    "jAV0YWJsZZRoFGgXSwCFlGgZh5RSlChLAUsDSwOGlGgejAJpOJSJiIeUUpQoSwNoIk5OTkr/////Sv////9LAHSU"
    "YolDSAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAAAAAA"
    "AAABAAAAAAAAAJR0lGJ1Yi4="
)
THRESHOLD_RESULT_PICKLE = (
    "gASVJwEAAAAAAACMEndrYXBwYS5fdGhyZXNob2xkc5SMD1RocmVzaG9sZFJlc3VsdJSTlCmBlH2UKIwKdGhyZXNo"
    "b2xkc5SMFm51bXB5Ll9jb3JlLm11bHRpYXJyYXmUjAxfcmVjb25zdHJ1Y3SUk5SMBW51bXB5lIwHbmRhcnJheZST"
    "lEsAhZRDAWKUh5RSlChLAUsChZRoCYwFZHR5cGWUk5SMAmY4lImIh5RSlChLA4wBPJROTk5K/////0r/////SwB0"
    "lGKJQxAAAAAAAADgP8zMzMzMzPg/lHSUYowJc3RhdGlzdGljlEc/8AAAAAAAAIwGbGFiZWxzlEsASwFLAoeUjAZu"
    "X2l0ZXKUSwCMB3dlaWdodHOUjAlxdWFkcmF0aWOUjAVleGFjdJSIdWIu"
)


def _load(text: str) -> object:
    return pickle.loads(base64.b64decode(text))


def test_accumulator_json_of_the_first_release_loads() -> None:
    linear = wk.KappaAccumulator.from_dict(ACCUMULATOR_JSON[0])
    assert linear.value == 0.6896551724137931
    assert linear.value == wk.weighted_kappa(
        [1, 2, 3, 5, 5, 4], [1, 3, 3, 4, 5, 5], weights="linear"
    )
    weighted = wk.KappaAccumulator.from_dict(ACCUMULATOR_JSON[1])
    assert weighted.value == 0.627906976744186
    assert weighted.to_dict() == ACCUMULATOR_JSON[1]


def test_pickles_of_the_first_release_load() -> None:
    accumulator = _load(ACCUMULATOR_PICKLE)
    assert isinstance(accumulator, wk.KappaAccumulator)
    assert accumulator.value == 0.6896551724137931
    result = _load(KAPPA_RESULT_PICKLE)
    assert isinstance(result, wk.KappaResult)
    assert result.statistic == 0.8
    assert result.statistic == wk.kappa_test([0, 1, 2, 2, 1], [0, 1, 2, 1, 1]).statistic
    thresholds = _load(THRESHOLD_RESULT_PICKLE)
    assert isinstance(thresholds, wk.ThresholdResult)
    np.testing.assert_array_equal(thresholds.thresholds, [0.5, 1.5499999999999998])  # as pickled
