"""Plan basket: designs added from several pages, in one document with the total cost .

UI only: the items are ``core.plan.PlanItem`` objects kept in the session; ``core.plan`` writes the HTML.
"""

from __future__ import annotations

import streamlit as st

from core.plan import plan_html, plan_text, total_cost
from pages._scaffold import explain, fmt_money, guard, md_escape, start

start("Plan basket", "Designs you added from the planning pages, combined into one plan you can file.")
basket = st.session_state.setdefault("plan_basket", [])

if not basket:
    st.info("The basket is empty. On a planning page, open **Plan this design** and press **Add to the plan basket**; "
            "a campaign that needs, say, an accuracy comparison and a human study is then planned in one file.")
else:
    title = st.text_input("Title of the plan", "Evaluation plan", key="plan_title", max_chars=120,
                          help="The heading of the combined document.")
    for k, item in enumerate(basket):
        with st.container(border=True):
            c1, c2 = st.columns([6, 1])
            cost = "" if item.cost is None else f" · cost {fmt_money(item.cost, item.currency)}"
            c1.markdown(f"**{k + 1}. {item.scenario}**{cost}")
            c1.caption(md_escape(item.question))
            if c2.button("Remove", key=f"remove_{k}", help="Take this design out of the plan."):
                basket.pop(k)
                st.rerun()
    with guard("Cannot add up the plan", stop=False):
        total = total_cost(basket)
        if total is not None:
            currency = next(i.currency for i in basket if i.cost is not None)
            st.metric("Total cost", fmt_money(total, currency),
                      help="Sum of the costs of the designs that have one.")
        st.download_button("Download the combined plan (HTML)",
                           data=lambda: plan_html(basket, title=title or "Evaluation plan").encode("utf-8"),
                           file_name="evaluation_plan.html", mime="text/html", key="basket_html", on_click="ignore",
                           type="primary", help="One self-contained file (opens offline) with every design.")
    st.markdown("**Text for your paper**")
    st.code("\n\n".join(plan_text(item) for item in basket), language=None, wrap_lines=True)
    if st.button("Empty the basket", key="empty_basket"):
        basket.clear()
        st.rerun()

explain(
    """
**What is this?** A plan collects the designs you settled on — the question, every assumption and where it came from
(a slider, a preset from a paper's table, or a fit to your own file), the test and α, the power, exaggeration and
sample sizes, the cost, and the charts — in one HTML file you can attach to a proposal, a preregistration or a budget
request. It opens without an internet connection.

**Why one file for several designs?** Evaluation campaigns often combine an automatic comparison with a human study;
the basket adds up their costs so the budget request is complete.
"""
)
