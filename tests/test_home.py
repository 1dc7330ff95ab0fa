"""core.home: the recognition of uploaded files, and the home page's significance-filter chart (core.demo).

The cards' numbers (each scenario's teaser) are tests/test_home_teasers.py. The significance-filter chart's data is
checked against the exact sign-test power (within 4 Monte Carlo SE) and for null calibration.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from urllib.parse import unquote

import numpy as np
import pandas as pd
import pytest

from core import analysis as an
from core import demo, home, llm, mt
from core import pairwise as pw
from core import ratings as rt
from core import uploads


# ---------------------------------------------------------------------------
# the significance filter (home-page chart)
# ---------------------------------------------------------------------------
def test_significance_filter_is_the_replays_of_each_gap():
    frame = demo.significance_filter(25, (0.1, 0.3), n_experiments=50, seed=7)
    for i, gap in enumerate((0.1, 0.3)):
        r = demo.replay_experiments(25, (1 + gap) / 2, n_experiments=50, seed=7 + i)
        part = frame[np.isclose(frame["true_effect"], r.true_effect)]
        np.testing.assert_array_equal(part["observed"].to_numpy(), r.experiments["observed"].to_numpy())
        np.testing.assert_array_equal(part["significant"].to_numpy(), r.experiments["significant"].to_numpy())
    assert (frame["position"] - frame["true_effect"]).abs().max() <= 0.012


def test_significance_filter_share_significant_matches_the_exact_power():
    frame = demo.significance_filter(40, (0.3,), n_experiments=4000, seed=3)
    power = frame["power"].iloc[0]  # exact sign-test power (core.accuracy.preference_power)
    share = frame["significant"].mean()  # all significant results of a positive gap count, both signs
    se = math.sqrt(power * (1 - power) / len(frame))
    wrong = (frame["significant"] & (frame["observed"] < 0)).mean()
    assert abs(share - wrong - power) <= 4 * se


def test_significance_filter_null_calibration():
    frame = demo.significance_filter(50, (0.0,), n_experiments=5000, seed=11)
    se = math.sqrt(0.05 * 0.95 / len(frame))
    assert frame["significant"].mean() <= 0.05 + 4 * se  # the exact sign test is conservative


def test_significance_filter_exaggerates_small_gaps():
    frame = demo.significance_filter(25, (0.1,), n_experiments=2000, seed=5)
    sig = frame[frame["significant"] & (frame["observed"] > 0)]
    assert sig["observed"].mean() > 2 * 0.1  # Type-M > 2 at ≈ 8% power (Card et al. 2020, Figure 1)


# ---------------------------------------------------------------------------
# recognising uploads: small synthetic files of each shape
# ---------------------------------------------------------------------------
HARNESS = b"\n".join(json.dumps({"doc_id": i, "doc": {"q": f"{i}+1"}, "target": str(i + 1), "arguments": [],
                                 "resps": [[str(i + 1)]], "filtered_resps": [str(i + 1)], "filter": "none",
                                 "metrics": ["exact_match"], "exact_match": float(i % 2)}).encode()
                     for i in range(6))
VOTES_CSV = (b"model_a,model_b,winner\n" + b"\n".join(
    f"{a},{b},{w}".encode() for a, b, w in [("x", "y", "model_a"), ("y", "z", "model_b"), ("x", "z", "tie"),
                                             ("z", "x", "model_b"), ("y", "x", "model_a"), ("x", "y", "model_a")] * 5))
VOTES_JSON = json.dumps([{"model_a": "x", "model_b": "y", "winner": "model_a"},
                         {"model_a": "y", "model_b": "x", "winner": "model_b"}]).encode()


def llm_log_csv(seed=0) -> bytes:
    rng = np.random.default_rng(seed)
    rows = ["question,model,sample,score"]
    for q in range(60):
        p = rng.uniform(0.2, 0.9)
        for model, shift in (("base", 0.0), ("new", 0.05)):
            for k in range(3):  # K = 3 answers per question: σ and ρ are identifiable
                rows.append(f"q{q},{model},{k},{int(rng.uniform() < min(p + shift, 1))}")
    return "\n".join(rows).encode()


def pilot_csv(seed=0) -> bytes:
    rng = np.random.default_rng(seed)
    rows = ["worker,item,system,rating"]
    for w in range(4):
        for i in range(15):
            for s, shift in (("A", 0.0), ("B", 0.1)):
                rows.append(f"w{w},i{i},{s},{np.clip(0.5 + shift + rng.normal(0, 0.2), 0, 1):.3f}")
    return "\n".join(rows).encode()


MT_TSV = "\n".join(f"the cat sat on mat number {i}\tthe cat sits on the mat {i}\tthe cat sat on the mat {i}"
                   for i in range(12)).encode()
SCORES = b"sys_a,sys_b\n" + b"\n".join(f"{0.5 + i / 100:.2f},{0.45 + i / 90:.3f}".encode() for i in range(20))
BINARY = b"a,b\n" + b"\n".join(f"{i % 2},{(i // 2) % 2}".encode() for i in range(20))
SYSTEMS = b"s1,s2,s3\n" + b"\n".join(f"{i / 20:.2f},{(i + 3) % 20 / 20:.2f},{(i * 7) % 20 / 20:.2f}".encode()
                                     for i in range(20))
PREDICTIONS = b"pred_a,pred_b,gold\n" + b"\n".join(f"{'pos' if i % 3 else 'neg'},{'pos' if i % 2 else 'neg'},pos"
                                                   .encode() for i in range(20))


@pytest.mark.parametrize("name, data, kind", [
    ("samples_gsm8k_2024-01-01T00-00-00.jsonl", HARNESS, "harness"),
    ("votes.csv", VOTES_CSV, "votes"),
    ("votes.json", VOTES_JSON, "votes"),
    ("log.csv", llm_log_csv(), "llm_log"),
    ("log.jsonl", b'{"question": "q1", "model": "A", "score": 1}\n{"question": "q1", "model": "B", "score": 0}\n',
     "llm_log"),
    ("pilot.csv", pilot_csv(), "pilot"),
    ("outputs.tsv", MT_TSV, "mt"),
    ("outputs.txt", b"hyp_a\thyp_b\tref\n" + MT_TSV, "mt"),
    ("scores.csv", SCORES, "scores"),
    ("binary.csv", BINARY, "scores"),
    ("systems.csv", SYSTEMS, "scores"),
    ("predictions.csv", PREDICTIONS, "predictions"),
])
def test_recognise_each_shape(name, data, kind):
    assert home.recognise(name, data) == kind
    assert home.UPLOAD_KINDS[kind].page in {"llm", "leaderboard", "ratings", "mt", "analysis"}


@pytest.mark.parametrize("data", [
    b'{"foo": 1, "bar": 2}\n',
    b"name,city\nada,london\nalan,wilmslow\n",
    b"just one line of prose without columns\n",
    b"\x00\x01\x02binary",
    b"",
    "a,b\n1,2\n".encode("utf-16"),
    b"[1, 2, 3]",
    b"a,b,c,d\nx,y,z,w\n",
])
def test_unknown_or_unreadable_files_list_the_accepted_formats(data):
    with pytest.raises(ValueError) as err:
        home.recognise("mystery.txt", data)
    text = str(err.value)
    assert "Accepted formats" in text
    for kind in home.UPLOAD_KINDS.values():
        assert kind.label in text


@pytest.mark.parametrize("name, data, kind", [
    # the README's long table of judgments: 0–100 scores and a rater, not an LLM log
    ("judgments.csv", b"system,item,rater,score\nA,1,r1,50\nA,2,r1,60\nB,1,r1,40\nB,2,r2,30\nA,1,r2,55\nB,1,r2,45\n",
     "human_scores"),
    # tables with a free-text column whose quoted cells hold commas (a prompt, an answer): tables, not MT outputs
    ("votes.csv", b'model_a,model_b,winner,prompt\ngpt-4,claude-1,model_a,"Write a poem, please, about cats"\n'
     b'claude-1,gpt-4,tie,"Explain, briefly, what a monad is"\nllama,gpt-4,model_b,"Hi there"\n', "votes"),
    ("log.csv", b'question,model,score,answer\nq1,A,1,"Paris, the capital, of France"\nq1,B,0,"Lyon, I think"\n'
     b'q2,A,0,"two words"\nq2,B,1,"four, maybe, or five, words"\nq3,A,1,"yes, yes"\nq3,B,1,"no"\n', "llm_log"),
    # AlpacaEval's annotations.json (the Leaderboard page reads it as votes)
    ("annotations.json", b'[{"instruction": "Say hi, please", "output_1": "hi", "generator_1": "gpt4_1106_preview", '
     b'"output_2": "hello", "generator_2": "my_model", "annotator": "weighted_alpaca_eval_gpt4_turbo", '
     b'"preference": 1.8}, {"instruction": "x", "output_1": "a", "generator_1": "gpt4_1106_preview", "output_2": "b", '
     b'"generator_2": "my_model", "annotator": "weighted_alpaca_eval_gpt4_turbo", "preference": 1.1}]', "votes"),
    # the arena-human-preference-55k CSV: prompts with commas, outcome as three 0/1 columns
    ("train.csv", b'id,model_a,model_b,prompt,response_a,response_b,winner_model_a,winner_model_b,winner_tie\n'
     b'1,gpt-4,claude-1,"[""Hi, there""]","[""Hello, you""]","[""Hey""]",1,0,0\n'
     b'2,claude-1,gpt-4,"[""A, B""]","[""C""]","[""D, E, F""]",0,0,1\n', "votes"),
])
def test_recognise_tables_with_raters_or_free_text(name, data, kind):
    assert home.recognise(name, data) == kind
    home.read_upload(name, data)  # and its page's reader takes it


def test_recognise_never_executes_or_trusts_the_name():
    # a CSV named .jsonl is still read as a table; a file name with backticks cannot break the message's code span
    assert home.recognise("x.jsonl", SCORES) == "scores"
    with pytest.raises(ValueError) as err:
        home.recognise("bad`name`.csv", b"name,city\nada,london\n")
    assert "`bad'name'.csv`" in str(err.value)


def test_recognise_respects_the_upload_size_limit():
    big = b"a,b\n" + b"1,2\n" * (uploads.MAX_BYTES // 4 + 1)
    with pytest.raises(ValueError, match="at most 20 MB"):
        home.recognise("big.csv", big)


# ---------------------------------------------------------------------------
# read_upload: the values handed to the pages
# ---------------------------------------------------------------------------
def test_llm_log_values_are_the_pages_rounding_of_the_fit():
    data = llm_log_csv(1)
    up = home.read_upload("log.csv", data)
    fitted = llm.fit_benchmark(llm.read_benchmark_log(data), n_boot=0, seed=0)
    values = dict(up.values)
    assert up.page == "llm" and up.kind == "llm_log"
    assert values["acc_a"] == pytest.approx(round(200 * fitted.accuracy[fitted.models[0]]) / 2)
    assert values["rho"] == pytest.approx(round(fitted.correlation * 20) / 20)
    assert values["sd"] == pytest.approx(round(fitted.difficulty_sd, 2))
    assert values["k"] == 3 and values["m"] == 1 and "icc" not in values
    assert up.query["acc_a"] == str(values["acc_a"])


def test_votes_are_fitted_and_encoded_for_the_leaderboard_link():
    up = home.read_upload("votes.csv", VOTES_CSV)
    fitted = pw.fit_bradley_terry(pw.read_votes(VOTES_CSV), ties="drop", n_boot=0, seed=0)
    assert dict(up.values)["preset"] == "custom"
    decoded = {unquote(name): float(value) for name, _, value in
               (part.rpartition(":") for part in dict(up.values)["ratings"].split(";"))}
    assert set(decoded) == set(map(str, fitted.ratings.index))
    for name, rating in fitted.ratings.items():
        assert decoded[str(name)] == pytest.approx(rating, abs=0.05 + 1e-9)


def test_pilot_values_are_clipped_to_the_sliders():
    up = home.read_upload("pilot.csv", pilot_csv(2))
    fitted = rt.fit_pilot(uploads.read_table(pilot_csv(2)))
    values = dict(up.values)
    assert set(values) == {"sigma_w0", "sigma_w1", "sigma_i0", "sigma_i1", "sigma", "effect", "baseline"}
    assert values["effect"] == pytest.approx(min(round(abs(fitted.effect) / 0.005) * 0.005, 0.3))
    assert all(0.0 <= values[k] <= 0.4 for k in ("sigma_w0", "sigma_w1", "sigma_i0", "sigma_i1", "sigma"))
    assert 0.1 <= values["baseline"] <= 0.9


def test_mt_values_are_the_swap_effect_fit():
    up = home.read_upload("outputs.tsv", MT_TSV)
    fitted = mt.fit_swap_effects(*mt.read_tsv(MT_TSV))
    values = dict(up.values)
    assert values["p0"] == pytest.approx(min(max(round(fitted.p0, 2), 0.0), 0.9))
    assert values["b0"] == pytest.approx(min(max(round(fitted.b0, 1), 5.0), 100.0))
    assert values["delta"] == pytest.approx(min(max(round(fitted.delta_bleu / 0.05) * 0.05, -10), 10), abs=1e-9)


@pytest.mark.parametrize("data, layout", [(SCORES, "scores"), (BINARY, "binary"), (SYSTEMS, "systems"),
                                          (PREDICTIONS, "predictions")])
def test_per_item_results_open_the_analyze_page_with_its_layout(data, layout):
    up = home.read_upload("results.csv", data)
    assert up.page == "analysis" and up.query == {"data": "upload", "kind": layout}
    an.parse_results(data, layout)  # the Analyze page can read it with that layout


def test_harness_file_points_to_the_llm_pages_log_tab():
    up = home.read_upload("samples.jsonl", HARNESS)
    assert up.page == "llm" and up.values == () and "6 documents" in up.summary and "exact_match" in up.summary


def test_a_recognised_file_with_bad_content_gets_the_readers_message():
    bad = b"question,model,score\nq1,A,1.5\nq1,B,0\n"
    with pytest.raises(ValueError, match="score"):
        home.read_upload("log.csv", bad)


def test_read_uploads_passes_one_file_through_and_fits_two_harness_files():
    assert home.read_uploads([("votes.csv", VOTES_CSV)]) == home.read_upload("votes.csv", VOTES_CSV)
    other = HARNESS.replace(b'"exact_match": 1.0', b'"exact_match": 0.0')
    up = home.read_uploads([("base.jsonl", HARNESS), ("new.jsonl", other)])
    assert up.kind == "harness" and up.page == "llm"
    # the baseline answers 3 of 6 documents right (exact_match alternates 0, 1): 50.0%
    assert dict(up.values)["acc_a"] == 50.0 and "metric exact_match" in up.summary


@pytest.mark.parametrize("files, message", [
    ([], "No file"),
    ([("a.csv", SCORES), ("b.csv", SCORES)], "one at a time"),
    ([("a.jsonl", HARNESS), ("b.jsonl", HARNESS), ("c.jsonl", HARNESS)], "one at a time"),
])
def test_read_uploads_rejects_other_combinations(files, message):
    with pytest.raises(ValueError, match=message):
        home.read_uploads(files)


# one system's MT output as published (one detokenised segment per line, commas in varying numbers)
MT_OUTPUT_TXT = ("Michael Jackson wore tape on his nose to get front pages, former bodyguard claims\n"
                 "Michael Jackson's former bodyguard has claimed the star wore tape on his nose.\n"
                 "\"He's a very nice man, very polite, and he loves his children, his fans, his music,\" he said.\n"
                 "The 50-year-old, who lives in Los Angeles, made the claim on Sunday.\n").encode()


def test_one_mt_output_file_is_recognised_and_points_to_the_mt_page():
    # before: read as a comma table, "row 3 has … fields but row 1 has …"
    assert home.recognise("newstest2019.en-de.sys.txt", MT_OUTPUT_TXT) == "mt_text"
    up = home.read_upload("newstest2019.en-de.sys.txt", MT_OUTPUT_TXT)
    assert up.page == "mt" and up.values == ()
    assert "4 lines" in up.summary and "three aligned files" in up.next_step
    assert up.query == {"view": home.MT_FIT_TAB}
    pages = Path(__file__).resolve().parents[1] / "pages"  # the MT page and its layout modules (pages/_mt_*.py)
    mt_page = "\n".join(f.read_text() for f in [pages / "mt.py", *sorted(pages.glob("_mt_*.py"))])
    assert f'"fit": "{home.MT_FIT_TAB}"' in mt_page and '"three": "three text files"' in mt_page  # the tab and mode exist


@pytest.mark.parametrize("data, kind", [
    (b"a,b\n0.5,0.6\n0.7,0.4\n", "scores"),
    (b"pred_a,pred_b,gold\nyes,no,yes\nno,no,yes\n", "predictions"),
    (b"system a output one here\tsystem b output one here\tthe reference one here\n", "mt"),
])
def test_tables_are_not_taken_for_sentences(data, kind):
    assert home.recognise("f.txt", data) == kind


# ---------------------------------------------------------------------------
# human judgments of a campaign (core.humaneval formats) → the DA campaign page
# ---------------------------------------------------------------------------
HUMANEVAL = Path(__file__).resolve().parent / "data" / "humaneval"
HUMAN_FILES = ["mqm_synthetic.avg_seg_scores.tsv", "mqm_synthetic.tsv", "psqm_synthetic.tsv", "en-de.mqm.seg.score",
               "esa_campaign.scores.csv", "mqm_campaign.scores.csv", "ad-seg-scores-xx-yy.csv", "hf_wmt_mqm_train.csv"]


@pytest.mark.parametrize("name", HUMAN_FILES)
def test_human_judgment_files_are_recognised(name):
    assert home.recognise(name, (HUMANEVAL / name).read_bytes()) == "human_scores"
    assert home.UPLOAD_KINDS["human_scores"].page == "sequential"


def _parquet_of(table: pd.DataFrame) -> bytes:
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(pa.Table.from_pandas(table, preserve_index=False), buffer)
    return buffer.getvalue()


def test_a_hugging_face_copy_of_wmt_judgments_goes_to_the_campaign_page_as_csv_or_parquet():
    table = pd.read_csv(HUMANEVAL / "hf_wmt_mqm_train.csv")
    upload = home.read_upload("0000.parquet", _parquet_of(table))
    assert upload.kind == "human_scores" and upload.page == "sequential"
    # the default pair is two systems of one language pair and year, judged on the same segments
    query = dict(upload.link)
    assert query["sys_a"].rsplit(" (", 1)[1] == query["sys_b"].rsplit(" (", 1)[1]
    no_systems = table.drop(columns=["system"])
    for name, data in (("train.csv", no_systems.to_csv(index=False).encode()),
                       ("0000.parquet", _parquet_of(no_systems))):
        with pytest.raises(ValueError, match="has no column naming the system that wrote each translation"):
            home.read_upload(name, data)


def test_the_newstest2020_mqm_shape_is_no_longer_predictions():
    # three space-separated columns used to pass for "prediction of A, prediction of B, gold label"
    systems = ("Human-B.0", "OPPO.1535", "eTranslation.737")
    data = b"system mqm_avg_score seg_id\n" + b"\n".join(
        f"{s} -{(i * 7 + k) % 5 / 3:.6f} {i}".encode() for k, s in enumerate(systems) for i in range(1, 8))
    assert home.recognise("mqm_newstest2020_ende.avg_seg_scores.tsv", data) == "human_scores"


def test_human_judgments_link_the_closest_top_pairs_mean_sd_and_difference():
    name = "mqm_synthetic.tsv"
    up = home.read_upload(name, (HUMANEVAL / name).read_bytes())
    assert up.kind == "human_scores" and up.page == "sequential"
    # hand-computed judgments (tests/test_humaneval_readers.py): sysB is better, the pair is sysB vs sysA
    a = np.array([-5.1, 0.0, -25.0, -1.0])
    b = np.array([-5.0, -2.1, 0.0, -6.0])
    pooled = math.sqrt((3 * a.var(ddof=1) + 3 * b.var(ddof=1)) / 6)
    values = dict(up.values)
    # the DA page's sliders are on its 0–100 scale: the pair's mean and SD mapped there, rounded to the sliders'
    # steps and clipped to their ranges (mean 50–95 by 0.5, SD 10–40 by 0.5, difference 0–10 by 0.1)
    from core import humaneval as he

    mapped_mean = float(he.to_campaign_scale(np.concatenate([a, b]).mean(), "mqm"))
    slope = float(he.to_campaign_scale(1.0, "mqm") - he.to_campaign_scale(0.0, "mqm"))
    assert values["mean"] == min(max(round(mapped_mean * 2) / 2, 50.0), 95.0)
    assert values["sd"] == pytest.approx(min(max(round(abs(slope) * pooled * 2) / 2, 10.0), 40.0), abs=0.5)
    assert values["delta"] == min(round(abs(slope) * (b.mean() - a.mean()), 1), 10.0)
    assert dict(up.link) == {"fitted": f"{name}: sysB vs sysA", "protocol": "mqm", "sys_a": "sysB", "sys_b": "sysA"}
    assert up.query["mean"] == str(values["mean"]) and "sysB and sysA are the closest" in up.summary
    assert f"mean {b.mean() / 2 + a.mean() / 2:.3g}" in up.next_step  # the file's own scale is said too


def test_system_level_and_headerless_judgments_get_messages():
    with pytest.raises(ValueError, match="system-level file"):
        home.read_upload("en-de.mqm.sys.score", (HUMANEVAL / "en-de.mqm.sys.score").read_bytes())
    with pytest.raises(ValueError, match="Accepted formats"):
        home.recognise("headerless_long.csv", (HUMANEVAL / "headerless_long.csv").read_bytes())


def test_a_long_table_of_judgments_is_human_scores_but_a_pilot_stays_a_pilot():
    long = b"SYS,SID,WorkerId,RAW.SCR\nA,1,w1,70\nB,1,w1,60\nA,2,w2,80\nB,2,w2,75\n"
    assert home.recognise("good-stnd.csv", long) == "human_scores"
    assert home.recognise("pilot.csv", pilot_csv()) == "pilot"
    jsonl = b'{"system": "A", "seg_id": 1, "score": 0.5}\n{"system": "B", "seg_id": 1, "score": 0.25}\n'
    assert home.recognise("judgments.jsonl", jsonl) == "human_scores"


def test_a_score_file_name_alone_does_not_make_human_scores():
    # the name gives an mt-metrics-eval file's level only when its first line has that layout
    assert home.recognise("x.seg.score", SCORES) == "scores"
    with pytest.raises(ValueError, match="line 3: 3 fields where 2"):
        home.read_upload("en-de.mqm.seg.score", b"A\t1\nA\t2\nA\t3 4\n")


def test_json_written_over_several_lines_and_harness_results_get_clear_answers():
    pretty = b'{\n  "model_a": "A",\n  "model_b": "B",\n  "winner": "model_a"\n}\n'  # json.dump(..., indent=2)
    assert home.recognise("vote.json", pretty) == "votes"
    results = (b'{\n  "results": {\n    "arc_easy": {"acc,none": 0.7}\n  },\n  "configs": {},\n'
               b'  "versions": {}\n}\n')
    with pytest.raises(ValueError, match="results file: aggregate scores only.*samples_<task>"):
        home.recognise("results_2024-06-01T10-00-00.json", results)
    with pytest.raises(ValueError, match="line 1: a number has too many digits"):
        home.recognise("big.jsonl", b'{"doc_id": ' + b"9" * 5000 + b"}\n")


def test_two_inspect_logs_open_the_llm_page_with_the_fitted_values():
    """Two Inspect AI .eval logs (baseline first) are read together; the link carries the baseline accuracy
    computed here from the values written into the logs, rounded to the slider's half points, and K = epochs."""
    from tests.inspect_files import inspect_log

    rng = np.random.default_rng(2)
    values = [{(i, e): "C" if rng.random() < p else "I" for i in range(1, 51) for e in (1, 2)} for p in (0.6, 0.75)]
    files = [("a.eval", inspect_log("openai/gpt-a", values[0])), ("b.eval", inspect_log("openai/gpt-b", values[1]))]
    assert [home.recognise(n, d) for n, d in files] == ["inspect", "inspect"]
    upload = home.read_uploads(files)
    accuracy = np.mean([v == "C" for v in values[0].values()])
    assert upload.page == "llm" and upload.kind == "inspect"
    assert upload.query["acc_a"] == str(round(200 * accuracy) / 2) and upload.query["k"] == "2"
    assert "Inspect AI logs of openai/gpt-a (baseline) and openai/gpt-b (score match): 50 questions" in upload.summary
    one = home.read_upload(*files[0])
    assert one.summary == "An Inspect AI log of openai/gpt-a on arc_easy: 50 samples × 2 epochs (scores: match)."
    assert one.query == {"view": home.LLM_LOG_TAB}
    with pytest.raises(ValueError, match="two Inspect AI logs"):
        home.read_uploads([files[0], ("votes.csv", b"model_a,model_b,winner\na,b,model_a\n")])


def test_two_helm_runs_open_the_llm_page_with_the_fitted_values():
    """Two HELM per_instance_stats.json (both so named, as HELM writes them), baseline first: fitted together with
    the train trials as K; the link carries the baseline accuracy computed here from the values written."""
    from tests.helm_files import helm_stats

    rng = np.random.default_rng(3)
    values = [{(f"id{i}", t): float(rng.random() < p) for t in range(2) for i in range(40)} for p in (0.5, 0.7)]
    files = [("per_instance_stats.json", helm_stats(v, perturbed=3)) for v in values]
    assert [home.recognise(n, d) for n, d in files] == ["helm", "helm"]
    upload = home.read_uploads(files)
    assert upload.page == "llm" and upload.kind == "helm"
    assert upload.query["acc_a"] == str(round(200 * np.mean(list(values[0].values()))) / 2)
    assert upload.query["k"] == "2"
    assert ("HELM runs of A: per_instance_stats.json (baseline) and B: per_instance_stats.json (metric exact_match): "
            "40 questions") in upload.summary
    one = home.read_upload(*files[0])
    assert one.summary == ("A HELM run's per-instance statistics: 40 instances × 2 train trials (metrics: "
                           "exact_match, quasi_exact_match).")
    assert one.query == {"view": home.LLM_LOG_TAB}
    with pytest.raises(ValueError, match="two HELM runs"):
        home.read_uploads([files[0], ("votes.csv", b"model_a,model_b,winner\na,b,model_a\n")])


def test_two_lighteval_details_files_open_the_llm_page_with_the_fitted_values():
    """Two lighteval details files of one task (both so named, as lighteval writes them), baseline first: fitted
    together; the link carries the baseline accuracy computed here from the values written. One alone is
    summarised; a Parquet file of another kind gets the message naming what is read from Parquet."""
    from tests.lighteval_files import details_name, lighteval_details

    rng = np.random.default_rng(5)
    values = [list((rng.random(40) < p).astype(float)) for p in (0.5, 0.7)]
    files = [(details_name(), lighteval_details(v, extra={"acc_norm": v})) for v in values]
    assert [home.recognise(n, d) for n, d in files] == ["lighteval", "lighteval"]
    upload = home.read_uploads(files)
    assert upload.page == "llm" and upload.kind == "lighteval"
    assert upload.query["acc_a"] == str(round(200 * np.mean(values[0])) / 2) and upload.query["k"] == "1"
    assert upload.summary.startswith("lighteval details of A: details_leaderboard|arc:challenge|25_")
    assert "(metric acc): 40 questions" in upload.summary
    one = home.read_upload(*files[0])
    assert one.summary == ("lighteval details of leaderboard|arc:challenge|25: 40 samples (metrics: acc, acc_norm).")
    assert one.query == {"view": home.LLM_LOG_TAB}
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(pa.table({"text": ["x"], "label": [1]}), buffer)
    with pytest.raises(ValueError, match="lighteval's details \\(columns doc and metric\\)"):
        home.read_upload("other.parquet", buffer.getvalue())
