"""FOLD: learning default rules with exceptions, run exactly in SWI-Prolog.

A standalone learner of non-monotonic logic programs (FOLD / FOLD-R++ style;
LIME-FOLD, 2019): default rules, exceptions as ``ab`` predicates, exceptions to
exceptions. The learned program is SWI-Prolog source that plain ``swipl``
loads; predictions come from SWI-Prolog through pyswip.

>>> from fold import FOLDClassifier
"""

from .classifier import FOLDClassifier
from .engine import Evaluation, PrologEngine, get_engine
from .errors import FoldError, FoldInputError, PrologEngineError, PrologTimeoutError
from .explanation import Explanation
from .program import PrologProgram
from .quoting import format_number, quote_atom
from .rules import ClassRules, Literal, Rule, Theory
from .table import Negated

__all__ = [
    "FOLDClassifier",
    "Negated",
    "Literal",
    "Rule",
    "ClassRules",
    "Theory",
    "Explanation",
    "PrologProgram",
    "PrologEngine",
    "Evaluation",
    "get_engine",
    "quote_atom",
    "format_number",
    "FoldError",
    "FoldInputError",
    "PrologEngineError",
    "PrologTimeoutError",
]
