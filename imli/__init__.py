"""IMLI: interpretable classification rules learned with MaxSAT.

The MLIC / IMLI family (CP 2018, AIES 2019, JAIR 2022): CNF and DNF rules, decision lists
and decision sets, learned in one MaxSAT query, in mini-batches or clause by clause (the
default), with python-sat's RC2 (or OR-Tools CP-SAT, or any external MaxSAT solver). A
CNF/DNF that is not a proven optimum is then polished by local search on all training
rows (:mod:`imli.polish`).

>>> from imli import IMLIClassifier
"""

from .binarize import Binarizer
from .encoding import Constraints, Query, Weights, decode, encode
from .estimator import IMLIClassifier, TimeLimitWarning
from .explanation import Explanation
from .predicates import Predicate
from .rows import WeightedRows, merge_rows
from .decisions import DecisionList, DecisionSet, Rule
from .rules import CNF, DNF, Clause, Literal
from .solver import Solution, SolverConfig, SolverError, solve

__all__ = [
    "CNF",
    "DNF",
    "Binarizer",
    "Clause",
    "Constraints",
    "DecisionList",
    "DecisionSet",
    "Explanation",
    "IMLIClassifier",
    "Literal",
    "Predicate",
    "Query",
    "Rule",
    "Solution",
    "SolverConfig",
    "SolverError",
    "TimeLimitWarning",
    "WeightedRows",
    "Weights",
    "decode",
    "encode",
    "merge_rows",
    "solve",
]
