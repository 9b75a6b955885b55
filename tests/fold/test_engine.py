"""The SWI-Prolog engine and the written program: exact, clean, safe, limited."""

import ctypes
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from pyswip import Prolog
from sklearn.datasets import load_breast_cancer

import fold
from fold import (FOLDClassifier, Negated, PrologEngineError, PrologTimeoutError,
                  get_engine)
from fold.facts import RowFacts, write_rows
from fold.quoting import format_term
from fold.table import ColumnView
from tests.fold.helpers import python_decisions, run_swipl

NAN = np.nan


@pytest.fixture(scope="module")
def cancer():
    data = load_breast_cancer(as_frame=True)
    X = data.data.copy()
    X.loc[::5, "worst perimeter"] = NAN
    X["size"] = pd.Series(np.where(data.data["mean radius"] > 14, "big", "small"),
                          dtype=object)
    X.loc[::3, "size"] = Negated("big")
    clf = FOLDClassifier(random_state=0).fit(X, data.target)
    return clf, X


def _temporary_modules():
    found = list(Prolog.query(
        "findall(M, (current_module(M), sub_atom(M, 0, _, _, 'tmp-')), L)"))
    return found[0]["L"]


def test_plain_swipl_gives_the_same_answers(cancer, tmp_path):
    clf, X = cancer
    from_swipl = run_swipl(clf, X, tmp_path)
    assert (from_swipl == clf.evaluate_prolog(X).decisions).all()
    assert (from_swipl == python_decisions(clf, X)).all()


def test_program_declares_feature_predicates_dynamic(cancer):
    clf, _ = cancer
    for name in clf.schema_.names:
        assert f":- dynamic('{name}'/2)." in clf.program_
    assert ":- dynamic('neg_size'/2)." in clf.program_


def test_no_module_is_left_behind(cancer):
    clf, X = cancer
    before = _temporary_modules()
    clf.predict(X)
    clf.explain(X.iloc[[0]])
    FOLDClassifier().fit(X.iloc[:100], clf.predict(X.iloc[:100]))
    assert _temporary_modules() == before == []


def test_no_predicate_of_a_program_is_left_in_any_module():
    # each call's clauses and rows go with its temporary module; what stays is only the
    # functors of the program's predicate names, which SWI-Prolog never frees
    # (benchmarks/bench_fold_engine_memory.py measures it)
    x = np.tile([0.0, 1.0, 2.0, 3.0], 5)
    k = np.where(np.arange(20) % 3 == 0, "zq9v'x\n", "zq9w")
    X = pd.DataFrame({"zq9col ') :- halt.": x, "zq9k": k})
    y = np.where((k == "zq9w") & (x > 0.5), "zq9yes", "zq9no")
    clf = FOLDClassifier(min_support=1).fit(X, y)
    assert (clf.predict(X) == y).all()
    clf.explain(X.iloc[[0]])
    (found,) = Prolog.query(
        "findall(M:P, (current_module(M), current_predicate(M:P/_), sub_atom(P, _, 3, _, zq9)),"
        " Ps), findall(P, (current_functor(P, _), atom(P), sub_atom(P, _, 3, _, zq9)), Fs)")
    assert found["Ps"] == []
    assert set(map(str, found["Fs"])) == {*clf.prolog_.feature_predicates.values(),
                                          *clf.prolog_.class_predicates, "neg_zq9k"}


def test_timeout_raises_a_clear_error(cancer):
    clf, X = cancer
    big = pd.concat([X] * 60, ignore_index=True)
    rows = write_rows(clf.prolog_, ColumnView(big, clf.schema_), clf.schema_)
    with pytest.raises(PrologTimeoutError, match="time limit"):
        get_engine().evaluate(clf.prolog_, rows, timeout=0.001)
    assert (clf.predict(X.iloc[:5]) == clf.predict_python(X.iloc[:5])).all()


def _prolog_threads():
    return list(Prolog.query("statistics(threads, N)"))[0]["N"]


def test_threads_agree_and_give_their_engines_back(cancer):
    # Each thread that calls Prolog gets an engine; pyswip never freed it (0.1 MB a
    # thread, and "Failed to stop Prolog threads" at exit).
    clf, X = cancer
    expected = clf.predict(X)
    before = _prolog_threads()
    results = [None] * 8

    def work(i):
        results[i] = clf.predict(X.iloc[i::2])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(results))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, got in enumerate(results):
        assert (got == expected[i::2]).all()
    assert _prolog_threads() == before


class _Interrupt(Exception):
    pass


class _AttachThenRaise:
    """The engine's pyswip core, but an exception comes right after a thread attaches, as
    one raised in the thread from another (PyThreadState_SetAsyncExc) can."""

    def __init__(self, core):
        self._real = core

    def __getattr__(self, name):
        return getattr(self._real, name)

    def PL_thread_attach_engine(self, attributes):
        self._real.PL_thread_attach_engine(attributes)
        raise _Interrupt


def test_a_thread_interrupted_just_after_it_attached_gives_its_engine_back(cancer,
                                                                            monkeypatch):
    # the engine was left without an owner: never freed, and a warning at exit
    clf, X = cancer
    engine = get_engine()
    before = _prolog_threads()
    monkeypatch.setattr(engine, "_core", _AttachThenRaise(engine._core))
    raised = []

    def work():
        try:
            clf.predict(X.iloc[:3])
        except _Interrupt:
            raised.append(True)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(30)
    monkeypatch.undo()
    assert raised
    assert _prolog_threads() == before


def _predict_in_a_child(clf, X, out):
    out.send(clf.predict(X).tolist())


def test_a_process_forked_while_a_thread_predicts_can_predict(cancer):
    # it inherited the engine's lock held by a thread it does not have: it waited for ever
    import multiprocessing

    clf, X = cancer
    expected = clf.predict(X).tolist()
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            clf.predict(X)

    busy = threading.Thread(target=loop)
    busy.start()
    try:
        fork = multiprocessing.get_context("fork")
        for _ in range(4):
            mine, theirs = fork.Pipe()
            child = fork.Process(target=_predict_in_a_child, args=(clf, X, theirs))
            child.start()
            got = mine.recv() if mine.poll(30) else None
            child.join(10)
            if child.is_alive():
                child.kill()
            assert got == expected
    finally:
        stop.set()
        busy.join()


def _string_buffers():
    mark = ctypes.c_size_t()
    get_engine()._core._lib.PL_mark_string_buffers(ctypes.byref(mark))
    return mark.value


def test_texts_read_from_prolog_are_freed(cancer):
    # Each text read out of Prolog stays in the thread's string buffers until freed:
    # 1.7 kB a one-row prediction, 35 kB one of 11,380 rows, never given back.
    clf, X = cancer
    clf.predict(X)
    before = _string_buffers()
    for _ in range(3):
        clf.predict(X)
        clf.explain(X.iloc[[0]])
    assert _string_buffers() == before


@pytest.mark.parametrize("bad", [
    "[('$row'() :- halt)].\n",
    ":- halt.\n",
    "halt.\n",
    "['$row'].\n",
    "['$row'(0)].\n",
    "['unknown_predicate'()].\n",
    "['row'()].\n",
    "[halt].\n",
    "[X].\n",
    "['$row'()|T].\n",
    "['$row'()|'$row'()].\n",
])
def test_data_other_than_ground_row_facts_are_refused(cancer, bad):
    clf, _ = cancer
    rows = RowFacts(text="['$row'()].\n" + bad, n_rows=2, first_id=0, columns="[]")
    with pytest.raises(PrologEngineError, match="fold_row"):
        get_engine().evaluate(clf.prolog_, rows, timeout=10)
    assert _temporary_modules() == []


@pytest.mark.parametrize("text, n_rows, columns, match", [
    pytest.param("['$row'(1.0)].\n['$row'()].\n", 2, "[num('mean radius')]", "fold_row",
                 id="row-facts-are-checked-against-the-columns"),
    pytest.param("['$row'()", 1, "[]", "syntax", id="syntax-errors-in-data-are-errors"),
    pytest.param("['$row'(1.0)].\n", 1, "[num('undeclared')]", "fold_data_predicate",
                 id="data-predicates-must-be-declared-by-the-program"),
    pytest.param("['$row'(1)].\n['$row'(2)].\n", 2, "[cat('size', 'neg_size', ['big'])]",
                 "fold_row", id="category-numbers-must-name-a-category"),
])
def test_malformed_row_data_is_refused(cancer, text, n_rows, columns, match):
    clf, _ = cancer
    rows = RowFacts(text=text, n_rows=n_rows, first_id=0, columns=columns)
    with pytest.raises(PrologEngineError, match=match):
        get_engine().evaluate(clf.prolog_, rows, timeout=10)


def test_the_optimise_flag_is_restored(cancer):
    clf, X = cancer
    before = list(Prolog.query("current_prolog_flag(optimise, F)"))[0]["F"]
    clf.predict(X.iloc[:10])
    assert list(Prolog.query("current_prolog_flag(optimise, F)"))[0]["F"] == before


def test_names_that_clash_with_builtins_are_renamed(tmp_path):
    X = pd.DataFrame({"is": [1.0, 2.0, 3.0, 4.0], ":-": ["a", "a", "b", "b"],
                      "row": [0.0, 0.0, 1.0, 1.0], "label": ["p", "q", "p", "q"]})
    y = ["halt", "halt", "write", "write"]
    clf = FOLDClassifier(min_support=1).fit(X, y)
    assert "'is'(X" not in clf.program_ and "'halt'(X)" not in clf.program_
    assert (run_swipl(clf, X, tmp_path) == python_decisions(clf, X)).all()
    assert (clf.predict(X) == np.array(y)).all()


@pytest.mark.parametrize("name", [".", "/", "//", "=>"])
def test_names_the_clause_reader_reads_specially_are_renamed(tmp_path, name):
    # '.'(X, V) is a dict call in a body, '/'/2 and '//'/2 cannot be declared dynamic,
    # '=>'(0, 1.0). is a single-sided-unification clause: plain swipl differed or failed
    x = np.tile([0.0, 1.0, 2.0, 3.0], 5)
    X = pd.DataFrame({name: x, f"{name}c": np.where(x > 2.5, "a", "b")})
    y = np.where(x > 1.5, "p", "q")
    y[x > 2.5] = "r"
    clf = FOLDClassifier(random_state=0).fit(X, y)
    assert clf.prolog_.feature_predicates[name] != name
    assert clf.prolog_.feature_predicates[f"{name}c"] == f"{name}c"  # not special
    assert (run_swipl(clf, X, tmp_path) == python_decisions(clf, X)).all()
    assert (clf.predict(X) == y).all()


def test_evaluation_result_is_compact_and_fast(cancer):
    clf, X = cancer
    big = pd.concat([X] * 40, ignore_index=True)      # ~23k rows
    result = clf.evaluate_prolog(big)
    assert result.decisions.dtype == np.int64 and len(result.decisions) == len(big)
    assert (result.decisions == python_decisions(clf, big)).all()


def test_decisions_follow_the_rows_whatever_their_first_id(cancer):
    clf, X = cancer
    view = ColumnView(X, clf.schema_)
    rows = write_rows(clf.prolog_, view, clf.schema_, first_id=1000)
    decisions = get_engine().evaluate(clf.prolog_, rows, timeout=10).decisions
    assert (decisions == python_decisions(clf, X)).all()


def test_justify_proves_the_row_it_names(cancer):
    clf, X = cancer
    rows = write_rows(clf.prolog_, ColumnView(X.iloc[:5], clf.schema_), clf.schema_,
                      first_id=40)
    for row_id in (40, 44):
        proof = get_engine().justify(clf.prolog_, rows, row_id, timeout=10)
        label = clf.prolog_.label_terms[python_decisions(clf, X.iloc[row_id - 40:][:1])[0]]
        assert f"label({row_id},{label}) holds" in proof
        assert "$row" not in proof
    with pytest.raises(PrologEngineError, match="not among the rows"):
        get_engine().justify(clf.prolog_, rows, 45, timeout=10)


def _swipl(goal: str, *files) -> str:
    """Run ``goal`` in a plain ``swipl`` that has loaded ``files``; its output."""
    done = subprocess.run([shutil.which("swipl"), "-q", "-g", goal, "-t", "halt",
                           *map(str, files)],
                          capture_output=True, text=True, timeout=120, encoding="utf-8")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


def test_the_runtime_loads_its_libraries_itself():
    """Nothing is autoloaded on first use: a time limit striking while a library loads
    left its predicates undefined for every later call of the process."""
    runtime = Path(fold.__file__).with_name("runtime.pl")
    goal = (f"use_module(library(check)), set_prolog_flag(autoload, false), "
            f"use_module({format_term(str(runtime))}), list_undefined")
    done = subprocess.run([shutil.which("swipl"), "-q", "-g", goal, "-t", "halt"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "" and done.stdout == "", done.stderr


@pytest.mark.parametrize("hook", ["portray", "library_directory", "prolog_list_goal"])
def test_names_of_user_hooks_are_renamed(hook, tmp_path):
    # Loaded into module user, 'portray'(X) :- ... would change how every term prints.
    x = np.arange(40.0)
    X = pd.DataFrame({"x": x, "term_expansion": x % 3, "file_search_path": x % 5})
    y = np.where(x < 20, hook, "other")
    clf = FOLDClassifier(class_order=[hook, "other"]).fit(X, y)
    assert (hook, 1) in get_engine().reserved_predicates()
    for name in (hook, "term_expansion", "file_search_path"):
        assert f"'{name}'(" not in clf.program_
    assert (run_swipl(clf, X, tmp_path) == clf.evaluate_prolog(X).decisions).all()
    printed = _swipl("print([0,1,2]), nl", tmp_path / "fold.pl", tmp_path / "facts.pl")
    assert printed == "[0,1,2]\n"
    assert (clf.predict(X) == y).all()


@pytest.mark.parametrize("name", ["member", "maplist", "must_be", "nth1", "memberchk"])
def test_columns_named_like_library_predicates_change_nothing(name, tmp_path):
    # the engine's views of a row are asserted into the program's module: a column named
    # member/2 there answered for lists:member/2 (no row matched c != p)
    rng = np.random.default_rng(1)
    c = rng.choice(["p", "q"], 60).astype(object)
    c[::3] = Negated("p")
    for other in ("a", name):  # unused by the rules, then tested by them
        X = pd.DataFrame({other: rng.normal(size=60), "c": c})
        y = np.where((pd.Series(c) != "p") & (X[other] > -1), "yes", "no")
        clf = FOLDClassifier(min_support=1).fit(X, y)
        if other == name:
            assert f"({name} <= " in str(clf.rules_)
        assert (clf.predict(X) == clf.predict_python(X)).all()
        assert (clf.predict(X) == y).mean() > 0.9
        assert (run_swipl(clf, X, tmp_path) == python_decisions(clf, X)).all()


def test_the_documented_query_works_whatever_the_column_names(tmp_path):
    # row/1 and label/2 keep their names; clashing columns and classes are renamed.
    rng = np.random.default_rng(0)
    c = rng.choice(["p", "q"], 80).astype(object)
    c[::4] = Negated("p")
    X = pd.DataFrame({"label": rng.choice(["red", "green"], 80), "row": rng.normal(size=80),
                      "ab0": rng.normal(size=80), "c": c, "neg_c": rng.choice(["u", "v"], 80)})
    exception = (X["label"] == "green") & (X["c"] != "p")
    y = np.where((X["row"] > 0) & ~exception, "row", np.where(X["ab0"] > 0, "ab0", "label"))
    clf = FOLDClassifier(min_support=2, class_order=["row", "ab0", "label"]).fit(X, y)
    assert str(clf.rules_).startswith("row if row > 0.08 unless (label == green")
    assert (clf.prolog_.row_predicate, clf.prolog_.label_predicate) == ("row", "label")
    assert "% Query: 'label'(Id, Class). Classes: 'row', 'ab0', 'label'." in clf.program_
    assert "% Column 'label': 'label_1'(Id, Value), 'neg_label'(Id, Value)." in clf.program_
    assert "% Column 'c': 'c'(Id, Value), 'neg_c_1'(Id, Value)." in clf.program_
    (tmp_path / "fold.pl").write_text(clf.program_, encoding="utf-8")
    (tmp_path / "facts.pl").write_text(clf.facts(X), encoding="utf-8")
    answers = _swipl("forall(row(I), (label(I, C), writeq(I-C), nl))",
                     tmp_path / "fold.pl", tmp_path / "facts.pl")
    assert answers.splitlines() == [f"{i}-{label}" for i, label in enumerate(y)]
    assert (clf.predict(X) == y).all() and (clf.predict_python(X) == y).all()
    assert "label(0," in clf.explain(X.iloc[[0]]).prolog


def test_first_use_on_a_thread_that_ends_leaves_no_warning_at_exit():
    """SWI-Prolog, started by the first FOLD call on a worker thread (a server's first
    request), warned at exit "Failed to stop Prolog threads"."""
    script = ("import threading, pandas as pd\n"
              "from fold import FOLDClassifier\n"
              "X = pd.DataFrame({'a': [1, 2, 3, 4] * 5})\n"
              "t = threading.Thread(target=lambda: print(FOLDClassifier().fit(X, [0, 0, 1, 1]"
              " * 5).predict(X)[:4].tolist()))\n"
              "t.start(); t.join()\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, cwd=Path(fold.__file__).parents[1])
    assert done.returncode == 0 and done.stdout.strip() == "[0, 0, 1, 1]", done.stderr
    assert "Prolog" not in done.stderr, done.stderr


_FORKED = """
import os, sys
from concurrent.futures import ThreadPoolExecutor
import pandas as pd
from pyswip import Prolog
from fold import FOLDClassifier
X = pd.DataFrame({"a": [1, 2, 3, 4] * 5})
clf = FOLDClassifier().fit(X, [0, 0, 1, 1] * 5)
pool = ThreadPoolExecutor(1)  # a thread with a Prolog engine of its own, alive at the fork
pool.submit(clf.predict, X).result()
(made,) = Prolog.query("tmp_file_stream(text, F, S), close(S)")
pid = os.fork()
if pid == 0:
    print("child", clf.predict(X)[:4].tolist(), flush=True)
    sys.exit(0)
_, status = os.waitpid(pid, 0)
print("parent", os.waitstatus_to_exitcode(status), os.path.exists(str(made["F"])))
pool.shutdown()
"""


def test_a_forked_child_exits_without_halting_the_parents_prolog():
    # its exit ran pyswip's PL_cleanup on the parent's copy: "Failed to stop Prolog
    # threads" (after waiting a second for them), and the parent's temporary files deleted
    done = subprocess.run([sys.executable, "-c", _FORKED], capture_output=True, text=True,
                          timeout=120, cwd=Path(fold.__file__).parents[1])
    assert done.stdout.splitlines() == ["child [0, 0, 1, 1]", "parent 0 True"], done.stderr
    assert done.stderr == ""


# ASCII only: a C-locale command line cannot hold the rest (escapes for "grün ☃" ...)
_NON_ASCII = r"""
import json
import numpy as np, pandas as pd
from fold import FOLDClassifier
rng = np.random.default_rng(0)
c = rng.choice(["gr\u00fcn \u2603", "rot", "bla\u00df \u00e9"], 60)
X = pd.DataFrame({"farbe \u00fc": c, "n": rng.normal(size=60)})
y = np.where(c == "gr\u00fcn \u2603", "ja \u2713", "nein \u2717")
clf = FOLDClassifier(random_state=0).fit(X, y)
print(json.dumps([clf.predict(X).tolist(), str(clf.rules_), str(clf.explain(X.iloc[[0]])),
                  str(clf.explain(X.iloc[[1]])), clf.program_]))
"""


def test_non_ascii_labels_and_values_are_the_same_in_the_c_locale():
    # SWI-Prolog reads and writes streams in the locale's encoding; the engine's texts
    # cross as strings, not through streams. Python in the C locale with and without its
    # UTF-8 mode (PEP 540)
    def run(env):
        done = subprocess.run([sys.executable, "-c", _NON_ASCII], capture_output=True,
                              text=True, timeout=120, cwd=Path(fold.__file__).parents[1],
                              env={**os.environ, **env})
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    in_utf8 = run({"LC_ALL": "C.UTF-8"})
    for utf8_mode in ("0", "1"):
        assert run({"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": utf8_mode,
                    "PYTHONCOERCECLOCALE": "0"}) == in_utf8
    labels, rules, first, _, program = in_utf8
    assert set(labels) == {"ja ✓", "nein ✗"} and "farbe ü != grün ☃" in rules
    assert "'farbe ü'(0,'blaß é') is a fact" in first and "'grün ☃'" in program


def test_an_exception_in_prolog_is_an_error_and_leaves_none_pending(capfd):
    # PL_call_predicate passes the exception on (PL_Q_PASS_EXCEPTION): uncleared, the next
    # call's foreign predicate warned "did not clear exception" on stderr
    engine = get_engine()
    for _ in range(2):
        with pytest.raises(PrologEngineError, match=r"^system:atom_length raised an exception: "
                                                    r"error\(instantiation_error,"):
            engine._call("system", "atom_length", [], 2)  # instantiation error
        assert not engine._core._lib.PL_exception(0)
        assert engine._call("system", "atom_string", [("atom", "ok")], 1) == ["ok"]
    assert "exception" not in capfd.readouterr().err


def test_an_exception_is_shown_as_its_term_on_one_line_cut_short():
    # the message said only "raised an exception", not what Prolog complained of
    hostile = "line\nbreak') :- halt. " + "x" * 5000
    Prolog.assertz("portray(_) :- write(portrayed)")
    try:
        with pytest.raises(PrologEngineError) as raised:
            get_engine()._call("system", "throw", [("string", hostile)], 0)
    finally:
        Prolog.retractall("portray(_)")
    message = str(raised.value)
    assert message.startswith("system:throw raised an exception: \"line\\nbreak') :- halt. x")
    # printed in double quotes, the line break escaped
    assert message.endswith(f"x... ({len(hostile) + 3} characters)")
    assert "\n" not in message and "portrayed" not in message and len(message) < 600


def test_an_error_status_and_an_exception_print_their_term_alike():
    # the status printed to depth 12 with portray/1 hooks called, the exception to 10
    deep = "f('line\\nbreak', " + "g(" * 20 + "x" + ")" * 20 + ")"
    Prolog.assertz(f"fold_test_thrower :- throw({deep})")
    Prolog.assertz("portray(_) :- write(portrayed)")
    try:
        engine = get_engine()
        (status,) = engine._call("fold_runtime", "guarded",
                                 [("int", 10_000), ("atom", "fold_test_thrower")], 1)
        with pytest.raises(PrologEngineError) as raised:
            engine._call("user", "fold_test_thrower", [], 0)
    finally:
        Prolog.retractall("portray(_)")
        Prolog.retractall("fold_test_thrower")
    shown = str(raised.value).removeprefix("user:fold_test_thrower raised an exception: ")
    assert status == f"error: {shown}"
    assert shown.startswith("f('line\\nbreak',g(g(") and "\n" not in shown
    assert shown.count("g(") == 9 and "..." in shown and "portrayed" not in shown


_NO_RUNTIME = """
import importlib.resources, pathlib, sys, types
from fold import engine
engine.resources = types.SimpleNamespace(files=lambda package: pathlib.Path(sys.argv[1]),
                                         as_file=importlib.resources.as_file)
try:
    engine.get_engine()
except engine.PrologEngineError as err:
    print(err)
"""


def test_an_exception_while_the_runtime_loads_is_shown_as_its_term(tmp_path):
    # fold_error_text/2 is runtime.pl's own: its failing load printed only
    # '(a term that could not be printed)'
    done = subprocess.run([sys.executable, "-c", _NO_RUNTIME, str(tmp_path)],
                          capture_output=True, text=True, timeout=120,
                          cwd=Path(fold.__file__).parents[1])
    assert done.returncode == 0, done.stderr
    message = done.stdout.strip()
    assert message.startswith("system:use_module raised an exception: "
                              "error(existence_error(source_sink,"), message
    assert str(tmp_path / "runtime.pl") in message and "\n" not in message


def test_an_error_status_is_cut_short(cancer):
    clf, _ = cancer
    rows = RowFacts(text="['$row'('" + "x" * 100_000 + "', 1)].\n", n_rows=1, first_id=0,
                    columns="[num('mean radius')]")
    with pytest.raises(PrologEngineError, match=r"fold_row,.*characters\)$") as raised:
        get_engine().evaluate(clf.prolog_, rows, timeout=10)
    assert len(str(raised.value)) < 700


def test_a_query_open_in_another_thread_does_not_stop_a_call(cancer):
    # pyswip's flag of an open query is one for the process: every call here failed
    # while a thread of the user's own had a pyswip query open
    clf, X = cancer
    opened, close = threading.Event(), threading.Event()

    def user():
        query = Prolog.query("between(1, inf, N)")
        next(query)
        opened.set()
        close.wait(30)
        query.close()
        get_engine()._destroy_engine()  # pyswip never gives its thread's engine back

    thread = threading.Thread(target=user)
    thread.start()
    try:
        assert opened.wait(30)
        assert (clf.predict(X.iloc[:5]) == clf.predict_python(X.iloc[:5])).all()
    finally:
        close.set()
        thread.join(30)


def test_a_query_open_on_the_calling_thread_is_refused(cancer):
    clf, X = cancer
    query = Prolog.query("between(1, inf, N)")
    next(query)
    try:
        with pytest.raises(PrologEngineError, match="pyswip query is open on this thread"):
            clf.predict(X.iloc[:5])
    finally:
        query.close()
    clf.predict(X.iloc[:5])


_INTERRUPTED = """
import pandas as pd
from fold import FOLDClassifier, get_engine
X = pd.DataFrame({"a": [1, 2, 3, 4] * 5})
clf = FOLDClassifier().fit(X, [0, 0, 1, 1] * 5)
engine = get_engine()
core = engine._core


class Recording:
    def __init__(self, interrupt=None):
        self.calls, self.interrupt = [], interrupt

    def __getattr__(self, name):
        found = getattr(core, name)
        if not callable(found):
            return found

        def call(*args):
            result = found(*args)
            self.calls.append(name)
            if len(self.calls) == self.interrupt:
                raise KeyboardInterrupt  # as Ctrl-C does, just after the C call returned
            return result
        return call


recording = engine._core = Recording()
clf.predict(X)
for k in range(1, len(recording.calls) + 1):
    engine._core = Recording(interrupt=k)
    try:
        clf.predict(X)
    except KeyboardInterrupt:
        pass
    engine._core = core
    assert clf.predict(X).tolist() == [0, 0, 1, 1] * 5, recording.calls[k - 1]
print("ok", len(recording.calls))
"""


def test_a_call_interrupted_anywhere_leaves_the_engine_working():
    # Ctrl-C just after the query was opened left it open in a frame then discarded:
    # SWI-Prolog aborted the process at the next call ("No foreign environment"); just
    # after it was closed, every later call was refused ("another pyswip query is open")
    done = subprocess.run([sys.executable, "-c", _INTERRUPTED], capture_output=True,
                          text=True, timeout=120, cwd=Path(fold.__file__).parents[1])
    assert done.returncode == 0 and done.stdout.startswith("ok"), done.stderr[-2000:]


@pytest.mark.parametrize("ids", [[0.5, 1.5, 2.5], ["a", "b", "c"], [1, 1, 2], [0, 1]])
def test_facts_refuse_ids_that_are_not_distinct_integers(ids):
    # 2.5 was written as Id 2, and a text Id raised int()'s own error
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0] * 4})
    clf = FOLDClassifier().fit(X, [0, 1, 1] * 4)
    with pytest.raises(ValueError, match="ids must be 3 distinct integers, one per row"):
        clf.facts(X.iloc[:3], ids=ids)
    assert "'row'(7)." in clf.facts(X.iloc[:3], ids=np.array([5, 6, 7]))
