"""A whole scenario page built from a design alone through the shared page functions (pages._scenario)."""

from pages._scaffold import explain, start
from pages._scenario import design_controls, power_answer
from tests.app.minimal_scenario_design import ZDesign

start("Minimal scenario", "A paired z test, from its design alone.")
design = design_controls(ZDesign, key_fields=("delta", "n"))
power_answer(design, n=design.n, unit="items", effect=design.delta)
explain("Everything on this page comes from `ZDesign`: its declared fields and its methods.")
