"""The DA-campaign and Monitor pages' "Python code for this view": :mod:`core.sequential`'s campaign power
(Wei, Kocmi & Federmann 2022) and its monitor (Howard et al. 2021; Waudby-Smith & Ramdas 2024).

The shared header, literals and score units come from :mod:`core.snippets`.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence

from ..snippets import HEADER, SCORE_UNITS, kwargs_literal, literal, prior_ok
from .campaign import CampaignDesign
from .monitor import MonitorDesign, monitor
from ..validation import check_type

__all__ = ["sequential_snippet", "monitor_snippet"]


def sequential_snippet(design: CampaignDesign, *, target_power: float, prior: tuple[float, float] | None = None,
                       sizes: bool = False, fitted: tuple[str, str, str, str] | None = None) -> str:
    """Script for the DA-campaign page (:mod:`core.sequential`) at ``design``.

    Parameters
    ----------
    design : CampaignDesign
        The page's design: its procedure, budget, difference and options (looks, boundary, futility, mean, SD, α,
        test) are the script's.
    target_power : float
        The page's decision setting (not a design field): the MDE and the sizes are for this power.
    prior : (float, float), optional
        A normal prior (mean, SD) on the difference in DA points: the script also prints the assurance.
    sizes : bool
        Also print the judgments each procedure needs for ``target_power``
        (:func:`core.sequential.campaign_sample_size`), as the page does when it shows them.
    fitted : (str, str, str, str), optional
        (file name, system A, system B, protocol), an upload's, not design fields: the script reads last year's
        judgments from that file (next to the notebook), prints the fit of the two systems
        (:func:`core.humaneval.fit_campaign`) as the page's metrics show it, and computes the resampled power at the
        design's budget (:func:`core.humaneval.resampled_power`).

    Examples
    --------
    >>> "sq.campaign_power(design, budget, delta, **options)" in sequential_snippet(CampaignDesign(), target_power=0.8)
    True
    """
    check_type("design", design, CampaignDesign)
    budget, delta, options = design.budget, design.delta, design.options()
    design = design.procedure
    lines = [HEADER, "from core import sequential as sq", "",
             f"design, budget, delta = {design!r}, {int(budget)!r}, {literal(float(delta))}",
             f"options = {kwargs_literal(dict(options))}", f"target_power = {literal(float(target_power))}",
             "res = sq.campaign_power(design, budget, delta, **options)",
             f"print({'Power' if delta else 'False-positive rate'!r} + ':', "
             "pct(res.power))",
             "print('False-positive rate (no true difference):', pct(res.false_positive_rate, 2))",
             "print('Expected judgments:', f'{res.expected_judgments:,.0f}')"]
    if delta:
        lines.append("print('Type-M at stopping:', f'{res.type_m:.2f}×' if math.isfinite(res.type_m) else '—')")
    else:
        lines.append("print('Type-M at stopping:', '—')")
    lines += ["mde = sq.campaign_mde(design, budget, target_power=target_power, **options)",
              "print(f'MDE at {target_power:.0%} power:', 'not reachable' if not math.isfinite(mde) else "
              "f'{mde:.2f} pts')"]
    if prior_ok(prior):
        lines += [f"assured = sq.campaign_assurance(design, budget, {literal(float(prior[0]))}, {literal(float(prior[1]))}, "
                  "**options)", "print('Assurance:', pct(assured.assurance))"]
    if fitted is not None:
        name, a, b, protocol = (str(v) for v in fitted)
        lines += ["", "from core import humaneval as he", "",
                  f"with open({name!r}, 'rb') as fh:",
                  f"    scores = he.read_scores(fh.read(), {name!r}, protocol={protocol!r})",
                  f"fit = he.fit_campaign(scores, [{a!r}, {b!r}])",
                  # the protocol's unit, as the page shows it (pages._campaign_data.SCORE_UNITS)
                  f"unit = {SCORE_UNITS.get(protocol, 'score units')!r}",
                  "print('Difference A − B:', f'{fit.delta:+.3g} {unit}')",
                  "print('Judgment SD:', f'{fit.sd:.3g} {unit}')",
                  "print('At the best score:', pct(fit.ceiling_share))",
                  "# power from the real scores (the page's resampled curve, one point; 1,000 campaigns):",
                  f"resampled = he.resampled_power(scores, ({a!r}, {b!r}), budget, procedure=design, "
                  "test=options['test'], peeks=options['peeks'], boundary=options['boundary'], "
                  "futility_p=options['futility_p'], alpha=options['alpha'], n_sims=1000, seed=2022)"]
    if sizes and delta:
        lines += ["labels = {'fixed': 'fixed', 'interim': 'interim', 'interim_futility': 'interim-futility'}",
                  "for procedure, label in labels.items():",
                  "    size = sq.campaign_sample_size(procedure, delta, target_power=target_power, **options)",
                  "    print(f'Judgments for {target_power:.0%} power ({label}):', first_n(size, 1_000_000))"]
    return "\n".join(lines) + "\n"


def monitor_snippet(design: MonitorDesign, *, upto: int, swap: bool, data_file: str | None = None,
                    votes: bool = False, harness_files: Sequence[tuple[str, str]] = (),
                    inspect_files: tuple[Sequence[str], Sequence[str], str] | None = None) -> str:
    """Script for the monitor page (:func:`core.sequential.monitor`) at ``design``.

    Parameters
    ----------
    design : MonitorDesign
        The page's design: the target, planned items, α, sequence (betting with its ``bounds``, or the normal
        mixture), looks, boundary and seed are the script's (a known ``sd`` and non-default ``n_sims`` /
        ``n_paths`` too).
    upto : int
        The items so far (the page's replay slider; not a design field).
    swap : bool
        Whether B and A are swapped (a page setting, not a design field).
    data_file : str, optional
        ``None``: the built-in example (:func:`core.sequential.sample_differences`); otherwise the named file is
        read: per-item scores (:func:`core.sequential.read_paired_scores`, a per-answer log with
        :func:`core.llm.read_benchmark_log`) or, with ``votes=True``, pairwise votes (:func:`core.pairwise.read_votes`).
    harness_files : sequence of (str, str)
        (model, file name) pairs: read lm-evaluation-harness samples files instead
        (:func:`core.llm.read_harness_samples`).
    inspect_files : (sequence of str, sequence of str, str), optional
        Model A's and model B's Inspect AI log files and the score: read them instead
        (:func:`core.llm.read_inspect_logs`, only the questions whose epochs have all ended); the differences are in
        points. Files of the same name for both models are read from folders ``A/`` and ``B/``.

    Examples
    --------
    >>> "bounds=(-1.0, 1.0)" in monitor_snippet(MonitorDesign(), upto=60, swap=False)
    True
    """
    check_type("design", design, MonitorDesign)
    target, n_max, alpha, looks, boundary, seed = (design.target, design.n_max, design.alpha, design.looks,
                                                   design.boundary, design.seed)
    # the design's other monitor() arguments, written only where they differ from monitor()'s defaults (the page
    # never sets them, so its scripts stay as they were)
    defaults = inspect.signature(monitor).parameters
    extra = "".join(f", {name}={literal(getattr(design, name))}" for name in ("sd", "n_sims", "n_paths")
                    if getattr(design, name) != defaults[name].default)
    if inspect_files is not None:
        a_files, b_files = ([str(f) for f in files] for files in inspect_files[:2])
        scorer = str(inspect_files[2])
        same = set(a_files) & set(b_files)
        if same:  # two files of one name cannot sit in one folder
            a_files, b_files = [f"A/{f}" for f in a_files], [f"B/{f}" for f in b_files]
        read = ("from core import llm\n\n"
                + ("# the models' logs have the same names: model A's are in A/, model B's in B/\n" if same else "")
                + f"baseline = [(name, open(name, 'rb').read()) for name in {a_files!r}]\n"
                f"new = [(name, open(name, 'rb').read()) for name in {b_files!r}]\n"
                "# a running log: only the questions whose epochs have all ended\n"
                f"log = llm.read_inspect_logs(baseline, new, scorer={scorer!r}, ended_only=True)\n"
                "data = sq.differences_from_log(log)")
    elif harness_files:
        pairs = [(str(m), str(f)) for m, f in harness_files]
        read = ("from core import llm\n\n"
                f"files = [(model, name, open(name, 'rb').read()) for model, name in {pairs!r}]\n"
                "data = sq.differences_from_log(llm.read_harness_samples(files))")
    elif data_file is None:
        read = "data = sq.sample_differences()"
    elif votes:
        read = (f"from core import pairwise as pw\n\nwith open({data_file!r}, 'rb') as fh:\n"
                f"    data = sq.differences_from_votes(pw.read_votes(fh.read(), name={data_file!r}))")
    else:
        read = (f"from core import llm\n\nwith open({data_file!r}, 'rb') as fh:\n"
                f"    data = sq.read_paired_scores(fh.read(), name={data_file!r}, read_log=llm.read_benchmark_log)")
    lines = [HEADER, "from core import sequential as sq", "", read,
             "diffs = data['difference'].to_numpy(dtype=float)",
             "# points (x100) for accuracies and votes, as on the page; other scores keep their own units",
             f"points = {(data_file is None and not harness_files) or votes or inspect_files is not None!r} "
             "or bool(np.isin(diffs, (-1.0, 0.0, 1.0)).all())"]
    if swap:
        lines.append("diffs = -diffs  # B and A swapped")
    lines += [f"upto, target, n_max, alpha = {int(upto)!r}, {literal(float(target))}, {int(n_max)!r}, {literal(float(alpha))}",
              f"res = sq.monitor(diffs[:upto], target=target, n_max=n_max, alpha=alpha, "
              f"bounds={design.bounds!r}, looks={int(looks)!r}, boundary={boundary!r}, seed={int(seed)!r}{extra})",
              "last = res.sequence.iloc[-1]",
              "print('Items so far:', f'{res.n:,}')",
              "print('Running difference:', f\"{100 * last['estimate']:+.2f} pts\" if points else "
              "f\"{last['estimate']:+.4f} score units\")",
              "print(f'{100 * (1 - alpha):g}% confidence sequence:', f\"[{100 * last['lower']:+.1f}, {100 * last['upper']:+.1f}] "
              "pts\" if points else f\"[{last['lower']:+.3f}, {last['upper']:+.3f}] score units\")",
              "print('Expected further items:', f'{math.ceil(res.expected_more):,}' if res.verdict == 'continue' "
              "else '0')",
              "print('P(ends with a winner):', pct(res.p_stop_effect))"]
    return "\n".join(lines) + "\n"
