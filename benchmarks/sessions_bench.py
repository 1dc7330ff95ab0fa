"""How a lab shares one server: 25 sessions moving sliders at once, speaking Streamlit's own protocol.

Starts the app the way a lab serves it, ``make lab`` (``scripts/lab.py --workers auto``: one app process per core
behind a sticky proxy on a free port of 127.0.0.1), and opens sessions as websocket clients of
``ws://127.0.0.1:PORT/_stcore/stream`` — no browser, so the figures are the server's share of a slider move alone:
the script run, the serialisation of its elements and the websocket, with each process's sessions taking turns on
its interpreter. The same load then runs on one process (``make run``: every session's script on one interpreter,
so on one core at a time), for comparison.

**The protocol** (Streamlit 1.67, as its frontend speaks it: ``streamlit/proto/BackMsg.proto``,
``ClientState.proto``, ``ForwardMsg.proto`` and ``runtime/app_session.py``). A client sends ``BackMsg``
protobufs, one per binary frame; the server answers with ``ForwardMsg`` protobufs, one per frame. A **rerun** is
one ``BackMsg.rerun_script`` carrying a ``ClientState``: the page (on a first visit ``page_name``, the URL path
without its slash, and an empty ``page_script_hash``; afterwards the ``page_script_hash`` of the page the server
ran, from its ``navigation`` message), the URL's query string (every widget of the app is bound to the URL: the
frontend writes a moved widget's value under its element's ``query_param_key``, and takes the query string the
server sets in ``page_info_changed``), ``widget_states`` (here: the moved slider's value) and the hashes of
the large messages the client has kept (the frontend's message cache; the server then sends a ``ref_hash`` instead
of resending a chart that did not change). The server runs the script and streams the run's messages: a
``new_session``, ``navigation``, one ``delta`` per element or block, and ``script_finished`` last (a status of
``FINISHED_EARLY_FOR_RERUN`` ends a run that ``st.rerun`` replaced, so the client keeps reading). A rerun's time is
from sending its ``BackMsg`` to its ``script_finished``: what a user waits for before the page is complete.

**The slider.** A session's first visit of its page is a rerun with no widget states. Its deltas carry every
element with its position (``metadata.delta_path``: root container 0 is the main area, 1 the sidebar); the slider
moved is the one :mod:`benchmarks.browser_bench` moves — the page's ``bench_slider`` of
:data:`pages._registry.PAGES` (matched by label), else the first key input (a main-area slider drawn inside a
fragment: its delta carries the ``fragment_id``), else the first slider of the sidebar — and its ``Slider``
element gives the widget ``id``, the range (``min``, ``max``, ``step``; a ``select_slider``'s ``options``) and the
current value (``value``, else ``default``). Each move is a rerun with that id set to another value of the range
(a ``double_array_value``; for a ``select_slider`` the option's text as a ``string_array_value``), as the frontend
sends it when a thumb is released; a key input's move carries its ``fragment_id`` in the ``ClientState``, so the
server reruns only that fragment (it ends with ``FINISHED_FRAGMENT_RUN_SUCCESSFULLY``), as the frontend does. The
other widgets are not sent: the server keeps their values from the previous run (the frontend would send them
unchanged).

**The load.** ``SESSIONS`` sessions, spread in turn over the pages with ``bench=True``, all at once (asyncio): each
connects, opens its page (the lab opening a shared link together), then moves its slider ``MOVES`` times, pausing
``THINK`` seconds (seeded, uniform) after each page is complete, as a user reads it. Every session moves to values no
other session of the page used (the j-th session of a page makes its moves j × ``MOVES`` + 1, + 2, … steps from the
default, up to the end of the range and then down from the default), so the server's ``st.cache_data`` does not
answer a move with another session's result (unless a short range runs out of values): everyone explores designs
of their own. For reference, the same moves are made first by ONE session at a time, page after page, on
the same server; the ratio of the two says what contention costs. Target: p95 of the 25 sessions' reruns
≤ 1.0 s on a 2-core machine. Differences from a browser: no rendering (a browser adds its React and Plotly work on
the client's own machine), and the frontend's widget states of unchanged widgets are not sent.

**The floors.** The same load then runs on the two floor apps of :mod:`benchmarks.browser_bench` (the one-chart
app and the page-shaped app with a page's element mix and no statistics, each under plain ``streamlit run``), so
the figures can be read against what Streamlit itself costs under 25 sessions on the same machine in the same run.
On this 2-core machine the page-shaped floor's own p95 was 1.6 s (when it reran its whole script) and the one-chart floor's 1.0 s: on one process, a
page with a scenario page's number of elements cannot meet the 1.0 s target by making its statistics faster alone;
with one process per core (the lab) it does.

``python -m benchmarks.sessions_bench`` runs it alone.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import os
import random
import sys
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode

from benchmarks.browser_bench import FLOOR_PAGE_APP, _free_port, _start_server, _stop_server
from pages._registry import PAGES as REGISTRY

SESSIONS = 25
MOVES = 5
#: Seconds a user reads the page between two moves (uniform, seeded).
THINK = (0.5, 1.5)
TARGET_P95 = 1.0
#: Seconds one rerun may take before the session is given up.
RERUN_TIMEOUT = 180.0
SEED = 0
#: (page name, label of the slider moved — None: the first one of the sidebar), from the registry
PAGES = [(page.name, page.bench_slider) for page in REGISTRY if page.bench]
_SIDEBAR = 1  # RootContainer.SIDEBAR in streamlit/proto/RootContainer.proto


@dataclass
class Run:
    """What one rerun brought: its seconds, status and elements."""

    seconds: float = math.nan
    status: int = -1
    deltas: int = 0
    #: Slider elements by delta path.
    sliders: dict = field(default_factory=dict)
    #: The fragment each slider was drawn in ("" outside any), by delta path.
    fragments: dict = field(default_factory=dict)
    #: Metric bodies by label.
    metrics: dict = field(default_factory=dict)
    #: Messages of the exceptions the page showed (a run that failed still ends with ``script_finished``).
    exceptions: list = field(default_factory=list)


class Session:
    """One browser tab's worth of Streamlit protocol over a websocket: :meth:`rerun` is what the frontend sends
    on a first visit or a widget change, and reads the run's ``ForwardMsg`` up to its ``script_finished``."""

    def __init__(self, port: int, page: str) -> None:
        self.url = f"ws://127.0.0.1:{port}/_stcore/stream"
        self.page = page
        self.page_script_hash = ""
        self.query_string = ""
        self.widgets: dict = {}
        #: The fragment to rerun (the moved widget's, as the frontend sends it); "" for the whole page.
        self.fragment_id = ""
        self._cache: dict = {}  # hash -> (message, run number last seen): the frontend's ForwardMsgCache
        self._max_age = 2
        self._runs = 0
        self._ws = None

    async def __aenter__(self) -> Session:
        from websockets.asyncio.client import connect

        self._ws = await connect(self.url, subprotocols=["streamlit"], max_size=None, open_timeout=60,
                                 ping_interval=None)
        return self

    async def __aexit__(self, *exc) -> None:
        await self._ws.close()

    def _back_msg(self) -> bytes:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = self.query_string
        if self.page_script_hash:
            state.page_script_hash = self.page_script_hash
        else:  # a first visit: the page is named by the URL's path
            state.page_name = self.page
        state.widget_states.widgets.extend(self.widgets.values())
        if self.fragment_id:
            state.fragment_id = self.fragment_id
        state.cached_message_hashes.extend(h for h, (_, seen) in self._cache.items()
                                           if self._runs - seen < self._max_age)
        return msg.SerializeToString()

    async def rerun(self) -> Run:
        """Send a ``rerun_script`` with the current client state; read up to the run's ``script_finished``."""
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        run = Run()
        payload = self._back_msg()
        start = time.perf_counter()
        await self._ws.send(payload)
        self._runs += 1
        while True:
            msg = ForwardMsg.FromString(await asyncio.wait_for(self._ws.recv(), RERUN_TIMEOUT))
            kind = msg.WhichOneof("type")
            if kind == "ref_hash":  # a message the client keeps: use the kept one, at the new position
                kept, _ = self._cache[msg.ref_hash]
                self._cache[msg.ref_hash] = (kept, self._runs)
                resolved = ForwardMsg()
                resolved.CopyFrom(kept)
                resolved.metadata.CopyFrom(msg.metadata)
                msg, kind = resolved, resolved.WhichOneof("type")
            elif msg.metadata.cacheable and msg.hash:
                self._cache[msg.hash] = (msg, self._runs)
            if kind == "script_finished":
                if msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue
                run.seconds, run.status = time.perf_counter() - start, msg.script_finished
                return run
            if kind == "new_session":
                self._max_age = msg.new_session.config.max_cached_message_age or self._max_age
            elif kind == "navigation":
                self.page_script_hash = msg.navigation.page_script_hash
            elif kind == "page_info_changed":
                self.query_string = msg.page_info_changed.query_string
            elif kind == "delta":
                run.deltas += 1
                element = msg.delta.new_element if msg.delta.WhichOneof("type") == "new_element" else None
                if element is not None and element.WhichOneof("type") == "slider":
                    run.sliders[tuple(msg.metadata.delta_path)] = element.slider
                    run.fragments[tuple(msg.metadata.delta_path)] = msg.delta.fragment_id
                elif element is not None and element.WhichOneof("type") == "metric":
                    run.metrics[element.metric.label] = element.metric.body
                elif (element is not None and element.WhichOneof("type") == "exception"
                      and not element.exception.is_warning):
                    run.exceptions.append(f"{element.exception.type}: {element.exception.message}")

    def set_slider(self, slider, value: float, widget_id: str | None = None) -> None:
        """Set the first thumb of ``slider`` (a ``Slider`` element) to ``value``, as the frontend does when a thumb
        is released: a number, or a ``select_slider``'s option index. ``widget_id``: the element's latest id."""
        from streamlit.proto.Slider_pb2 import Slider
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        state = WidgetState(id=widget_id or slider.id)
        rest = list(slider.value or slider.default)[1:]
        if slider.type == Slider.SELECT_SLIDER:
            state.string_array_value.data.extend(slider.options[int(v)] for v in [value, *rest])
            shown = list(state.string_array_value.data)
        else:
            state.double_array_value.data.extend([value, *rest])
            shown = [str(int(v)) if v == int(v) else str(v) for v in state.double_array_value.data]
        if slider.query_param_key:  # a widget bound to the URL: the frontend writes its value into the address
            pairs = [(k, v) for k, v in parse_qsl(self.query_string, keep_blank_values=True)
                     if k != slider.query_param_key]
            self.query_string = urlencode(pairs + [(slider.query_param_key, v) for v in shown])
        self.widgets.pop(slider.id, None)  # an id that changed replaces the old one
        self.widgets[state.id] = state



def _run(coroutine):
    """``asyncio.run`` in a thread of its own: a browser benchmark's event loop may still run in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def slider_values(slider) -> list[float]:
    """The values a slider's first thumb can move to, nearest first: up from the current value, then down.

    A ``select_slider``'s values are option indices. The first thumb of a range slider stays below the second.
    """
    from streamlit.proto.Slider_pb2 import Slider

    current = list(slider.value or slider.default)
    if slider.type == Slider.SELECT_SLIDER:
        low, high, step = 0, len(slider.options) - 1, 1
    else:
        low, high, step = slider.min, slider.max, slider.step or 1
    if len(current) > 1:
        high = current[1]
    grid = [round(low + i * step, 10) for i in range(int(math.floor((high - low) / step + 1e-9)) + 1)]
    here = round((current[0] - low) / step)
    values = grid[here + 1:] + grid[:max(here, 0)][::-1]
    return values or [current[0]]


def find_slider(run: Run, label: str | None):
    """The slider :mod:`benchmarks.browser_bench` moves: the one labelled ``label``; else the first slider of the
    main area drawn inside a fragment (a key input); else the sidebar's first. Returns (slider, fragment id)."""
    ordered = sorted(run.sliders.items())
    if label:
        found = [(s, run.fragments.get(p, "")) for p, s in ordered if s.label == label]
    else:
        found = ([(s, run.fragments[p]) for p, s in ordered if p[0] != _SIDEBAR and run.fragments.get(p)]
                 or [(s, "") for p, s in ordered if p[0] == _SIDEBAR])
    if not found:
        raise LookupError(f"no slider {label!r} on the page" if label else "no slider in the sidebar")
    return found[0]


def _checked(run: Run) -> Run:
    """``run``, if the script (or the fragment) finished successfully and the page showed no exception."""
    if run.status not in (0, 3):  # FINISHED_SUCCESSFULLY, FINISHED_FRAGMENT_RUN_SUCCESSFULLY
        raise RuntimeError(f"script_finished with status {run.status}")
    if run.exceptions:
        raise RuntimeError(f"the page showed an exception: {run.exceptions[0][:200]}")
    return run


@dataclass
class SessionResult:
    page: str
    first_visit: float = math.nan
    moves: list = field(default_factory=list)
    move_deltas: list = field(default_factory=list)
    #: Whether the moves reran only the slider's fragment.
    fragment: bool = False
    error: str = ""


async def use_page(port: int, page: str, label: str | None, *, slot: int, moves: int = MOVES,
                   think: tuple[float, float] = THINK, seed: int = SEED) -> SessionResult:
    """One session: open ``page``, then move its slider ``moves`` times to values ``slot`` × ``moves`` steps and
    more from the default, pausing ``think`` seconds after each; errors are recorded, not raised."""
    rng = random.Random(f"{seed}-{page}-{slot}")
    result = SessionResult(page)
    try:
        async with Session(port, page) as session:
            run = _checked(await session.rerun())
            result.first_visit = run.seconds
            first, fragment = find_slider(run, label)
            values, widget_id = slider_values(first), first.id
            for k in range(moves):
                await asyncio.sleep(rng.uniform(*think))
                session.set_slider(first, values[(slot * moves + k) % len(values)], widget_id)
                session.fragment_id = fragment  # a key input reruns only its fragment, as in the browser
                run = _checked(await session.rerun())
                result.moves.append(run.seconds)
                result.move_deltas.append(run.deltas)
                result.fragment = bool(fragment)
                widget_id, fragment = (lambda found: (found[0].id, found[1]))(find_slider(run, label))
    except Exception as err:  # noqa: BLE001  (reported with the figures)
        result.error = f"{type(err).__name__}: {str(err).splitlines()[0][:120] if str(err) else ''}"
    return result


async def _concurrent(port: int, sessions: int, *, first_slot: int) -> list[SessionResult]:
    jobs = []
    for i in range(sessions):
        page, label = PAGES[i % len(PAGES)]
        jobs.append(use_page(port, page, label, slot=first_slot + i // len(PAGES)))
    return list(await asyncio.gather(*jobs))


async def _one_at_a_time(port: int) -> list[SessionResult]:
    return [await use_page(port, page, label, slot=0) for page, label in PAGES]


def quantile(values, q: float) -> float:
    """The ``q`` quantile of ``values`` (linear interpolation, numpy's default)."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    pos = q * (len(ordered) - 1)
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def summary(results: list[SessionResult]) -> dict:
    moves = [s for r in results for s in r.moves]
    visits = [r.first_visit for r in results if not math.isnan(r.first_visit)]
    return {"reruns": len(moves), "p50": quantile(moves, 0.5), "p95": quantile(moves, 0.95),
            "max": max(moves, default=math.nan), "visit_p50": quantile(visits, 0.5),
            "visit_max": max(visits, default=math.nan), "errors": [f"{r.page}: {r.error}" for r in results if r.error],
            "fragment_sessions": sum(r.fragment for r in results)}


def by_page(results: list[SessionResult]) -> dict:
    """Median and largest rerun seconds of each page's moves."""
    pages: dict = {}
    for r in results:
        pages.setdefault(r.page, []).extend(r.moves)
    return {page: (quantile(moves, 0.5), max(moves, default=math.nan)) for page, moves in pages.items()}


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far (Linux ``/proc/PID/stat``); NaN elsewhere."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return math.nan


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and its live children (a lab's proxy and its app processes; Linux
    ``/proc/PID/task/*/children``); NaN elsewhere."""
    total, todo, seen = 0.0, [pid], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        total += cpu_seconds(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            pass
    return total


#: Streamlit's floors under the same load (as in :mod:`benchmarks.browser_bench`): (name, app, slider label).
FLOORS = (("one-chart floor", True, None), ("page-shaped floor", FLOOR_PAGE_APP, "Slope"))


async def _floor_concurrent(port: int, sessions: int, label: str | None) -> list[SessionResult]:
    return list(await asyncio.gather(*[use_page(port, "", label, slot=1 + i) for i in range(sessions)]))


def measure_floor(app, label: str | None, sessions: int = SESSIONS) -> dict:
    """The same load — ``sessions`` sessions at once, ``MOVES`` moves ``THINK`` seconds apart — on a floor app
    (plain ``streamlit run``; a move reruns the one-chart floor's whole script and the page-shaped floor's
    fragment, as a key input does on a page): what Streamlit itself costs."""
    port = _free_port()
    proc = _start_server(port, floor=app)
    try:
        return summary(_run(_floor_concurrent(port, sessions, label)))
    finally:
        _stop_server(proc)


def lab_workers() -> int:
    """The app processes ``make lab`` starts on this machine (one per core; ``scripts/lab.py --workers auto``)."""
    import importlib.util

    from benchmarks.browser_bench import ROOT

    spec = importlib.util.spec_from_file_location("lab", ROOT / "scripts" / "lab.py")
    lab = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("lab", lab)  # dataclasses look their module up
    spec.loader.exec_module(lab)
    return lab.worker_count("auto")


def measure_one_process(sessions: int = SESSIONS) -> dict:
    """The same load on the app as ``make run`` serves it: one process, every session's script on its interpreter."""
    port = _free_port()
    proc = _start_server(port)
    try:
        return summary(_run(_concurrent(port, sessions, first_slot=1)))
    finally:
        _stop_server(proc)


def measure(sessions: int = SESSIONS) -> dict:
    """Start the app as a lab serves it (``make lab``: :func:`lab_workers` processes behind ``scripts/lab.py``),
    run the one-session reference and the ``sessions`` concurrent sessions; always stop it. Then the same load on
    one process (``make run``) and on Streamlit's floors.

    Besides the reruns it records the CPU seconds the server (the lab's proxy and app processes) and this client
    used in each phase: on a loaded machine, the server's CPU per rerun says whether sharing added work or only
    waiting.
    """
    workers = lab_workers()
    port = _free_port()
    proc = _start_server(port, workers=workers)
    try:
        cpu0, own0 = tree_cpu_seconds(proc.pid), time.process_time()
        alone = _run(_one_at_a_time(port))
        cpu1, own1 = tree_cpu_seconds(proc.pid), time.process_time()
        start = time.perf_counter()
        together = _run(_concurrent(port, sessions, first_slot=1))
        wall = time.perf_counter() - start
        cpu2, own2 = tree_cpu_seconds(proc.pid), time.process_time()
    finally:
        _stop_server(proc)
    one_process = measure_one_process(sessions) if workers > 1 else summary(together)
    floors = {name: measure_floor(app, label, sessions) for name, app, label in FLOORS}
    return {"alone": summary(alone), "together": summary(together), "sessions": sessions, "wall": wall,
            "workers": workers, "one_process": one_process, "floors": floors,
            "pages": {page: (by_page(alone).get(page), seconds) for page, seconds in by_page(together).items()},
            "server_cpu": (cpu1 - cpu0, cpu2 - cpu1), "client_cpu": (own1 - own0, own2 - own1)}


def check_sessions(timed=None) -> bool:
    """Print the rerun figures of ``SESSIONS`` concurrent sessions next to the target and the one-session figures."""
    try:
        m = measure()
    except Exception as err:  # noqa: BLE001  (the server did not start: say so)
        print(f"sessions benchmark could not run: {type(err).__name__}: {err}")
        return False
    one, many = m["alone"], m["together"]
    good = many["p95"] <= TARGET_P95 and not many["errors"] and not one["errors"]
    print(f"Lab server (make lab: {m['workers']} app processes behind scripts/lab.py), {m['sessions']} websocket "
          f"sessions at once over {len(PAGES)} pages (Streamlit's protocol, no browser; {MOVES} slider moves each, "
          f"{THINK[0]}–{THINK[1]} s apart):")
    print(f"   slider rerun → script_finished: p50 {many['p50']:.2f} s, p95 {many['p95']:.2f} s, "
          f"max {many['max']:.2f} s over {many['reruns']} reruns   (target p95 ≤ {TARGET_P95:.1f} s on 2 cores) {'OK' if good else 'MISSED'}")
    print(f"   one session alone, same pages and moves: p50 {one['p50']:.2f} s, p95 {one['p95']:.2f} s, "
          f"max {one['max']:.2f} s over {one['reruns']} reruns; contention costs {many['p50'] / one['p50']:.1f}× at "
          f"p50, {many['p95'] / one['p95']:.1f}× at p95")
    print(f"   first visits: {m['sessions']} at once p50 {many['visit_p50']:.2f} s, max {many['visit_max']:.2f} s; "
          f"alone p50 {one['visit_p50']:.2f} s; all {m['sessions']} sessions done in {m['wall']:.0f} s")
    single = m["one_process"]
    print(f"   the same load on one process (make run): p50 {single['p50']:.2f} s, p95 {single['p95']:.2f} s, "
          f"max {single['max']:.2f} s; the lab's p95 is {many['p95'] / single['p95']:.2f}× of it"
          if single["p95"] > 0 else "   the same load on one process (make run): no reruns")
    for error in single["errors"]:
        print(f"   one-process session failed: {error}")
    runs_alone, runs_shared = one["reruns"] + len(PAGES), many["reruns"] + m["sessions"]  # moves + first visits
    print(f"   server CPU per run (first visits and moves; the proxy and its app processes): "
          f"{m['server_cpu'][0] / runs_alone:.2f} s alone, {m['server_cpu'][1] / runs_shared:.2f} s shared; "
          f"this client used {m['client_cpu'][1]:.1f} CPU s for the {m['sessions']} sessions")
    floors = m["floors"]
    print("   the same load on Streamlit's floors (benchmarks/floor_app.py, a whole-script rerun; "
          "floor_page_app.py, a fragment rerun): "
          + "; ".join(f"{name} p50 {f['p50']:.2f} s, p95 {f['p95']:.2f} s" for name, f in floors.items())
          + "; this app's p95 is " + ", ".join(f"{many['p95'] / f['p95']:.2f}× the {name}'s" for name, f in floors.items()
                                              if f["p95"] > 0))
    for name, f in floors.items():
        for error in f["errors"]:
            print(f"   {name} session failed: {error}")
    print("   per page, median / max rerun: " + "; ".join(
        f"{page} {alone[0]:.2f}/{alone[1]:.2f} s alone, {both[0]:.2f}/{both[1]:.2f} s shared"
        for page, (alone, both) in m["pages"].items() if alone))
    for error in one["errors"] + many["errors"]:
        print(f"   session failed: {error}")
    return good


CHECKS = [check_sessions]

if __name__ == "__main__":
    sys.exit(0 if check_sessions() else 1)
