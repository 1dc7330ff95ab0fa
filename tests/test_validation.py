"""The shared argument checks (core/validation.py): messages name the parameter in backticks."""

from __future__ import annotations

import pytest

from core import llm, sequential
from core.validation import check_type


def test_check_type_returns_the_value_and_names_the_public_class():
    design = llm.BenchmarkDesign()
    assert check_type("design", design, llm.BenchmarkDesign) is design
    # the class by the package that exports it (core.llm, not core.llm.design)
    with pytest.raises(ValueError, match=r"^`design` must be a core\.llm\.BenchmarkDesign; got dict\.$"):
        check_type("design", {}, llm.BenchmarkDesign)
    with pytest.raises(ValueError, match=r"^`design` must be a core\.sequential\.MonitorDesign; got CampaignDesign\.$"):
        check_type("design", sequential.CampaignDesign(), sequential.MonitorDesign)
