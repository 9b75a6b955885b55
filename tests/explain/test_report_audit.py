"""Every figure a run reports, recomputed here from the files it writes, by code of its own.

The rules are read back from their text (imli.txt, fold.pl) and evaluated by the small
evaluators below, never by the project's rule objects; fold.pl is run in plain ``swipl``;
the black box is read back from black_box.ubj with XGBoost alone. The figures of
report.json are then checked against those labels, and report.md and report.html
against report.json.
"""

import json
import math
import re
import subprocess
from collections import Counter
from fractions import Fraction
from html import unescape
from html.parser import HTMLParser
from importlib import metadata

import numpy as np
import pandas as pd
import pytest
import xgboost as xgb
from scipy.stats import binomtest

from adapters import from_frame
from explain.compare import SweepConfig, run_compare
from explain.lime_runner import LimeConfig
from explain.outputs import prepare_out_dir, write_run
from explain.pipeline import RunConfig


def _frame():
    """Numbers and categories, missing cells in both, a quote in a category."""
    rng = np.random.default_rng(7)
    n = 240
    frame = pd.DataFrame({
        "age": rng.integers(18, 80, n).astype(float),
        "income": np.round(rng.normal(50, 15, n), 2),
        "city": rng.choice(["paris", "lyon", "nice", "o'brien"], n),
        "job": rng.choice(["clerk", "chef", "pilot"], n),
        "score": np.round(rng.uniform(0, 1, n), 3),
    })
    label = ((frame.age > 45) & (frame.city != "lyon")) | ((frame.job == "pilot")
                                                             & (frame.income > 55))
    frame["label"] = np.where(label ^ (rng.random(n) < 0.05), "yes", "no")
    for column, share in (("age", .08), ("city", .1), ("income", .05), ("job", .05)):
        frame.loc[rng.random(n) < share, column] = np.nan
    return frame


@pytest.fixture(scope="module", params=[("DNF", "value"), ("CNF", "value"),
                                        ("DNF", "one-hot")], ids=["DNF", "CNF", "one-hot"])
def run(request, tmp_path_factory):
    rule_type, categories = request.param
    # top_k=2 of 5 features: the LIME views differ from the full rows; one-hot: IMLI's rule
    # tests city != lyon, which a LIME view can know without knowing the city
    lime = LimeConfig(num_samples=300, top_k=2, n_jobs=1, random_state=3,
                      categories=categories)
    config = RunConfig(lime=lime, random_state=3,
                       test_size=1 / 3,  # 80 test rows: k/80 is often a half at 3 decimals
                       imli_params={"time_limit": 5.0, "rule_type": rule_type})
    sweep = SweepConfig(data_fidelity=(1.0, 10.0), n_clauses=(1, 2), mdl_weight=(0.25, 1.0),
                        imli_time_limit=3.0)
    result = run_compare(from_frame(_frame(), "label", name="audit"), config, sweep,
                         cache_dir=tmp_path_factory.mktemp("cache"))
    out = prepare_out_dir(tmp_path_factory.mktemp("audit"))
    write_run(result, out)
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    rows = pd.read_csv(out / "predictions.csv", dtype=str, keep_default_na=False)
    rows["row"] = rows["row"].astype(int)
    return out, result, report, rows.set_index("row")


_CATEGORICAL = ("city", "job")


def _lime_views(result):
    """Each part's rows as LIME left them, built here from LIME's selections: a feature
    a row's explanation does not name is unknown; column ``¬city`` holds the cities a row's
    one-hot explanation says it is not (when it does not keep its own, and has one: a
    missing value stays unknown)."""
    table = _frame().drop(columns="label")
    width = table.shape[1]
    categories = {c: sorted(table[c].dropna().unique()) for c in _CATEGORICAL}
    views = {}
    for part, explanations in (("train", result.explanations_train),
                               ("test", result.explanations_test)):
        index = result.views["fold"]["train_raw" if part == "train" else "test"].index
        keep = np.zeros((len(index), width), dtype=bool)
        negated = {c: [set() for _ in index] for c in _CATEGORICAL}
        for i, chosen in enumerate(explanations.features):
            keep[i, chosen[(chosen >= 0) & (chosen < width)]] = True
            for column, code in explanations.negations[chosen[chosen >= width] - width]:
                name = table.columns[column]
                if code < len(categories[name]):  # past them: LIME's "(missing)"
                    negated[name][i].add(categories[name][code])
        view = table.loc[index].mask(~keep)
        known = table.loc[index].notna().to_numpy()
        for j, name in enumerate(table.columns):
            if name in negated:
                view["¬" + name] = [frozenset(n) if known[i, j] and not keep[i, j]
                                    else frozenset() for i, n in enumerate(negated[name])]
        views[part] = view
    return views


def _not(row, feature):
    """The categories ``row`` is known not to have (none on a full row)."""
    return row.get("¬" + feature, frozenset())


# --- IMLI: imli.txt read back and evaluated by hand ---------------------------------------

def _split_top(text, sep):
    """``text`` split at ``sep`` outside parentheses."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    return parts + [text[start:]]


def _label_text(text):
    return text[1:-1].replace("\\'", "'") if text.startswith("'") else text


def _imli_rule(text, cnf):
    """(positive, negative, [[literal, ...] per clause or term]) of imli.txt's text."""
    lines = text.strip().splitlines()
    positive = _label_text(re.fullmatch(r"(.*) IF", lines[0]).group(1))
    negative = _label_text(re.fullmatch(r"ELSE (.*)", lines[-1]).group(1))
    outer, inner = (" AND ", " OR ") if cnf else (" OR ", " AND ")
    parts = []
    for part in _split_top(" ".join(line.strip() for line in lines[1:-1]), outer):
        part = part.strip()
        assert part[0] == "(" and part[-1] == ")"
        literals = []
        for literal in _split_top(part[1:-1], inner):
            negated = literal.startswith("not (")
            literal = literal[5:-1] if negated else literal
            feature, op, value = re.fullmatch(r"(.+?) (<=|>|==|!=|in) (.+)", literal).groups()
            if op == "in":  # a set of categories: each one a literal
                value = frozenset(_label_text(v) for v in value[1:-1].split(", "))
            literals.append((negated, feature, op, value))
        parts.append(literals)
    return positive, negative, parts


def _imli_literal(literal, row):
    """An unknown cell satisfies no test; ``not (...)`` holds on it."""
    negated, feature, op, value = literal
    cell = row[feature]
    if op == "!=":  # a known other category, or one the row's explanation negates
        holds = (not pd.isna(cell) and str(cell) != value) or value in _not(row, feature)
    elif pd.isna(cell):
        holds = False
    elif op in ("==", "in"):
        holds = str(cell) == value if op == "==" else str(cell) in value
    else:
        holds = cell <= float(value) if op == "<=" else cell > float(value)
    return holds != negated


def _imli_parts(parts, cnf, table):
    """Which clause (CNF: is satisfied) or term (DNF: holds) of each row."""
    join = any if cnf else all
    return np.array([[join(_imli_literal(lit, row) for lit in part) for part in parts]
                     for _, row in table.iterrows()], dtype=bool).reshape(len(table),
                                                                           len(parts))


# --- FOLD: fold.pl read back, evaluated by hand and run in plain swipl --------------------

_ATOM = r"'(?:[^'\\]|\\.)*'"


def _atom(text):
    return re.sub(r"\\(.)", r"\1", text[1:-1]) if text.startswith("'") else text


def _fold_program(text):
    """({predicate: [(literals, exception predicate or None), ...]}, classes, default)."""
    clauses = {}
    for head, body in re.findall(rf"^({_ATOM})\(X\) :-\n(.*?)\.\n", text, re.S | re.M):
        literals, exception = [], None
        for goal in body.split(",\n    "):
            goal = goal.strip()
            if goal.startswith("\\+ "):
                exception = _atom(goal[3:-3])
            elif goal == "'row'(X)":
                continue
            elif m := re.fullmatch(rf"({_ATOM})\(X, (V\d+)\), number\(\2\), \2 (=<|>) (\S+)",
                                   goal):
                op = "<=" if m[3] == "=<" else ">"
                literals.append((_atom(m[1]), op, float(m[4])))
            elif m := re.fullmatch(rf"({_ATOM})\(X, ({_ATOM})\)", goal):
                literals.append((_atom(m[1]), "==", _atom(m[2])))
            elif m := re.fullmatch(rf"\( ({_ATOM})\(X, (V\d+)\), \2 \\== ({_ATOM}) ; "
                                   rf"{_ATOM}\(X, \3\) \)", goal):  # f != v, or neg_f(X, v)
                literals.append((_atom(m[1]), "!=", _atom(m[3])))
            else:
                raise AssertionError(f"a goal this evaluator does not know: {goal}")
        clauses.setdefault(_atom(head), []).append((literals, exception))
    decision = re.search(r"'label'\(X, Label\) :-\n(.*?)\.\n", text, re.S)[1]
    classes = [_atom(a) for a in re.findall(rf"({_ATOM})\(X\) -> Label", decision)]
    default = _atom(re.findall(rf"Label = ({_ATOM})", decision)[-1])
    return clauses, classes, default


def _fold_body(clause, row):
    for feature, op, value in clause[0]:
        cell = row[feature]
        if op == "!=":  # classical negation: a known other category, or a neg_ fact
            if (pd.isna(cell) or str(cell) == value) and value not in _not(row, feature):
                return False
            continue
        if pd.isna(cell):
            return False
        if not (str(cell) == value if op == "==" else
                cell <= value if op == "<=" else cell > value):
            return False
    return True


def _fold_covers(clauses, clause, row):
    return _fold_body(clause, row) and not (
        clause[1] and any(_fold_covers(clauses, c, row) for c in clauses[clause[1]]))


def _fold_decision(program, row):
    """The index of the class that wins the row (len(classes): the default)."""
    clauses, classes, _ = program
    return next((k for k, c in enumerate(classes)
                 if any(_fold_covers(clauses, cl, row) for cl in clauses[c])), len(classes))


def _prolog(value):
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return repr(float(value))


def _swipl_labels(out, facts):
    goal = "forall('row'(I), ('label'(I, C), format('~d~a~w~n', [I, '\t', C])))"
    done = subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt", str(out / "fold.pl"),
                           str(facts)], capture_output=True, text=True, timeout=60,
                          env={"LANG": "C.UTF-8", "PATH": "/usr/local/bin:/usr/bin:/bin"})
    assert done.returncode == 0 and not done.stderr, done.stderr
    return {int(i): c for i, c in (line.split("\t") for line in done.stdout.splitlines())}


# --- the checks -----------------------------------------------------------------------------

def _wilson(k, n, z=1.959963984540054):
    centre, half = (k + z * z / 2) / (n + z * z), z * math.sqrt(k * (n - k) / n + z * z / 4)
    return [centre - half / (n + z * z), centre + half / (n + z * z)]


def test_imli_txt_evaluated_by_hand_gives_every_reported_imli_label(run):
    out, result, report, rows = run
    cnf = report["learners"]["imli"]["rule_type"] == "CNF"
    positive, negative, parts = _imli_rule((out / "imli.txt").read_text(encoding="utf-8"), cnf)
    assert positive == report["dataset"]["positive_class"] and positive != negative
    table = _frame().drop(columns="label")
    for column, views in (("imli", {"all": table.loc[rows.index]}),
                          ("imli_lime", _lime_views(result))):
        for part, view in views.items():
            held = _imli_parts(parts, cnf, view)
            whole = held.all(axis=1) if cnf else held.any(axis=1)
            assert list(np.where(whole, positive, negative)) == \
                list(rows.loc[view.index, column]), (column, part)
    imli = report["learners"]["imli"]
    literals = [lit[1] for part in parts for lit in part
                for _ in (lit[3] if lit[2] == "in" else [lit])]
    assert (imli["n_rules"], imli["rule_size"]) == (len(parts), len(literals))
    assert Counter(literals) == Counter(imli["features_used"])


def test_fold_pl_in_plain_swipl_gives_every_reported_fold_label(run, tmp_path):
    out, result, report, rows = run
    program = _fold_program((out / "fold.pl").read_text(encoding="utf-8"))
    test = rows[rows.part == "test"]
    assert _swipl_labels(out, out / "fold_facts.pl") == dict(zip(test.index, test.fold))
    names = program[1] + [program[2]]
    table = _frame().drop(columns="label").loc[rows.index]
    assert [names[_fold_decision(program, row)] for _, row in table.iterrows()] == \
        list(rows.fold)
    # the LIME views, as facts written here
    for part, view in _lime_views(result).items():
        facts = [":- encoding(utf8)."] + [f"'row'({i})." for i in view.index]
        facts += [f"{_prolog(column)}({i}, {_prolog(value)})."
                  for column in _frame().columns[:-1] for i, value in view[column].items()
                  if not pd.isna(value)]
        facts += [f"{_prolog('neg_' + column)}({i}, {_prolog(value)})."
                  for column in _CATEGORICAL for i, values in view["¬" + column].items()
                  for value in sorted(values)]
        (tmp_path / f"{part}.pl").write_text("\n".join(facts) + "\n", encoding="utf-8")
        assert _swipl_labels(out, tmp_path / f"{part}.pl") == \
            dict(zip(view.index, rows.loc[view.index, "fold_lime"])), part
        assert [names[_fold_decision(program, row)] for _, row in view.iterrows()] == \
            list(rows.loc[view.index, "fold_lime"]), part


def test_the_saved_black_box_gives_the_reported_black_box_labels(run):
    out, _, report, rows = run
    booster = xgb.Booster()
    booster.load_model(out / "black_box.ubj")
    table = _frame().drop(columns="label").loc[rows.index]
    for column in ("city", "job"):
        table[column] = table[column].astype("category")
    probability = booster.predict(xgb.DMatrix(table, enable_categorical=True))
    names = json.loads(booster.attr("class_names"))
    assert names == report["dataset"]["class_names"]
    assert list(np.asarray(names)[(probability > 0.5).astype(int)]) == list(rows.black_box)


def test_every_score_follows_from_predictions_csv(run):
    _, _, report, rows = run
    test, train = rows[rows.part == "test"], rows[rows.part == "train"]
    positive = report["dataset"]["positive_class"]
    box = report["black_box"]
    assert box["accuracy_train"] == pytest.approx((train.black_box == train.truth).mean())
    assert box["positive_rate_test"] == pytest.approx((test.black_box == positive).mean())
    for name, entry in report["learners"].items():
        said, real = test[name] == positive, test.black_box == positive
        both = int((said & real).sum())
        assert entry["precision_test"] == pytest.approx(both / said.sum()), name
        assert entry["recall_test"] == pytest.approx(both / real.sum()), name
        assert entry["f1_test"] == pytest.approx(2 * both / (said.sum() + real.sum())), name
        for key, column in (("fidelity_test_ci", name), ("fidelity_test_lime_ci",
                                                         f"{name}_lime")):
            agreeing = int((test[column] == test.black_box).sum())
            assert entry[key] == pytest.approx(_wilson(agreeing, len(test))), (name, key)
    agreement = report["agreement"]
    assert agreement["imli_vs_fold_test"] == pytest.approx((test.imli == test.fold).mean())
    assert agreement["disagreements_test"] == (test.imli != test.fold).sum()
    assert agreement["both_faithful_test"] == pytest.approx(
        ((test.imli == test.black_box) & (test.fold == test.black_box)).mean())
    disagreeing = test.index[test.imli != test.fold]
    assert [example["row"] for example in agreement["examples"]] == list(disagreeing[:5])
    for example in agreement["examples"]:
        row = rows.loc[example["row"]]
        assert row.part == "test" and row.imli != row.fold
        assert [example[k] for k in ("black_box", "imli", "fold", "truth")] == \
            [row.black_box, row.imli, row.fold, row.truth]
        raw = _frame().loc[example["row"]]
        for feature, value in example["values"].items():
            assert value == raw[feature] or (value is None and pd.isna(raw[feature]))


def _stat_is(stat, covered, agreeing):
    n = int(covered.sum())
    assert (stat["covered"], stat["coverage"]) == (n, pytest.approx(n / len(covered))), stat
    k = int(agreeing[covered].sum())
    assert stat["precision"] == (pytest.approx(k / n) if n else None), stat
    assert stat["precision_ci"] == (pytest.approx(_wilson(k, n)) if n else None), stat


def test_each_rules_coverage_and_precision_follow_from_its_text(run):
    out, _, report, rows = run
    test = rows[rows.part == "test"]
    table = _frame().drop(columns="label").loc[test.index]
    box = test.black_box.to_numpy()
    cnf = report["learners"]["imli"]["rule_type"] == "CNF"
    positive, negative, parts = _imli_rule((out / "imli.txt").read_text(encoding="utf-8"), cnf)
    held = _imli_parts(parts, cnf, table)
    stats = report["learners"]["imli"]["rule_stats"]
    assert len(stats) == len(parts) + 1
    _stat_is(stats[0], held.all(axis=1) if cnf else held.any(axis=1), box == positive)
    for j, stat in enumerate(stats[1:]):  # a CNF clause decides the rows where it fails
        _stat_is(stat, ~held[:, j] if cnf else held[:, j],
                 box == (negative if cnf else positive))

    program = _fold_program((out / "fold.pl").read_text(encoding="utf-8"))
    clauses, classes, default = program
    decision = np.array([_fold_decision(program, row) for _, row in table.iterrows()])
    mask = lambda test_, clause: np.array([test_(clauses, clause, row)  # noqa: E731
                                           for _, row in table.iterrows()], dtype=bool)
    expected = []  # (literals, rows decided, rows the black box agrees on), as printed

    def exceptions(clause, scope, won, lost, label, toward):
        if clause[1] is None:
            return
        inside = scope & mask(lambda _, c, row: _fold_body(c, row), clause)
        for exception in clauses[clause[1]]:
            gives = not toward  # an exception takes rows away; its own exception gives back
            covered = inside & mask(_fold_covers, exception) & (won if gives else lost)
            expected.append((exception[0], covered, (box == label) == gives))
            exceptions(exception, inside, won, lost, label, gives)

    for k, label in enumerate(classes):
        for clause in clauses[label]:
            won = (decision == k) & mask(_fold_covers, clause)
            expected.append((clause[0], won, box == label))
            exceptions(clause, np.ones(len(table), bool), won, decision > k, label, True)
    expected.append(([], decision == len(classes), box == default))
    stats = report["learners"]["fold"]["rule_stats"]
    assert len(stats) == len(expected)
    for stat, (literals, covered, agreeing) in zip(stats, expected):
        for feature, op, value in literals:
            shown = f"{value:g}" if isinstance(value, float) else value
            assert f"{feature} {op} {shown}" in stat["text"], (stat, literals)
        _stat_is(stat, covered, agreeing)
    fold = report["learners"]["fold"]
    tests = [lit for body in clauses.values() for literals, _ in body for lit in literals]
    assert fold["rule_size"] == len(tests)
    assert fold["n_rules"] == sum(map(len, clauses.values()))
    assert Counter(lit[0] for lit in tests) == Counter(fold["features_used"])


def test_lime_feature_counts_follow_from_the_explanations(run):
    _, result, report, _ = run
    explanations = result.explanations_train
    table = _frame().drop(columns="label").loc[result.views["fold"]["train_raw"].index]
    # a one-hot explanation's "city is not lyon" counts for city
    negated = explanations.negations[:, 0] if len(explanations.negations) else np.zeros(0)
    columns = np.concatenate([np.arange(table.shape[1]), negated]).astype(int)
    features = np.where(explanations.features >= 0,
                        columns[np.maximum(explanations.features, 0)], -1)
    for entry in report["lime"]["feature_frequency"]:
        j = list(table.columns).index(entry["feature"])
        chosen = (features == j)
        missing = table.iloc[:, j].isna().to_numpy()
        kept = chosen.any(axis=1) & ~missing
        toward = explanations.weights[chosen & ~missing[:, None]] > 0  # per selection
        assert (entry["selected"], entry["selected_missing"]) == \
            (kept.sum(), (chosen.any(axis=1) & missing).sum()), entry
        assert entry["rate"] == pytest.approx(kept.mean())
        assert entry["toward_positive"] == (pytest.approx(toward.mean()) if kept.any()
                                            else None)
        for name in ("imli", "fold"):
            assert entry[name] == report["learners"][name]["features_used"].get(
                entry["feature"], 0)
    selected = [entry["selected"] for entry in report["lime"]["feature_frequency"]]
    assert selected == sorted(selected, reverse=True)
    # the features the disagreeing rows show: those both rule sets test most
    tests = Counter(report["learners"]["imli"]["features_used"])
    tests.update(report["learners"]["fold"]["features_used"])
    agreement = report["agreement"]
    assert agreement["features_tested"] == len(tests)
    shown = agreement["example_features"]
    assert shown == [c for c in table.columns if c in shown] and len(shown) == min(8, len(tests))
    assert min(tests[c] for c in shown) >= max([tests[c] for c in tests if c not in shown] or [0])


def test_the_sweeps_comparisons_follow_from_its_own_figures(run):
    _, _, report, rows = run
    n = (rows.part == "test").sum()
    for name, settings in report["sweep"]["learners"].items():
        errors = round((1 - report["learners"][name]["fidelity_test"]) * n)
        for setting in settings:
            versus = setting["vs_run_test"]
            more = round((1 - setting["fidelity_test"]) * n) - errors
            assert versus["only_run_faithful"] - versus["only_refit_faithful"] == more
            changed = versus["only_run_faithful"] + versus["only_refit_faithful"]
            assert versus["p_value"] == pytest.approx(
                binomtest(versus["only_refit_faithful"], changed).pvalue if changed else 1.0)
            smaller_or_better = [
                other for other in settings if other is not setting
                and other["rule_size"] <= setting["rule_size"]
                and other["fidelity_test"] >= setting["fidelity_test"]
                and (other["rule_size"], other["fidelity_test"])
                != (setting["rule_size"], setting["fidelity_test"])]
            assert setting["pareto"] == (not smaller_or_better), (name, setting)


def test_the_stated_configuration_is_what_ran(run):
    _, result, report, rows = run
    frame = _frame()
    dataset = report["dataset"]
    assert (dataset["rows"], dataset["features"]) == (len(frame), frame.shape[1] - 1)
    assert (sorted(dataset["numeric"]), sorted(dataset["categorical"])) == \
        (["age", "income", "score"], ["city", "job"])
    assert sorted(dataset["class_names"]) == sorted(frame.label.unique())
    assert dataset["positive_rate"] == pytest.approx(
        (frame.label == dataset["positive_class"]).mean())
    assert sorted(rows.index) == list(frame.index)
    assert list(rows.loc[frame.index, "truth"]) == list(frame.label)
    split = report["split"]
    assert (split["train_rows"], split["test_rows"]) == \
        ((rows.part == "train").sum(), (rows.part == "test").sum())
    assert split["test_rows"] == math.ceil(len(frame) / 3)
    assert split["random_state"] == report["parameters"]["random_state"] == 3
    lime = report["parameters"]["lime"]
    assert (lime["num_samples"], lime["top_k"], lime["random_state"]) == (300, 2, 3)
    assert (report["lime"]["num_samples"], report["lime"]["top_k"]) == (300, 2)
    assert report["lime"]["rows_explained"] == len(frame)
    assert (result.explanations_train.features >= 0).sum(axis=1).max() == 2
    imli = report["learners"]["imli"]
    assert imli["params"]["rule_type"] == imli["rule_type"] == \
        result.learners["imli"].estimator.get_params()["rule_type"]
    assert imli["params"]["random_state"] == report["learners"]["fold"]["params"][
        "random_state"] == 3
    for package, version in report["environment"]["packages"].items():
        assert metadata.version(package) == version, package
    swipl = subprocess.run(["swipl", "--version"], capture_output=True, text=True, timeout=30)
    assert report["environment"]["swi_prolog"] == swipl.stdout.strip()


# --- report.md and report.html against report.json ---------------------------------------

def _three(value):
    """A figure as the reports are expected to show it: three decimals, a half rounded up,
    as the decimal number report.json writes (0.9125 is 0.913)."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return f"{_three(value[0])}–{_three(value[1])}"
    if isinstance(value, float):
        thousandths = Fraction(repr(value)) * 1000
        return f"{math.floor(thousandths + Fraction(1, 2)) / 1000:.3f}"
    return str(value)


def _markdown_tables(text):
    tables, current = [], None
    for line in text.splitlines():
        if not line.startswith("|"):
            current = None
            continue
        cells = [c.strip().replace("\\", "") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if current is None:
            current = [cells]
            tables.append(current)
        elif set("".join(cells)) != {"-"}:
            current.append(cells)
    return tables


class _HtmlTables(HTMLParser):
    def __init__(self, text):
        super().__init__()
        self.tables, self.cell = [], None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.tables[-1][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


_FIDELITY_COLUMNS = {
    "fidelity (raw test)": "fidelity_test", "95% interval (raw test)": "fidelity_test_ci",
    "fidelity (LIME test)": "fidelity_test_lime",
    "95% interval (LIME test)": "fidelity_test_lime_ci", "fidelity (train)": "fidelity_train",
    "accuracy (test)": "accuracy_test", "precision vs BB": "precision_test",
    "recall vs BB": "recall_test", "F1 vs BB": "f1_test", "rules": "n_rules",
    "literals": "rule_size", "fit s": "fit_seconds"}
_SWEEP_COLUMNS = {"fidelity (raw test)": "fidelity_test", "fidelity (raw)": "fidelity_test",
                  "fidelity (LIME test)": "fidelity_test_lime",
                  "fidelity (LIME)": "fidelity_test_lime", "accuracy": "accuracy_test",
                  "rules": "n_rules", "literals": "rule_size", "fit s": "fit_seconds"}


def _learner(cell):
    return "imli" if cell.lower().startswith("imli") else "fold"


@pytest.mark.parametrize("kind", ["md", "html"])
def test_the_markdown_and_html_figures_are_report_jsons(run, kind):
    out, _, report, _ = run
    text = (out / f"report.{kind}").read_text(encoding="utf-8")
    tables = _markdown_tables(text) if kind == "md" else _HtmlTables(text).tables
    checked = 0

    def same(header, row, columns, entry, where):
        nonlocal checked
        for column, key in columns.items():
            if column in header:
                assert row[header.index(column)] == _three(entry.get(key)), (where, column)
                checked += 1

    fidelity = next(t for t in tables if t[0][0] == "learner" and "fit s" in t[0]
                    and "trained on" not in t[0])
    for row in fidelity[1:]:
        same(fidelity[0], row, _FIDELITY_COLUMNS, report["learners"][_learner(row[0])], row[0])
    rule_tables = [t for t in tables if t[0][:1] == ["rule"]]
    assert len(rule_tables) == 2
    for name, table in zip(("imli", "fold"), rule_tables):
        stats = report["learners"][name]["rule_stats"]
        assert len(table) - 1 == len(stats)
        for row, stat in zip(table[1:], stats):
            assert unescape(row[0]).strip("`\u2003 ") == stat["text"].strip()
            same(table[0], row, {"rows": "covered", "coverage": "coverage",
                                 "precision vs BB": "precision",
                                 "95% interval": "precision_ci"}, stat, stat["text"])
    features = next(t for t in tables if t[0][:2] == ["feature", "selected by LIME"])
    frequency = {entry["feature"]: entry for entry in report["lime"]["feature_frequency"]}
    for row in features[1:]:
        same(features[0], row, {"selected by LIME": "rate", "rows": "selected",
                                "toward positive": "toward_positive"},
             frequency[row[0].strip("`")], row[0])
    sweeps = [t for t in tables if t[0][:1] == ["setting"]]
    assert len(sweeps) == 2
    for name, table in zip(("imli", "fold"), sweeps):
        for row, setting in zip(table[1:], report["sweep"]["learners"][name], strict=True):
            same(table[0], row, _SWEEP_COLUMNS, setting, row[0])
            assert (row[table[0].index("Pareto")] == "★") == setting["pareto"]
    filtering = next(t for t in tables if t[0][:2] == ["learner", "trained on"])
    views = {"LIME-filtered rows": "lime", "full rows (no LIME)": "raw"}
    for row in filtering[1:]:
        view = "lime+raw" if row[1].endswith("(this run)") else views[row[1]]
        same(filtering[0], row, {**_SWEEP_COLUMNS, "F1 vs BB": "f1_test"},
             report["filtering"]["learners"][_learner(row[0])][view], row[:2])
    assert checked > 100
    words = " ".join(unescape(re.sub(r"<[^>]+>", " ", text)).replace("\\", "").split())
    agreement, box = report["agreement"], report["black_box"]
    dataset, split = report["dataset"], report["split"]
    frame = _frame()
    for figure in (f"{_three(agreement['imli_vs_fold_test'])} of the test rows "
                   f"({agreement['disagreements_test']} disagreement",
                   f"both match the black box on {_three(agreement['both_faithful_test'])}",
                   f"raw-test fidelity {_three(box['majority_fidelity_test'])}",
                   f"{dataset['rows']} ({split['train_rows']} train",
                   f"{split['test_rows']} test)",
                   f"{_three(box['accuracy_test'])}", f"{_three(box['accuracy_train'])}",
                   *[f"{label}{':' if kind == 'html' else ''} {count} "
                     f"({_three(count / len(frame))})"
                     for label, count in frame.label.value_counts().items()],
                   *[f"{entry['feature']} ({entry['selected_missing']} row"
                     for entry in report["lime"]["feature_frequency"]
                     if entry["selected_missing"]]):
        assert figure in words.replace("*", ""), figure
