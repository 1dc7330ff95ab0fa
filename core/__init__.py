"""NLP Power Explorer computational core.

A pure package (numpy, scipy, statsmodels, pandas, plotly figure builders);
nothing here imports streamlit, so every number the app shows can be computed,
tested and reused from a notebook.
"""

__all__ = ["accuracy", "results", "validation", "figures"]
