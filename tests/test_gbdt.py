"""wkappa.gbdt: real LightGBM / XGBoost / CatBoost training runs with the kappa eval metrics.

For every library, API and task, the value recorded in the library's evaluation history equals
wkappa computed here, independently, on the predictions the trained model gives for the same
iteration (via the library's own predict with an iteration range); and early stopping on the
metric stops and keeps the iteration with the highest kappa.
"""

from __future__ import annotations

import copy
import pickle
import warnings
from typing import Any

import catboost as cb
import lightgbm as lgb
import numpy as np
import pytest
import xgboost as xgb

import wkappa as wk
from lightgbm_eval import eval_sets
from wkappa.exceptions import UndefinedKappaWarning, WkappaError
from wkappa.gbdt import CatBoostMetric, lightgbm_metric, xgboost_metric

pytestmark = pytest.mark.integration  # a real engine, training run or subprocess

ROUNDS = 25
K = 5


def _data(seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 6))
    latent = x[:, 0] + 0.6 * x[:, 1] - 0.4 * x[:, 2] * x[:, 3] + 0.6 * rng.normal(size=n)
    return x, np.digitize(latent, [-1.4, -0.5, 0.5, 1.4]).astype(np.float64)


X, Y = _data(0, 500)
XV, YV = _data(1, 300)
# float32-exact weights: LightGBM and XGBoost store weights (and labels) as float32
WV = np.random.default_rng(2).uniform(0.5, 2.0, size=len(YV)).astype(np.float32).astype(np.float64)


def rounded(pred: np.ndarray, weight: np.ndarray | None = None) -> float:
    """QWK of regression outputs rounded and clipped to the label range of YV."""
    lo, hi = int(YV.min()), int(YV.max())
    grades = np.clip(np.rint(pred), lo, hi)
    return wk.qwk(YV, grades, min_rating=lo, max_rating=hi, sample_weight=weight)


def argmax(scores: np.ndarray, weight: np.ndarray | None = None) -> float:
    """QWK of (n, K) class scores: the argmax class, categories 0..K-1."""
    assert scores.shape == (len(YV), K)
    return wk.qwk(YV, scores.argmax(axis=1), min_rating=0, max_rating=K - 1, sample_weight=weight)


def _assert_history(history: list[float], expected: list[float], *, xgboost: bool = False) -> None:
    assert len(history) == len(expected) == ROUNDS
    if xgboost:  # XGBoost records a custom metric as text with "%f": six decimals
        expected = [float(f"{value:f}") for value in expected]
    assert history == pytest.approx(expected, abs=1e-12)
    assert len(set(np.round(history, 12))) > 3  # the metric actually moves during training


def _assert_early_stop(history: list[float], best: int, rounds: int, max_rounds: int) -> None:
    """Stopped early, `rounds` after the (first) maximum, and `best` is that maximum."""
    assert len(history) < max_rounds
    assert int(np.argmax(history)) == best
    assert len(history) == best + rounds + 1


# --------------------------------------------------------------------------- LightGBM

LGB_PARAMS = {"verbose": -1, "num_threads": 1, "learning_rate": 0.1, "num_leaves": 8, "seed": 0}


@pytest.mark.parametrize("task", ["regression", "multiclass"])
def test_lightgbm_native(task: str) -> None:
    params = {**LGB_PARAMS, "objective": task, "metric": "None"}
    if task == "multiclass":
        params["num_class"] = K
    history: dict[str, Any] = {}
    booster = lgb.train(
        params,
        lgb.Dataset(X, Y),
        ROUNDS,
        valid_sets=[lgb.Dataset(XV, YV)],
        valid_names=["valid"],
        feval=lightgbm_metric(),
        callbacks=[lgb.record_evaluation(history)],
    )
    score = rounded if task == "regression" else argmax
    expected = [score(booster.predict(XV, num_iteration=i + 1)) for i in range(ROUNDS)]
    _assert_history(history["valid"]["qwk"], expected)


@pytest.mark.parametrize("task", ["regression", "multiclass"])
def test_lightgbm_sklearn_with_weights(task: str) -> None:
    model_class = lgb.LGBMRegressor if task == "regression" else lgb.LGBMClassifier
    model = model_class(n_estimators=ROUNDS, **LGB_PARAMS)
    model.fit(X, Y, **eval_sets((XV, YV)), eval_sample_weight=[WV], eval_metric=lightgbm_metric())
    history = model.evals_result_["valid_0"]["qwk"]
    if task == "regression":
        expected = [rounded(model.predict(XV, num_iteration=i + 1), WV) for i in range(ROUNDS)]
    else:
        expected = [argmax(model.predict_proba(XV, num_iteration=i + 1), WV) for i in range(ROUNDS)]
    _assert_history(history, expected)


@pytest.mark.parametrize("task", ["regression", "multiclass"])
def test_lightgbm_early_stopping(task: str) -> None:
    params = {**LGB_PARAMS, "objective": task, "metric": "None", "learning_rate": 0.3}
    if task == "multiclass":
        params["num_class"] = K
    history: dict[str, Any] = {}
    booster = lgb.train(
        params,
        lgb.Dataset(X, Y),
        400,
        valid_sets=[lgb.Dataset(XV, YV)],
        valid_names=["valid"],
        feval=lightgbm_metric(),
        callbacks=[lgb.early_stopping(10, verbose=False), lgb.record_evaluation(history)],
    )
    _assert_early_stop(history["valid"]["qwk"], booster.best_iteration - 1, 10, 400)
    score = rounded if task == "regression" else argmax
    assert booster.best_score["valid"]["qwk"] == max(history["valid"]["qwk"])
    assert score(booster.predict(XV, num_iteration=booster.best_iteration)) == pytest.approx(
        max(history["valid"]["qwk"]), abs=1e-12
    )


# --------------------------------------------------------------------------- XGBoost

XGB_PARAMS = {"eta": 0.1, "max_depth": 3, "nthread": 1, "seed": 0}


@pytest.mark.parametrize("objective", ["reg:squarederror", "multi:softprob", "multi:softmax"])
def test_xgboost_native(objective: str) -> None:
    params: dict[str, Any] = {
        **XGB_PARAMS,
        "objective": objective,
        "disable_default_eval_metric": 1,
    }
    if objective.startswith("multi"):
        params["num_class"] = K
    history: dict[str, Any] = {}
    valid = xgb.DMatrix(XV, YV)
    metric = xgboost_metric(min_rating=0, max_rating=K - 1)  # softmax passes class indices
    booster = xgb.train(
        params,
        xgb.DMatrix(X, Y),
        ROUNDS,
        evals=[(valid, "valid")],
        custom_metric=metric,
        evals_result=history,
        verbose_eval=False,
    )
    predictions = [booster.predict(valid, iteration_range=(0, i + 1)) for i in range(ROUNDS)]
    if objective == "multi:softprob":
        expected = [argmax(p) for p in predictions]
    else:
        expected = [
            wk.qwk(YV, np.clip(np.rint(p), 0, K - 1), min_rating=0, max_rating=K - 1)
            for p in predictions
        ]
    _assert_history(history["valid"]["qwk"], expected, xgboost=True)


@pytest.mark.parametrize("task", ["regression", "multiclass"])
def test_xgboost_sklearn_with_weights(task: str) -> None:
    model_class = xgb.XGBRegressor if task == "regression" else xgb.XGBClassifier
    model = model_class(
        n_estimators=ROUNDS,
        learning_rate=0.1,
        max_depth=3,
        n_jobs=1,
        random_state=0,
        eval_metric=xgboost_metric(),
    )
    model.fit(X, Y, eval_set=[(XV, YV)], sample_weight_eval_set=[WV], verbose=False)
    history = model.evals_result()["validation_0"]["qwk"]
    ranges = [(0, i + 1) for i in range(ROUNDS)]
    if task == "regression":
        expected = [rounded(model.predict(XV, iteration_range=r), WV) for r in ranges]
    else:
        expected = [argmax(model.predict_proba(XV, iteration_range=r), WV) for r in ranges]
    _assert_history(history, expected, xgboost=True)


def test_xgboost_early_stopping_native_and_sklearn() -> None:
    metric = xgboost_metric()
    history: dict[str, Any] = {}
    params = {**XGB_PARAMS, "eta": 0.3, "disable_default_eval_metric": 1}
    booster = xgb.train(
        params,
        xgb.DMatrix(X, Y),
        400,
        evals=[(xgb.DMatrix(XV, YV), "valid")],
        custom_metric=metric,
        maximize=True,
        early_stopping_rounds=10,
        evals_result=history,
        verbose_eval=False,
    )
    _assert_early_stop(history["valid"]["qwk"], booster.best_iteration, 10, 400)
    assert booster.best_score == max(history["valid"]["qwk"])

    model = xgb.XGBClassifier(
        n_estimators=400,
        learning_rate=0.3,
        max_depth=3,
        n_jobs=1,
        random_state=0,
        eval_metric=metric,
        callbacks=[metric.early_stopping(10, save_best=True)],
    )
    model.fit(X, Y, eval_set=[(XV, YV)], verbose=False)
    sk_history = model.evals_result()["validation_0"]["qwk"]
    _assert_early_stop(sk_history, model.best_iteration, 10, 400)
    assert float(f"{argmax(model.predict_proba(XV)):f}") == max(sk_history)


def test_lightgbm_first_metric_only_stops_on_a_built_in_metric_as_documented() -> None:
    # The docs said first_metric_only=True "with this metric first" stops on kappa, but
    # LightGBM evaluates its built-in metrics before a feval, so it stops on l2.
    history: dict[str, Any] = {}
    booster = lgb.train(
        {**LGB_PARAMS, "objective": "regression", "metric": "l2", "learning_rate": 0.3},
        lgb.Dataset(X, Y),
        400,
        valid_sets=[lgb.Dataset(XV, YV)],
        feval=lightgbm_metric(),
        callbacks=[
            lgb.early_stopping(10, first_metric_only=True, verbose=False),
            lgb.record_evaluation(history),
        ],
    )
    assert list(history["valid_0"]) == ["l2", "qwk"]
    l2 = history["valid_0"]["l2"]
    assert booster.best_iteration == int(np.argmin(l2)) + 1
    assert "``first_metric_only=True`` does not" in (lightgbm_metric.__doc__ or "")


def test_xgboost_early_stopping_that_would_minimise_kappa_is_refused() -> None:
    # XGBoost's own early_stopping_rounds (no maximize in the scikit-learn API, maximize
    # left out of xgboost.train or xgboost.cv) minimises a custom metric: it kept the round
    # of lowest kappa, without a word. The metric now refuses it, naming the fix.
    metric = xgboost_metric()
    refused = r"^XGBoost's early stopping would minimise 'qwk'.*Hint: pass maximize=True"
    model = xgb.XGBRegressor(
        n_estimators=400, n_jobs=1, eval_metric=metric, early_stopping_rounds=10
    )
    with pytest.raises(WkappaError, match=refused + r".*callbacks=\[metric\.early_stopping"):
        model.fit(X, Y, eval_set=[(XV, YV)], verbose=False)
    data, valid = xgb.DMatrix(X, Y), [(xgb.DMatrix(XV, YV), "valid")]
    with pytest.raises(WkappaError, match=refused):
        xgb.train(XGB_PARAMS, data, 50, evals=valid, custom_metric=metric, early_stopping_rounds=5)
    with pytest.raises(WkappaError, match=refused):
        xgb.cv(XGB_PARAMS, data, 50, nfold=3, custom_metric=metric, early_stopping_rounds=5)
    # maximising, or stopping on another metric, trains
    booster = xgb.train(
        XGB_PARAMS,
        data,
        50,
        evals=valid,
        custom_metric=metric,
        maximize=True,
        early_stopping_rounds=5,
        verbose_eval=False,
    )
    assert booster.best_iteration >= 0
    stop_on_rmse = xgb.callback.EarlyStopping(rounds=5, metric_name="rmse")
    params = {**XGB_PARAMS, "eval_metric": "rmse"}
    xgb.train(
        params,
        data,
        20,
        evals=valid,
        custom_metric=metric,
        callbacks=[stop_on_rmse],
        verbose_eval=False,
    )
    # a name XGBoost maximises by its own rule
    ndcg = xgboost_metric(name="ndcg_qwk")
    xgb.train(
        XGB_PARAMS,
        data,
        20,
        evals=valid,
        custom_metric=ndcg,
        early_stopping_rounds=5,
        verbose_eval=False,
    )


# --------------------------------------------------------------------------- CatBoost

CB_PARAMS = {
    "learning_rate": 0.1,
    "depth": 4,
    "thread_count": 1,
    "random_seed": 0,
    "allow_writing_files": False,  # no catboost_info/ in the working directory
}


@pytest.mark.parametrize("task", ["regression", "multiclass"])
def test_catboost(task: str) -> None:
    if task == "regression":
        model: Any = cb.CatBoostRegressor(
            iterations=ROUNDS, eval_metric=CatBoostMetric(), **CB_PARAMS
        )
    else:
        model = cb.CatBoostClassifier(
            iterations=ROUNDS, loss_function="MultiClass", eval_metric=CatBoostMetric(), **CB_PARAMS
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numba "Failed to optimize" noise either
        model.fit(X, Y, eval_set=(XV, YV), sample_weight=None, use_best_model=False, verbose=False)
    history = model.get_evals_result()["validation"]["CatBoostMetric"]
    if task == "regression":
        expected = [rounded(model.predict(XV, ntree_end=i + 1)) for i in range(ROUNDS)]
    else:
        raw = [
            model.predict(XV, prediction_type="RawFormulaVal", ntree_end=i + 1)
            for i in range(ROUNDS)
        ]
        expected = [argmax(r) for r in raw]
    _assert_history(history, expected)


def test_catboost_weights_binary_logits_and_early_stopping() -> None:
    pool = cb.Pool(XV, (YV >= 2).astype(int), weight=WV)
    model = cb.CatBoostClassifier(
        iterations=ROUNDS, eval_metric=CatBoostMetric(thresholds=[0.0]), **CB_PARAMS
    )
    model.fit(X, (Y >= 2).astype(int), eval_set=pool, use_best_model=False, verbose=False)
    history = model.get_evals_result()["validation"]["CatBoostMetric"]
    expected = [
        wk.qwk(YV >= 2, model.predict_proba(XV, ntree_end=i + 1)[:, 1] > 0.5, sample_weight=WV)
        for i in range(ROUNDS)
    ]
    assert history == pytest.approx(expected, abs=1e-12)

    model = cb.CatBoostRegressor(
        iterations=400,
        eval_metric=CatBoostMetric(min_rating=0, max_rating=K - 1),
        **{**CB_PARAMS, "learning_rate": 0.3},
    )
    model.fit(X, Y, eval_set=(XV, YV), early_stopping_rounds=10, verbose=False)
    history = model.get_evals_result()["validation"]["CatBoostMetric"]
    _assert_early_stop(history, model.get_best_iteration(), 10, 400)
    assert model.tree_count_ == model.get_best_iteration() + 1  # use_best_model kept the best
    assert rounded(model.predict(XV)) == pytest.approx(max(history), abs=1e-12)


def test_catboost_evaluates_the_learn_set_too_and_metric_period_spares_it_as_documented() -> None:
    # A Python eval metric has no skip_train hint (CatBoost's hints apply to its built-in
    # metrics named by string): CatBoost evaluates it on the learning set every iteration.
    # With early stopping, metric_period=N keeps the eval set at every iteration (early
    # stopping needs it) and evaluates the learning set every N-th iteration only.
    rows: list[int] = []

    class Counted(CatBoostMetric):
        def evaluate(self, approxes: Any, target: Any, weight: Any) -> tuple[float, float]:
            rows.append(len(target))
            return super().evaluate(approxes, target, weight)

    metric = Counted(min_rating=0, max_rating=K - 1)
    model = cb.CatBoostRegressor(iterations=ROUNDS, eval_metric=metric, **CB_PARAMS)
    model.fit(X, Y, eval_set=(XV, YV), use_best_model=False, verbose=False)
    assert rows.count(len(Y)) == rows.count(len(YV)) == ROUNDS
    assert len(model.get_evals_result()["learn"]["Counted"]) == ROUNDS

    rows.clear()
    params = {**CB_PARAMS, "learning_rate": 0.3, "metric_period": 1000}
    model = cb.CatBoostRegressor(iterations=400, eval_metric=metric, **params)
    model.fit(X, Y, eval_set=(XV, YV), early_stopping_rounds=10, verbose=False)
    history = model.get_evals_result()["validation"]["Counted"]
    assert rows.count(len(YV)) == len(history) == model.get_best_iteration() + 11
    assert rows.count(len(Y)) <= 2  # the first iteration and the last
    _assert_early_stop(history, model.get_best_iteration(), 10, 400)
    with pytest.raises(cb.CatBoostError, match="not found in enum"):  # custom_metric: built-ins
        cb.CatBoostRegressor(iterations=2, custom_metric=[metric], **CB_PARAMS).fit(X, Y)


class QWK(CatBoostMetric):
    """CatBoostMetric under the name 'QWK' in CatBoost's evaluation history."""


def test_catboost_names_a_metric_by_its_class() -> None:
    # CatBoostMetric(name="qwk") was accepted and did nothing: the history key stayed
    # 'CatBoostMetric', so history["qwk"] was a KeyError after training.
    with pytest.raises(WkappaError, match=r"by its class.*Hint: .*class qwk\(CatBoostMetric\)"):
        CatBoostMetric(name="qwk")
    model = cb.CatBoostRegressor(iterations=3, eval_metric=QWK(), **CB_PARAMS)
    model.fit(X, Y, eval_set=(XV, YV), verbose=False)
    assert "QWK" in model.get_evals_result()["validation"]
    assert repr(QWK()) == "QWK(weights='quadratic', name='QWK')"


def test_catboost_models_with_the_metric_clone_for_scikit_learn() -> None:
    # CatBoost's get_params deep-copies its parameters, so scikit-learn's clone (every
    # cross_val_score and GridSearchCV) refused a model with a custom metric object:
    # "Cannot clone object CatBoostRegressor(...), as the constructor either does not set or
    # modifies parameter eval_metric". The metric holds no state: a copy is the metric itself.
    from sklearn.base import clone
    from sklearn.model_selection import cross_val_score

    metric = QWK(min_rating=0, max_rating=4)
    assert copy.deepcopy(metric) is metric and copy.copy(metric) is metric
    model = cb.CatBoostRegressor(iterations=5, eval_metric=metric, **CB_PARAMS)
    assert clone(model).get_params()["eval_metric"] is metric
    scores = cross_val_score(model, X, Y, cv=2, error_score="raise")
    assert np.isfinite(scores).all()
    assert pickle.loads(pickle.dumps(metric)).max_rating == 4


# --------------------------------------------------------------------------- the metric itself


def test_layouts_and_options() -> None:
    y = np.array([0.0, 1.0, 2.0, 2.0, 1.0])
    scores = np.array([0.4, 0.6, 2.6, 1.5, -3.0])
    metric = lightgbm_metric(weights="linear", name="lin")
    with pytest.warns(UserWarning, match=r"on both sides of 0\.\.2, .*lightgbm_metric\(\)"):
        clipped = metric(y, scores, None)
    assert clipped == (
        "lin",
        wk.weighted_kappa(y, [0, 1, 2, 2, 0], weights="linear"),
        True,
    )
    cut = lightgbm_metric(thresholds=[0.5, 1.0])
    assert cut(y, scores)[1] == wk.qwk(y, wk.apply_thresholds(scores, [0.5, 1.0]), max_rating=2)
    shifted = xgboost_metric(thresholds=[0.5, 1.0], min_rating=1)
    assert shifted(y + 1, scores) == cut(y, scores)[1]
    margins = np.log(np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8]]))
    assert xgboost_metric()(np.array([0, 1, 2]), margins) == 1.0
    assert (
        xgboost_metric()(np.array([0.0, 1.0, 2.0, 2.0]), np.array([0.0, 1.0, 2.0, 2.0]), np.ones(4))
        == 1.0
    )
    # the end grades are not among the evaluated labels: give the range, or clipping bites
    full = xgboost_metric(min_rating=0, max_rating=4)
    assert full(np.array([1, 2, 3]), np.array([0, 2, 4])) == wk.qwk([1, 2, 3], [0, 2, 4])
    with pytest.warns(UserWarning, match=r"on both sides of 1\.\.3, the evaluated labels'"):
        assert xgboost_metric()(np.array([1, 2, 3]), np.array([0, 2, 4])) == 1.0
    assert "thresholds=[0.5, 1.0]" in repr(cut)
    assert xgboost_metric(weights="unweighted").__name__ == "kappa"
    callback = xgboost_metric().early_stopping(5)
    assert isinstance(callback, xgb.callback.EarlyStopping) and callback.maximize


@pytest.mark.parametrize(
    ("make", "args", "match"),
    [
        (lambda: lightgbm_metric(min_rating=3, max_rating=1), None, "min_rating"),
        (lambda: lightgbm_metric(weights="cubic"), None, "weights"),  # type: ignore[arg-type]
        (lambda: lightgbm_metric(thresholds=[1.0, 0.5]), None, "thresholds"),
        (lambda: lightgbm_metric(thresholds=[0.5], max_rating=3), None, "max_rating"),
        (lambda: lightgbm_metric(name=""), None, "name"),
        (lambda: lightgbm_metric(), ([0, 1], np.zeros(6), None), "flattened"),
        (lambda: lightgbm_metric(), ([0, 1], np.zeros(3), None), "3 predictions for 2 labels"),
        (lambda: lightgbm_metric(), ([0, 1], np.zeros((3, 2)), None), "3 rows for 2 labels"),
        (lambda: lightgbm_metric(thresholds=[0.5]), ([0, 1], np.eye(2), None), "thresholds"),
        # A missing label: the metrics take no nan_policy, so the hint is to drop the row.
        (
            lambda: lightgbm_metric(),
            ([0, np.nan], [0.0, 1.0], None),
            r"^Row 1 of `y_true` is nan, .* drop the rows without a label[^_]*$",
        ),
        # A diverged model's NaN or infinite output: an inf was clipped to the top grade and
        # a NaN class score lost to np.argmax (which takes the NaN's column), silently.
        (
            lambda: lightgbm_metric(),
            ([0, 1], [0.0, np.inf], None),
            r"NaN or infinity \(row 1: inf\)",
        ),
        (
            lambda: lightgbm_metric(),
            ([1, 1], [[0.2, 0.8], [np.nan, 0.1]], None),
            r"row 1: \[nan, 0\.1\]",
        ),
        (lambda: CatBoostMetric(), ([[0.5, np.nan]], [0, 1], None), "NaN or infinity"),
        (lambda: lightgbm_metric(), ([0, 1.5], [0.0, 1.0], None), "non-integer"),
        (lambda: CatBoostMetric(zero_division="raise"), ([[1.0, 1.0]], [1, 1], None), "undefined"),
    ],
)
def test_bad_input(make: Any, args: Any, match: str) -> None:
    with pytest.raises(WkappaError, match=match):
        metric = make()
        if isinstance(metric, CatBoostMetric):
            metric.evaluate(*args)
        else:
            metric(*args)


TEXT_HINT = r"must hold numbers; got 'a'\. Hint: .*map text labels to their grades"
PREDICTIONS = r"Hint: pass the model's raw predictions"


@pytest.mark.parametrize(
    ("call", "match"),
    [
        # Text, None and ragged input were numpy's "could not convert string to float",
        # TypeErrors, or a count of predictions for one label (None read as one nan label).
        (lambda: lightgbm_metric()(["a", "b"], [0.1, 1.0]), "^`y_true` " + TEXT_HINT),
        (lambda: xgboost_metric()(np.array(["a", "b"], dtype=object), [0.1, 1.0]), TEXT_HINT),
        (lambda: CatBoostMetric().evaluate([[0.1, 1.0]], ["a", "b"], None), "^`target` "),
        (lambda: lightgbm_metric()([0, 1], ["a", "b"], None), "^`y_pred` must hold numbers"),
        (lambda: lightgbm_metric()(None, [0.1, 1.0]), r"^Got None for `y_true`\. .*label="),
        (lambda: xgboost_metric()([0, 1], None), "^Got None for `y_pred`. " + PREDICTIONS),
        (lambda: lightgbm_metric()([0, 1], [[0.1, 0.9], [1.0]]), "rows of `y_pred` differ"),
        (lambda: lightgbm_metric()([[1, 0], [0, 1]], np.eye(2)), r"shape \(2, 2\).*argmax"),
        (lambda: xgboost_metric()([], [0.1, 1.0]), r"no labels .*\(label=\.\.\.\)"),
        (lambda: CatBoostMetric().evaluate(None, [0, 1], None), "^`approxes` must hold one"),
        (lambda: CatBoostMetric().evaluate([], [0, 1], None), "^`approxes` must hold one"),
        (lambda: CatBoostMetric().evaluate([[0.1], [0.2, 1.0]], [0], None), "differ in shape"),
        (lambda: CatBoostMetric().evaluate([["a", "b"]], [0, 1], None), "^`approxes` must"),
        (lambda: lightgbm_metric(thresholds=["a"]), "^`thresholds` must be a 1-D sequence"),
    ],
)
def test_text_none_and_ragged_input_name_the_argument(call: Any, match: str) -> None:
    with pytest.raises(WkappaError, match=match):
        call()


@pytest.mark.parametrize(
    ("call", "match"),
    [
        # Thresholds fitted on grades 1..6 (wk.optimize_thresholds(y, oof) with y in 1..6)
        # and given without min_rating: the error named a `max_rating` nobody passed.
        (
            lambda: lightgbm_metric(thresholds=[1.5, 2.5, 3.5, 4.5, 5.5])(
                np.arange(1.0, 7.0), np.arange(1.0, 7.0)
            ),
            r"^The labels reach 6, .* grades 0\.\.5 .*Hint: pass min_rating=1 ",
        ),
        (
            lambda: xgboost_metric(thresholds=[0.5, 1.5], min_rating=1)(
                np.array([0.0, 1.0, 2.0]), np.array([0.2, 1.0, 2.0])
            ),
            r"^The labels reach 0, .* grades 1\.\.3 .*Hint: pass min_rating=0 ",
        ),
        # (n, K) class scores are scored on the class indices 0..K-1.
        (
            lambda: lightgbm_metric()(np.array([1.0, 2.0, 3.0]), np.eye(3)),
            r"^The labels reach 3, .* class indices 0\.\.2 .*Hint: .*0\.\.K - 1",
        ),
        (
            lambda: CatBoostMetric().evaluate([[0.1, 0.2], [0.9, 0.8]], [-1, 1], None),
            r"^The labels reach -1, .* class indices 0\.\.1 ",
        ),
    ],
)
def test_labels_outside_the_grades_of_the_predictions_are_named(call: Any, match: str) -> None:
    with pytest.raises(WkappaError, match=match):
        call()


def test_a_factory_passed_uncalled_names_the_fix() -> None:
    # feval=lightgbm_metric (no parentheses), the way a metric function is passed: the
    # libraries called the factory with (preds, data) and it raised Python's "takes 0
    # positional arguments but 2 were given".
    from wkappa.gbdt import qwk_objective

    dataset = lgb.Dataset(X, Y, params={"verbose": -1})
    calls = [
        (
            "lightgbm_metric",
            lambda: lgb.train(
                {"verbose": -1, "metric": "None"},
                dataset,
                2,
                valid_sets=[dataset],
                feval=lightgbm_metric,
            ),
        ),
        (
            "xgboost_metric",
            lambda: xgb.XGBRegressor(n_estimators=2, eval_metric=xgboost_metric).fit(
                X, Y, eval_set=[(XV, YV)], verbose=False
            ),
        ),
        ("qwk_objective", lambda: xgb.train({}, xgb.DMatrix(X, Y), 2, obj=qwk_objective)),
    ]
    for name, call in calls:
        with pytest.raises(WkappaError, match=rf"^`{name}` builds .* Hint: pass {name}\(\) "):
            call()


def test_a_dmatrix_without_labels_is_named() -> None:
    metric = xgboost_metric()
    with pytest.raises(WkappaError, match=r"no labels \(the eval dataset's labels"):
        metric(np.array([0.1, 1.0, 2.0]), xgb.DMatrix(np.zeros((3, 2))))


def test_undefined_kappa_follows_zero_division() -> None:
    with pytest.warns(UndefinedKappaWarning):
        assert np.isnan(lightgbm_metric()(np.array([1, 1]), np.array([1.2, 0.9]))[1])
    assert CatBoostMetric(zero_division=0.0).evaluate([[1.0, 1.0]], [1, 1], None) == (0.0, 1.0)


def test_reading_the_old_flat_layout_would_be_wrong() -> None:
    """LightGBM 4 passes (n, K); reading it as LightGBM 3's flat class-major vector is wrong."""
    model = lgb.LGBMClassifier(n_estimators=60, **LGB_PARAMS).fit(X, Y)
    probabilities = model.predict_proba(XV)
    right = argmax(probabilities)
    misread = wk.qwk(YV, probabilities.ravel().reshape(K, -1).argmax(axis=0), max_rating=K - 1)
    assert lightgbm_metric()(YV, probabilities, None)[1] == right
    assert right > 0.6 and misread < 0.3
