# The package's names, one a line with the module each comes from. Type checkers read them here; at run time
# amreval._lazy.attach_stub reads the same lines, and a module loads when one of its names is first used.

from amreval.hub.metrics import METRICS as METRICS
from amreval.hub.metrics import load_metric as load_metric
from amreval.hub.metrics import metric_dir as metric_dir
from amreval.hub.metrics import metric_source as metric_source
from amreval.hub.metrics import write_space as write_space
from amreval.hub.trainer import make_compute_metrics as make_compute_metrics
from amreval.hub.trainer import score_generations as score_generations
