"""The commands that write for the Hugging Face Hub: ``amreval export-ms-amr`` (the MS-AMR dataset folder)
and ``amreval space`` (a metric's Space folder)."""

from __future__ import annotations

import argparse

from amreval.commands import usage_checked

__all__ = ["run_export_ms_amr", "run_space"]


def run_export_ms_amr(args: argparse.Namespace) -> int:
    from amreval.docamr import REPRESENTATIONS, check_representation
    from amreval.errors import MissingDependencyError

    configs = tuple(usage_checked(check_representation, c, "--config") for c in (args.config or REPRESENTATIONS))
    try:
        from amreval.hub.ms_amr import export_ms_amr
    except ImportError:
        raise MissingDependencyError("datasets", "hub", "export-ms-amr") from None
    written = export_ms_amr(args.amr3, args.out, configs, strict=args.strict, progress=args.progress)
    for config, splits in written.items():
        print(f"{config}: " + ", ".join(f"{split} {n}" for split, n in splits.items()))
    print(f"written to {args.out}; load with datasets.load_dataset({args.out!r}, 'docamr')")
    return 0


def run_space(args: argparse.Namespace) -> int:
    from amreval.hub.metrics import write_space

    written = write_space(
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
