"""report.html is one self-contained, escaped file with every section; report.md matches it."""

import base64
import errno
import json
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import make_column_transformer
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

from adapters import InputError, TableEncoder, from_frame, wrap_sklearn
from explain import outputs
from explain.compare import SweepConfig, run_compare
from explain.lime_runner import LimeConfig
from explain.outputs import prepare_out_dir, write_run
from explain.pipeline import RunConfig
from explain.report_html import SECTIONS, render_html
from explain.report_md import (baseline_note, complement_legend, example_table,
                               examples_caption, features_caption, p_text, paired_note,
                               render_markdown, value_cell, visible)
from tests.explain.helpers import users_model

HOSTILE_NAME = "<script>alert(1)</script>"
HOSTILE_VALUE = "<img src=x onerror=alert(2)>"


class Page(HTMLParser):
    """Everything the tests look at in a parsed page."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags, self.sections, self.urls, self.images, self.attrs = [], [], [], [], []
        self.text = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        self.attrs.extend(attrs)  # attribute names
        if tag == "section":
            self.sections.append(attrs.get("id"))
        for key in ("href", "src", "action", "srcset"):
            if key in attrs:
                self.urls.append(attrs[key])
        if tag == "img":
            self.images.append(attrs.get("src", ""))

    def handle_data(self, data):
        self.text.append(data)


def _hostile_frame():
    rng = np.random.default_rng(0)
    n = 224
    frame = pd.DataFrame({
        "age": rng.integers(18, 80, n).astype(float),
        "city": rng.choice(["paris", "lyon", HOSTILE_VALUE], n),
        HOSTILE_NAME: rng.normal(50, 15, n),
    })
    frame["label"] = np.where(((frame["age"] > 45) & (frame["city"] != HOSTILE_VALUE))
                              | (frame[HOSTILE_NAME] > 70), "yes", "no")
    frame.loc[[0, 3, 50, 51], "label"] = None   # dropped: later rows keep their numbers
    return frame


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    dataset = from_frame(_hostile_frame(), "label", positive="yes", name="hostile & <b>")
    box = users_model(dataset, GradientBoostingClassifier(n_estimators=30, random_state=0))
    # One IMLI term cannot hold both of the label's reasons, so the surrogates disagree on
    # some test rows and the report lists them, with the user's values.
    config = RunConfig(lime=LimeConfig(num_samples=300, n_jobs=1),
                       imli_params={"time_limit": 5.0, "n_clauses": 1})
    sweep = SweepConfig(data_fidelity=(1.0, 10.0), n_clauses=(1, 2),
                        mdl_weight=(0.25, 1.0), imli_time_limit=3.0)
    result = run_compare(dataset, config, sweep, black_box=box)
    out = prepare_out_dir(tmp_path_factory.mktemp("report"))
    write_run(result, out)
    return out, result


def test_every_section_is_present(written):
    out, _ = written
    page = Page((out / "report.html").read_text(encoding="utf-8"))
    assert page.sections == [sid for sid, _ in SECTIONS]
    text = " ".join(page.text)
    for _, title in SECTIONS:
        assert title in text
    for words in ("black box", "class balance", "fidelity (LIME test)", "optimal",
                  "precision vs BB", "Pareto", "disagree", "full rows (no LIME)"):
        assert words in text, words


def test_plots_are_embedded_png_and_nothing_is_fetched(written):
    out, _ = written
    page = Page((out / "report.html").read_text(encoding="utf-8"))
    assert len(page.images) == 3  # trade-off, features, filtering
    for src in page.images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    for url in page.urls:
        assert url.startswith(("data:", "#")), url
    assert "script" not in page.tags and "link" not in page.tags and "iframe" not in page.tags


def test_user_text_is_escaped(written):
    out, _ = written
    html_text = (out / "report.html").read_text(encoding="utf-8")
    page = Page(html_text)
    assert HOSTILE_NAME not in html_text and HOSTILE_VALUE not in html_text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html_text
    text = "".join(page.text)
    assert HOSTILE_NAME in text and HOSTILE_VALUE in text  # shown, as text
    assert not any(name.startswith("on") for name in page.attrs)
    assert page.tags.count("img") == 3
    # report.md as a Markdown renderer shows it: the same user text, as text
    md_page = _rendered_markdown(out / "report.md")
    assert md_page.tags.count("img") == 0 and "script" not in md_page.tags
    assert HOSTILE_VALUE in "".join(md_page.text) and HOSTILE_NAME in "".join(md_page.text)


def _rendered_markdown(path) -> Page:
    """report.md rendered by a CommonMark renderer (with tables), parsed."""
    from markdown_it import MarkdownIt

    return Page(MarkdownIt("commonmark").enable("table").render(path.read_text("utf-8")))


def test_markdown_text_keeps_dollars_out_of_maths():
    # GitHub renders $...$ as maths: a category "$x^2$" must read as written
    from markdown_it import MarkdownIt

    from explain.report_md import md_text

    assert md_text("$x^2$ & *y*") == "\\$x^2\\$ \\& \\*y\\*"
    shown = MarkdownIt("commonmark").render(md_text("$x^2$ costs $5"))
    assert shown == "<p>$x^2$ costs $5</p>\n"


@pytest.mark.parametrize("text, shown", [
    ("plain_name*", "plain_name*"),
    ("a\u200cb", "a\u200cb"),                        # Persian zero-width non-joiner: shows
    ("\U0001f468\u200d\U0001f469", "\U0001f468\u200d\U0001f469"),  # an emoji sequence
    ("yes\nno", "'yes\\nno'"), ("yes\\nno", "yes\\nno"),  # never alike
    ("it's\x1b", "'it\\'s\\x1b'"), ("x\u202ey", "'x\\u202ey'"), ("a\u200bb", "'a\\u200bb'"),
])
def test_visible_text(text, shown):
    assert visible(text) == shown


def test_labels_names_and_values_from_the_data_stay_text(tmp_path):
    """Markdown links and images, terminal escapes, tabs, line breaks and right-to-left
    overrides in labels, names and values: shown as text in every report, never acted on."""
    rng = np.random.default_rng(2)
    link, escape = "[no](javascript:alert(1))", "y\x1b[2J\res\u202e"
    image, name = "![i](http://127.0.0.1/y.png)", "x *a* [b](http://t.x)"
    frame = pd.DataFrame({name: rng.normal(size=160), "c": rng.choice([image, "b\tc"], 160)})
    frame["t\nx"] = np.where((frame[name] > 0.5) | (frame["c"] == image), escape, link)
    dataset = from_frame(frame, "t\nx", positive=escape, name="run\x1b[31m _b_ [l](http://x)")
    model = make_pipeline(
        make_column_transformer((OneHotEncoder(), ["c"]), remainder="passthrough"),
        GradientBoostingClassifier(n_estimators=10, random_state=0),
    ).fit(dataset.X, dataset.y)
    box = wrap_sklearn(model, TableEncoder().fit(dataset.X, dataset.categorical))
    config = RunConfig(lime=LimeConfig(num_samples=200, n_jobs=1),
                       imli_params={"time_limit": 3.0})
    result = run_compare(dataset, config, SweepConfig(data_fidelity=(10.0,), n_clauses=(1,),
                                                      mdl_weight=(0.5,)), black_box=box)
    out = prepare_out_dir(tmp_path / "out")
    write_run(result, out)
    texts = {f: (out / f).read_text("utf-8") for f in ("report.md", "report.html", "imli.txt")}
    for file, text in texts.items():
        assert not {"\x1b", "\u202e", "\t", "\r"} & set(text), file
    for page in (_rendered_markdown(out / "report.md"), Page(texts["report.html"])):
        assert page.urls == [] or all(u.startswith(("data:", "#")) for u in page.urls)
        assert page.tags.count("img") == (3 if page.images and "data:" in page.images[0]
                                          else 0)
        shown = "".join(page.text)
        assert link in shown and image in shown and name in shown
        assert "'y\\x1b[2J\\res\\u202e'" in shown  # the escapes, visible, quoted
    # the class balance quotes the label alone, not the whole line; so do the black box's
    # share of the positive class and the page's title
    html_shown = "".join(Page(texts["report.html"]).text)
    assert "'y\\x1b[2J\\res\\u202e': " in html_shown
    assert "predicts 'y\\x1b[2J\\res\\u202e' (test)" in html_shown
    assert html_shown.count("Surrogate rules for 'run\\x1b[31m _b_ [l](http://x)'") == 2
    # imli.txt: the labels quoted, so that the rule reads as three lines
    head, *_, tail = texts["imli.txt"].splitlines()
    assert head.endswith(" IF") and tail.startswith("ELSE ")
    assert "'y\\x1b[2J\\res\\u202e'" in texts["imli.txt"]
    # predictions.csv reads back to the labels themselves, a lone CR included
    rows = pd.read_csv(out / "predictions.csv", keep_default_na=False)
    assert len(rows) == len(frame) and set(rows.truth) == {escape, link}


def test_every_fidelity_and_accuracy_follows_from_predictions_csv(written):
    out, result = written
    rows = pd.read_csv(out / "predictions.csv", keep_default_na=False)
    report = json.loads((out / "report.json").read_text())
    assert report["files"]["predictions"] == "predictions.csv"
    assert list(rows.columns) == ["row", "part", "truth", "black_box", "imli", "imli_lime",
                                  "fold", "fold_lime"]
    test, train = rows[rows.part == "test"], rows[rows.part == "train"]
    assert (len(train), len(test)) == (report["split"]["train_rows"],
                                       report["split"]["test_rows"])
    assert sorted(rows.row) == sorted(_hostile_frame().dropna(subset=["label"]).index)
    assert np.isclose((test.black_box == test.truth).mean(), report["black_box"]["accuracy_test"])
    for name, entry in report["learners"].items():
        for key, part, column in (("fidelity_test", test, name), ("fidelity_train", train, name),
                                  ("fidelity_test_lime", test, f"{name}_lime"),
                                  ("fidelity_train_lime", train, f"{name}_lime")):
            assert np.isclose((part[column] == part.black_box).mean(), entry[key]), (name, key)
        assert np.isclose((test[name] == test.truth).mean(), entry["accuracy_test"])
    assert set(rows.truth) == {"yes", "no"}
    box = report["black_box"]
    majority = train.black_box.value_counts().idxmax()
    assert box["majority_label"] == majority
    assert np.isclose((test.black_box == majority).mean(), box["majority_fidelity_test"])


def test_intervals_and_the_paired_test_follow_from_predictions_csv(written):
    from scipy.stats import binomtest

    out, _ = written
    rows = pd.read_csv(out / "predictions.csv", keep_default_na=False)
    test = rows[rows.part == "test"]
    report = json.loads((out / "report.json").read_text())
    for name, entry in report["learners"].items():
        for key, column in (("fidelity_test_ci", name), ("fidelity_test_lime_ci", f"{name}_lime")):
            agreeing = int((test[column] == test.black_box).sum())
            ci = binomtest(agreeing, len(test)).proportion_ci(0.95, method="wilson")
            assert entry[key] == pytest.approx([ci.low, ci.high]), (name, key)
    imli_right, fold_right = test.imli == test.black_box, test.fold == test.black_box
    ag = report["agreement"]
    only_imli, only_fold = int((imli_right & ~fold_right).sum()), int((fold_right & ~imli_right).sum())
    assert (ag["only_imli_faithful_test"], ag["only_fold_faithful_test"]) == (only_imli, only_fold)
    assert ag["fidelity_difference_p"] == pytest.approx(
        binomtest(only_imli, only_imli + only_fold).pvalue)
    note = paired_note(ag)
    assert note.startswith(f"Where IMLI and FOLD disagree, IMLI matches the black box on "
                           f"{only_imli} row" if only_imli else "Where IMLI and FOLD disagree, "
                           "IMLI matches the black box on none")
    assert note in (out / "report.md").read_text(encoding="utf-8").replace("\\", "")
    assert note in " ".join(Page((out / "report.html").read_text(encoding="utf-8")).text)
    markdown = (out / "report.md").read_text(encoding="utf-8")
    for key in ("fidelity_test_ci", "fidelity_test_lime_ci"):
        low, high = report["learners"]["fold"][key]
        assert f"{low:.3f}–{high:.3f}" in markdown
    # each rule's precision too, in both reports
    assert "| precision vs BB | 95% interval |" in markdown
    page = " ".join(Page((out / "report.html").read_text(encoding="utf-8")).text)
    low, high = report["learners"]["imli"]["rule_stats"][0]["precision_ci"]
    assert f"{low:.3f}–{high:.3f}" in markdown and f"{low:.3f}–{high:.3f}" in page


def test_the_paired_note_says_which_is_more_faithful_only_when_the_rows_show_it():
    ag = {"only_imli_faithful_test": 12, "only_fold_faithful_test": 1,
          "fidelity_difference_p": 0.0034}
    assert paired_note(ag).endswith("IMLI is the more faithful (exact McNemar test, p = 0.0034).")
    ag.update(only_imli_faithful_test=1, only_fold_faithful_test=12)
    assert "FOLD is the more faithful" in paired_note(ag)
    ag.update(only_imli_faithful_test=3, only_fold_faithful_test=1, fidelity_difference_p=0.6)
    assert paired_note(ag).endswith("do not show either to be more faithful (exact McNemar "
                                    "test, p = 0.60).")
    ag.update(only_imli_faithful_test=0, only_fold_faithful_test=0, fidelity_difference_p=1.0)
    assert paired_note(ag).startswith("IMLI and FOLD give the same class on every test row")
    assert p_text(0.0004) == "p < 0.001" and p_text(0.6) == "p = 0.60"
    # exact McNemar p-values are often halves at the last digit: rounded up, as written
    assert (p_text(0.125), p_text(0.0625), p_text(0.375)) == ("p = 0.13", "p = 0.063",
                                                             "p = 0.38")
    # as many digits as show the side of 0.05 a p-value is on
    assert (p_text(0.0498), p_text(0.0502), p_text(0.05)) == ("p = 0.0498", "p = 0.050",
                                                              "p = 0.050")
    ag.update(only_imli_faithful_test=2, only_fold_faithful_test=0, fidelity_difference_p=0.5)
    assert "IMLI matches the black box on 2 rows and FOLD on none:" in paired_note(ag)
    assert paired_note({"imli_vs_fold_test": 1.0}) is None  # a report from before the test


def test_the_constant_answer_is_shown_and_learners_no_better_are_named(written):
    out, result = written
    report = json.loads((out / "report.json").read_text())
    note = baseline_note(report)
    assert note.startswith(f"Answering {report['black_box']['majority_label']!r} for every row")
    assert "no better" not in note  # both learners beat it here
    assert note in (out / "report.md").read_text(encoding="utf-8").replace("\\", "")
    assert note in " ".join(Page((out / "report.html").read_text(encoding="utf-8")).text)
    scores = {name: entry["fidelity_test"] for name, entry in report["learners"].items()}
    worse = min(scores, key=scores.get)
    assert scores[worse] < max(scores.values())  # IMLI has one term here
    report["black_box"]["majority_fidelity_test"] = scores[worse]
    assert baseline_note(report).endswith(f" {worse.upper()} does no better: read its rules "
                                          f"with care.")
    report["black_box"]["majority_fidelity_test"] = 1.0
    assert baseline_note(report).endswith(" IMLI and FOLD do no better: read their rules with "
                                          "care.")


def test_report_json_holds_the_new_sections(written):
    out, _ = written
    report = json.loads((out / "report.json").read_text())
    for name in ("imli", "fold"):
        stats = report["learners"][name]["rule_stats"]
        assert stats and {"text", "kind", "covered", "coverage", "precision"} <= set(stats[0])
        assert isinstance(report["learners"][name]["features_used"], dict)
    names = [row["feature"] for row in report["lime"]["feature_frequency"]]
    assert sorted(names) == sorted(["age", "city", HOSTILE_NAME])
    assert "examples" in report["agreement"]
    assert set(report["sweep"]["learners"]) == {"imli", "fold"}
    assert set(report["filtering"]["learners"]) == {"imli", "fold"}
    assert report["files"]["report_html"] == "report.html"


def test_stats_agree_with_the_learners_predictions(written):
    _, result = written
    report, views = result.report, result.views
    for name in ("imli", "fold"):
        predicted = result.learners[name].predict(views[name]["test"])
        stats = report["learners"][name]["rule_stats"]
        positive = stats[0] if name == "imli" else stats[-1]
        if name == "imli":
            assert positive["kind"] == "rule" and positive["covered"] == predicted.sum()
        else:
            assert positive["kind"] == "default"
            assert positive["covered"] == (predicted == 0).sum()


def test_a_quick_run_report_says_where_the_sweep_is(written):
    _, result = written
    report = {k: v for k, v in result.report.items() if k not in ("sweep", "filtering")}
    page = Page(render_html(report))
    assert page.sections == [sid for sid, _ in SECTIONS]
    assert len(page.images) == 1  # the features plot only
    assert "python -m explain compare" in "".join(page.text)


def test_a_run_without_lime_renders(tmp_path):
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"x": rng.normal(size=120), "c": rng.choice(["a", "b"], 120)})
    frame["y"] = np.where(frame["x"] > 0, "up", "down")
    dataset = from_frame(frame, "y", positive="up", name="plain")
    model = make_pipeline(
        make_column_transformer((OneHotEncoder(), ["c"]), remainder="passthrough"),
        GradientBoostingClassifier(n_estimators=10, random_state=0),
    ).fit(dataset.X, dataset.y)
    box = wrap_sklearn(model, TableEncoder().fit(dataset.X, dataset.categorical))
    config = RunConfig(train_view="raw", imli_params={"time_limit": 3.0})
    result = run_compare(dataset, config, SweepConfig(data_fidelity=(10.0,), n_clauses=(1,),
                                                      mdl_weight=(0.5,)), black_box=box)
    write_run(result, prepare_out_dir(tmp_path / "out"))
    page = Page((tmp_path / "out" / "report.html").read_text(encoding="utf-8"))
    text = "".join(page.text)
    assert page.sections == [sid for sid, _ in SECTIONS]
    assert "LIME did not run" in text and "not run" in text
    assert result.report["filtering"]["views"] == ["raw"]
    # the effect-of-filtering section says why it holds the full rows only
    assert "LIME was not run (training view: full rows only)" in text
    assert "LIME was not run (training view: full rows only)" in (
        tmp_path / "out" / "report.md").read_text()


def test_complemented_columns_are_explained_where_imli_uses_them(written):
    out, result = written
    legend = "satisfies no test of IMLI's"
    written_md = (out / "report.md").read_text(encoding="utf-8")
    rules = result.report["learners"]["imli"]["rules"]
    assert (legend in written_md) == ("not (" in rules or " != " in rules)
    report = json.loads(json.dumps(result.report, default=str))
    report["learners"]["imli"]["rules"] = "yes IF\n  (not (age <= 34.0))\nELSE no"
    assert legend in render_markdown(report)
    assert legend in " ".join(Page(render_html(report)).text)
    assert "`not (…)` holds on it" in complement_legend("imli", "(x <= 1) OR not (x)")
    assert "!=" not in complement_legend("imli", "(x <= 1) OR not (x)")
    # IMLI's `!=` columns (LIME's negated categories) read as FOLD's: a known other value
    assert "holds only where f is known" in complement_legend("imli", "(x <= 1 AND c != a)")
    assert "not (…)" not in complement_legend("imli", "(x <= 1 AND c != a)")
    assert complement_legend("imli", "x <= 1") is None
    assert complement_legend("fold", "not (x)") is None
    assert "holds only where f is known" in complement_legend("fold", "1 if c not in {a, b}")


def test_rules_that_test_nothing_say_why_and_what_to_change(written):
    _, result = written
    report = json.loads(json.dumps(result.report, default=str))
    assert "learned no rule" not in render_markdown(report)
    report["learners"]["fold"].update(rules="yes otherwise", rule_size=0, n_rules=0)
    report["learners"]["imli"].update(rules="ALWAYS yes", rule_size=0)
    text = render_markdown(report)
    assert "a lower `--fold-mdl-weight` (or `none`)" in text
    assert "a higher `--data-fidelity`" in text
    assert "FOLD learned no rule" in " ".join(Page(render_html(report)).text)


def test_disagreeing_rows_show_the_values_exactly(written):
    """The rows where the surrogates disagree show each value as the rules state
    thresholds, exactly (a 3-decimal rounding hid which side of a threshold a row is on)."""
    out, _ = written
    report = json.loads((out / "report.json").read_text())
    values = [v for ex in report["agreement"]["examples"] for v in ex["values"].values()
              if isinstance(v, float)]
    assert any(v != round(v, 3) for v in values)
    md, html_text = (out / "report.md").read_text(), (out / "report.html").read_text()
    for v in values:
        assert f"| {v!r} |" in md or f"| {v!r}\n" in md, v
        assert f">{v!r}<" in html_text, v


def test_disagreeing_rows_show_whole_numbers_as_the_table_has_them(written):
    """A column of whole numbers (age: the reader makes it float) shows 52, not 52.0, in
    both reports and in the reasons; report.json keeps them numbers."""
    out, _ = written
    report = json.loads((out / "report.json").read_text())
    examples = report["agreement"]["examples"]
    ages = [ex["values"]["age"] for ex in examples if ex["values"].get("age") is not None]
    assert ages and all(type(v) is int for v in ages)
    incomes = [ex["values"][HOSTILE_NAME] for ex in examples]
    assert all(type(v) is float for v in incomes)  # a column of fractions stays as it was
    md, html_text = (out / "report.md").read_text(), (out / "report.html").read_text()
    for v in ages:
        assert f"| {v} |" in md and f">{v}<" in html_text
        assert f"{v}.0" not in md and f"{v}.0" not in html_text
    reasons = " ".join(ex["reasons"][name]["text"] for ex in examples for name in ex["reasons"])
    assert "(age is " in reasons and not re.search(r"age is \d+\.0\b", reasons)


def test_the_reports_render_the_same_from_report_json(written):
    """The renderers read the report dict alone: rendered again from report.json, whose
    keys are sorted, both reports are the files the run wrote (the disagreement table's
    feature columns came in alphabetical order, not the table's)."""
    out, result = written
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    columns = [str(c) for c in result.views["fold"]["test"].columns]
    shown = report["agreement"]["example_features"]  # in table order, which JSON keeps
    assert shown == [c for c in columns if c in shown] and shown != sorted(shown)
    assert render_markdown(report) == (out / "report.md").read_text(encoding="utf-8")
    assert render_html(report) == (out / "report.html").read_text(encoding="utf-8")


def test_a_feature_named_like_a_column_of_the_disagreement_table_says_it_is_one():
    examples = [{"row": 7, "black_box": "a", "imli": "a", "fold": "b", "truth": "a",
                 "values": {"row": 1.5, "x": "u"}}]
    header, rows, n_features = example_table(examples)
    assert header == ["row", "black box", "IMLI", "FOLD", "truth", "row (feature)", "x"]
    assert rows == [[7, "a", "a", "b", "a", "1.5", "u"]] and n_features == 2


def test_value_cells():
    assert value_cell(0.00045) == "0.00045" and value_cell(1000.015) == "1000.015"
    assert value_cell(None) == "–" and value_cell(3) == "3" and value_cell("a b") == "a b"


def test_the_disagreement_table_says_what_it_leaves_out():
    from explain.report_details import MAX_EXAMPLE_FEATURES, example_features

    ag = {"examples": [{"values": {}}] * 5, "disagreements_test": 12, "features_tested": 17}
    assert examples_caption(ag, 8) == ("Test rows where they disagree (the first 5 of 12; "
                                       "8 of the 17 features their rules test, the most tested):")
    ag = {"examples": [{"values": {}}] * 3, "disagreements_test": 3, "features_tested": 2}
    assert examples_caption(ag, 2) == "Test rows where they disagree (all 3):"
    columns = [f"f{i}" for i in range(12)]
    usage = {"imli": {f"f{i}": 1 for i in range(10)}, "fold": {"f11": 2, "f9": 3}}
    shown = example_features(usage, columns)
    assert len(shown) == MAX_EXAMPLE_FEATURES and shown[0] == "f9" and "f11" in shown


def test_the_features_table_says_when_it_shows_only_the_most_selected(written):
    assert features_caption(30) == "The 15 features LIME selected most often, of 30"
    assert features_caption(3) == "Each of the 3 features LIME selected"
    assert features_caption(1) == "The 1 feature LIME selected"  # not "Each of the 1 features"
    out, result = written
    n = sum(1 for r in result.report["lime"]["feature_frequency"] if r["selected"])
    assert features_caption(n) in (out / "report.md").read_text(encoding="utf-8")
    assert features_caption(n) in (out / "report.html").read_text(encoding="utf-8")


def test_disagreeing_rows_are_named_by_their_row_in_the_input_table(written):
    _, result = written
    frame = _hostile_frame()
    examples = result.report["agreement"]["examples"]
    assert examples and any(ex["row"] > 51 for ex in examples)
    for ex in examples:
        row = frame.iloc[ex["row"]]
        for name, value in ex["values"].items():
            assert row[name] == value, (ex["row"], name)


def test_a_fit_the_time_limit_cut_short_says_so(written):
    # it was only on stderr and in report.json; the tables said "no" as for mini-batches
    _, result = written
    report = json.loads(json.dumps(result.report, default=str))
    assert all("timed_out" in p for p in report["sweep"]["learners"]["imli"])
    report["learners"]["imli"].update(optimal=False, timed_out=True)
    report["sweep"]["learners"]["imli"][0].update(optimal=False, timed_out=True)
    text = render_markdown(report)
    assert text.count("| no (time limit) |") == 2 and "batch_size=None" in text
    page = Page(render_html(report)).text
    assert page.count("no (time limit)") == 2 and "batch_size=None" in " ".join(page)
    report["learners"]["imli"]["timed_out"] = False
    report["sweep"]["learners"]["imli"][0]["timed_out"] = False
    assert "| no (time limit) |" not in render_markdown(report)


def test_a_name_the_plot_font_lacks_draws_without_a_warning():
    # an emoji in a column name printed "warning: Glyph ... missing from font(s)"
    import warnings

    from explain.report_plots import features_plot

    frequency = [{"feature": "city 🏙", "rate": 0.5, "selected": 10, "toward_positive": 0.5,
                  "fold": 1}]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert features_plot(frequency, ["fold"]).startswith("data:image/png;base64,")


def test_counts_of_one_are_singular():
    """The reports said "(1 disagreements)" and "FOLD (ILP): 1 settings"."""
    from adapters.errors import counted

    assert [counted(n, "setting") for n in (0, 1, 2)] == ["0 settings", "1 setting",
                                                          "2 settings"]


def test_a_rule_card_of_one_rule_and_one_literal_is_singular(written):
    """A rule set's card said "1 rules, 1 literals" (iris: one test tells setosa apart)."""
    out, _ = written
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    report["learners"]["fold"].update(n_rules=1, rule_size=1)
    report["learners"]["imli"].update(n_rules=2, rule_size=0)
    shown = " ".join(Page(render_html(report)).text)
    assert "1 rule, 1 literal;" in shown and "2 rules, 0 literals;" in shown


def test_a_write_stopped_midway_leaves_no_files_that_read_as_one_run(written, tmp_path,
                                                                     monkeypatch):
    out, result = written
    previous = tmp_path / "previous"
    shutil.copytree(out, previous)  # a previous run, written over as --force does
    write = outputs.atomic_write_text

    def stopped(path, text):
        if Path(path).name == "report.md":
            raise KeyboardInterrupt  # Ctrl-C, SIGTERM or --max-seconds while writing
        write(path, text)

    monkeypatch.setattr(outputs, "atomic_write_text", stopped)
    with pytest.raises(KeyboardInterrupt):
        write_run(result, previous)
    assert sorted(p.name for p in previous.iterdir()) == []


def test_a_full_disk_while_writing_is_one_line_and_leaves_no_run(written, tmp_path,
                                                                 monkeypatch):
    out, result = written
    previous = tmp_path / "previous"
    shutil.copytree(out, previous)
    write = outputs.atomic_write_text

    def full(path, text):
        if Path(path).name == "report.html":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        write(path, text)

    monkeypatch.setattr(outputs, "atomic_write_text", full)
    with pytest.raises(InputError, match=r"^cannot write the run's files in --out .*: No space "
                                         r"left on device; no run's files are left there$"):
        write_run(result, previous)
    assert sorted(p.name for p in previous.iterdir()) == []


def test_plot_labels_show_names_as_the_text_does():
    # a right-to-left mark drew "RTLname" reversed, a newline on two lines
    from explain.report_plots import _short

    assert _short("\u202eRTLname") == "'\\u202eRTLname'"
    assert _short("new\nline") == "'new\\nline'"
    assert _short("x" * 50) == "x" * 37 + "…"


def test_the_features_plot_draws_the_features_the_table_shows():
    # features LIME never selected were drawn as empty bars beside a table that leaves
    # them out ("Each of the 3 features LIME selected")
    from explain.report_plots import features_plot

    def row(name, selected, fold):
        return {"feature": name, "rate": selected / 10, "selected": selected,
                "toward_positive": 0.5 if selected else None, "selected_missing": 0,
                "fold": fold}

    selected = [row("a", 8, 1), row("b", 3, 0)]
    assert features_plot(selected + [row("never", 0, 0), row("tested", 0, 1)], ["fold"]) \
        == features_plot(selected, ["fold"])


def test_long_names_wrap_inside_their_cells(written):
    """A name of 200 characters without a space breaks inside its table cell (a cell that
    could not break ran over the next column of the summary); numbers do not break."""
    out, _ = written
    style = (out / "report.html").read_text().split("<style>")[1].split("</style>")[0]
    rules = dict(re.findall(r"([^{}]+)\{([^{}]*)\}", style.replace("\n", "")))
    assert "overflow-wrap:anywhere" in rules["th,td"]
    assert "overflow-wrap:normal" in rules["td.num,th.num"]


def test_the_pages_subtitle_names_the_black_boxs_kind_without_an_article(written):
    """'a black box (sklearn)', not 'a sklearn black box' ('a xgboost', and 'a black box
    black box' for a kind the user left unnamed)."""
    _, result = written
    report = json.loads(json.dumps(result.report, default=str))
    for kind, shown in [("xgboost", "of a black box (xgboost) predicting"),
                        ("black box", "of a black box predicting"),
                        ("<my model>", "of a black box (&lt;my model&gt;) predicting")]:
        report["black_box"]["kind"] = kind
        assert shown in render_html(report)
