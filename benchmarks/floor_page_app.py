"""A second floor for ``make bench``: Streamlit's own cost of a page shaped like ours, with no statistics.

The one-chart floor (``floor_app.py``) has a slider and a chart: two elements. A scenario page has 30–60 (a
sidebar of assumptions, three key inputs above the chart, a metrics row, view tabs, the pins, plan and code
expanders, a CSV download, the explanation and one chart of several traces). This app has the Accuracy page's
element mix and structure — counted with AppTest at its defaults: the key inputs and everything that depends
on them inside one ``st.fragment``, the sidebar outside it, a metrics row of boxes, a view switcher whose
choice is in the URL, expanders filled only when opened (``pages._show``, ``pages._pins``) — with constant
content and one seven-trace chart whose data follow the "Slope" key input. A page's ratio to it is what the
page's own work (its script, its figure and its texts) adds to what Streamlit costs for that many elements.
Started with plain ``streamlit run``.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

side = st.sidebar
side.radio("Scenario", ["one", "two", "three"], help="A constant choice.")
side.subheader("Design")
side.slider("Setting 0", 0, 100, 50, help="A constant setting.")
for i in range(2):
    side.selectbox(f"Choice {i}", ["one", "two", "three"], help="A constant choice.")
side.subheader("Decision rule")
side.select_slider("Level", [0.001, 0.01, 0.05, 0.1], 0.05, help="A constant setting.")
side.slider("Setting 1", 0.5, 0.99, 0.8, help="A constant setting.")
side.subheader("Uncertain effect")
side.toggle("Option 0", help="A constant option.")
side.subheader("Cost")
left, right = side.columns(2)
left.number_input("Number", 0.0, 100.0, 1.0)
right.text_input("Label", "EUR")
side.subheader("Simulation")
side.toggle("Option 1", help="A constant option.")

st.title("A page shaped like a scenario page")
st.caption("Constant text under the title, as the pages have.")


@st.fragment
def body() -> None:
    cols = st.container(key="key_inputs").columns(3, gap="medium")
    slope = cols[0].slider("Slope", 0.5, 10.0, 2.0, 0.5, help="Moves the chart.")  # the first: the one moved
    cols[1].select_slider("Size", [100, 200, 500, 1_000, 2_000], 500, help="A constant key input.")
    cols[2].slider("Rate", 50, 100, 80, help="A constant key input.")
    row = st.container(horizontal=True, gap="medium")
    for i in range(5):
        row.container(width="content", gap=None).metric(f"Metric {i}", f"{slope * (i + 1):.1f} pts",
                                                        help="A number that follows the slider.")
    st.warning("A constant note above the charts.")
    with st.container(key="pins_panel"), st.expander("Pinned designs (0)", key="pins_open", on_change="rerun") as box:
        if box.open:
            name, pin = st.columns([3, 1])
            name.text_input("Name of the pin", "")
            pin.button("Pin this design")
    views = [f"View {i}" for i in range(8)]
    view = st.segmented_control("View", views, default=views[0], required=True, key="view", bind="query-params",
                                label_visibility="collapsed")
    with st.container():
        if view == views[0]:
            x = np.geomspace(10, 100_000, 32)
            fig = go.Figure([go.Scatter(x=x, y=1 - np.exp(-slope * x / (2_000 * (k + 1))), mode="lines",
                                        name=f"series {k}") for k in range(7)])
            fig.update_layout(xaxis_type="log", height=420, hovermode="x unified")
            st.plotly_chart(fig, width="stretch")
    with st.expander("Plan this design", key="plan_open", on_change="rerun") as box:
        if box.open:
            st.markdown(f"A plan of {slope:.1f} points. " + "A constant sentence of the plan. " * 20)
    with st.expander("Python code for this view", key="code_open", on_change="rerun") as box:
        if box.open:
            st.code(f"slope = {slope}\n" + "print('a constant line of code')\n" * 10, language="python")
    st.download_button("Download the plotted data (CSV)", data=f"x,y\n1,{slope}\n", file_name="data.csv")
    with st.expander("Explain this page in plain language", key="explain_open", on_change="rerun") as box:
        if box.open:
            st.markdown("**What is being planned?** " + "A constant paragraph of explanation. " * 50)

body()
