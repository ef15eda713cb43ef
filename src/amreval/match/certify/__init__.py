"""The certified search's steps: the exact searches, the bounds and what proves a score against them.

:func:`amreval.match.alignment.align` runs them in order (see there), each only where the ones before
could not prove the score: the exact search of a whole problem (:mod:`~amreval.match.certify.exact`)
or, on a document, the coupled search of its sentence blocks (:mod:`~amreval.match.certify.coupling`,
whose first round is a bound of the kind :mod:`~amreval.match.certify.blocks` computes); the
assignment bound and the LP relaxation (:mod:`~amreval.match.certify.bounds`), priced on large problems
(:mod:`~amreval.match.certify.pricing`); on a document, the coupled search again over the pairs the
LP's reduced costs leave (:mod:`~amreval.match.certify.fixing`); and last the integer program. What
counts as a proof is :mod:`~amreval.match.certify.proof`. The steps run on the kernels
(:mod:`amreval.match.kernels`); the kernels know nothing of them.
"""
