"""Synthetic logs, fitting the design from per-answer logs, and the per-task table.

Part of :mod:`core.llm` (see its notes for the model); every name is importable from there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from ..accuracy.intervals import _limits
from ..validation import check_alpha, check_int, check_probability, check_real, rng_of
from ._common import _check_n, _check_target, _validate
from .simulation import _calibrate, _draw_probabilities

__all__ = [
    "BenchmarkFit",
    "simulate_benchmark_log",
    "fit_benchmark",
    "task_table",
]


# ---------------------------------------------------------------------------
# synthetic logs
# ---------------------------------------------------------------------------
def simulate_benchmark_log(
    n_questions,
    accuracy_a,
    accuracy_b,
    *,
    difficulty_sd=0.0,
    correlation=0.0,
    samples=1,
    cluster_size=1,
    icc=0.0,
    judge_sensitivity=1.0,
    judge_specificity=1.0,
    models=("A", "B"),
    seed=None,
) -> pd.DataFrame:
    """A per-answer log drawn from the model of this module (one benchmark run).

    Returns
    -------
    pandas.DataFrame
        Tidy, one row per answer: ``question`` (``"q00000"``, …), ``model``,
        ``sample`` (0 … K − 1), ``score`` (0.0 or 1.0, as graded), and
        ``cluster`` (``"c0000"``, …; questions i·m … i·m + m − 1) when m > 1 —
        the input of :func:`fit_benchmark`.

    Examples
    --------
    >>> log = simulate_benchmark_log(4, 0.6, 0.7, samples=2, cluster_size=2, seed=1)
    >>> log.shape, list(log.columns)
    ((16, 5), ['question', 'cluster', 'model', 'sample', 'score'])
    """
    d = _validate(accuracy_a, accuracy_b, difficulty_sd, correlation, samples, cluster_size, icc,
                  judge_sensitivity, judge_specificity, 0.05)
    n = _check_n(n_questions, d.m)
    if len(models) != 2 or len({str(x) for x in models}) != 2:
        raise ValueError(f"`models` must be two different names, got {models!r}.")
    rng = rng_of(seed)
    r, kappa = _calibrate(d.mu_a, d.mu_b, d.sd, d.rho, d.icc if d.m > 1 else 0.0)
    pa, pb = (p[0] for p in _draw_probabilities(rng, 1, n, d.m, d, r, kappa))
    probs = np.stack([pa, pb], axis=1)  # (n, 2)
    probs = (1.0 - d.sp) + d.j * probs
    scores = (rng.random((n, 2, d.k)) < probs[:, :, None]).astype(float)
    q = np.arange(n)
    frame = pd.DataFrame({
        "question": np.repeat([f"q{i:05d}" for i in q], 2 * d.k),
        "model": np.tile(np.repeat([str(models[0]), str(models[1])], d.k), n),
        "sample": np.tile(np.arange(d.k), 2 * n),
        "score": scores.ravel(),
    })
    if d.m > 1:
        frame.insert(1, "cluster", np.repeat([f"c{g:04d}" for g in q // d.m], 2 * d.k))
    return frame


# ---------------------------------------------------------------------------
# fitting the design from per-answer logs
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class BenchmarkFit:
    """Method-of-moments estimates of the model's parameters from a per-answer log.

    Attributes
    ----------
    models : tuple of str
        (baseline A, new model B). By default A is the model that appears
        first in the log; ``fit_benchmark(..., baseline=...)`` chooses.
    accuracy : dict
        Model → mean accuracy (mean over questions of the question scores).
    delta : float
        accuracy[B] − accuracy[A].
    delta_se : float
        Cluster-robust (CR1) standard error of ``delta`` — the test the page plans.
    difficulty_sd : float or None
        Pooled σ = √((σ_A² + σ_B²)/2), clipped to [0, √min μ(1 − μ)]; None
        with a single answer per question (not identified).
    correlation : float or None
        ρ = Cov(p_A, p_B)/σ² (so that 2σ²(1 − ρ) = Var(p_B − p_A)), clipped to
        [-1, 1]; None when σ is None.
    samples : int
        K, the median number of answers per question and model.
    icc : float or None
        ICC of the question-level differences, clipped to [0, 1]; None without
        a ``cluster`` column or when σ is not identified.
    cluster_size : int
        Median questions per cluster (1 without clusters).
    n_questions : int
        Questions answered by both models (the others are dropped, see ``notes``).
    n_clusters : int or None
        Number of clusters (None without a ``cluster`` column).
    covariance : float
        Cov(p_A, p_B) = ρσ², identified even with one answer per question.
    sd_by_model : dict
        Model → its own σ estimate (None when not identified).
    se : dict
        Bootstrap standard errors (resampling clusters, or questions, with
        replacement): ``accuracy_a``, ``accuracy_b``, ``delta``,
        ``difficulty_sd``, ``correlation``, ``icc`` (nan when not available).
    notes : tuple of str
        What was dropped, clipped or could not be estimated.
    per_question : pandas.DataFrame
        One row per kept question: ``question, cluster, mean_a, mean_b,
        samples_a, samples_b``.
    """

    models: tuple[str, str]
    accuracy: dict
    delta: float
    delta_se: float
    difficulty_sd: float | None
    correlation: float | None
    samples: int
    icc: float | None
    cluster_size: int
    n_questions: int
    n_clusters: int | None
    covariance: float
    sd_by_model: dict
    se: dict
    notes: tuple[str, ...] = ()
    per_question: pd.DataFrame = field(default=None, repr=False, compare=False)

    def design(self) -> dict:
        """Keyword arguments for :func:`benchmark_power` & co. (the identified parameters only)."""
        a, b = self.models
        out = {"accuracy_a": self.accuracy[a], "accuracy_b": self.accuracy[b], "samples": self.samples,
               "cluster_size": self.cluster_size}
        if self.difficulty_sd is not None:
            out["difficulty_sd"] = self.difficulty_sd
        if self.correlation is not None:
            out["correlation"] = self.correlation
        if self.icc is not None:
            out["icc"] = self.icc
        return out


_LOG_COLUMNS = ("question", "model", "score")


def _check_log_frame(df) -> dict[str, np.ndarray]:
    """Columns of a per-answer log as arrays: factor codes + string labels (no per-row string conversion)."""
    if not isinstance(df, pd.DataFrame):
        raise ValueError("`df` must be a pandas DataFrame with columns question, model, score "
                         "(optional sample, cluster).")
    missing = [c for c in _LOG_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"`df` lacks the column(s) {', '.join(missing)}; it has {', '.join(map(str, df.columns))}.")
    if len(df) == 0:
        raise ValueError("`df` has no rows.")
    out = {}
    for name in ("question", "model") + (("cluster",) if "cluster" in df.columns else ()):
        codes, labels = pd.factorize(df[name].to_numpy())
        bad = codes < 0
        if bad.any():
            raise ValueError(f"`df` row {int(np.argmax(bad)):,}: `{name}` is missing.")
        out[name] = codes.astype(np.int64)
        out[name + "_labels"] = np.asarray([str(v) for v in labels], dtype=object)
    score = pd.to_numeric(df["score"], errors="coerce").to_numpy(dtype=float, copy=True)
    bad = ~np.isfinite(score) | (score < 0) | (score > 1)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"`df` row {i:,}: `score` must be a number in [0, 1], got {df['score'].iloc[i]!r}.")
    out["score"] = score
    return out


_STAT_NAMES = ("m", "sx", "sy", "sxx", "syy", "sxy", "nx", "ny", "cxx", "cyy", "cxy", "msx", "msy", "mm",
               "s2", "s3")


def _cluster_stats(x, y, nx, ny, codes, n_clusters) -> np.ndarray:
    """Per-cluster sums (G × 16) from which every moment estimate is a linear-then-nonlinear function."""
    def total(values):
        return np.bincount(codes, weights=values, minlength=n_clusters)

    m = np.bincount(codes, minlength=n_clusters).astype(float)
    sx, sy = total(x), total(y)
    return np.stack([m, sx, sy, total(x * x), total(y * y), total(x * y), total(nx), total(ny),
                     sx * sx, sy * sy, sx * sy, m * sx, m * sy, m * m, m * (m - 1), m * (m - 1) ** 2], axis=1)


def _estimates(totals: np.ndarray) -> dict[str, np.ndarray]:
    """Unbiased moment estimates from (weighted) cluster sums; rows are bootstrap replicates.

    For a per-question variable x with Var = V0 and within-cluster covariance C, centred at its
    grand mean, Q = Σ e_i² and P = Σ_{i≠j same cluster} e_i e_j have
    E[Q] = (n − 1)V0 − S2·C/n and E[P] = −S2·V0/n + (S2 − 2S3/n + S2²/n²)·C with
    S2 = Σ m_g(m_g − 1), S3 = Σ m_g(m_g − 1)²; solving gives V0 and C (bilinear for pairs x, y).
    """
    t = dict(zip(_STAT_NAMES, np.atleast_2d(totals).T))
    n = t["m"]
    xbar, ybar = t["sx"] / n, t["sy"] / n
    q = {"xx": t["sxx"] - n * xbar * xbar, "yy": t["syy"] - n * ybar * ybar, "xy": t["sxy"] - n * xbar * ybar}
    g = {"xx": t["cxx"] - 2 * xbar * t["msx"] + xbar * xbar * t["mm"],
         "yy": t["cyy"] - 2 * ybar * t["msy"] + ybar * ybar * t["mm"],
         "xy": t["cxy"] - ybar * t["msx"] - xbar * t["msy"] + xbar * ybar * t["mm"]}
    s2, s3 = t["s2"], t["s3"]
    a11, a12 = n - 1.0, -s2 / n
    a22 = s2 - 2.0 * s3 / n + s2 * s2 / (n * n)
    det = a11 * a22 - a12 * a12
    clustered = s2 > 0
    v0, c = {}, {}
    with np.errstate(divide="ignore", invalid="ignore"):
        for key, within in q.items():
            pairs = g[key] - within
            v0[key] = np.where(clustered, (within * a22 - a12 * pairs) / det, within / a11)
            c[key] = np.where(clustered, (a11 * pairs - a12 * within) / det, np.nan)
    noise_x, noise_y = t["nx"] / n, t["ny"] / n
    var_a, var_b = v0["xx"] - noise_x, v0["yy"] - noise_y
    tau2 = var_a + var_b - 2.0 * v0["xy"]
    with np.errstate(divide="ignore", invalid="ignore"):
        icc = (c["xx"] + c["yy"] - 2.0 * c["xy"]) / tau2
    return {"mu_a": xbar, "mu_b": ybar, "var_a": var_a, "var_b": var_b, "cov": v0["xy"], "tau2": tau2,
            "icc": icc}


def _finish(est: dict[str, np.ndarray], j: float, sp: float) -> dict[str, np.ndarray]:
    """Rogan–Gladen correction, clipping and the pooled parameters (vectorized over replicates)."""
    base = 1.0 - sp
    mu_a = np.clip((est["mu_a"] - base) / j, 0.0, 1.0)
    mu_b = np.clip((est["mu_b"] - base) / j, 0.0, 1.0)
    limit = np.minimum(mu_a * (1 - mu_a), mu_b * (1 - mu_b))
    var_a = np.clip(est["var_a"] / (j * j), 0.0, mu_a * (1 - mu_a))
    var_b = np.clip(est["var_b"] / (j * j), 0.0, mu_b * (1 - mu_b))
    pooled = np.minimum((var_a + var_b) / 2.0, limit)
    cov = est["cov"] / (j * j)
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = np.where(pooled > 0, np.clip(cov / pooled, -1.0, 1.0), 0.0)
    icc = np.where(est["tau2"] > 0, np.clip(est["icc"], 0.0, 1.0), np.where(np.isnan(est["icc"]), np.nan, 0.0))
    return {"accuracy_a": mu_a, "accuracy_b": mu_b, "delta": (est["mu_b"] - est["mu_a"]) / j,
            "difficulty_sd": np.sqrt(pooled), "correlation": rho, "icc": icc, "var_a": var_a, "var_b": var_b,
            "cov": cov}


def fit_benchmark(
    df,
    *,
    baseline=None,
    judge_sensitivity=1.0,
    judge_specificity=1.0,
    n_boot=400,
    seed=0,
) -> BenchmarkFit:
    """Estimate accuracies, difficulty spread, correlation, K and ICC from a per-answer log.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per answer: ``question``, ``model``, ``score`` in [0, 1]
        (1 = right), optional ``sample`` (ignored by the estimates) and
        ``cluster`` — as returned by :func:`read_benchmark_log`,
        :func:`read_harness_samples` or :func:`simulate_benchmark_log`.
        Exactly two models.
    baseline : str, optional
        Which model is A (the baseline); default: the first model in the log.
    judge_sensitivity, judge_specificity : float, optional
        If the scores were graded by an LLM judge of known Se and Sp, the
        estimates are Rogan–Gladen corrected to the true-accuracy scale
        (μ = (μ* − (1 − Sp))/J, σ = σ*/J, Δ = Δ*/J; ρ and icc are unchanged),
        ready for the judge sliders. Default: exact grading.
    n_boot : int, optional
        Bootstrap replicates for the standard errors (0 … 10,000; 0 = none).
    seed : int or numpy.random.Generator, optional
        Seed of the bootstrap.

    Returns
    -------
    BenchmarkFit

    Raises
    ------
    ValueError
        If the frame lacks a column, a score is outside [0, 1], the log does not
        have exactly two models, ``baseline`` is not one of them, a question
        sits in two clusters, or fewer than 3 questions (2 clusters) are
        answered by both models.

    Notes
    -----
    Per question and model: the mean ȳ and the unbiased within-question
    variance s² of its K answers (for 0/1 scores s²/K = p̂(1 − p̂)/(K − 1), the
    estimated sampling variance of ȳ; questions with one answer borrow the
    model's mean s²). Miller (2024): Var(ȳ) = σ² + E[p(1 − p)]/K, so

    * σ_X² = Var_q(ȳ_X) − mean(s²_X/K_X) for each model, σ² = (σ_A² + σ_B²)/2;
    * Cov(p_A, p_B) = Cov_q(ȳ_A, ȳ_B) (the sampling noise of the two models is
      independent), ρ = Cov/σ²;
    * icc = C_D/τ² with τ² = σ_A² + σ_B² − 2Cov and C_D the covariance of the
      differences of two questions of the same cluster.

    The between-question (co)variances and within-cluster covariances come from
    moment equations that are unbiased under clustering for unequal cluster
    sizes (see ``_estimates``); estimates are clipped to their ranges (noted).
    Questions answered by only one model are dropped with a note. Scores that
    are not 0/1 are allowed; the power functions then assume Bernoulli noise
    w = μ(1 − μ) − σ², which is conservative. Standard errors: bootstrap over
    clusters (questions without clusters), vectorized over replicates; the
    CR1 standard error of Δ is analytic.

    Examples
    --------
    >>> log = simulate_benchmark_log(3000, 0.6, 0.65, difficulty_sd=0.2, correlation=0.5, samples=4, seed=3)
    >>> fit = fit_benchmark(log, n_boot=0)
    >>> fit.models, fit.samples, fit.n_questions, fit.icc
    (('A', 'B'), 4, 3000, None)
    >>> round(fit.difficulty_sd, 2), round(fit.correlation, 1)
    (0.2, 0.5)
    """
    frame = _check_log_frame(df)
    se_j = check_probability("judge_sensitivity", judge_sensitivity)
    sp_j = check_probability("judge_specificity", judge_specificity)
    if se_j + sp_j <= 1.0:
        raise ValueError("`judge_sensitivity` + `judge_specificity` must exceed 1 (Youden's J > 0): "
                         "scores from a judge no better than chance cannot be corrected.")
    j = se_j + sp_j - 1.0
    n_boot = check_int("n_boot", n_boot, low=0, high=10_000)
    models = list(frame["model_labels"])
    if len(models) != 2:
        listed = ", ".join(repr(x) for x in models[:10]) + (" …" if len(models) > 10 else "")
        raise ValueError(f"The log must contain exactly two models (baseline and new); it has {len(models)}: {listed}.")
    if baseline is not None:
        if str(baseline) not in models:
            raise ValueError(f"`baseline` must be one of {models[0]!r}, {models[1]!r}, got {baseline!r}.")
        models = [str(baseline), models[1] if models[0] == str(baseline) else models[0]]
    name_a, name_b = models
    notes: list[str] = []

    # per (question, model): answers, mean, unbiased variance — factor codes and bincounts (linear time)
    qcodes, qlabels = frame["question"], frame["question_labels"]
    n_all = len(qlabels)
    is_b = (frame["model"] == list(frame["model_labels"]).index(name_b)).astype(np.int64)
    key = 2 * qcodes + is_b
    score = frame["score"]
    count = np.bincount(key, minlength=2 * n_all).reshape(n_all, 2)
    total = np.bincount(key, weights=score, minlength=2 * n_all)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = total / count.ravel()
        resid = score - mean[key]
        var = np.bincount(key, weights=resid * resid, minlength=2 * n_all) / (count.ravel() - 1.0)
    mean, var = mean.reshape(n_all, 2), np.where(count.ravel() >= 2, var, np.nan).reshape(n_all, 2)
    both = (count > 0).all(axis=1)
    only_a = int(((count[:, 0] > 0) & ~both).sum())
    only_b = int(((count[:, 1] > 0) & ~both).sum())
    if only_a or only_b:
        notes.append(f"Dropped {only_a + only_b:,} question(s) answered by only one model "
                     f"({only_a:,} only by {name_a}, {only_b:,} only by {name_b}).")
    questions = np.asarray(qlabels)[both]
    n = len(questions)
    x, y = mean[both, 0], mean[both, 1]
    kx, ky = count[both, 0].astype(float), count[both, 1].astype(float)
    vx, vy = var[both, 0], var[both, 1]
    if n and np.array_equal(x, y) and np.array_equal(kx, ky) and np.array_equal(vx, vy, equal_nan=True):
        # the same log uploaded for both models gives a gain of exactly 0 with a standard error of 0: say so
        notes.append(f"The two models' scores are the same on every one of the {n:,} questions (the same means, "
                     "answers and spreads): check that the same log was not given for both models.")

    if "cluster" in frame:
        ccodes, clabels = frame["cluster"], frame["cluster_labels"]
        pairs = np.unique(qcodes.astype(np.int64) * len(clabels) + ccodes)
        pair_q = pairs // len(clabels)
        if len(pairs) > n_all:
            q = int(pair_q[np.flatnonzero(np.diff(pair_q) == 0)[0]])
            found = [repr(str(clabels[c])) for c in (pairs[pair_q == q] % len(clabels))[:3]]
            raise ValueError(f"Question {str(qlabels[q])!r} appears in more than one cluster ({', '.join(found)}); "
                             "each question must belong to exactly one cluster.")
        cluster_of_q = np.empty(n_all, dtype=np.int64)
        cluster_of_q[pair_q] = pairs % len(clabels)
        codes, uniques = pd.factorize(cluster_of_q[both])
        cluster_labels = np.asarray(clabels)[cluster_of_q[both]]
        n_clusters = len(uniques)
        has_clusters = True
    else:
        cluster_labels = questions
        codes, n_clusters = np.arange(n), n
        has_clusters = False
    if n_clusters < 2 or n < 3:
        raise ValueError(f"At least 3 questions in at least 2 clusters answered by both models are needed; "
                         f"the log has {n:,} question(s) in {n_clusters:,} cluster(s).")

    identified = bool((kx >= 2).any() and (ky >= 2).any())
    nx = np.zeros(n)
    ny = np.zeros(n)
    if identified:
        for noise, k, v in ((nx, kx, vx), (ny, ky, vy)):
            fill = float(np.nanmean(v[k >= 2]))
            noise[:] = np.where(k >= 2, v, fill) / k
        if ((kx < 2) | (ky < 2)).any():
            notes.append("Some questions have a single answer from a model; their sampling variance was "
                         "taken as that model's average.")
    else:
        notes.append("Each question has one answer per model, so question difficulty and sampling noise "
                     "cannot be separated (Miller 2024): difficulty_sd, correlation and icc are not "
                     "estimated. Resample each question at least twice (K >= 2).")

    cstats = _cluster_stats(x, y, nx, ny, codes, n_clusters)
    point = _finish(_estimates(cstats.sum(axis=0)), j, sp_j)
    point = {key: float(value[0]) for key, value in point.items()}

    # cluster-robust (CR1) SE of the difference
    dres = (y - x) - (y - x).mean()
    sums = np.bincount(codes, weights=dres, minlength=n_clusters)
    delta_se = math.sqrt(n_clusters / (n_clusters - 1.0) * float(sums @ sums)) / n / j

    se = {key: math.nan for key in ("accuracy_a", "accuracy_b", "delta", "difficulty_sd", "correlation", "icc")}
    if n_boot > 1:
        rng = rng_of(seed)
        chunk = max(1, min(n_boot, 4_000_000 // n_clusters))
        reps = {key: [] for key in se}
        done = 0
        while done < n_boot:
            size = min(chunk, n_boot - done)
            draws = rng.integers(0, n_clusters, size=(size, n_clusters))
            weights = np.bincount((draws + n_clusters * np.arange(size)[:, None]).ravel(),
                                  minlength=size * n_clusters).reshape(size, n_clusters)
            boot = _finish(_estimates(weights @ cstats), j, sp_j)
            for key, collected in reps.items():
                collected.append(boot[key])
            done += size
        for key in se:
            values = np.concatenate(reps[key])
            values = values[np.isfinite(values)]
            se[key] = float(values.std(ddof=1)) if len(values) > 1 else math.nan
    if not identified:
        for key in ("difficulty_sd", "correlation", "icc"):
            se[key] = math.nan
    if not has_clusters:
        se["icc"] = math.nan

    if identified:
        mu_a, mu_b = point["accuracy_a"], point["accuracy_b"]
        est = _estimates(cstats.sum(axis=0))
        pooled_raw = float((est["var_a"][0] + est["var_b"][0]) / 2.0 / (j * j))
        if pooled_raw < 0:
            notes.append("The between-question variance came out negative (sampling noise explains all the "
                         "spread); difficulty_sd was set to 0.")
        elif pooled_raw > min(mu_a * (1 - mu_a), mu_b * (1 - mu_b)) + 1e-12:
            notes.append("The between-question variance exceeded μ(1 − μ); difficulty_sd was clipped to its maximum.")
        difficulty_sd, correlation = point["difficulty_sd"], point["correlation"]
        if difficulty_sd == 0.0:
            notes.append("No between-question variation: correlation set to 0.")
        icc = None
        if has_clusters:
            icc = point["icc"] if math.isfinite(point["icc"]) else 0.0
            if float(est["tau2"][0]) <= 0:
                notes.append("The models' question-level differences show no variance: icc set to 0.")
        sd_by_model = {name_a: math.sqrt(point["var_a"]), name_b: math.sqrt(point["var_b"])}
    else:
        difficulty_sd = correlation = icc = None
        sd_by_model = {name_a: None, name_b: None}
    if j < 1.0:
        notes.append(f"Scores corrected for judge error (Rogan–Gladen, J = {j:.3g}).")
    sizes = np.bincount(codes, minlength=n_clusters)
    per_question = pd.DataFrame({"question": questions, "cluster": cluster_labels, "mean_a": x, "mean_b": y,
                                 "samples_a": kx.astype(int), "samples_b": ky.astype(int)})
    return BenchmarkFit(
        models=(name_a, name_b),
        accuracy={name_a: point["accuracy_a"], name_b: point["accuracy_b"]},
        delta=point["delta"],
        delta_se=delta_se,
        difficulty_sd=difficulty_sd,
        correlation=correlation,
        samples=round(float(np.median(np.concatenate([kx, ky])))),
        icc=icc,
        cluster_size=round(float(np.median(sizes))) if has_clusters else 1,
        n_questions=n,
        n_clusters=n_clusters if has_clusters else None,
        covariance=point["cov"],
        sd_by_model=sd_by_model,
        se=se,
        notes=tuple(notes),
        per_question=per_question,
    )


# ---------------------------------------------------------------------------
# per-task table from logs: n, accuracy, Wilson interval, MDE
# ---------------------------------------------------------------------------
def task_table(log: pd.DataFrame, *, by="auto", alpha=0.05, target_power=0.8, confidence=0.95,
               min_questions=30) -> pd.DataFrame:
    """Per-task summary of a two-model per-answer log: n, accuracies, Wilson intervals, MDE, flags.

    Parameters
    ----------
    log : pandas.DataFrame
        A per-answer log (:func:`read_benchmark_log`, :func:`read_harness_samples`) with columns
        ``question, model, score`` and optionally ``task`` or ``cluster``.
    by : str or None, optional
        Column that names the task; ``"auto"`` (default): ``"task"`` if present, else ``"cluster"``, else one row;
        None: one row per model for the whole log.
    alpha, target_power : float, optional
        Two-sided level and power of the MDE.
    confidence : float, optional
        Level of the Wilson intervals.
    min_questions : int, optional
        Tasks with fewer questions are flagged.

    Returns
    -------
    pandas.DataFrame
        One row per (task, model): ``task, model, n, accuracy, low, high, mde, flag``. ``accuracy`` is the mean
        of question scores (each the mean over the model's answers); the Wilson interval uses k = accuracy·n.
        ``mde`` is the paired MDE of the two models on that task, (t_{1−α/2} + t_{power}) s_d/√n (n − 1 df) with s_d the SD
        of per-question score differences (the same on both rows). ``flag`` says "all right", "all wrong" or
        "n < 30" (the Wald/CLT interval is a point, or unreliable, there: Bowyer et al. 2025).

    Examples
    --------
    >>> from core.llm import sample_log
    >>> t = task_table(sample_log())
    >>> list(t.columns)
    ['task', 'model', 'n', 'accuracy', 'low', 'high', 'mde', 'flag']
    """
    if not isinstance(log, pd.DataFrame) or not {"question", "model", "score"} <= set(log.columns):
        raise ValueError("`log` must be a per-answer log with columns question, model, score.")
    if len(log) == 0:
        raise ValueError("`log` has no rows.")
    alpha = check_alpha(alpha)
    target_power = _check_target(target_power)
    confidence = check_real("confidence", confidence, low=0.0, high=1.0, low_open=True, high_open=True)
    min_questions = check_int("min_questions", min_questions, low=1)
    if by == "auto":
        by = "task" if "task" in log.columns else ("cluster" if "cluster" in log.columns else None)
    elif by is not None and by not in log.columns:
        raise ValueError(f"`by` must be a column of the log, \"auto\" or None, got {by!r}.")
    frame = log.assign(_task=log[by].astype(str) if by else "all questions")
    per_question = frame.groupby(["_task", "question", "model"], sort=False)["score"].mean().reset_index()
    models = list(dict.fromkeys(per_question["model"]))
    rows = []
    for task, part in per_question.groupby("_task", sort=False):
        wide = part.pivot(index="question", columns="model", values="score")
        mde = math.nan
        if len(models) == 2 and set(models) <= set(wide.columns):
            diff = (wide[models[1]] - wide[models[0]]).dropna()
            if len(diff) >= 2:  # the paired t test's MDE (t quantiles on n − 1 df: tasks can be small)
                df = len(diff) - 1
                mult = stats.t.isf(alpha / 2.0, df) + stats.t.ppf(target_power, df)
                mde = float(mult * diff.std(ddof=1) / math.sqrt(len(diff)))
        for model in models:
            if model not in wide.columns:
                continue
            scores = wide[model].dropna()
            n = int(len(scores))
            acc = float(scores.mean())
            low, high = _limits(acc * n, n, "wilson", confidence)
            flag = "all right" if acc >= 1.0 else ("all wrong" if acc <= 0.0 else "")
            if n < min_questions:
                flag = f"{flag}; n < {min_questions}" if flag else f"n < {min_questions}"
            rows.append((str(task), str(model), n, acc, float(low), float(high), mde, flag))
    return pd.DataFrame(rows, columns=["task", "model", "n", "accuracy", "low", "high", "mde", "flag"])
