"""The sessions benchmark's client speaks Streamlit's protocol: against a real server (``scripts/serve.py``), one
session opens the Accuracy page, moves one slider once, and the app computes with the new value.

Oracle: the app's own answer. The page's "Power" metric at the defaults (Δ = 2 points, n = 500, P_a = 90%) is
McNemar's power for those values; after the move of the Δ slider to 2.1 it must be the page's power for Δ = 2.1,
which is :func:`core.accuracy.mcnemar_power` of the new Δ as the page formats it (percent, one decimal). No timing
is asserted.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import os
import time

import pytest

from benchmarks import sessions_bench as sb
from core import accuracy

DELTA_LABEL = "Expected accuracy difference Δ (percentage points)"


def test_slider_values_step_up_from_the_value_then_down():
    from streamlit.proto.Slider_pb2 import Slider

    slider = Slider(id="x", min=0.0, max=1.0, step=0.25, default=[0.5], type=Slider.SLIDER, data_type=Slider.FLOAT)
    assert sb.slider_values(slider) == [0.75, 1.0, 0.25, 0.0]
    picker = Slider(id="y", options=["a", "b", "c"], default=[0.0], type=Slider.SELECT_SLIDER)
    assert sb.slider_values(picker) == [1, 2]


def test_set_slider_sends_the_widget_state_and_writes_a_bound_value_into_the_query_string():
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.Slider_pb2 import Slider

    session = sb.Session(1, "accuracy")
    session.query_string = "view=Power"
    slider = Slider(id="$$ID-abc-delta", min=-20.0, max=20.0, step=0.1, default=[2.0], type=Slider.SLIDER,
                    data_type=Slider.FLOAT, query_param_key="delta")
    session.set_slider(slider, 2.1)
    sent = BackMsg.FromString(session._back_msg()).rerun_script
    assert sent.page_name == "accuracy" and sent.page_script_hash == ""
    assert [(w.id, list(w.double_array_value.data)) for w in sent.widget_states.widgets] == [("$$ID-abc-delta", [2.1])]
    assert sent.query_string == "view=Power&delta=2.1"
    picker = Slider(id="$$ID-n", options=["10", "500"], default=[0.0], type=Slider.SELECT_SLIDER, query_param_key="n")
    session.set_slider(picker, 1)
    sent = BackMsg.FromString(session._back_msg()).rerun_script
    assert list(sent.widget_states.widgets[-1].string_array_value.data) == ["500"]
    assert sent.query_string.endswith("&n=500")


def test_a_failed_run_is_not_counted_as_a_rerun():
    with pytest.raises(RuntimeError, match="status 1"):
        sb._checked(sb.Run(seconds=0.1, status=1))
    with pytest.raises(RuntimeError, match="exception"):
        sb._checked(sb.Run(seconds=0.1, status=0, exceptions=["ValueError: `n` must be ≥ 2"]))


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs Linux's /proc")
def test_cpu_seconds_agree_with_the_process_own_clock():
    before, own = sb.cpu_seconds(os.getpid()), time.process_time()
    while time.process_time() - own < 0.3:  # burn CPU, not wall time
        sum(i * i for i in range(10_000))
    used, own_used = sb.cpu_seconds(os.getpid()) - before, time.process_time() - own
    assert used == pytest.approx(own_used, abs=0.05)  # the same accounting, in clock ticks (0.01 s)
    assert math.isnan(sb.cpu_seconds(2**31 - 1))


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs Linux's /proc")
def test_tree_cpu_seconds_adds_the_children():
    """A lab's server CPU is its proxy's and its app processes': a child that burns 0.3 s of CPU is counted."""
    import subprocess
    import sys

    burn = ("import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass\n"
            "print('done', flush=True)\ntime.sleep(30)")
    child = subprocess.Popen([sys.executable, "-c", burn], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "done"
        extra = sb.tree_cpu_seconds(os.getpid()) - sb.cpu_seconds(os.getpid())
        # /proc counts user and system time each in whole clock ticks of 0.01 s, cut down: 0.3 s burnt can read
        # 0.29 (seen on the loaded CI box), so each side allows two ticks
        assert extra >= sb.cpu_seconds(child.pid) - 0.011
        assert sb.cpu_seconds(child.pid) >= 0.3 - 0.021
    finally:
        child.kill()
        child.wait()


def test_the_lab_runs_one_app_process_per_core():
    assert sb.lab_workers() == max(1, min(64, os.cpu_count() or 1))


def test_quantile_matches_linear_interpolation():
    assert sb.quantile([4.0, 1.0, 3.0, 2.0], 0.5) == 2.5
    assert sb.quantile([1.0, 2.0, 3.0, 4.0, 5.0], 0.95) == pytest.approx(4.8)
    assert math.isnan(sb.quantile([], 0.5))


@pytest.mark.slow
def test_one_session_one_slider_move_against_a_real_server():
    async def visit_and_move(port):
        async with sb.Session(port, "accuracy") as session:
            first = await session.rerun()
            slider, fragment = sb.find_slider(first, DELTA_LABEL)
            session.set_slider(slider, 2.1)
            session.fragment_id = fragment  # Δ is a key input: the frontend reruns only its fragment
            moved = await session.rerun()
            return first, slider, fragment, moved, session.page_script_hash

    port = sb._free_port()
    proc = sb._start_server(port)
    try:
        # in a thread of its own: an earlier browser test's event loop may still run in this one
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            first, slider, fragment, moved, page_hash = pool.submit(
                lambda: asyncio.run(asyncio.wait_for(visit_and_move(port), 120))).result()
    finally:
        sb._stop_server(proc)
    # both runs ended with script_finished FINISHED_SUCCESSFULLY, the second on the page the first one ran
    assert first.status == 0 and moved.status == 3 and page_hash  # 3: FINISHED_FRAGMENT_RUN_SUCCESSFULLY
    assert not first.exceptions and not moved.exceptions
    assert sb._checked(moved) is moved
    assert slider.id and slider.default[0] == 2.0 and slider.min < 2.1 < slider.max
    assert moved.deltas > 0 and moved.sliders
    # a fragment rerun: the key input's fragment only (no sidebar widget is sent again)
    assert fragment and all(path[0] != sb._SIDEBAR for path in moved.sliders)
    assert any(path[0] == sb._SIDEBAR for path in first.sliders)
    # the widget value reached the app: the power metric is the power at the new Δ
    before = accuracy.mcnemar_power(500, 0.02, 0.9).power
    after = accuracy.mcnemar_power(500, 0.021, 0.9).power
    assert first.metrics["Power"] == f"{100 * before:.1f}%"
    assert moved.metrics["Power"] == f"{100 * after:.1f}%" != first.metrics["Power"]


def test_the_server_is_stopped_when_the_sessions_fail(monkeypatch):
    import subprocess
    import sys

    started = []

    def fake_server(port, **options):
        started.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]))
        return started[-1]

    async def broken(*args, **kwargs):
        raise RuntimeError("a session went wrong")

    monkeypatch.setattr(sb, "_start_server", fake_server)
    monkeypatch.setattr(sb, "_one_at_a_time", broken)
    with pytest.raises(RuntimeError, match="went wrong"):
        sb.measure(2)
    assert started and started[0].poll() is not None
    assert sb.check_sessions() is False  # the check reports the failure instead of raising
    assert all(proc.poll() is not None for proc in started) and len(started) == 2


@pytest.mark.parametrize("name, app, label", sb.FLOORS)
def test_the_floors_take_the_same_load(name, app, label):
    """A session on each floor app opens it and moves its slider MOVES times without an error; the page-shaped
    floor's key input reruns only its fragment, as a page's does, and the one-chart floor's the whole script."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # a thread of its own, as above
        result = pool.submit(sb.measure_floor, app, label, 1).result()
    assert not result["errors"]
    assert result["fragment_sessions"] == (app is not True)
    assert result["reruns"] == sb.MOVES and 0 < result["p50"] <= result["p95"] <= result["max"]
    assert result["visit_p50"] > 0
