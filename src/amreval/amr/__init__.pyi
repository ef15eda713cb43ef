# The package's names, one a line with the module each comes from. Type checkers read them here; at run time
# amreval._lazy.attach_stub reads the same lines, and a module loads when one of its names is first used.

from amreval.amr.graph import NON_INVERTED_OF_ROLES as NON_INVERTED_OF_ROLES
from amreval.amr.graph import Attribute as Attribute
from amreval.amr.graph import Edge as Edge
from amreval.amr.graph import Graph as Graph
from amreval.amr.graph import canonical_role as canonical_role
from amreval.amr.read import GraphLike as GraphLike
from amreval.amr.read import as_graph as as_graph
from amreval.amr.read import iter_graphs as iter_graphs
from amreval.amr.read import loads_graph as loads_graph
from amreval.amr.read import loads_graphs as loads_graphs
from amreval.amr.read import read_graphs as read_graphs
