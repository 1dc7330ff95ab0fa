"""The home page's "Start from your data": recognition of uploaded files, read and fitted for the right page.

Pure (no streamlit). :func:`recognise` tells which kind of evaluation file an upload is (lm-evaluation-harness sample
logs, a tidy per-answer LLM log, pairwise votes, per-item scores, pilot ratings, human judgments of a campaign
(:mod:`core.humaneval`), MT outputs) from its structure, using the same defensive readers as the pages
(:mod:`core.uploads`; nothing is executed). :func:`read_upload` then reads it with the target page's own reader,
fits what that page can take (point estimates only, no bootstrap), and returns the widget values to open the page
with.

The home page's cards are not here: each scenario package computes its own (``core/<scenario>/teaser.py``, a
:class:`core.teaser.Teaser`), and ``pages/_registry.py`` names each page's teaser (``PageInfo.teaser``).
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from urllib.parse import quote

import numpy as np
import pandas as pd

from . import analysis as an
from . import humaneval as he
from . import llm
from . import mt
from . import pairwise as pw
from . import ratings as rt
from . import uploads

__all__ = [
    "UploadKind",
    "UPLOAD_KINDS",
    "accepted_formats",
    "recognise",
    "Upload",
    "read_upload",
    "read_uploads",
]


# ---------------------------------------------------------------------------
# recognising uploads
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class UploadKind:
    """A kind of evaluation file the home page recognises."""

    kind: str
    label: str
    page: str
    shape: str


UPLOAD_KINDS = {k.kind: k for k in (
    UploadKind("harness", "lm-evaluation-harness sample log", "llm",
               "JSONL from `--log_samples`: one line per document with `doc_id`, `resps`/`filtered_resps` and the "
               "metrics"),
    UploadKind("inspect", "Inspect AI log", "llm",
               "`.eval` (or `.json`) logs that `inspect eval` writes: two, the baseline's first"),
    UploadKind("helm", "HELM run", "llm",
               "a run's `per_instance_stats.json` (HELM's benchmark output): two, the baseline's first"),
    UploadKind("lighteval", "lighteval details", "llm",
               "the `details_<task>_<date>.parquet` files of `lighteval … --save-details`: two, the baseline's first"),
    UploadKind("llm_log", "per-answer LLM log", "llm",
               "CSV/TSV/JSONL with columns `question`, `model`, `score` (optional `sample`, `cluster`)"),
    UploadKind("votes", "pairwise votes", "leaderboard",
               "CSV/JSONL/Parquet with columns `model_a`, `model_b`, `winner` (arena or AlpacaEval style; MT-Bench's "
               "`*_pair.jsonl` judgments)"),
    UploadKind("pilot", "pilot ratings", "ratings",
               "CSV with columns `worker`, `item`, `system`, `rating` (two systems)"),
    UploadKind("human_scores", "human judgments of several systems", "sequential",
               "Google WMT MQM files (`*.avg_seg_scores.tsv`, error annotations `mqm_*.tsv`, `psqm_*.tsv`), "
               "mt-metrics-eval `*.seg.score` and `*.seg.rating`, WMT's unified `*-humeval.jsonl`, an Appraise scores "
               "export (CSV without header: DA, ESA or MQM), WMT DA `ad-seg-scores`/`good-stnd` tables, the Hugging "
               "Face copies of WMT's MQM and DA+SQM judgments (CSV or Parquet: `lp`, `src`, `score`, `system`, …), or "
               "a table with columns system, item (segment), rater, score"),
    UploadKind("mt", "MT outputs", "mt",
               "TSV with three text columns: system A, system B, reference (one segment per line)"),
    UploadKind("mt_text", "one MT output or reference file", "mt",
               "plain text, one segment per line (the MT page reads system A, system B and the references together)"),
    UploadKind("scores", "per-item scores", "analysis",
               "CSV/TSV with one numeric column per system (one row per item), or 0/1 correctness"),
    UploadKind("predictions", "per-item predictions and gold labels", "analysis",
               "CSV/TSV with three label columns: prediction of A, prediction of B, gold label"),
)}


def accepted_formats() -> str:
    """The accepted formats, one per line (for messages)."""
    return "\n".join(f"- {k.label}: {k.shape}" for k in UPLOAD_KINDS.values())


_HARNESS_MARKS = frozenset({"resps", "filtered_resps", "arguments", "doc", "target", "doc_hash", "metrics"})
_VOTE_COLUMNS = frozenset({"model_a", "model_b", "winner"})
_PILOT_COLUMNS = frozenset({"worker", "item", "system", "rating"})
#: The Hugging Face copies of WMT's judgments (RicardoRei/wmt-mqm-human-evaluation, …: lp, src, mt, ref, score, …).
_HF_WMT_COLUMNS = frozenset({"lp", "src", "mt"})
# the column names (and aliases) core.llm.read_benchmark_log accepts for its three required roles
_LLM_ROLES = {role: llm._ALIASES[role] for role in ("question", "model", "score")}


#: AlpacaEval's annotations.json fields (tatsu-lab/alpaca_eval): the two generators and the judge's preference,
#: read as votes by :func:`core.pairwise.read_votes`.
_ALPACA_EVAL_COLUMNS = {"generator_1", "generator_2", "preference"}
#: FastChat's MT-Bench pairwise judgments (``gpt-4_pair.jsonl``), read as votes by :func:`core.pairwise.read_votes`.
_MT_BENCH_COLUMNS = {"model_1", "model_2", "g1_winner", "g2_winner"}
#: The arena-human-preference-55k CSV (lmsys): the outcome as three 0/1 columns.
_ARENA_55K_COLUMNS = {"model_a", "model_b", "winner_model_a", "winner_model_b", "winner_tie"}


def _is_llm_log(keys: set) -> bool:
    return all(any(a in keys for a in aliases) for aliases in _LLM_ROLES.values())


def _first_record(text: str, name: str) -> dict:
    """The first JSON object of JSON Lines or of a JSON array (the array is parsed whole: it is one value)."""
    stripped = text.lstrip()
    if stripped.startswith("[") or stripped.split("\n", 1)[0].strip() == "{":  # an array, or one indented object
        records = uploads.read_jsonl(stripped.encode("utf-8"), name=name)
        return records[0]
    for number, line in enumerate(uploads.split_lines(stripped), start=1):
        if line.strip():
            record = uploads._json_value(line, name=name, line=number)
            if not isinstance(record, dict):
                raise ValueError(f"{name}, line {number:,}: expected a JSON object.")
            return record
    raise ValueError(f"{name} has no records.")


def _numeric_share(cells) -> float:
    cells = [c for c in cells if not uploads.is_missing(c)]
    if not cells:
        return 0.0
    good = 0
    for c in cells:
        try:
            good += math.isfinite(float(c))
        except ValueError:
            pass
    return good / len(cells)


def _looks_like_mt(text: str) -> bool:
    """Three tab-separated columns of sentences (several words per cell), on every one of the first lines."""
    lines = [line for line in uploads.split_lines(text[:200_000])[:50] if line.strip()]
    if len(lines) < 1:
        return False
    rows = [line.split("\t") for line in lines]
    if any(len(r) != 3 for r in rows):
        return False
    body = rows[1:] if [c.strip().lower() for c in rows[0]] in (["hyp_a", "hyp_b", "ref"], ["hyp_a", "hyp_b", "refs"],
                                                                 ["a", "b", "ref"], ["a", "b", "reference"]) else rows
    cells = [c for r in body for c in r]
    if not cells or _numeric_share(cells) > 0.2:
        return False
    return float(np.mean([len(c.split()) for c in cells])) >= 2.0


def _looks_like_sentences(text: str) -> bool:
    """One segment per line: plain sentences (no tabs; several words a line, few of them numbers), not a delimited
    table whose every line splits into the same number of fields as its header."""
    lines = [line for line in uploads.split_lines(text[:200_000])[:200] if line.strip()]
    if len(lines) < 2 or any("\t" in line for line in lines):
        return False  # a single line is too little to call a file of segments
    words = [line.split() for line in lines]
    if float(np.mean([len(w) for w in words])) < 3.0:
        return False
    if _numeric_share([t.strip(".,;:!?") for w in words for t in w]) > 0.2:
        return False
    sample = "\n".join(lines)
    for sep in (",", ";", "|"):
        # fields as a CSV reader splits them (a quoted free-text cell may hold the separator, or a line break)
        rows = [row for row in csv.reader(io.StringIO(sample), delimiter=sep) if row]
        counts = {len(row) for row in rows[:-1] or rows}
        if len(counts) == 1 and counts != {1}:
            return False  # the same number of fields on every row: a table
    return True


def _label(name) -> str:
    """The file's name as a code span for messages (backticks removed, at most 80 characters)."""
    return "`" + str(name)[:80].replace("`", "'") + "`"


def recognise(name: str, data) -> str:
    """The kind of evaluation file ``data`` is, from its structure (never its name alone).

    Parameters
    ----------
    name : str
        The file's name, for messages; and for mt-metrics-eval score files, which exist only by a naming convention
        (``<lp>.<protocol>.seg.score``). JSON is recognised by the content (a leading ``{`` or ``[``).
    data : bytes
        The file's content (at most :data:`core.uploads.MAX_BYTES`).

    Returns
    -------
    str
        A key of :data:`UPLOAD_KINDS`: ``"harness"`` (JSON lines with ``doc_id`` and harness fields such as
        ``resps``), ``"votes"`` (``model_a``, ``model_b``, ``winner``), ``"llm_log"`` (``question``, ``model``,
        ``score`` or their aliases), ``"pilot"`` (``worker``, ``item``, ``system``, ``rating``), ``"human_scores"``
        (the formats of :func:`core.humaneval.read_scores`: Google MQM, mt-metrics-eval, Appraise, WMT DA and long
        tables of system, item, rater, score), ``"mt"`` (three
        tab-separated columns of sentences), ``"mt_text"`` (one segment per line: one system's outputs), ``"scores"`` (numeric columns) or ``"predictions"`` (three label
        columns).

    Raises
    ------
    ValueError
        For an unreadable file (empty, binary, not UTF-8, too large, malformed; see :mod:`core.uploads`), or one
        of no recognised shape — the message lists the accepted formats.

    Examples
    --------
    >>> recognise("votes.csv", b"model_a,model_b,winner\\nx,y,model_a\\n")
    'votes'
    >>> recognise("scores.csv", b"a,b\\n0.5,0.6\\n0.7,0.4\\n")
    'scores'
    """
    label = _label(name)
    try:
        return _recognise(label, data, str(name))
    except ValueError as err:
        text = str(err)
        if "Accepted formats" not in text:
            text += " Accepted formats:\n" + accepted_formats()
        raise ValueError(text) from None


def _recognise(label: str, data, name: str = "") -> str:
    unknown = (f"{label} is not a file the app recognises. Accepted formats:\n" + accepted_formats())
    if llm.is_inspect_log(name, data):
        return "inspect"
    if llm.is_helm_stats(data):
        return "helm"
    if uploads.is_parquet(data):  # Hugging Face datasets: votes, and lighteval's details
        if llm.is_lighteval_details(data):
            return "lighteval"
        columns = {c.strip().lower() for c in uploads.parquet_columns(data, name=label)}
        if _VOTE_COLUMNS <= columns or _ARENA_55K_COLUMNS <= columns or _ALPACA_EVAL_COLUMNS <= columns:
            return "votes"
        if set(he.guess_roles(columns)) >= {"system", "item", "score"} or _HF_WMT_COLUMNS <= columns:
            return "human_scores"  # judgments (Hugging Face copies of WMT's); one without systems is refused there
        raise ValueError(f"{label} is a Parquet file; the app reads votes from Parquet (columns model_a, model_b, "
                         "winner, as chatbot_arena_conversations and mt_bench_human_judgments have them), "
                         "lighteval's details (columns doc and metric) and human judgments (system, segment and "
                         "score columns, as the Hugging Face copies of WMT's MQM and DA+SQM judgments have them). "
                         "Other kinds: save the file as CSV or JSONL.\n\nAccepted formats:\n" + accepted_formats())
    text = uploads.decode_text(data, name=label)
    if uploads.looks_like_json(data):
        keys = {str(k).strip().lower() for k in _first_record(text, label)}
        if {"results", "configs"} <= keys:
            raise ValueError(f"{label} is lm-evaluation-harness's results file: aggregate scores only, one per task, "
                             "which cannot show how questions vary. Upload the samples_<task>_<date>.jsonl files "
                             "written with --log_samples (one per model).")
        if "doc_id" in keys and keys & _HARNESS_MARKS:
            return "harness"
        if _VOTE_COLUMNS <= keys or _ALPACA_EVAL_COLUMNS <= keys or _MT_BENCH_COLUMNS <= keys:
            # arena battles, AlpacaEval annotations or MT-Bench judgments
            return "votes"
        if _is_llm_log(keys):
            return "llm_log"
        if {"scores", "doc_id"} <= keys or set(he.guess_roles(keys)) >= {"system", "item", "score"}:
            return "human_scores"
        raise ValueError(unknown)
    human = he.sniff_format(text, name)
    if human is not None and human not in ("table", "wmt_da"):  # a format of its own (MQM, mt-metrics-eval, Appraise)
        return "human_scores"
    if _looks_like_mt(text):
        return "mt"
    if _looks_like_sentences(text):
        return "mt_text"
    table = uploads.read_table(data, name=label, min_columns=2)
    columns = {str(c).strip().lower() for c in table.columns}
    if _VOTE_COLUMNS <= columns or _ARENA_55K_COLUMNS <= columns:
        return "votes"
    if _PILOT_COLUMNS <= columns:
        return "pilot"
    # a table of human judgments names a rater (the README's system, item, rater, score): an LLM log has none
    if human is not None and "rater" in he.guess_roles(table.columns):
        return "human_scores"
    if _is_llm_log(columns):
        return "llm_log"
    if human is not None:  # a long table of judgments: system, item, score (and rater) columns
        return "human_scores"
    if _HF_WMT_COLUMNS <= columns:  # a Hugging Face copy of WMT's judgments without a system column: the reader says
        return "human_scores"
    sample = table.head(200)
    numeric = [_numeric_share(sample[c]) for c in sample.columns]
    if min(numeric) >= 0.9:
        return "scores"
    if table.shape[1] == 3:  # prediction of A, prediction of B, gold label
        return "predictions"
    raise ValueError(unknown)


@dataclass(frozen=True)
class Upload:
    """A recognised upload, read with its page's reader.

    Attributes
    ----------
    kind : str
        Key of :data:`UPLOAD_KINDS`.
    page : str
        The page to open.
    summary : str
        What was found, in one plain-text sentence (contains file text: escape it before showing).
    values : tuple of (str, object)
        Widget keys of the page and the fitted values to open it with (rounded to the widgets' steps and clipped
        to their ranges, as the page's own "Use these values" buttons do); empty when the page cannot take
        values from a link.
    next_step : str
        What to do on the page (plain text).
    link : tuple of (str, str)
        Further URL parameters that open the page where the file is used (a tab, an upload mode).
    """

    kind: str
    page: str
    summary: str
    values: tuple = field(default=())
    next_step: str = ""
    link: tuple = field(default=())

    @property
    def query(self) -> dict[str, str]:
        """``values`` and ``link`` as URL query parameters."""
        return {**{k: str(v) for k, v in self.values}, **dict(self.link)}


#: The LLM page's tab that reads logs (its ``?view=`` value).
LLM_LOG_TAB = "Estimate from your logs"
#: The MT page's tab that fits P0 and b0 from outputs (its ``?view=`` value).
MT_FIT_TAB = "Fit P0 and b0 from your outputs"
_K_OPTIONS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 32, 40, 50)  # the LLM page's select_slider options
_M_OPTIONS = (1, 2, 3, 4, 5, 8, 10, 15, 20, 25, 50, 100)


def _nearest(options, value):
    return min(options, key=lambda o: abs(o - value))


def _clip(value, low, high):
    return float(min(max(value, low), high))


def _llm_upload(kind: str, log: pd.DataFrame, what: str, extra: str = "") -> Upload:
    """The LLM page's fit of a per-answer log, rounded to its sliders as its "Use these values" button does."""
    fitted = llm.fit_benchmark(log, n_boot=0, seed=0)
    a_name, b_name = fitted.models
    values = {"acc_a": _clip(round(200 * fitted.accuracy[a_name]) / 2, 1.0, 99.0),
              "k": _nearest(_K_OPTIONS, fitted.samples), "m": _nearest(_M_OPTIONS, fitted.cluster_size)}
    if fitted.difficulty_sd is not None:
        values["sd"] = _clip(round(fitted.difficulty_sd, 2), 0.0, 0.5)
    if fitted.correlation is not None:
        values["rho"] = _clip(round(fitted.correlation * 20) / 20, -0.5, 1.0)
    if fitted.icc is not None and fitted.cluster_size > 1:
        values["icc"] = _clip(round(fitted.icc * 20) / 20, 0.0, 1.0)
    return Upload(kind, "llm", f"{what} of {a_name} (baseline) and {b_name}{extra}: {fitted.n_questions:,} "
                  f"questions, K = {fitted.samples}; accuracy {100 * fitted.accuracy[a_name]:.1f}% vs "
                  f"{100 * fitted.accuracy[b_name]:.1f}%.", tuple(values.items()),
                  "The LLM page opens with the baseline accuracy, σ, ρ, K and clusters fitted from the log (σ and ρ "
                  "need K > 1 answers per question); the expected gain stays yours.")


def _sig(x: float, digits: int = 4) -> float:
    """``x`` to ``digits`` significant figures (the link carries the fitted values on the file's own scale)."""
    return float(f"{x:.{digits}g}") if math.isfinite(x) else x


def _human_upload(name: str, data) -> Upload:
    """Human judgments: the systems' table, the closest pair at the top, its mean, SD and difference for the DA
    campaign page (:func:`core.humaneval.read_scores`, :func:`~core.humaneval.system_table`,
    :func:`~core.humaneval.default_pair`)."""
    scores = he.read_scores(bytes(data), name)
    table = he.system_table(scores).set_index("system")
    a, b, reason = he.default_pair(scores)
    pair = table.loc[[a, b]]
    n = pair["judgments"].to_numpy(dtype=float)
    sd = pair["sd"].to_numpy(dtype=float)
    pooled = math.sqrt(float(((n - 1) * sd ** 2).sum() / (n.sum() - 2))) if n.sum() > 2 else math.nan
    mean = float((pair["mean"] * pair["judgments"]).sum() / n.sum())
    delta = float(pair["mean"].iloc[0] - pair["mean"].iloc[1])
    protocol, fmt = scores.attrs["protocol"], scores.attrs["format"]
    raters = int(scores["rater"].nunique(dropna=True))
    who = f", {raters:,} rater{'' if raters == 1 else 's'}" if raters else ""
    notes = " ".join(scores.attrs["notes"][:2])
    summary = (f"{he.FORMATS.get(fmt, fmt)} ({protocol.upper()}): {len(scores):,} judgments of {len(table)} systems "
               f"on {scores['item'].nunique():,} segments{who}. {reason} {notes}").strip()
    # the DA page's sliders are on the 0–100 campaign scale: the pair's fit mapped there (MQM, SQM, …), rounded and
    # clipped as the page's own "use the fitted values" button does
    design = he.fit_campaign(scores, [a, b]).design("fixed")
    shown = he.slider_values(design)
    values = (("mean", shown["mean"]), ("sd", shown["sd"]), ("delta", shown["delta"]))
    label = f"{str(name)[:60]}: {a[:40]} vs {b[:40]}"
    scale = "" if protocol in ("da", "esa") else (f" (on the file's {protocol.upper()} scale: mean {mean:.3g}, SD "
                                                  f"{pooled:.3g}, difference {abs(delta):.3g})")
    return Upload("human_scores", UPLOAD_KINDS["human_scores"].page, summary, values,
                  f"The DA campaign page opens with the judgments of {a} and {b} on its 0–100 scale: mean "
                  f"{shown['mean']:g}, SD {shown['sd']:g}, difference {shown['delta']:g}{scale}; upload the file there "
                  "to resample its real scores.",
                  (("fitted", label), ("protocol", protocol), ("sys_a", str(a)), ("sys_b", str(b))))


def read_uploads(files) -> Upload:
    """One upload (:func:`read_upload`), or two lm-evaluation-harness samples files or two Inspect AI logs: one per
    model.

    Parameters
    ----------
    files : sequence of (str, bytes)
        File names and contents, in upload order. Two harness files are read with
        :func:`core.llm.read_harness_samples` (the first is the baseline; models are named after the files; the
        first metric and filter of :func:`core.llm.harness_options`, which the LLM page lets you change) and
        fitted like a per-answer log; two Inspect logs with :func:`core.llm.read_inspect_logs` (the first score
        both have); two lighteval details files with :func:`core.llm.read_lighteval_runs` (the first metric both
        have).

    Returns
    -------
    Upload

    Raises
    ------
    ValueError
        No file, several files that are not two harness samples files, or a reader's message.
    """
    files = [(str(name), data) for name, data in files]
    if not files:
        raise ValueError("No file was uploaded.")
    if len(files) == 1:
        return read_upload(*files[0])
    kinds = [recognise(name, data) for name, data in files]
    if len(files) == 2 and kinds == ["inspect", "inspect"]:
        options = llm.inspect_options([(files[0][0], bytes(files[0][1]))], [(files[1][0], bytes(files[1][1]))])
        if not options.scorers:
            raise ValueError("The two Inspect logs share no score.")
        scorer = options.scorers[0]
        log = llm.read_inspect_logs([(files[0][0], bytes(files[0][1]))], [(files[1][0], bytes(files[1][1]))],
                                    scorer=scorer)
        return _llm_upload("inspect", log, "Inspect AI logs", f" (score {scorer})")
    if len(files) != 2 or kinds not in (["harness", "harness"], ["helm", "helm"], ["lighteval", "lighteval"]):
        raise ValueError("Several files are read together only as two lm-evaluation-harness samples files, two "
                         "Inspect AI logs, two HELM runs' per_instance_stats.json or two lighteval details files, the "
                         "baseline's and the new model's; upload other files one at a time. Accepted formats:\n"
                         + accepted_formats())
    (name_a, data_a), (name_b, data_b) = files
    label_a, label_b = name_a[:60], name_b[:60]
    if label_a == label_b:  # HELM's files are all per_instance_stats.json
        label_a, label_b = f"A: {label_a}", f"B: {label_b}"
    entries = [(label_a, name_a, bytes(data_a)), (label_b, name_b, bytes(data_b))]
    if kinds[0] == "lighteval":
        options = llm.lighteval_options(entries)
        if not options.metrics:
            raise ValueError("The two lighteval details files share no per-sample metric with values in [0, 1] "
                             "(such as `acc`).")
        log = llm.read_lighteval_runs(entries, metric=options.metrics[0])
        return _llm_upload("lighteval", log, "lighteval details", f" (metric {options.metrics[0]})")
    if kinds[0] == "helm":
        options = llm.helm_options(entries)
        if not options.metrics:
            raise ValueError("The two HELM runs share no per-instance metric with values in [0, 1] (such as "
                             "`exact_match`).")
        log = llm.read_helm_runs(entries, metric=options.metrics[0])
        return _llm_upload("helm", log, "HELM runs", f" (metric {options.metrics[0]})")
    options = llm.harness_options(entries)
    if not options.metrics:
        raise ValueError("The two harness files share no per-sample metric with values in [0, 1] (such as `acc` or "
                         "`exact_match`).")
    metric = options.metrics[0]
    chosen = options.filters[0] if options.filters else None
    log = llm.read_harness_samples(entries, metric=metric, filter=chosen)
    return _llm_upload("harness", log, "lm-evaluation-harness samples",
                       f" (metric {metric}" + (f", filter {chosen}" if chosen else "") + ")")


def read_upload(name: str, data) -> Upload:
    """Recognise an upload, read it with its page's reader and fit the values that page takes.

    Parameters
    ----------
    name : str
        The file's name (for messages).
    data : bytes
        The file.

    Returns
    -------
    Upload

    Raises
    ------
    ValueError
        As :func:`recognise`, or the reader's own message when the file has a recognised shape but bad content.

    Notes
    -----
    Fits are the pages' own, with point estimates only: :func:`core.llm.fit_benchmark` (``n_boot=0``),
    :func:`core.pairwise.fit_bradley_terry` (``n_boot=0``), :func:`core.ratings.fit_pilot` and
    :func:`core.mt.fit_swap_effects`.
    """
    kind = recognise(name, data)
    label = _label(name)
    page = UPLOAD_KINDS[kind].page
    if kind == "harness":
        records = uploads.read_jsonl(data, name=label)
        metrics = records[0].get("metrics") if isinstance(records[0].get("metrics"), list) else []
        shown = ", ".join(str(m)[:30] for m in metrics[:6]) or "none listed"
        return Upload(kind, page, f"An lm-evaluation-harness samples file: {len(records):,} documents (metrics: "
                      f"{shown}).",
                      next_step="Upload the other model's samples file together with this one (two files: baseline "
                      "first), or use the LLM page's “Estimate from your logs” view, which also reads several runs "
                      "per model.",
                      link=(("view", LLM_LOG_TAB),))
    if kind == "inspect":
        log = llm.read_inspect_log(data, name=label)
        shown = ", ".join(s[:30] for s in log.scorers[:6]) or "none"
        return Upload(kind, page, f"An Inspect AI log of {log.model} on {log.task}: "
                      f"{len({q for q, _, _ in log.samples}):,} samples × {log.epochs} epochs (scores: {shown}).",
                      next_step="Upload the other model's log together with this one (two files: baseline first), "
                      "or use the LLM page's “Estimate from your logs” view (Inspect AI logs), which also reads "
                      "several logs per model.", link=(("view", LLM_LOG_TAB),))
    if kind == "helm":
        run = llm.read_helm_stats(data, name=label)
        shown = ", ".join(m[:30] for m in run.metrics[:6]) or "none with values in [0, 1]"
        return Upload(kind, page, f"A HELM run's per-instance statistics: {len({i for i, _, _ in run.records}):,} "
                      f"instances × {run.trials} train trials (metrics: {shown}).",
                      next_step="Upload the other model's per_instance_stats.json together with this one (two files: "
                      "baseline first), or use the LLM page's “Estimate from your logs” view (HELM runs), which also "
                      "names the models and reads several runs per model.", link=(("view", LLM_LOG_TAB),))
    if kind == "lighteval":
        run = llm.read_lighteval_details(data, name=label)
        shown = ", ".join(m[:30] for m in run.metrics[:6]) or "none with values in [0, 1]"
        return Upload(kind, page, f"lighteval details of {run.task[:80] or 'one task'}: {len(run.records):,} samples "
                      f"(metrics: {shown}).",
                      next_step="Upload the other model's details of the same task together with this one (two "
                      "files: baseline first), or use the LLM page's “Estimate from your logs” view (lighteval "
                      "details), which also names the models and reads several tasks per model.",
                      link=(("view", LLM_LOG_TAB),))
    if kind == "llm_log":
        return _llm_upload(kind, llm.read_benchmark_log(data, name=label), "A per-answer log")
    if kind == "votes":
        votes = pw.read_votes(data, name=label)
        fitted = pw.fit_bradley_terry(votes, ties="drop", n_boot=0, seed=0)
        ratings = fitted.ratings.sort_values(ascending=False).head(50)
        encoded = ";".join(f"{quote(str(k), safe='')}:{v:.1f}" for k, v in ratings.round(1).items())
        return Upload(kind, page, f"{fitted.n_votes:,} pairwise votes ({fitted.n_ties:,} ties) among "
                      f"{len(fitted.models)} systems.", (("preset", "custom"), ("ratings", encoded)),
                      "The Leaderboard page opens with the fitted ratings as your table, to plan the next round of "
                      "votes.")
    if kind == "pilot":
        fitted = rt.fit_pilot(uploads.read_table(data, name=label, min_columns=2))
        values = {k: _clip(round(v, 3), 0.0, 0.4) for k, v in fitted.sigmas.items()}
        values["effect"] = _clip(round(round(abs(fitted.effect) / 0.005) * 0.005, 3), 0.0, 0.3)
        values["baseline"] = _clip(round(fitted.baseline, 2), 0.1, 0.9)
        return Upload(kind, page, f"Pilot ratings: {fitted.n_ratings:,} ratings by {fitted.workers} workers of "
                      f"{fitted.items} items; effect β1 = {fitted.effect:+.3f}.", tuple(values.items()),
                      "The Ratings page opens with the effect, mean rating and the five variance components fitted "
                      "from the pilot.")
    if kind == "mt_text":
        lines = uploads.split_lines(uploads.decode_text(data, name=label))
        while lines and not lines[-1].strip():
            lines.pop()
        return Upload(kind, page, f"Plain text with one segment per line ({len(lines):,} lines): one system's "
                      "outputs or the references.",
                      next_step="The MT page needs three aligned files — system A's outputs, system B's outputs and "
                      "the references — to fit P0, b0 and the BLEU difference: upload them together there (or one "
                      "TSV with the three columns here).",
                      link=(("view", MT_FIT_TAB),))  # the tab opens on its three-file mode
    if kind == "human_scores":
        return _human_upload(name, data)
    if kind == "mt":
        hyp_a, hyp_b, refs = mt.read_tsv(bytes(data))
        fitted = mt.fit_swap_effects(hyp_a, hyp_b, refs)
        values = {"p0": _clip(round(fitted.p0, 2), 0.0, 0.9), "b0": _clip(round(fitted.b0, 1), 5.0, 100.0),
                  "delta": _clip(round(round(fitted.delta_bleu / 0.05) * 0.05, 2), -10.0, 10.0)}
        return Upload(kind, page, f"MT outputs of two systems on {fitted.n:,} segments: BLEU {fitted.bleu_a:.2f} vs "
                      f"{fitted.bleu_b:.2f}; P0 = {fitted.p0:.3f}, b0 = {fitted.b0:.1f}.", tuple(values.items()),
                      "The MT page opens with P0, b0 and Δ_B fitted from your outputs.")
    # per-item results: the Analyze page reads the file itself (a link cannot carry it)
    table = uploads.read_table(data, name=label, min_columns=2)
    layout = kind
    if kind == "scores":
        if table.shape[1] > 2:
            layout = "systems"
        elif all(str(c).strip() in ("0", "1", "0.0", "1.0") for c in table.iloc[:200].to_numpy().ravel()
                 if not uploads.is_missing(str(c))):
            layout = "binary"
    parsed = an.parse_results(bytes(data), layout)
    return Upload(kind, page, f"Per-item results of {len(parsed.names)} systems on {parsed.rows_used:,} items.",
                  next_step="On the Analyze page, upload the same file: it picks the right test and reports effect "
                  "sizes.", link=(("data", "upload"), ("kind", layout)))
