"""The Hugging Face Hub side: model-card reporting and the MS-AMR → DocAMR dataset.

* :mod:`amreval.hub.modelcard`: scores as ``model-index`` metadata (extra ``hub``);
* :mod:`amreval.hub.ms_amr_examples`: the MS-AMR examples, read without ``datasets``;
* :mod:`amreval.hub.ms_amr`: the ``datasets`` builder and the Parquet export (extra ``hub``).

Nothing here is imported until used.
"""
