"""A second floor for ``make bench``: Streamlit's own cost of a page shaped like ours, with no statistics.

The one-chart floor (``floor_app.py``) has a slider and a chart: two elements. A scenario page sends 40–86
(a sidebar of about 23 widgets, a metrics row, view tabs, expanders, captions and one chart of several
traces). This app sends the Accuracy page's element mix — counted with AppTest at its defaults — with
constant content and one seven-trace chart whose data follow the slider, so a page's ratio to it is what the
page's own work (its script, its figure and its texts) adds to what Streamlit costs for that many elements.
Started with plain ``streamlit run``.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

side = st.sidebar
slope = side.slider("Slope", 0.5, 10.0, 2.0, 0.5, help="Moves the chart.")
side.header("Decision")
for i in range(5):
    side.slider(f"Setting {i}", 0, 100, 50, help="A constant setting.")
for i in range(4):
    side.selectbox(f"Choice {i}", ["one", "two", "three"], help="A constant choice.")
for i in range(3):
    side.checkbox(f"Option {i}", help="A constant option.")
side.radio("Mode", ["a", "b", "c"], horizontal=True)
side.number_input("Number", 0, 100, 10)
side.text_input("Label", "EUR")
side.text_input("Note", "")
with side.expander("Costs"):
    st.slider("Cost", 0.0, 10.0, 1.0)

st.title("A page shaped like a scenario page")
st.caption("Constant text under the title, as the pages have.")
cols = st.columns(5)
for i, col in enumerate(cols):
    col.metric(f"Metric {i}", f"{slope * (i + 1):.1f}%", help="A number that follows the slider.")
tabs = st.tabs([f"View {i}" for i in range(8)])
with tabs[0]:
    st.subheader("Power vs sample size")
    x = np.geomspace(10, 100_000, 32)
    fig = go.Figure([go.Scatter(x=x, y=1 - np.exp(-slope * x / (2_000 * (k + 1))), mode="lines", name=f"series {k}")
                     for k in range(7)])
    fig.update_layout(xaxis_type="log", height=420, hovermode="x unified")
    st.plotly_chart(fig, width="stretch")
    st.download_button("Download the plotted data (CSV)", data="x,y\n1,2\n", file_name="data.csv")
for i in range(4):
    st.subheader(f"Section {i}")
    with st.expander(f"More about section {i}"):
        st.markdown("Some constant explanatory text. " * 20)
st.markdown("**What is being planned?** " + "A constant paragraph of explanation. " * 50)
st.caption("References: constant.")
st.info("A constant note.")
st.button("Pin this design")
