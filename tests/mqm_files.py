"""Google's MQM error annotations in the layout Marot writes, at the size of the published files with every rating.

google/wmt-mqm-human-evaluation publishes WMT 2023's MQM ratings with three ratings per segment as
``generalMT2023/*/sxs_mqm_generalMT2023_*.3ratingsPerSegment.tsv.tar.gz``; the files inside are 31 MB (en-de, 10,971
lines) and 40 MB (zh-en). Their header is ``system, doc, docSegId, globalSegId, rater, source, target, category,
severity, metadata`` and a last field ``# Documentation: <url>`` that no row fills; each row is one error (or
``No-error``), and the ``metadata`` column (Marot's timings as JSON) holds most of the bytes. The files here have
that shape, with the size set by the metadata's length, and give the judgments they should read as (an oracle
summed from the errors written, with Freitag et al. 2021's weights: Major 5, Minor 1, No-error 0).
"""

from __future__ import annotations

import numpy as np

HEADER = ("system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata\t"
          "# Documentation: https://github.com/google-research/google-research/tree/master/MAROT_viewer")
WEIGHTS = {"Major": 5.0, "Minor": 1.0, "No-error": 0.0}


def marot_tsv(size: int, *, systems=(("sysA", 0.15), ("sysB", 0.35)), segments: int = 40,
              raters=("rater1", "rater2", "rater3"), seed: int = 0) -> tuple[bytes, dict]:
    """A Marot-layout MQM file of about ``size`` bytes (at least its rows' own), and its judgments:
    ``{(system, globalSegId, rater): score}`` with score = −(summed error weights).

    Each system has a Major error on a segment with its probability, and 0–2 Minor fluency errors."""
    rng = np.random.default_rng(seed)
    ratings = []
    for system, major in systems:
        for seg in range(1, segments + 1):
            for rater in raters:
                errors = [("Accuracy/Mistranslation", "Major")] if rng.random() < major else []
                errors += [("Fluency/Grammar", "Minor")] * int(rng.integers(0, 3))
                ratings.append((system, seg, rater, errors or [("No-error", "No-error")]))
    rows = sum(len(errors) for *_, errors in ratings)
    pad = max(0, size // rows - 200)
    lines, expected = [HEADER], {}
    for system, seg, rater, errors in ratings:
        expected[(system, str(seg), rater)] = -sum(WEIGHTS[severity] for _, severity in errors) + 0.0
        for k, (category, severity) in enumerate(errors):
            metadata = '{"timestamp": 1725456558197, "timing": "' + "x" * pad + f'", "k": {k}}}'
            lines.append(f"{system}\tnews_aj.{seg // 10}:en-de\t{seg % 10}\t{seg}\t{rater}\tSource {seg} said "
                         f"\"hi\"\tZiel {seg}<v>.</v>\t{category}\t{severity}\t{metadata}")
    return ("\n".join(lines) + "\n").encode(), expected
