"""MS-AMR → DocAMR: the entry point of the `datasets` builder.

The builder lives in the installed package (``amreval.hub.ms_amr``), because
datasets ≥ 4 runs no loading scripts. Use it directly::

    from amreval.hub.ms_amr import MsAmr, load_ms_amr

    builder = MsAmr(config_name="docamr", data_dir="/data/amr_annotation_3.0")
    builder.download_and_prepare()
    dataset = builder.as_dataset()                     # train, validation, test, validation_alternative
    dataset = load_ms_amr("/data/amr_annotation_3.0")  # the same in one line

or export Parquet that plain ``datasets.load_dataset(folder, "docamr")`` reads::

    amreval export-ms-amr --amr3 /data/amr_annotation_3.0 ms_amr_docamr/
"""

from amreval.hub.ms_amr import MsAmr, MsAmrConfig, export_ms_amr, load_ms_amr, ms_amr_features

__all__ = ["MsAmr", "MsAmrConfig", "load_ms_amr", "export_ms_amr", "ms_amr_features"]
