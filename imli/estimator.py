"""``IMLIClassifier``: the scikit-learn face of the MaxSAT rule learner."""

from __future__ import annotations

import time
import warnings
from dataclasses import replace
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, check_random_state

from .binarize import refuse_bools, specs_of
from .decisions import DecisionList, DecisionSet, Rule
from .encoding import MAX_DENOMINATOR, Constraints, Weights, encode
from .explanation import Explanation, check_values, explain_row
from .forms import named_alike
from .inputs import _cells, binary_input, literal_space
from .lists import decision_list, decision_set
from .literals import LiteralSpace, literal_matrix
from .polish import polish
from .redundancy import canonicalize, simplify
from .rows import distinct_rows, merge_rows
from .solver import ENGINES, SolverConfig
from .strategies import (Budget, Data, Setting, best_of, cost, greedy, iterative, joint,
                         minibatch)

__all__ = ["IMLIClassifier", "TimeLimitWarning"]

MODES = ("auto", "joint", "iterative", "decision_list", "decision_set")
#: Share of the time limit kept for :func:`~imli.polish.polish` after mini-batch learning.
POLISH_SHARE = 0.25


class TimeLimitWarning(ConvergenceWarning):
    """The time limit struck: the rule is the best found so far, not proven optimal."""


class IMLIClassifier(ClassifierMixin, BaseEstimator):
    """Interpretable CNF/DNF rules, decision lists and sets learned with MaxSAT (IMLI).

    The objective is ``|R| + data_fidelity·|E|`` (rule size plus weighted training
    errors) over rules with at most ``n_clauses`` clauses, as in MLIC (CP 2018) and IMLI
    (AIES 2019, JAIR 2022). JAIR 2022 writes the same objective with its λ on the rule
    size (``λ·|R| + |E|``): its λ is ``1 / data_fidelity`` here. Only one query over all
    rows (``batch_size=None``, mode ``"auto"`` or ``"joint"``) returns an optimum of it,
    when it finishes within ``time_limit`` (``optimal_``).
    Mini-batches and clause-by-clause learning (the default) are the papers' heuristics
    and can miss it: a first clause learned alone weighs the positive rows it rejects,
    errors no later clause can undo, like the negative rows it accepts, which a later
    clause could reject; on y = (a AND b) OR c, two clauses learn ``(c)`` with an eighth of
    the rows wrong, where ``(a OR c) AND (b OR c)`` makes no error.
    Categories are read as text in Unicode's composed form (NFC) at fit and at predict
    and explain, so ``"café"`` with ``"é"`` precomposed or as ``"e"`` and a combining
    accent is one category (also when the training data holds both), shown in its NFC
    form in the rules (a category of ``column_specs`` is shown as its spec writes it).
    So are class labels (two forms of one text are one class, in NFC, with a warning);
    column names alike so are refused, and at predict a column may be named in either form.

    Parameters
    ----------
    n_clauses : int, default=2
        Maximum number of clauses (CNF), terms (DNF) or rules (decision list/set, not
        counting the default rule).
    rule_type : {"CNF", "DNF"}, default="CNF"
        A DNF is learned as the CNF of the complemented labels, then complemented.
        Ignored by the decision-list and decision-set modes.
    data_fidelity : float, default=10.0
        The λ of the objective: the cost of one misclassified row relative to one
        literal, from 1e-6 to 1e9.
    batch_size : int or None, default=25
        An int: mini-batches of about that many rows, so that every MaxSAT query stays
        small and the fit time grows linearly with the rows (AIES 2019 §4.1: each query
        prefers the previous rule's literals). A batch takes whole distinct rows, each with
        all its copies: on a table whose rows repeat many times a batch holds few distinct
        rows and may learn a poor clause (7 copies of 16 rows: batches of 3 or 4), so give
        such a table a larger ``batch_size``, or ``None``. ``None``: no mini-batches; with
        ``mode="auto"`` or ``"joint"`` the whole training set is one MaxSAT query (the
        MLIC formulation), whose result is an optimum of the objective. That query grows
        with the rows and the literals: about a hundred distinct rows of a few features
        solve in seconds, but a few hundred noisy rows with the default thresholds may
        not finish within minutes, so give it a ``time_limit``.
    random_state : int, RandomState instance or None, default=0
        Shuffles the rows into mini-batches.
    mode : {"auto", "joint", "iterative", "decision_list", "decision_set"}, default="auto"
        ``"joint"`` learns all clauses together (one query, or mini-batches of ``k``-clause
        queries); ``"iterative"`` one clause at a time, each on the rows earlier clauses
        left undecided (JAIR 2022 Alg. 2); ``"auto"`` is ``"iterative"`` with mini-batches
        and ``"joint"`` without (``batch_size=None``). ``"decision_list"`` /
        ``"decision_set"`` learn ordered / unordered rules (JAIR Alg. 3 / 4) and also
        handle more than two classes. Where no term for the majority of the rows left pays
        alone (the rest of a conjunction), the list tries the other classes' terms before
        ending with the default, and a polished CNF/DNF left at a constant is polished
        again from the other constant.
    n_passes : int, default=1
        Passes over the mini-batches; the rule with the best objective on all training rows
        is kept.
    time_limit : float or None, default=None
        Seconds for the whole fit. When it strikes, the best rule found so far is returned
        (``optimal_`` is False, ``timed_out_`` True, and a :class:`TimeLimitWarning` is
        issued): how far the fit got depends on the machine's speed and load, so such a
        rule may differ from run to run, where every fit that finishes is the same. The
        clock is read between the steps of building each MaxSAT query, and RC2 is
        interrupted when the limit strikes. Its SAT solver (Glucose 3) notices only
        at its next restart, which can be seconds away on a large query, so a run still
        going half a second later is left to stop in a background thread and the fit
        returns. What cannot be interrupted comes on top: reading the table and loading
        one query into the solver. With ``batch_size=None`` on 200 rows of 500 noise
        features (queries of 1.5 million clauses), a 10 s limit gave fits of 10.1-12.1 s
        (up to 56 s when waiting for the solver).
    solver : {"rc2-stratified", "rc2", "cpsat"}, default="rc2-stratified"
        MaxSAT engine: python-sat's RC2 with or without stratification (stratified is much
        faster on the weighted queries of whole data sets), or OR-Tools CP-SAT (anytime;
        needs the ``surrogate-rules[cpsat]`` extra).
    solver_command : list of str or None, default=None
        An external MaxSAT solver to run instead (arguments, no shell); ``"{wcnf}"`` is
        replaced by the query file's path, or the path is appended.
    exclude_features : list of str or None, default=None
        Features (or columns) that must never appear; a name in either Unicode form
        (``"é"`` as one character or as ``"e"`` and an accent) names the feature.
    include_features : list of str or None, default=None
        Features that must appear in every clause (named as in ``exclude_features``).
        The rule may still have fewer than ``n_clauses`` clauses, or none (a constant)
        when no clause with them pays.
    disjoint_features : {"hard", "soft"} or None, default=None
        Each feature in at most one clause (in the decision modes, one rule); ``"soft"``
        charges one literal for each feature that several clauses use. When clauses are
        learned one at a time (``"iterative"``, decision lists and sets), a feature an
        earlier clause uses is left out of the later ones, or charged once in each later
        clause that uses it. The greedy fallback and the polish never add a violation,
        even when soft, but for an included feature, which every clause holds; rules are
        compared with what soft disjointness charges. Not with ``include_features`` when
        hard and ``n_clauses`` is more than 1.
    symmetry_breaking : bool, default=True
        Order the interchangeable clauses in the MaxSAT query.
    n_thresholds : int, default=9
        Thresholds per numeric feature, at most, when ``X`` is not binary (see
        :class:`Binarizer`).
    thresholds : {"quantile", "entropy"}, default="quantile"
        Where those thresholds go: at quantiles (AIES 2019 leaves their place open, JAIR
        2022 uses equal-width bins) or where the labels change most (supervised: finds an
        exact cut the quantiles miss).
    polish : bool, default=True
        Improve a CNF/DNF that is not a proven optimum by local search on all training rows
        (:func:`imli.polish.polish`: add, drop or swap literals and clauses while that
        strictly lowers ``|R| + data_fidelity·|E|``). Mini-batch learning then keeps a
        quarter of ``time_limit`` for it. Decision lists and sets are not polished. Its
        steps grow with the rule's size times the rows, and their number with the rule's
        size: a rule that lists hundreds of categories one by one (a column of thousands)
        takes minutes to polish (83 s on 10,000 rows with 2,000 categories, against 3 s
        unpolished); set ``time_limit``, which bounds it, or ``polish=False``.

    Attributes
    ----------
    rules_ : CNF, DNF, DecisionList or DecisionSet
        The learned rule; ``str(rules_)`` names the columns.
    rule_size_ : int
        Number of literals in the rule.
    optimal_ : bool
        Whether the rule is a proven optimum of the objective on the training rows (only
        possible with ``batch_size=None`` and ``mode="auto"`` or ``"joint"``).
    timed_out_ : bool
        Whether the time limit struck.
    objective_ : float
        ``|R| + data_fidelity·|E|`` of the returned rule on the training rows.
    n_queries_ : int
        MaxSAT queries solved.
    classes_ : ndarray
        Class labels; for binary rules ``classes_[1]`` is the class the rule predicts.
    binarizer_ : Binarizer or None
        The binarization applied to non-binary ``X`` (``None`` when ``X`` was binary).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` had string column names.

    Notes
    -----
    A rule decides; it gives no scores, so there is no ``predict_proba`` or
    ``decision_function`` (ROC AUC, soft voting and scikit-learn's one-vs-rest and
    one-vs-one wrappers do not apply). For more than two classes use
    ``mode="decision_list"`` or ``"decision_set"``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [0, 0, 0]] * 3)
    >>> y = np.array(["yes", "yes", "no", "no"] * 3)
    >>> clf = IMLIClassifier(n_clauses=1).fit(X, y)
    >>> print(clf.rules_)
    (x0)
    >>> clf.predict([[1, 0, 0]]).tolist(), clf.optimal_
    (['yes'], False)
    >>> IMLIClassifier(n_clauses=1, batch_size=None).fit(X, y).optimal_  # one MLIC query
    True
    """

    _parameter_constraints: dict = {
        "n_clauses": [Interval(Integral, 1, None, closed="left")],
        "rule_type": [StrOptions({"CNF", "DNF"})],
        # at most 1e9: the solver's integer weights (λ times row counts) stay in 64 bits
        "data_fidelity": [Interval(Real, 1 / MAX_DENOMINATOR, 1e9, closed="both")],
        "batch_size": [Interval(Integral, 1, None, closed="left"), None],
        "random_state": ["random_state"],
        "mode": [StrOptions(set(MODES))],
        "n_passes": [Interval(Integral, 1, None, closed="left")],
        # below the longest wait Python's threads take (the solver's watchdog)
        "time_limit": [Interval(Real, 0, 1e8, closed="neither"), None],
        "solver": [StrOptions(set(ENGINES))],
        "solver_command": [list, tuple, None],
        "exclude_features": [list, tuple, None],
        "include_features": [list, tuple, None],
        "disjoint_features": [StrOptions({"hard", "soft"}), None],
        "symmetry_breaking": ["boolean"],
        "n_thresholds": [Interval(Integral, 1, None, closed="left")],
        "thresholds": [StrOptions({"quantile", "entropy"})],
        "polish": ["boolean"],
    }

    def __init__(
        self,
        n_clauses=2,
        rule_type="CNF",
        data_fidelity=10.0,
        batch_size=25,
        random_state=0,
        *,
        mode="auto",
        n_passes=1,
        time_limit=None,
        solver="rc2-stratified",
        solver_command=None,
        exclude_features=None,
        include_features=None,
        disjoint_features=None,
        symmetry_breaking=True,
        n_thresholds=9,
        thresholds="quantile",
        polish=True,
    ):
        self.n_clauses = n_clauses
        self.rule_type = rule_type
        self.data_fidelity = data_fidelity
        self.batch_size = batch_size
        self.random_state = random_state
        self.mode = mode
        self.n_passes = n_passes
        self.time_limit = time_limit
        self.solver = solver
        self.solver_command = solver_command
        self.exclude_features = exclude_features
        self.include_features = include_features
        self.disjoint_features = disjoint_features
        self.symmetry_breaking = symmetry_breaking
        self.n_thresholds = n_thresholds
        self.thresholds = thresholds
        self.polish = polish

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = self.mode in ("decision_list", "decision_set")
        tags.input_tags.string = True  # an array with text is read as a mixed table
        tags.input_tags.allow_nan = True  # a missing value satisfies no literal column
        return tags

    # ------------------------------------------------------------------ data
    def _binary(self, X, y=None, column_specs=None, reset=True):
        """Validate ``X`` (and ``y``) and return the binary matrix (and labels)."""
        return binary_input(self, X, y, column_specs, reset)

    def _space(self, m: int, column_specs) -> LiteralSpace:
        return literal_space(self, m, column_specs)

    def _setting(self, space: LiteralSpace, n_rows: int | None = None) -> Setting:
        if self.include_features and self.disjoint_features == "hard" and self.n_clauses > 1:
            raise ValueError(
                "include_features puts a feature in every clause and "
                "disjoint_features='hard' in at most one; with n_clauses > 1 use "
                "disjoint_features='soft' or leave one of them out."
            )
        # a column of X that binarizes to no literal (a single value, or none); an
        # array's columns are the binarizer's x0, x1, ...
        columns = (self.feature_names_in_ if hasattr(self, "feature_names_in_")
                   else [f"x{i}" for i in range(getattr(self, "n_features_in_", 0))])
        known = [*space.features, *space.names, *(str(c) for c in columns)]
        # a feature named in either Unicode form (as the rules print it, alike)
        include = [named_alike(f, known) for f in self.include_features or ()]
        exclude = [named_alike(f, known) for f in self.exclude_features or ()]
        both = [f for f in include if f in exclude]
        if both:
            raise ValueError(f"{both[0]!r} is in both include_features and exclude_features.")
        silent = {str(c) for c in columns} - set(space.features) - set(space.names)
        lacking = [f for f in include if f in silent]
        if lacking:
            raise ValueError(f"include_features names {lacking[0]!r}, a column of a single "
                             f"value or none: no rule can test it.")
        allowed = np.ones(space.n_literals, dtype=bool)
        if exclude:
            excluded = [f for f in exclude if f not in silent]
            allowed[space.literals_of(excluded)] = False
        required = tuple(space.literals_of([f]) for f in include)
        constraints = Constraints(
            allowed=allowed,
            required=required,
            disjoint=self.disjoint_features,
            feature_of=space.feature_of,
        )
        seed = check_random_state(self.random_state).randint(2**31 - 1)
        config = SolverConfig(
            engine=self.solver,
            command=tuple(str(a) for a in self.solver_command) if self.solver_command else None,
            seed=int(seed),
        )
        return Setting(
            Weights.from_fidelity(self.data_fidelity, n_rows),
            space,
            constraints,
            config,
            bool(self.symmetry_breaking),
        )

    def _check_params(self) -> None:
        """Refuse parameters ``fit`` cannot run with."""
        self._validate_params()
        refuse_bools(self)
        if self.solver_command is not None and not len(self.solver_command):
            raise ValueError("solver_command=[] names no program; give the solver's "
                             "arguments (e.g. ['open-wbo', '{wcnf}']), or None for the "
                             "built-in solver")

    def _prepare(self, X, y, column_specs, export=False):
        self._check_params()
        if column_specs is None and isinstance(X, pd.DataFrame):
            column_specs = specs_of(X)  # a Binarizer's output, e.g. earlier in a Pipeline
        Xb, y = self._binary(X, y, column_specs, reset=True)
        try:
            check_classification_targets(y)
            classes, codes = np.unique(y, return_inverse=True)
        except TypeError:  # labels that do not order (objects of a class without <)
            kinds = sorted({type(label).__name__ for label in np.ravel(y).tolist()})
            raise ValueError(f"y holds labels of types {', '.join(kinds)}, which do not "
                             "compare; give every label one type (str, say)") from None
        if classes.size < 2:
            raise ValueError(
                f"IMLIClassifier needs samples of at least 2 classes; got {classes.size} class."
            )
        if classes.size > 2 and export:
            raise ValueError(f"export_wcnf writes the query of a binary rule; y has "
                             f"{classes.size} classes: give two.")
        if classes.size > 2 and self.mode not in ("decision_list", "decision_set"):
            raise ValueError(
                "Only binary classification is supported. The type of the target is "
                f"{type_of_target(y)} ({classes.size} classes); mode={self.mode!r} learns "
                "binary rules: use mode='decision_list' or mode='decision_set'."
            )
        space = self._space(Xb.shape[1], column_specs)
        return Xb, classes, codes.ravel(), space, self._setting(space, Xb.shape[0])

    # ------------------------------------------------------------------ API
    def fit(self, X, y, column_specs=None):
        """Learn the rule.

        A fit that fails (bad input, say) leaves the estimator as it was before it.

        Parameters
        ----------
        X : {array-like, DataFrame} of shape (n_samples, n_features)
            A 0/1 matrix or DataFrame of boolean columns (used as is), or any numeric or
            mixed table (binarized first by :class:`Binarizer`, where a missing value
            satisfies no column; an object column holding only numbers is numeric); an
            array holding text is read as a mixed table with inferred column types, named
            ``x0, x1, ...`` (``"nan"``, numpy's word for a NaN among words, is missing).
            A pandas ``category`` column, ordered or not, is categorical: its values are
            tested with ``==``, never by their order, and categories no row holds are
            ignored (for tests on the order, give its codes: ``X[c].cat.codes``). Date,
            time-span, period, interval and complex columns are refused: convert them
            first.
        y : array-like of shape (n_samples,)
            Labels of any kind (two classes, or more for the decision modes).
        column_specs : list of (Predicate or None), optional
            What each binary column of ``X`` means; used for redundancy removal and
            printing. Without it, the columns of a :class:`Binarizer`'s output (in a
            ``Pipeline``, say) mean what it made them; other columns print by name.

        Returns
        -------
        self : IMLIClassifier
            The fitted estimator.

        Raises
        ------
        ValueError
            If a parameter is out of its range or the parameters contradict each other,
            ``X`` or ``y`` cannot be read, ``y`` has fewer than two classes, or more than
            two outside the decision modes.

        Warns
        -----
        TimeLimitWarning
            When ``time_limit`` struck before the search ended.
        """
        before = dict(vars(self))
        try:
            return self._fit(X, y, column_specs)
        except BaseException:
            vars(self).clear()  # not a mix of the earlier fit and this one
            vars(self).update(before)
            raise

    def _fit(self, X, y, column_specs):
        start = time.monotonic()
        Xb, classes, codes, space, setting = self._prepare(X, y, column_specs)
        budget = Budget(self.time_limit, start)
        rng = np.random.default_rng(setting.solver.seed)
        self.classes_ = classes
        if self.mode in ("decision_list", "decision_set"):
            self.rules_ = self._fit_rules(Xb, codes, space, setting, budget, rng)
            self.optimal_ = False
        else:
            self.rules_, self.optimal_ = self._fit_normal(Xb, codes, space, setting, budget, rng)
        self.rule_size_ = int(self.rules_.size)
        self.timed_out_ = bool(budget.timed_out)
        self.n_queries_ = int(budget.n_queries)
        errors = int((self.predict(X) != classes[codes]).sum())
        self.objective_ = float(self.rule_size_ + self.data_fidelity * errors)
        if self.timed_out_:
            # the learning stage stops at its share of the limit, so a fit may end well
            # before the limit
            staged = (f" (learning stops at {1 - POLISH_SHARE:.0%} of it, the polish has "
                      f"the rest)" if self._staged() else "")
            after = (f"after {self.n_queries_} MaxSAT quer"
                     f"{'y' if self.n_queries_ == 1 else 'ies'}" if self.n_queries_
                     else "before a MaxSAT query ended")
            warnings.warn(
                f"time_limit={self.time_limit}s{staged} cut the search short {after}; "
                f"returning the best rule found so far ({self.rule_size_} "
                f"literal{'' if self.rule_size_ == 1 else 's'}), not proven optimal.",
                TimeLimitWarning,
                stacklevel=2,
            )
        return self

    def _resolved_mode(self) -> str:
        """``mode`` with ``"auto"`` resolved (see the class docstring)."""
        if self.mode != "auto":
            return self.mode
        return "joint" if self.batch_size is None else "iterative"

    def _staged(self) -> bool:
        """Whether learning leaves a share of the time limit to the polish on all rows
        (mini-batch and clause-by-clause learning of a CNF or DNF)."""
        return (self.polish and self.mode not in ("decision_list", "decision_set")
                and not (self._resolved_mode() == "joint" and self.batch_size is None))

    def _fit_normal(self, Xb, codes, space, setting, budget, rng):
        positive = codes == 1
        labels = positive if self.rule_type == "CNF" else ~positive
        data = Data.of(merge_rows(Xb, labels))
        mode, k = self._resolved_mode(), self.n_clauses
        exact = mode == "joint" and self.batch_size is None
        stage = budget.share(1 - POLISH_SHARE) if self._staged() else budget
        if mode == "iterative":
            result = iterative(setting, data, k, stage, self.batch_size, self.n_passes, rng)
        elif exact:
            result = joint(setting, data, k, stage, rng)
        else:
            result = minibatch(setting, data, k, stage, self.batch_size, self.n_passes, rng)
        budget.absorb(stage)
        if result is None or budget.timed_out:
            result = best_of(result, greedy(setting, data, k))
        clauses = result.clauses
        if self.polish and not result.optimal:
            clauses = polish(setting, data, clauses, k, budget)
            if not clauses or not all(clauses):
                # A constant rule (no clause: TRUE; an empty clause: FALSE) is where
                # clause-by-clause learning ends when one clause of a conjunction does worse
                # than rejecting every row; no one-literal move leaves it. Start again from
                # the other constant, from which literals are moves that pay; with required
                # features, from the greedy rule, which has them (literals added to the
                # empty clause lacked them).
                if setting.constraints.required:
                    start = greedy(setting, data, k).clauses
                else:
                    start = (frozenset(),) if not clauses else ()
                other = polish(setting, data, start, k, budget)
                if cost(setting, other, data) < cost(setting, clauses, data):
                    clauses = other
        optimal = bool(result.optimal and exact and not budget.timed_out)
        allowed = setting.constraints.allowed
        canon = space.canonical(data.L, allowed)
        if self.rule_type == "CNF":
            clauses = simplify(canonicalize(clauses, canon), space, data.L, "OR", True,
                               allowed)
            return space.cnf(clauses), optimal
        terms = [frozenset(space.negate(j) for j in c) for c in clauses]
        terms = simplify(canonicalize(terms, canon), space, data.L, "AND", True, allowed)
        return space.dnf(terms), optimal

    def _fit_rules(self, Xb, codes, space, setting, budget, rng):
        X, counts = distinct_rows(Xb, codes, self.classes_.size)
        learn = decision_list if self.mode == "decision_list" else decision_set
        found, default = learn(
            setting, X, counts, self.n_clauses, budget, self.batch_size, self.n_passes, rng
        )
        L = literal_matrix(X)
        canon = space.canonical(L, setting.constraints.allowed)
        rules = []
        for term, v in found:
            simple = simplify(canonicalize([term], canon), space, L, "AND", True,
                              setting.constraints.allowed)
            if simple:
                rules.append(Rule(space.clause(simple[0], "AND"), self.classes_[v]))
        kind = DecisionList if self.mode == "decision_list" else DecisionSet
        return kind(tuple(rules), self.classes_[default])

    def predict(self, X):
        """Predict labels.

        Parameters
        ----------
        X : {array-like, DataFrame} of shape (n_samples, n_features)
            Same kind of table as in ``fit``; a DataFrame with the same columns, in the
            same order. A column fitted as numbers may hold text: it is read as ``fit``
            reads text (Python's ``float``; ``"nan"``, None and NaN are missing). Text
            that is no number, ``""`` included, is refused.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the estimator is not fitted.
        ValueError
            If ``X`` does not have the columns seen in ``fit`` or holds text where a
            number was fitted.
        """
        check_is_fitted(self, "rules_")
        Xb, _ = self._binary(X, reset=False)
        return self._labels(Xb)

    def _class_keys(self) -> list:
        """``classes_`` as the rules of a decision list or set hold them."""
        dates = self.classes_.dtype.kind in "mM"  # which the rules keep as numpy's
        return list(self.classes_) if dates else self.classes_.tolist()

    def _labels(self, Xb: np.ndarray) -> np.ndarray:
        """The labels of the rows of the binary matrix ``Xb``."""
        if isinstance(self.rules_, (DecisionList, DecisionSet)):
            labels = self.rules_.predict(Xb)
            index = {c: i for i, c in enumerate(self._class_keys())}
            return self.classes_[np.array([index[v] for v in labels], dtype=np.int64)]
        return self.classes_[self.rules_.covers(Xb).astype(np.int64)]

    def _named(self, names) -> tuple:
        """The rule and the classes with each class as its name in ``names`` (in the order
        of ``classes_``), and a map from a label to its name."""
        names = list(names)
        if len(names) != len(self.classes_) or len(set(names)) != len(names):
            raise ValueError(f"class_names must give each of the {len(self.classes_)} classes "
                             f"(classes_) a name of its own, got {names!r}")
        of = dict(zip(self._class_keys(), names))
        rule = self.rules_
        if isinstance(rule, (DecisionList, DecisionSet)):
            rule = rule.relabel(of)
        return rule, np.array(names, dtype=object), of

    def explain(self, X, values=None, class_names=None) -> Explanation:
        """Why the single row of ``X`` gets its label.

        Parameters
        ----------
        X : DataFrame or array-like with one row
            As in :meth:`predict`; for example ``X.iloc[[i]]``.
        values : DataFrame with one row, optional
            The same row's original values, shown beside each literal: a column for each
            feature the rule tests (named in either Unicode form), whose value makes each
            literal hold or fail as it does on ``X``. Meant for a rule learned on binary
            columns with ``column_specs``, whose ``X`` holds only each column's 0 or 1. A
            cell may also be a
            ``frozenset`` of categories: a value known to be none of them (a classical
            negation, such as LIME's one-hot view of categories keeps), which satisfies
            ``c != v`` for each ``v`` in it and no other test, and shows as ``known not
            v``. By default ``X``'s own cells when the estimator binarized ``X``; on
            binary columns each literal shows its column's 0 or 1, by the column's name.
        class_names : sequence, optional
            A name for each class, in the order of ``classes_``, for the words to show in
            place of its label (a rule learned on codes such as 0 and 1). The
            explanation's ``label`` is still that of :meth:`predict`.

        Returns
        -------
        Explanation
            The clauses (CNF), terms (DNF) or rules (decision list or set) that decide
            the label, in words, each literal with the row's value of its feature. Its
            ``label`` is that of :meth:`predict`.

        Raises
        ------
        ValueError
            If ``X`` has not exactly one row, or ``values`` is not a one-row DataFrame
            with a column for each feature of the rule, whose values make its literals
            hold or fail as they do on ``X``, or ``class_names`` does not give each class a
            name of its own.

        Examples
        --------
        >>> import pandas as pd
        >>> X = pd.DataFrame({"age": [25, 38, 52, 61, 33, 47] * 4})
        >>> clf = IMLIClassifier(n_clauses=1).fit(X, X["age"] > 40)
        >>> print(clf.explain(X.iloc[[2]]))
        True: its one clause holds, by the literal shown
          (age > 42.5)
              age > 42.5   (age is 52)
        >>> clf.explain(X.iloc[[2]]).summary
        'its one clause holds, by the literal shown: age > 42.5 (age is 52)'
        """
        check_is_fitted(self, "rules_")
        Xb, _ = self._binary(X, reset=False)
        if Xb.shape[0] != 1:
            raise ValueError(f"explain needs exactly one row, got {Xb.shape[0]}; pass "
                             "X.iloc[[i]] (or X[[i]] for an array)")
        if values is not None:
            if not isinstance(values, pd.DataFrame) or len(values) != 1:
                raise ValueError("values must be a DataFrame with the one row of X "
                                 "(its original values)")
            features = [lit.predicate.feature for lit in self.rules_.literals
                        if lit.predicate is not None]
            # a feature named in either Unicode form, as the rules print it alike
            cells = {named_alike(str(c), features): values.iloc[0, j]
                     for j, c in enumerate(values.columns)}
            if len(cells) != values.shape[1]:
                raise ValueError("values has two columns of one name; give each feature "
                                 "one column")
            check_values(self.rules_, Xb, cells)
        elif self.binarizer_ is None:
            cells = {}  # X holds its columns' 0 or 1, no feature's value, whatever its names
        else:
            # by position, as predict reads the columns, under the names the binarizer
            # gave the features (an array's x0, x1, ...; a DataFrame's names as text)
            row = ([X.iloc[0, j] for j in range(X.shape[1])] if isinstance(X, pd.DataFrame)
                   else _cells(X)[0])
            fitted = self.binarizer_._fit_columns
            names = fitted if fitted is not None else [f"x{i}" for i in range(len(row))]
            cells = {str(n): v for n, v in zip(names, row)}
        label = self._labels(Xb)[0]
        if class_names is None:
            return explain_row(self.rules_, Xb, cells, self.classes_, label)
        rule, classes, of = self._named(class_names)
        return replace(explain_row(rule, Xb, cells, classes, of[label]), label=label)

    def export_wcnf(self, X, y, path, column_specs=None):
        """Write the one-query (MLIC) MaxSAT problem of ``(X, y)`` as a DIMACS WCNF file.

        The file can be given to any MaxSAT solver; this estimator is not modified.

        Parameters
        ----------
        X : {array-like, DataFrame} of shape (n_samples, n_features)
            As in :meth:`fit`.
        y : array-like of shape (n_samples,)
            As in :meth:`fit`, with two classes (the query is a binary rule's, whatever
            ``mode``).
        path : str or Path
            Where to write.
        column_specs : list of (Predicate or None), optional
            As in :meth:`fit`.

        Returns
        -------
        Query
            The encoded query (``query.pool`` maps variables back to their meaning).

        Raises
        ------
        ValueError
            As :meth:`fit` raises, and if ``y`` has more than two classes.

        Notes
        -----
        Rows that are identical but labelled both ways are merged before encoding: every
        rule misclassifies one side of such a pair, so those rows are not in the file. A
        solver's optimum cost plus ``query.offset`` (their scaled cost) is the objective
        :meth:`fit` minimises, in the file's integer weights.
        """
        est = clone(self)
        Xb, _, codes, _, setting = est._prepare(X, y, column_specs, export=True)
        positive = codes == 1
        labels = positive if self.rule_type == "CNF" else ~positive
        query = encode(
            merge_rows(Xb, labels),
            self.n_clauses,
            setting.weights,
            setting.constraints,
            symmetry_breaking=setting.symmetry_breaking,
        )
        query.to_dimacs(str(path))
        return query
