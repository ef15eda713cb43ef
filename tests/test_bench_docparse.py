"""How ``benchmarks/bench_docparse.py`` names the step that proved a document."""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from bench_docparse import proven_by


def test_a_document_is_proven_by_the_last_step_that_ran():
    assert proven_by(["climb"], True) == "climb"
    assert proven_by(["climb", "coupling"], True) == "coupling"
    assert proven_by(["climb", "coupling", "assignment", "LP", "fixing"], True) == "fixing"
    assert proven_by(["climb", "coupling", "assignment", "LP", "fixing", "restarts"], True) == "LP+restarts"
    assert proven_by(["climb", "coupling", "assignment", "LP", "fixing"], False) == "unproven (after fixing)"
    assert proven_by([], True) == "climb"


def test_the_climb_from_the_lps_rounding_is_the_lp_steps():
    # the LP step climbs from its rounding: a proof there is the LP's, not a climb's
    assert proven_by(["climb", "coupling", "assignment", "LP", "climb"], True) == "LP"
    assert proven_by(["climb", "coupling", "assignment", "LP", "climb"], False) == "unproven (after LP)"
    assert proven_by(["climb", "exact search", "assignment", "LP", "climb", "integer program"], True) == (
        "integer program"
    )
