"""Pictures of document graphs and alignment diffs (:mod:`amreval.report.draw`, extra ``draw``), and
reports of comparisons of systems (:mod:`amreval.report.comparison`: text, CSV, plain SVG)."""
