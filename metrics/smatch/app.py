"""The Smatch Space: score predicted sentence AMR graphs against gold ones in the browser.

Every number comes from the metric a user gets with ``evaluate.load`` on this folder; the page, built by
``amreval.hub.space_smatch``, only reads the inputs, calls ``compute`` and lays the result out.
Run it with ``python app.py``; ``build_demo()`` returns the Blocks without launching (it scores
one tiny pair first, so that the alignment kernels are loaded before the first visitor).
"""

from __future__ import annotations

from pathlib import Path

from amreval.hub.space_smatch import smatch_demo, warm_up

HERE = Path(__file__).resolve().parent


def build_demo(metric=None, warm: bool = True):
    """The app's Blocks, on ``metric`` (default: ``evaluate.load`` of this folder); ``warm``: call
    :func:`warm_up` first."""
    if metric is None:
        import evaluate

        metric = evaluate.load(str(HERE / "smatch.py"))  # the script, whatever the folder is called
    if warm:
        warm_up()
    return smatch_demo(metric, HERE / "examples")


if __name__ == "__main__":
    build_demo().launch()
