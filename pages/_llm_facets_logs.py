"""The LLM page's "Prompts and seeds" tab: the variance components estimated from your logs (UI only; numbers from
:func:`core.llm.fit_facets`)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core import llm, uploads
from pages._llm_readers import read_helm_uploads, read_inspect_uploads
from pages._scaffold import apply_values, cached_upload, guard, list_of, safe_message
from pages._uploads import file_uploader, opened, upload_types


@cached_upload
def _read_tidy(data: bytes, name: str):
    if uploads.looks_like_json(data):
        return pd.DataFrame(uploads.read_jsonl(data, name=name))
    return uploads.read_table(data, name=name, min_columns=3, header="yes")


@cached_upload
def _read_harness(entries, metric, filter_):
    return llm.read_harness_templates(list(entries), metric=metric, filter=filter_)


@cached_upload
def _harness_options(entries):
    return llm.harness_options(list(entries))


@cached_upload
def _fit(log: pd.DataFrame):
    return llm.fit_facets(log)



def fit_from_logs(*, sd_keys):
    """Estimate the components from a long log, or lm-evaluation-harness files or Inspect AI logs (one per model and
    template)."""
    box = st.expander("Estimate the components from your logs", key="fc_fit_open", on_change="rerun",
                      icon=":material/upload_file:")
    if not box.open:
        return
    with box:
        source = st.radio("Logs", ["tidy", "harness", "inspect", "helm"], horizontal=True, key="fc_source",
                          format_func={"tidy": "per-answer table (CSV/JSONL)",
                                       "harness": "lm-evaluation-harness files, one per prompt variant",
                                       "inspect": "Inspect AI logs, one per prompt variant",
                                       "helm": "HELM runs, train trials as templates"}.get,
                          help="A table with columns model, question, template (or prompt, prompt_id, template_id, "
                          "fewshot_seed), sample (optional) and score. Inspect logs of the runs under each prompt "
                          "template are paired by their task arguments and solvers (e.g. `-T template=cot`); their "
                          "epochs are the samples. HELM's train trials each draw their own in-context examples: "
                          "they are the templates.")
        log, origin = None, None
        with guard("Cannot read these logs", stop=False):
            if source == "tidy":
                up = file_uploader(st, "Per-answer log",
                                   type=upload_types("csv", "tsv", "txt", "jsonl", "json"), key="fc_log",
                                   help="Nothing in the file is executed.")
                up = opened(up)
                if up is not None:
                    log, origin = _read_tidy(up.getvalue(), up.name), up.name
            elif source == "inspect":
                log, origin = read_inspect_uploads(prefix="fc_inspect", templates=True)
            elif source == "helm":
                log, origin = read_helm_uploads(prefix="fc_helm", trials="templates")
            else:
                c1, c2 = st.columns(2)
                name_a = c1.text_input("Baseline model name", "baseline", key="fc_name_a", max_chars=80)
                files_a = file_uploader(c1, "Its samples_*.jsonl files, one per template",
                                        type=upload_types("jsonl", "json"),
                                        accept_multiple_files=True, key="fc_files_a",
                                        help="One run per prompt variant or few-shot seed, in the same order for "
                                        "both models.")
                name_b = c2.text_input("New model name", "new", key="fc_name_b", max_chars=80)
                files_b = file_uploader(c2, "Its samples_*.jsonl files, one per template",
                                        type=upload_types("jsonl", "json"),
                                        accept_multiple_files=True, key="fc_files_b")
                files_a, files_b = opened(files_a), opened(files_b)
                if files_a and files_b:
                    if name_a.strip() == name_b.strip():
                        raise ValueError("The two models need different names.")
                    entries = tuple((name, f.name, f.getvalue()) for name, files in ((name_a, files_a),
                                                                                    (name_b, files_b))
                                    for f in sorted(files, key=lambda f: f.name))
                    options = _harness_options(entries)
                    c1, c2 = st.columns(2)
                    metric = c1.selectbox("Metric", options.metrics, key="fc_metric")
                    filt = c2.selectbox("Filter", options.filters, key="fc_filter")
                    log, origin = _read_harness(entries, metric, filt), f"{len(entries)} harness files"
                    st.caption("The k-th file of each model (by name) is template k: " + list_of(
                        [f.name for f in sorted(files_a, key=lambda f: f.name)]))
        if log is None:
            return
        with guard("Cannot estimate the components", stop=False):
            fit = _fit(log)
            a_name, b_name = fit.models
            st.markdown(f"Estimated from {safe_message(origin)} ({'ANOVA' if fit.method == 'anova' else 'REML'}): "
                        f"baseline {list_of([a_name])}, new {list_of([b_name])}; **{fit.n:,}** questions × "
                        f"**{fit.templates}** templates × **{fit.samples}** samples.")
            for note in fit.notes:
                st.caption(safe_message(note))
            table = pd.DataFrame({"component": ["model × template", "model × question", "model × question × template",
                                                "sampling noise"],
                                  "variance": [fit.var_template, fit.var_item, fit.var_item_template, fit.var_sample]})
            table["sd_points"] = 100 * np.sqrt(table["variance"])
            st.dataframe(table, hide_index=True, width="stretch", column_config={
                "variance": st.column_config.NumberColumn(format="%.6f"),
                "sd_points": st.column_config.NumberColumn("SD (points)", format="%.2f")})
            st.caption(f"The logs' own gain: {100 * fit.delta:+.2f} points, SE {100 * fit.se:.2f} points, "
                       f"Satterthwaite df {fit.df:.1f}. Plan for the gain you hope to detect, not this one.")
            values = {key: float(np.clip(round(100 * math.sqrt(v), 2), 0.0, 30.0 if key == "fc_sd_t" else 100.0))
                      for key, v in zip(sd_keys, (fit.var_template, fit.var_item, fit.var_item_template,
                                                  fit.var_sample))}
            if fit.templates == 1:
                # one template shows no model × template variance (its 0 is "not measured", not "none"): the
                # assumption stays, and with it the ceiling the tab warns about
                values.pop(sd_keys[0], None)
            st.button("Use these components", on_click=apply_values, args=(values, f"fitted from {origin}"),
                      key="fc_use_fit", type="primary",
                      help="Sets the SDs in the assumptions above (rounded to 0.01 points)"
                      + (" — all but the model × template SD, which one template cannot measure." if fit.templates
                         == 1 else "."))
