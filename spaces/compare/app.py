"""The comparison Space: upload a gold file and several systems, get the ranking with paired tests, the
breakdown, the items that differ most with their alignment pictures, and the model-card entries.

Every number comes from ``amreval.scores.compare.compare_systems``, as ``amreval compare`` computes it; the
page, built by ``amreval.hub.space_compare``, reads the uploads, checks the Space's limits and lays the
comparison out. Run it with ``python app.py``; ``build_demo()`` returns the Blocks without launching (it
compares two tiny systems first, so that the alignment kernels are loaded before the first visitor).
"""

from __future__ import annotations

from pathlib import Path

from amreval.hub.space_compare import Limits, compare_demo, warm_up

HERE = Path(__file__).resolve().parent


def build_demo(limits: Limits | None = None, warm: bool = True):
    """The app's Blocks, with the Space's ``limits`` (default: :class:`Limits`, the card's); ``warm``: call
    :func:`warm_up` first."""
    if warm:
        warm_up()
    return compare_demo(HERE / "examples", limits)


if __name__ == "__main__":
    build_demo().launch()
