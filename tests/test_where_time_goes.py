"""benchmarks.where_time_goes: the profile split it prints (a hand-built CPU profile is the oracle)."""

from __future__ import annotations

import pytest

from benchmarks import where_time_goes as wtg


def test_samples_are_split_by_where_their_frame_lives():
    profile = {
        "nodes": [
            {"id": 1, "callFrame": {"functionName": "(root)", "url": ""}},
            {"id": 2, "callFrame": {"functionName": "draw", "url": "http://x/static/js/PlotlyChart.abc.js"}},
            {"id": 3, "callFrame": {"functionName": "render", "url": "http://x/static/js/index.def.js"}},
            {"id": 4, "callFrame": {"functionName": "(garbage collector)", "url": ""}},
            {"id": 5, "callFrame": {"functionName": "(idle)", "url": ""}},
        ],
        "samples": [2, 2, 3, 4, 5, 1],
        "timeDeltas": [1000, 2000, 4000, 8000, 16000, 32000],  # microseconds
    }
    split = wtg._profile_split(profile)
    assert split == pytest.approx({"plotly": 0.003, "streamlit": 0.004, "browser": 0.040, "idle": 0.016})
