"""Datasets: the MS-AMR → DocAMR examples and their `datasets` builder.

:mod:`amreval.data.examples` reads without ``datasets``;
:mod:`amreval.data.ms_amr` (the builder) needs the ``hub`` extra.
"""
