"""The Analyze page's Bayesian assessment (HyBayes, Azer et al. 2020 §2.3–2.4) and many-systems sections.

Layout only: the posteriors and the pairwise tests come from :class:`core.analysis.design.AnalysisDesign` through
cached calls. Uploaded system names are shown escaped (the figure builders escape chart text).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core.analysis.design import AnalysisDesign
from pages._scaffold import Metric, cached, chart, guard, metrics_row, style


@cached
def bayes_accuracy(design: AnalysisDesign, ca, na, cb, nb):
    return design.bayes_accuracies(ca, na, cb, nb)


@cached
def bayes_means(design: AnalysisDesign, d):
    return design.bayes_means(d)


@cached
def pairwise(design: AnalysisDesign, systems: pd.DataFrame, test):
    return design.pairwise(systems, test=test)


def fmt_p(p):
    return "—" if p is None or not math.isfinite(p) else (f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}")


def plot_text(name: str) -> str:
    """A user-supplied name inside a chart, cut to 60 characters (the figure builders escape it)."""
    return str(name)[:60]


def bayes_section(design: AnalysisDesign, u, v, d, binary: bool):
    """6 · the posterior of A − B with its HDI and ROPE; returns it (None when it cannot be computed)."""
    rope, hdi_mass, prior_a, prior_b = design.rope, design.hdi, design.prior_alpha, design.prior_beta
    st.header("6 · Bayesian assessment (HyBayes)")
    post = None
    with guard("Bayesian assessment not possible", stop=False):
        if binary:
            post = bayes_accuracy(design, int(u.sum()), int(u.size), int(v.sum()), int(v.size))
            model = f"Beta({prior_a:g}, {prior_b:g}) priors on each accuracy, binomial likelihood (HyBayes appendix A.3)"
        else:
            post = bayes_means(design, d)
            model = "mean difference, reference prior p(μ, σ²) ∝ 1/σ² (Student-t posterior)"
    if post is not None:
        # 0/1 correctness: A − B is an accuracy difference, in points (×100) like every page's; other scores keep theirs
        hdi_text = (f"[{100 * post.hdi[0]:.2f}, {100 * post.hdi[1]:.2f}] pts" if binary else
                    f"[{post.hdi[0]:.4f}, {post.hdi[1]:.4f}] score units")
        rope_text = f"{100 * rope:g} pts" if binary else f"{rope:g}"
        metrics_row(
            Metric(f"{hdi_mass:.0%} HDI of A − B", hdi_text,
                   help="Highest-density interval: the most credible differences, holding this share of the posterior."),
            Metric("P(A > B)", f"{post.p_superior:.3f}"),
            Metric("P(inside ROPE)", f"{post.p_rope:.3f}", help=f"P(|A − B| < {rope_text}): the region of practical "
                   "equivalence set in the sidebar."),
            Metric(f"P(A − B > {rope_text})", f"{post.p_above_margin:.3f}"),
            Metric("BF01 (ROPE vs not)", "—" if not math.isfinite(post.bf01) else f"{post.bf01:.3f}",
                   help="Bayes factor for 'practically equivalent' against 'different' (HyBayes §2.4). Sensitive to the "
                   "prior; not defined for the improper prior of continuous scores."),
        )
        chart(figures.density_figure(post.grid, post.density, interval=post.hdi, interval_name=f"{hdi_mass:.0%} HDI",
                                     band=(-rope, rope), band_name="ROPE", lines=[figures.Line(x=0.0, color="#333333")],
                                     title=f"Posterior of the difference — decision: {post.decision}", x_title="A − B",
                                     style=style()), "posterior_chart")
        st.caption(f"Model: {model}. Decision rule (Kruschke 2018): HDI inside the ROPE → practically equivalent; HDI "
                   "entirely outside → a practical difference; otherwise undecided.")
    return post


def systems_section(design: AnalysisDesign, data, kind: str):
    """7 · every pair of systems with Holm / Bonferroni corrections; returns the table (None without)."""
    table = None
    if kind == "systems":
        st.header("7 · Many systems: all pairs")
        multi_test = st.selectbox("Test for every pair", ["t", "wilcoxon", "sign", "permutation", "bootstrap"],
                                  key="multi_test", help="Applied to each pair of columns; p-values corrected below.")
        correction = st.radio("Correction", ["holm", "bonferroni"], horizontal=True, key="correction",
                              help="Holm is uniformly more powerful than Bonferroni and controls the same error rate.")
        with guard("Cannot compare every pair", stop=False):
            table = pairwise(design, data.systems, multi_test)
        if table is not None:
            systems = list(data.systems.columns)
            matrix = pd.DataFrame(np.nan, index=systems, columns=systems)
            for row in table.itertuples():
                value = getattr(row, f"p_{correction}")
                matrix.loc[row.system_a, row.system_b] = matrix.loc[row.system_b, row.system_a] = value
            values = matrix.to_numpy()
            chart(figures.heatmap_figure(values, [plot_text(s) for s in systems],
                                         text=[[fmt_p(x) if math.isfinite(x) else "" for x in r] for r in values],
                                         colorbar_title="adj. p", hover="%{y} vs %{x}<br>adjusted p %{text}<extra></extra>",
                                         title=f"{correction.capitalize()}-adjusted p-values ({multi_test} test)",
                                         style=style()), "pairwise_chart")
            st.dataframe(table, hide_index=True, width="stretch")
    return table
