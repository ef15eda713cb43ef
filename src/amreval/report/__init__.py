"""Pictures of document graphs and alignment diffs (:mod:`amreval.report.draw`, extra ``draw``)."""
