"""The DA campaign page's blocks for last year's judgments and the judgments a target power needs (UI only).

``pages/sequential.py`` calls :func:`sidebar` (upload, protocol, the two systems, "use the fitted values"),
:func:`headline` (judgments for the target power of the three procedures), :func:`section` (systems, protocol,
resampled power beside the model's, raters per segment, savings over the campaign's pairs), :func:`plan_extras`
and :func:`snippet_extras`. Statistics live in :mod:`core.humaneval` and :mod:`core.sequential`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from core import figures
from core import humaneval as he
from core import sequential as sq
from core.sequential import plan as sequential_plan
from core.uploads import MAX_BYTES, MAX_JUDGMENT_BYTES
from pages._campaign_columns import column_mapping
from pages._campaign_raters import raters_block
from pages._links import asked_late, report_late
from pages._sequential_tabs import savings
from pages._scaffold import (Metric, apply_values, cached, cached_upload, chart, fmt_pct, guard, link_values,
                             md_escape, metrics_row, presentation, simulation, style)
from pages._uploads import digest, file_uploader, opened, upload_types

DESIGN_LABELS = sequential_plan.DESIGN_LABELS
PROCEDURES = ("fixed", "interim", "interim_futility")
#: What the uploader takes: the reader's formats (:func:`core.humaneval.read_scores`).
UPLOAD_TYPES = upload_types("score", "rating", "tsv", "csv", "txt", "jsonl", "parquet")
#: Planned budgets of the resampled curve (at most 4,800 judgments: 1,000 campaigns stay within a second each).
RESAMPLE_BUDGETS = (200, 400, 600, 800, 1200, 1800, 2400, 3600, 4800)
RESAMPLE_SIMS = 1000
AUTO = "auto"


@dataclass(frozen=True)
class Loaded:
    """An uploaded campaign: its file, protocol, the compared pair and their fits."""

    name: str
    protocol: str
    a: str
    b: str
    reason: str
    table: pd.DataFrame
    notes: tuple
    pair: he.CampaignFit
    every: he.CampaignFit
    data: bytes
    #: The file's SHA-1 (:func:`pages._uploads.digest`): the cached readers' key.
    digest: str
    #: The column mapping the file was read with ((role, column) pairs; None: the roles were told from the names).
    columns: tuple | None = None

    @property
    def label(self) -> str:
        return f"{self.name[:60]}: {self.a[:40]} vs {self.b[:40]}"


def _reader():
    """The reader's functions (:mod:`core.humaneval`), or a message when this build has none."""
    try:
        return he.read_scores, he.system_table, he.default_pair
    except AttributeError as err:  # the reader lives in core/humaneval/readers.py
        raise ValueError("Reading judgments needs `core.humaneval.read_scores`, which this build lacks.") from err


@cached_upload
def read(_data: bytes, sha1: str, name: str, protocol: str | None, columns: tuple | None = None):
    """The judgments, their systems and the default pair; cached by the file's ``sha1`` (``_data`` unhashed)."""
    read_scores, system_table, default_pair = _reader()
    scores = read_scores(_data, name, protocol=protocol, columns=dict(columns) if columns else None)
    table = system_table(scores)
    a, b, reason = default_pair(scores)
    return scores, table, (a, b, reason)


@cached_upload
def fits(_data: bytes, sha1: str, name: str, protocol: str | None, a: str, b: str, columns: tuple | None = None):
    scores = read(_data, sha1, name, protocol, columns)[0]
    return he.fit_campaign(scores, [a, b]), he.fit_campaign(scores)


def _protocol_label(key: str) -> str:
    if key == AUTO:
        return "as the file says (DA without a file)"
    return he.PROTOCOL_DEFAULTS[key].label


_slider_values = he.slider_values  # the design's mean, SD, |difference| and test as the page's sliders take them


def _use(values: dict, source: str, label: str) -> None:
    """Callback: the fitted (or protocol) values into the sliders; the link says where they came from."""
    apply_values(values, source)
    st.query_params["fitted"] = label


def sidebar(side) -> Loaded | None:
    """Sidebar block: upload, protocol, the two systems; returns the loaded campaign (or None)."""
    side.subheader("Last year's judgments")
    options = [AUTO] + [k for k in he.PROTOCOL_DEFAULTS if k != "scores"] + ["scores"]
    link_values("protocol", {k: _protocol_label(k) for k in options})  # a link may say ?protocol=mqm
    protocol = side.selectbox("Protocol", options,
                              format_func=_protocol_label, key="protocol", bind="query-params",
                              help="DA (0–100), DA+SQM (WMT22), SQM (0–6), ESA (0–100 with error spans), MQM (≤ 0, "
                              "error-weighted) or other numeric scores. Each maps linearly onto the campaign model's "
                              "0–100 scale; its defaults and suggested test are in the protocol table below the "
                              "charts.")
    upload = file_uploader(side, "Upload last year's judgments", type=UPLOAD_TYPES, key="he_file",
                           max_bytes=MAX_JUDGMENT_BYTES,
                           help="Google MQM files, mt-metrics-eval .seg.score and .seg.rating files, WMT's "
                           "unified humeval.jsonl, Appraise exports (DA, ESA, MQM), WMT DA tables, the Hugging "
                           "Face copies of WMT's MQM and DA+SQM judgments (CSV or Parquet), or any long table "
                           f"with system, segment, rater and score columns; up to {MAX_JUDGMENT_BYTES // 2**20} MB "
                           f"(JSON {MAX_BYTES // 2**20} MB), compressed or not. Larger (a Hugging Face copy whole)? "
                           "Keep the year and language pair you plan for first, as the dataset cards suggest, e.g. "
                           "in pandas `df[(df.year == 2022) & (df.lp == 'en-de')].to_csv('slice.csv', index=False)`. "
                           "Nothing in the file is executed.")
    if upload is None and protocol not in (AUTO, "da", "scores"):
        defaults = he.PROTOCOL_DEFAULTS[protocol]
        values = _slider_values(sq.CampaignDesign("fixed", min(abs(defaults.delta) * abs(defaults.slope), 10.0),
                                                  **defaults.campaign_options()))
        side.button(f"Use {defaults.label.split(' (')[0]}'s defaults", on_click=_use,
                    args=(values, f"preset: {defaults.label} ({defaults.source})", defaults.label),
                    key="protocol_use", help="Mean, SD, difference and test of this protocol, mapped onto "
                    "the 0–100 campaign scale (sources in the protocol table).")
    if upload is None:
        fitted = st.query_params.get("fitted")
        if fitted:
            side.caption(f"This link was made from {md_escape(fitted[:120])}; upload the file again to refit, change "
                         "the pair or resample.")
        return None
    with guard(f"Cannot read {upload.name[:80]}", stop=False):
        upload = opened(upload, max_bytes=MAX_JUDGMENT_BYTES)
        data = upload.getvalue()
        key = digest(upload, data)  # the cached readers' key: the bytes are not hashed again on a rerun
        chosen = None if protocol == AUTO else protocol
        columns = None
        try:
            scores, table, (a0, b0, reason) = read(data, key, upload.name, chosen)
        except ValueError as err:
            if "cannot tell which column" not in str(err):
                raise
            columns = column_mapping(side, data, key, upload.name)  # the roles are not in the names: the user says
            scores, table, (a0, b0, reason) = read(data, key, upload.name, chosen, columns)
        names = table["system"].astype(str).tolist()
        # the systems are known once the file is read, after the link was checked: a system the link names that
        # the file lacks is said under the choice
        asked = {key: asked_late(key) for key in ("sys_a", "sys_b")}
        a = side.selectbox("System A", names, index=names.index(a0), key="sys_a", bind="query-params",
                           help="The two systems to compare (default: the closest pair at the top).")
        b = side.selectbox("System B", names, index=names.index(b0), key="sys_b", bind="query-params")
        for key, text in asked.items():
            report_late(key, text, None, side)
        if a == b:
            side.warning("Choose two different systems.")
            return None
        pair, every = fits(data, key, upload.name, chosen, a, b, columns)
        loaded = Loaded(upload.name, scores.attrs.get("protocol", "scores"), a, b,
                        reason if (a, b) == (a0, b0) else "Chosen on the page.", table,
                        tuple(scores.attrs.get("notes", ())), pair, every, data, key, columns)
        values = _slider_values(pair.design("fixed"))
        side.button("Use the fitted values in the sliders", on_click=_use, key="he_use", type="primary",
                    args=(values, f"fitted from {loaded.label}", loaded.label),
                    help="Mean, SD and difference of the two systems' judgments on the 0–100 campaign scale, and the "
                    "protocol's test (rounded to the sliders' steps).")
        return loaded
    return None


#: The unit of a protocol's scores in the metrics: DA, DA+SQM and ESA in points on the 0–100 scale (as the campaign's
#: sliders), SQM on its 0–6 scale, MQM in its error-penalty points; other numeric scores in their own units.
SCORE_UNITS = {"da": "pts", "da-sqm": "pts", "esa": "pts", "sqm": "(0–6 scale)", "mqm": "MQM pts"}


# ---------------------------------------------------------------------------
# judgments for the target power
# ---------------------------------------------------------------------------
@cached
def _size(design: sq.CampaignDesign, target: float):
    size = design.sample_sizes(target)
    spent = design.power(size.first).expected_judgments if size.first > 0 else math.nan
    return size, spent


def sizes(campaign: sq.CampaignDesign, target: float):
    """Each procedure's first budget reaching ``target`` and its expected judgments there (None at Δ = 0).

    One cached call per procedure, on the design without its budget (``key_for("sample_sizes")``) and without the
    fields that procedure does not read (:meth:`core.sequential.CampaignDesign.relevant`): a futility move recomputes
    only interim-futility."""
    if campaign.delta == 0:
        return None
    return {procedure: _size(campaign.with_(procedure=procedure).relevant().key_for("sample_sizes"), target)
            for procedure in PROCEDURES}


def headline(campaign: sq.CampaignDesign, target: float, container=None):
    """The "judgments for the target power" metrics of fixed, interim and interim-futility."""
    found = sizes(campaign, target)
    items = []
    fixed_first = found["fixed"][0].first if found else -1
    for procedure in PROCEDURES:
        label = f"Judgments for {target:.0%} power ({DESIGN_LABELS[procedure]})"
        if found is None:
            items.append(Metric(label, "—", help="Set a non-zero difference to size the campaign."))
            continue
        size, spent = found[procedure]
        if size.first < 0:
            items.append(Metric(label, "> 1,000,000", help="Not reachable within a million judgments."))
            continue
        saving = 1 - spent / fixed_first if fixed_first > 0 else math.nan
        caption = ("spent in full" if procedure == "fixed" else
                   f"expects {spent:,.0f} judgments: {100 * saving:.0f}% {'saved' if saving >= 0 else 'more'} vs "
                   "fixed")
        if size.differ:
            caption += f"; stays above {target:.0%} from {size.conservative:,}"
        items.append(Metric(label, f"{size.first:,}", caption=caption,
                            help="The smallest planned budget (judgments for the pair) whose power reaches the "
                            "target for this difference (core.sequential.campaign_sample_size); the caption gives the "
                            "judgments this procedure expects to spend there and its saving against the fixed "
                            "design's budget for the same power — this design's own saving, not the average over a "
                            "population of pairs."))
    if presentation():
        # on a projector one line, so the first chart stays on the screen (the desk has the three metrics, with
        # their savings in captions)
        (container or st).markdown(f"**Judgments for {target:.0%} power:** " + " · ".join(
            f"{DESIGN_LABELS[p]} **{m.value}**" for p, m in zip(PROCEDURES, items)))
        return
    metrics_row(*items, container=container)
    return found


# ---------------------------------------------------------------------------
# the section: systems, protocol, resampled power, raters per segment
# ---------------------------------------------------------------------------
@cached
def model_curve(campaign: sq.CampaignDesign, budgets: tuple, procedures: tuple):
    frame = sq.population_curves(list(budgets), [abs(campaign.delta)], designs=procedures, **campaign.options())
    return frame.rename(columns={"design": "procedure", "average_power": "power",
                                 "average_judgments": "expected_judgments"})


def _trust(loaded: Loaded, frame: pd.DataFrame) -> str:
    fit = loaded.pair
    piled = fit.ceiling_share
    where = "MQM's mass at 0 (no error)" if loaded.protocol == "mqm" else "the pile-up at the scale's best score"
    gap = (frame.pivot_table(index=["procedure", "budget"], columns="source", values="power")
           .dropna() if len(frame) else pd.DataFrame())
    big = float((gap.iloc[:, 0] - gap.iloc[:, 1]).abs().max()) if len(gap.columns) == 2 and len(gap) else 0.0
    text = (f"{100 * piled:.0f}% of these judgments sit at {where}. ")
    if big > 0.05 or piled > sq.CEILING_WARNING:
        text += ("Where the curves disagree, trust the resampled one: the model (100 − Gamma, Wei et al. 2022, §6.1) "
                 "treats scores as continuous and misses that point mass; resampling reuses your judgments, ties and "
                 "all. ")
    else:
        text += "The two agree within a few points here. "
    return text + ("Resampling assumes next year's segments and raters are like last year's, and with several "
                   "ratings per segment the per-judgment tests overstate the evidence (see its false-positive rate).")


def section(loaded: Loaded | None, campaign: sq.CampaignDesign, budget: int, target: float, plotted: dict) -> None:
    """Below the views: the protocol table, and with an upload the systems, resampled power and raters."""
    found = sizes(campaign, target)
    if found is not None:  # the headline's numbers, in the page's CSV
        plotted["judgments_for_target"] = pd.DataFrame(
            [(p, target, size.first, size.conservative, spent) for p, (size, spent) in found.items()],
            columns=["procedure", "target_power", "first_budget", "conservative_budget", "expected_judgments"])
    st.subheader("Last year's judgments")
    with st.expander("Protocols: scales, defaults, sources and tests"):
        table = he.protocol_table()
        st.dataframe(table[["label", "scale", "mean", "sd", "delta", "segment_share", "test", "source"]],
                     hide_index=True, width="stretch")
        st.caption(" ".join(f"**{md_escape(p.label)}**: {md_escape(p.test_reason)}" for p in
                            (he.PROTOCOL_DEFAULTS["da"], he.PROTOCOL_DEFAULTS["mqm"])))
    if loaded is None:
        st.caption("Upload last year's judgments in the sidebar to see every system, compare two of them with "
                   "power resampled from their real scores, and plan ratings per segment.")
        return
    fit, every = loaded.pair, loaded.every
    st.markdown(f"**{md_escape(loaded.a)}** vs **{md_escape(loaded.b)}** from {md_escape(loaded.name)} "
                f"({md_escape(he.PROTOCOL_DEFAULTS[loaded.protocol].label)}). {md_escape(loaded.reason)}")
    notes = list(loaded.notes) + list(fit.notes)
    if fit.shared_segments == 0:  # two systems of different language pairs or campaigns: said before anything else
        st.warning(md_escape(fit.notes[0]))
        notes.remove(fit.notes[0])
    for note in notes[:4]:
        st.caption(md_escape(note))
    if len(notes) > 4:
        with st.expander(f"{len(notes) - 4} more note{'s' if len(notes) > 5 else ''} on this file and fit"):
            for note in notes[4:]:
                st.caption(md_escape(note))
    systems = loaded.table.assign(compared=loaded.table["system"].isin([loaded.a, loaded.b]))
    plotted["systems"] = systems
    st.dataframe(systems, hide_index=True, width="stretch", column_config={
        "mean": st.column_config.NumberColumn("Mean", format="%.3f"),
        "sd": st.column_config.NumberColumn("SD", format="%.3f"),
        "compared": st.column_config.CheckboxColumn("Compared")})
    comps = fit.components
    unit = SCORE_UNITS.get(loaded.protocol, "score units")
    metrics_row(
        Metric("Difference A − B", f"{fit.delta:+.3g} {unit}", help="Difference of the two systems' mean judgments, "
               f"on the protocol's scale ({md_escape(he.PROTOCOL_DEFAULTS[loaded.protocol].label)})."),
        Metric("Judgment SD", f"{fit.sd:.3g} {unit}", help="Within-system SD of single judgments (the spread the "
               "tests see)."),
        Metric("At the best score", fmt_pct(fit.ceiling_share), help="Share of judgments at the scale's best "
               "score (DA: 100; MQM: 0, no error)."),
        Metric("Segment / rater / residual variance",
               " / ".join("—" if math.isnan(v) else f"{v:.3g}" for v in (comps.segment, comps.rater, comps.residual)),
               help=f"Variance components of single judgments ({comps.method.upper()}; crossed segments × raters)."),
    )

    # resampled power beside the model's, on demand (a simulation)
    asked = asked_late("resample")  # made once a campaign file is read, after the link's check
    run = st.toggle("Resample last year's judgments (power from the real scores)", key="resample",
                    bind="query-params", help=f"{RESAMPLE_SIMS:,} campaigns per point: each draws the two systems' "
                    "segments with replacement, with all their ratings (core.humaneval.resampled_power).")
    report_late("resample", asked, None, st)
    design = fit.design(campaign.procedure, looks=campaign.looks, boundary=campaign.boundary,
                        futility_p=campaign.futility_p, alpha=campaign.alpha, test=campaign.test)
    procedures = tuple(dict.fromkeys(("fixed", campaign.procedure)))
    model = model_curve(design, RESAMPLE_BUDGETS, procedures).assign(source="model (Gamma)")
    frame = model
    if run:
        key = ("campaign_resampled", loaded.digest, loaded.columns, loaded.a, loaded.b, loaded.protocol,
               procedures, design.options_only(), RESAMPLE_BUDGETS)

        def work(progress):
            parts = []
            scores = read(loaded.data, loaded.digest, loaded.name, loaded.protocol, loaded.columns)[0]
            for i, procedure in enumerate(procedures):
                parts.append(he.resampled_curves(scores, (loaded.a, loaded.b), RESAMPLE_BUDGETS,
                                                 procedures=(procedure,),
                                                 peeks=campaign.looks, boundary=campaign.boundary,
                                                 futility_p=campaign.futility_p, alpha=campaign.alpha,
                                                 test=campaign.test, n_sims=RESAMPLE_SIMS, seed=2022))
                progress((i + 1) / len(procedures))
            return pd.concat(parts, ignore_index=True)

        with guard("Cannot resample these judgments", stop=False):
            resampled = simulation(key, work, text="Resampling last year's judgments…")
            frame = pd.concat([model, resampled.assign(source="resampled")], ignore_index=True)
    frame = frame.assign(label=frame["procedure"].map(DESIGN_LABELS) + ", " + frame["source"])
    plotted["resampled_vs_model"] = frame
    chart(figures.curve_figure(frame, x="budget", y="power", color="label", current=None, target=target,
                               title=f"Power vs planned judgments: {figures.plotly_text(loaded.a[:30])} vs "
                                     f"{figures.plotly_text(loaded.b[:30])}",
                               x_title="Planned judgments for the pair", y_title="Power", y_range=(0, 1.02),
                               style=style()), "resampled_chart")
    st.caption(md_escape(_trust(loaded, frame)) if run else
               "The model's curve uses the fitted mean, SD and difference on the 0–100 scale; switch on resampling to "
               "see the power of the real judgments beside it.")

    raters_block(comps, every, fit, loaded.protocol, budget, plotted)

    # savings over this campaign's pairs (Wei et al. §7.3 on your own population of differences)
    if len(every.differences) >= 2:
        with guard("Cannot compute the savings over these pairs", stop=False):
            saved = savings(design.options_only(), budget, tuple(float(d) for d in every.population()))
            plotted["savings_over_pairs"] = saved
            row = saved.set_index("design").loc["interim_futility"]
            st.caption(f"Over all {len(every.differences)} pairs of this campaign's {len(loaded.table)} systems, "
                       f"interim-futility matches the fixed design's average power at {budget:,} judgments with "
                       + ("—" if not math.isfinite(row['saving']) else f"{100 * row['saving']:.0f}% fewer") +
                       " judgments (Wei et al. 2022, §7.3).")


# ---------------------------------------------------------------------------
# plan and code view
# ---------------------------------------------------------------------------
def plan_extras(found, loaded: Loaded | None, source_of) -> dict:
    """Keyword arguments of :func:`core.sequential.plan.plan_item` for the sizes and where values came from."""
    sources = {key: source_of(key) for key in ("mean", "sd", "delta")}
    return {"sample_sizes": found, "sources": sources,
            "fitted": None if loaded is None else loaded.label}


def snippet_extras(found, loaded: Loaded | None = None) -> dict:
    """Keyword arguments of :func:`core.sequential.snippet.sequential_snippet`: print the sizes when the page shows
    them, and read and fit the uploaded file (by its name, next to the notebook) when there is one."""
    extras = {"sizes": found is not None}
    if loaded is not None:
        extras["fitted"] = (loaded.name, loaded.a, loaded.b, loaded.protocol)
    return extras
