"""The floor of ``make bench``'s browser figures: the smallest Streamlit app with a slider and one Plotly line.

Started with plain ``streamlit run``; every page's first visit and slider latency are reported as a ratio to this
app's, measured in the same run on the same machine, so the figures say what the app adds to Streamlit's own cost.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

slope = st.sidebar.slider("Slope", 0.5, 10.0, 2.0, 0.5)
x = np.linspace(0.0, 1.0, 50)
st.plotly_chart(go.Figure(go.Scatter(x=x, y=slope * x, mode="lines")), width="stretch")
