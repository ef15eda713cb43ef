"""The MFβ Space: Meaning and Form of sentences generated from AMR, in the browser.

Every number comes from the metric a user gets with ``evaluate.load`` on this folder; the page, built by
``amreval.hub.space_mfbeta``, only reads the inputs, calls ``compute`` and lays the result out.
The language model is ``gpt2`` unless the ``MFBETA_LM`` environment variable names
another (a Hub name or a local folder). Run it with ``python app.py``;
``build_demo()`` returns the Blocks without launching.
"""

from __future__ import annotations

from pathlib import Path

from amreval.hub.space_mfbeta import mfbeta_demo, warm_up

HERE = Path(__file__).resolve().parent


def build_demo(metric=None, warm: bool = True):
    """The app's Blocks, on ``metric`` (default: ``evaluate.load`` of this folder); ``warm``: call
    :func:`warm_up` first."""
    if metric is None:
        import evaluate

        metric = evaluate.load(str(HERE / "mfbeta.py"))  # the script, whatever the folder is called
    if warm:
        warm_up()
    return mfbeta_demo(metric, HERE / "examples")


if __name__ == "__main__":
    build_demo().launch()
