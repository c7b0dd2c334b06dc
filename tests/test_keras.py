"""wkappa.keras on every Keras backend: TFA's values, real training runs, gradients, strictness.

Keras reads ``KERAS_BACKEND`` once per process, so each backend runs
``tests/keras_backend_checks.py`` in its own subprocess (once per session; every test below
reads its results). The TensorFlow backend runs where ``tensorflow`` is installed (the
``test`` extra installs tensorflow-cpu on x86-64 Linux); elsewhere those tests skip.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

import wkappa as wk
from wkappa.torch import WeightedKappaLoss as TorchKappaLoss

pytestmark = pytest.mark.integration  # real Keras training runs in subprocesses

CHECKS = Path(__file__).with_name("keras_backend_checks.py")
BACKENDS = ["jax", "torch", "tensorflow"]
_RESULTS: dict[str, dict[str, Any]] = {}

# TensorFlow Addons' documented values: the CohenKappa docstring (0.61904764, weighted
# 0.37209308), tensorflow_addons/metrics/tests/cohens_kappa_test.py (checked there with
# atol 1e-5) and the WeightedKappaLoss docstring (-1.1611923).
TFA_VALUES = {
    "random/None": 0.61904761,
    "random/linear": 0.62790697,
    "random/quadratic": 0.68932038,
    "perfect/None": 1.0,
    "perfect/linear": 1.0,
    "perfect/quadratic": 1.0,
    "worse/None": -0.3333333,
    "worse/linear": -0.52380952,
    "worse/quadratic": -0.72727272,
    "weighted/None": -0.25473321,
    "weighted/linear": -0.38992332,
    "weighted/quadratic": -0.60695344,
    "docstring_weighted": 0.37209308,
    "large": 0.166666666,
    "sparse": 0.19999999,
    "one_hot": 0.19999999,
    "loss": -1.1611923,
}


def _run_checks(backend: str) -> dict[str, Any]:
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {
        **os.environ,
        "KERAS_BACKEND": backend,
        "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]),
        "TF_CPP_MIN_LOG_LEVEL": "2",
    }
    done = subprocess.run(
        [sys.executable, str(CHECKS)], capture_output=True, text=True, env=env, timeout=1500
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert results["backend"] == backend
    return results


def _results(backend: str, shared: Path | None) -> dict[str, Any]:
    """The checks of one backend, run once per session (once for all xdist workers)."""
    if importlib.util.find_spec(backend) is None:
        pytest.skip(f"the {backend} backend is not installed here")
    if backend not in _RESULTS:
        if shared is None:
            _RESULTS[backend] = _run_checks(backend)
        else:  # under xdist: the first worker runs the checks, the others read its file
            from filelock import FileLock

            cache = shared / f"keras-checks-{backend}.json"
            with FileLock(str(cache) + ".lock"):
                if not cache.exists():
                    cache.write_text(json.dumps(_run_checks(backend)))
                _RESULTS[backend] = json.loads(cache.read_text())
    return _RESULTS[backend]


@pytest.fixture(scope="session")
def _shared_dir(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return None
    return tmp_path_factory.getbasetemp().parent  # the session's directory, above the workers'


@pytest.fixture
def results(backend: str, _shared_dir: Path | None) -> dict[str, Any]:
    return _results(backend, _shared_dir)


def _check(results: dict[str, Any], name: str) -> Any:
    result = results[name]
    assert not (isinstance(result, dict) and "error" in result), result.get("error")
    return result


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.timeout(1800)
def test_tfa_documented_values(backend: str, results: dict[str, Any]) -> None:
    values = _check(results, "tfa_values")
    assert set(values) == set(TFA_VALUES)
    for key, expected in TFA_VALUES.items():
        assert values[key] == pytest.approx(expected, abs=1e-6), key


@pytest.mark.timeout(1800)
def test_fit_validation_value_is_wk_qwk_of_the_predictions(
    backend: str, results: dict[str, Any]
) -> None:
    result = _check(results, "fit_metric")
    # The epoch's validation value is the exact kappa of the model's own predictions,
    # rounded once to float32 (the metric's dtype): 5 validation batches, with and
    # without sample_weight (weighted_metrics get the weights, metrics do not).
    assert result["val_qwk"][-1] == np.float32(result["wk_qwk"])
    assert result["val_wlk"][-1] == np.float32(result["wk_wlk"])
    assert result["evaluate_qwk"] == np.float32(result["wk_qwk"])
    assert result["evaluate_wlk"] == np.float32(result["wk_wlk"])
    assert result["wk_wlk"] != pytest.approx(result["wk_wlk_unweighted"], abs=1e-3)
    assert len(set(result["val_qwk"])) == 3  # the values move as the model trains


@pytest.mark.timeout(1800)
def test_out_of_range_label_raises_even_under_jit(backend: str, results: dict[str, Any]) -> None:
    result = _check(results, "strict_labels")
    assert result["error_type"] == "WkappaError", result
    assert "`y_true` must hold class indices in 0..4" in result["message"]
    assert "1 row(s)" in result["message"] and "not counted" in result["message"]
    # Compiled steps (jax, tensorflow) cannot raise: the batches from the bad one on show
    # NaN, and the end of evaluate raises. Eager torch raises at the bad batch.
    if backend == "torch":  # eager: the second batch (rows 40-79) raises at once
        assert len(result["per_batch"]) == 1 and not np.isnan(result["per_batch"][0])
        assert "(row 30: 7)" in result["message"]  # row 70 is row 30 of that batch
    else:
        assert len(result["per_batch"]) == 3  # batches of 40: the bad row is in the second
        assert not np.isnan(result["per_batch"][0])
        assert all(np.isnan(v) for v in result["per_batch"][1:])


@pytest.mark.timeout(1800)
def test_labels_numbered_from_one_in_fit_get_the_fix(backend: str, results: dict[str, Any]) -> None:
    """The fix is in the message whether the step is compiled (jax, tensorflow: the rows
    holding 5 are counted) or eager (torch: the row is shown), for an (N, 1) column."""
    message = _check(results, "one_based_fit")["message"]
    assert message is not None and "`y_true` must hold class indices in 0..4" in message
    assert "for labels 1..5, pass labels - 1" in message, message
    assert "model.fit(x, y - 1, validation_data=(x_val, y_val - 1)" in message, message
    if backend == "torch":
        assert ": [5.0])" in message, message  # the (N, 1) row as it came
    else:
        assert re.search(r"(\d+) row\(s\) do not \(\1 of them hold 5\)", message), message


@pytest.mark.timeout(1800)
def test_a_regression_head_without_regression_true_gets_the_fix(
    backend: str, results: dict[str, Any]
) -> None:
    message = _check(results, "regression_head_fit")["message"]
    assert message is not None and message.startswith("`y_pred` must hold scores"), message
    assert "Hint: regression=True rounds one score per row" in message, message


@pytest.mark.timeout(1800)
def test_fractional_class_weight_names_class_weight(backend: str, results: dict[str, Any]) -> None:
    message = _check(results, "class_weight_fit")["message"]
    assert message is not None and message.startswith("`sample_weight` must hold"), message
    assert "class_weight= reaches weighted_metrics as sample_weight" in message, message


def test_reading_the_counts_does_not_warn_under_numpy_2(
    backend: str, results: dict[str, Any]
) -> None:
    if backend == "torch":
        pytest.skip("torch.Tensor.__array__ itself lacks NumPy 2's copy keyword")
    result = _check(results, "numpy2_reads")
    assert result.get("warning") is None, result
    assert result["total"] == 4 and result["saved"] == ["rejected", "table"]
    expected = wk.qwk([0, 1, 2, 4], [0, 1, 3, 4], labels=range(5))
    assert result["value"] == np.float32(expected)


def test_labels_beyond_int32_are_refused_not_wrapped(backend: str, results: dict[str, Any]) -> None:
    result = _check(results, "wide_labels")
    for name in ("metric", "loss"):
        assert result[name].get("error_type") == "WkappaError", result
        assert "4294967296" in result[name]["message"], result


@pytest.mark.timeout(1800)
def test_kappa_loss_trains_an_ordinal_model(backend: str, results: dict[str, Any]) -> None:
    result = _check(results, "loss_training")
    for form in ("log", "ratio"):
        run = result[form]
        assert run["loss"][-1] < run["loss"][0] - 0.3, (form, run["loss"])
        assert run["qwk_before"] < 0.3 and run["qwk_after"] > 0.7, (form, run)


@pytest.mark.timeout(1800)
def test_a_batch_without_weight_has_loss_zero_and_training_goes_on(
    backend: str, results: dict[str, Any]
) -> None:
    result = _check(results, "masked_batch")
    for form in ("log", "ratio"):
        run = result[form]
        assert run["finite_weights"] and all(np.isfinite(run["loss"])), (form, run["loss"])
        assert run["masked"] == 0.0 and run["empty"] == 0.0, (form, run)
        assert np.array_equal(run["masked_grad"], np.zeros((64, 5))), form


@pytest.mark.timeout(1800)
def test_logits_given_as_probabilities_are_refused_or_make_the_loss_nan(
    backend: str, results: dict[str, Any]
) -> None:
    """Eagerly (the PyTorch backend, a call by hand) rows that are not probabilities raise,
    naming `y_pred` and from_logits=True; in a compiled step the loss is NaN and the model
    does not move (the rule of the torch and JAX losses)."""
    result = _check(results, "logits_as_probabilities")
    wanted = "`y_pred` must hold class probabilities"
    assert wanted in result["by_hand"] and "from_logits=True" in result["by_hand"], result
    if backend == "torch":
        assert wanted in result["False"]["raised"], result
    else:
        assert all(np.isnan(result["False"]["loss"])) and not result["False"]["moved"], result
    assert all(np.isfinite(result["True"]["loss"])) and result["True"]["moved"], result


@pytest.mark.timeout(1800)
def test_boolean_labels_and_weights_are_zeros_and_ones(
    backend: str, results: dict[str, Any]
) -> None:
    result = _check(results, "bool_inputs")
    assert result["labels"] == np.float32(result["wk"]), result
    assert result["weights"] == np.float32(result["wk_weighted"]), result
    assert result["loss"] == pytest.approx(1 - result["wk_weighted"], abs=1e-6), result


@pytest.mark.timeout(1800)
def test_gradients_match_the_torch_loss(backend: str, results: dict[str, Any]) -> None:
    result = _check(results, "gradients")
    for weights in ("quadratic", "linear"):
        for form in ("log", "ratio"):
            logits = torch.tensor(result["logits"], dtype=torch.float64, requires_grad=True)
            loss = TorchKappaLoss(5, weights=weights, form=form, eps=0.0)
            value = loss(logits, torch.tensor(result["labels"]))
            value.backward()
            assert logits.grad is not None
            keras_side = result[f"{weights}/{form}"]
            assert keras_side["value"] == pytest.approx(value.item(), rel=1e-5)
            np.testing.assert_allclose(
                keras_side["grad"], logits.grad.numpy(), rtol=1e-4, atol=1e-6
            )


@pytest.mark.timeout(1800)
def test_merge_and_serialization(backend: str, results: dict[str, Any]) -> None:
    result = _check(results, "merge_and_config")
    assert result["tables_equal"] and result["merged"] == result["whole"]
    assert result["whole"] == np.float32(result["wk"])
    assert result["config"] == {"num_classes": 4, "weightage": "quadratic", "sparse_labels": True}
    assert result["clone"] == ["CohenKappa", 4, "quadratic"]
    assert result["loss_clone"] == ["linear", "ratio"]
    assert result["count_dtype"] == ("int32" if backend == "jax" else "int64")


@pytest.mark.timeout(1800)
def test_pickles_and_copies_keep_the_counts(backend: str, results: dict[str, Any]) -> None:
    """A metric pickled (sent to another process) or copied keeps its table, so merge_state
    adds up tables counted elsewhere; Keras' own metrics arrive empty. The config, and what
    is built from it, holds the arguments only (as model.compile expects)."""
    result = _check(results, "copies")
    assert result["merged_equal"] and result["whole_nonempty"]
    for how in ("pickle", "deepcopy", "copy"):
        assert result[how] == {
            "same_table": True,
            "same_value": True,
            "options": [4, "quadratic", True],
            "independent": True,
        }, how
    assert result["rebuilt_empty"] == [0, 0]
    assert result["keras_mean_pickled"] == 0.0  # what Keras' own metrics do
    assert result["older_store_empty"] == 0
    assert "shape (4, 4)" in result["wrong_shape"] and "num_classes = 3" in result["wrong_shape"]


@pytest.mark.timeout(1800)
def test_howto_runs_on_the_backend(backend: str, results: dict[str, Any]) -> None:
    result = _check(results, "howto")
    assert result["attempted"] > 5 and result["failed"] == 0, result
