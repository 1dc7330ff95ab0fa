"""Uploads at the readers' row limit: a million-row file read and fitted as the pages do.

Target: every upload within the limits (20 MB, 1,000,000 rows) is read and fitted in <= 10 s on the 2-core machine:
the Monitor page's two-column score file (reader + betting confidence sequence over every item, the forecast) and
the Judge page's ``item,human,judge`` calibration file (reader + fit with its bootstrap).
"""

from __future__ import annotations

import io

import numpy as np

from core import judge
from core import sequential as sq

ROWS = 1_000_000


def _monitor_file() -> bytes:
    rng = np.random.default_rng(0)
    a, b = rng.binomial(1, 0.70, ROWS), rng.binomial(1, 0.72, ROWS)
    out = io.StringIO()
    out.write("a,b\n")
    np.savetxt(out, np.column_stack([a, b]), fmt="%d", delimiter=",")
    return out.getvalue().encode()


def _judge_file() -> bytes:
    rng = np.random.default_rng(1)
    h = rng.binomial(1, 0.7, ROWS)
    g = np.where(rng.random(ROWS) < 0.9, h, 1 - h)
    out = io.StringIO()
    out.write("item,human,judge\n")
    np.savetxt(out, np.column_stack([np.arange(ROWS), h, g]), fmt="%d", delimiter=",")
    return out.getvalue().encode()


def check_uploads(timed) -> bool:
    monitor_data, judge_data = _monitor_file(), _judge_file()
    design = sq.MonitorDesign(0.05, ROWS, alpha=0.05, bounds=(-1.0, 1.0), looks=3, boundary="obrien_fleming", seed=1)

    def monitor():
        diffs = sq.read_paired_scores(monitor_data, name="bench")["difference"].to_numpy(dtype=float)
        design.run(diffs)

    def calibrate():
        judge.fit_judge(judge.read_calibration(judge_data, name="bench"))

    ok = True
    for name, fn, size in (("Monitor: 1,000,000-row score file (betting CS)", monitor, len(monitor_data)),
                           ("Judge: 1,000,000-row calibration file (fit)", calibrate, len(judge_data))):
        seconds = timed(fn, repeat=1)
        good = seconds <= 10.0
        ok &= good
        print(f"Upload {name:<50} {size / 2**20:5.1f} MB {seconds:6.2f} s   (target <= 10 s) "
              f"{'OK' if good else 'MISSED'}")
    return ok


CHECKS = [check_uploads]
