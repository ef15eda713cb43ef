"""``amreval space``: a Hugging Face Space folder for a shipped metric, or for the app that compares
systems, that builds from itself (the metric script, the app, examples, this amreval as a file, the card).

Example:
    amreval space docsmatch my_space --hub-id user/docsmatch
    amreval space smatch my_space --hub-id user/smatch
    amreval space compare my_compare_space --hub-id user/compare-amr-parsers
"""

from __future__ import annotations

import argparse

from amreval.cli.options import add_verbose
from amreval.errors import UsageError

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``amreval space``."""
    p.description = (
        "Write a Space folder for a shipped metric (or compare: the app that ranks and tests several systems "
        "against a gold file) that builds alone: the metric script, the app, "
        "examples, packages.txt, this amreval as a file (the sdist built from the checkout, or --sdist/--wheel), "
        "requirements.txt with amreval's dependencies (the app and the scripts install amreval from the file "
        "when they start), and the card (sdk_version: the installed gradio)."
    )
    p.add_argument(
        "metric", choices=("docsmatch", "mfbeta", "smatch", "compare"), help="the metric, or compare (see above)"
    )
    p.add_argument("out", metavar="OUT", help="output folder (missing or empty)")
    p.add_argument("--hub-id", required=True, metavar="USER/NAME", help="the Space's id on the Hub")
    p.add_argument("--gradio-version", metavar="V", help="sdk_version of the card (default: the installed gradio)")
    p.add_argument("--force", action="store_true", help="write into a folder that has files")
    p.add_argument("--sdist", "--wheel", dest="package", metavar="PATH", help="ship this amreval sdist or wheel")
    add_verbose(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Write the Space folder, say how to upload it. A folder with files is refused here, naming the
    command line's ``--force`` (the API names its own ``overwrite=True``)."""
    from pathlib import Path

    from amreval.hub.app_spaces import APP_SPACES, write_app_space
    from amreval.hub.metrics import write_space

    out = Path(args.out).resolve()  # ``missing/..`` is the folder it names
    if out.is_dir() and any(out.iterdir()) and not args.force:
        raise UsageError(f"{out} is not empty (pass --force to write into it)")

    written = (write_app_space if args.metric in APP_SPACES else write_space)(
        args.metric,
        args.out,
        hub_id=args.hub_id,
        gradio_version=args.gradio_version,
        overwrite=args.force,
        package=args.package,
    )
    print(f"{args.metric} Space written to {args.out}: " + ", ".join(p.as_posix() for p in written))
    print(
        "upload with: from huggingface_hub import HfApi; api = HfApi(); "
        f"api.create_repo({args.hub_id!r}, repo_type='space', space_sdk='gradio', exist_ok=True); "
        f"api.upload_folder(folder_path={args.out!r}, repo_id={args.hub_id!r}, repo_type='space')"
    )
    return 0
