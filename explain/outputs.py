"""Writing a run's directory: atomically, and never over a previous run unless asked."""

from __future__ import annotations

import csv
import fcntl
import glob
import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd

from adapters import InputError
from explain.atomic import atomic_write
from explain.pipeline import PipelineResult, one_table
from explain.report_details import add_details
from explain.report_html import render_html
from explain.report_md import render_markdown

__all__ = ["prepare_out_dir", "refuse_previous_run", "run_lock", "write_run",
           "atomic_write_text", "predictions_frame"]

#: Files a run writes; a directory holding any of them is a previous run's.
RUN_FILES = ("report.json", "report.md", "report.html", "imli.txt", "fold.pl",
             "fold_facts.pl", "predictions.csv")
#: What the black boxes' ``save`` may write (one of them per run).
BLACK_BOX_FILES = ("black_box.ubj", "black_box.joblib", "black_box.txt")
#: The file a running run holds locked in its directory (removed when it ends).
LOCK_FILE = ".surrogate-rules.lock"


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename.

    A reader never sees a half-written file, and an interrupted write leaves the previous
    content (or nothing) in place.

    Parameters
    ----------
    path : Path
        The file to write.
    text : str
        Its content, written as UTF-8.
    """
    atomic_write(path, lambda handle: handle.write(text.encode("utf-8")))


def prepare_out_dir(out_dir, force: bool = False, inputs: dict | None = None) -> Path:
    """Create ``out_dir``, refusing to overwrite a previous run's directory without ``force``.

    Parameters
    ----------
    out_dir : path
        The run's directory.
    force : bool, default=False
        Write over a previous run's files.
    inputs : dict, optional
        Option -> path of a file the run reads (``--data``, ``--model``). One that is a
        file the run writes or removes in ``out_dir`` (its own ``black_box.ubj``, a
        previous run's ``predictions.csv``; through a link too) is refused, with or without
        ``force``: the run would destroy its own input.

    Returns
    -------
    pathlib.Path
        The directory, created and known to be writable.

    Raises
    ------
    adapters.InputError
        If ``out_dir`` is a file or a dangling link, cannot be written to, holds a
        previous run without ``force``, or would overwrite one of ``inputs``.
    """
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} exists and is not a directory; give a directory's path "
                         f"(a new one is created)")
    for part in (out, *out.parents):
        if part.is_symlink() and not part.exists():
            raise InputError(f"--out {out}: {part} is a link to {os.readlink(part)}, which "
                             f"does not exist; create it or choose another --out")
    for option, given in (inputs or {}).items():
        if given is None or not Path(given).is_file():
            continue  # a bundled dataset's name, a pipe: nothing in --out to collide with
        for name in RUN_FILES + BLACK_BOX_FILES:
            if (out / name).exists() and os.path.samefile(given, out / name):
                raise InputError(f"{option} {given} is the file {name} that a run writes in "
                                 f"--out {out}: the run would overwrite it; choose another "
                                 f"--out, or move the file out of it first")
    if not force:
        refuse_previous_run(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        # a directory that exists may still refuse files (/sys, a read-only mount): find
        # out now, not after the run
        tempfile.TemporaryFile(dir=out).close()
    except OSError as error:
        raise InputError(f"cannot write to --out {out} ({error.strerror or error}); choose "
                         f"a directory you can write to") from None
    return out


def refuse_previous_run(out_dir) -> None:
    """Refuse ``out_dir`` when it holds a run's files.

    A report, or some of a run's files: a run stopped as it wrote them.

    Parameters
    ----------
    out_dir : path-like
        The directory.

    Raises
    ------
    adapters.InputError
        If it holds such files, telling to choose another ``--out`` or pass ``--force``.
    """
    out = Path(out_dir)
    held = [name for name in RUN_FILES if (out / name).exists()] if out.is_dir() else []
    if held:
        what = "a run's report" if "report.json" in held else \
            f"a run's files ({', '.join(held)}; a run stopped as it wrote them?)"
        raise InputError(f"{out} already holds {what}; choose another --out or pass --force")


@contextmanager
def run_lock(out_dir):
    """Hold ``out_dir``'s lock for a run: another run into it meanwhile is refused.

    Two runs that both found no report in the directory when they began would otherwise
    both write there, and their files would mix. The lock is the operating system's
    (``flock``), so a run that was killed holds none; its lock file is taken over, and the
    temporary files it left (``.report.json.*.tmp``, ``.black_box.*/``) are removed. On a
    file system without locks the run goes on unlocked, as runs did before.

    Parameters
    ----------
    out_dir : path-like
        The run's directory.

    Yields
    ------
    None
        While the lock is held.

    Raises
    ------
    adapters.InputError
        When another run holds the lock.
    """
    path = Path(out_dir) / LOCK_FILE
    for _ in range(3):  # a run that ended removed the file this one opened: open anew
        try:
            # read-only: a lock file another user's killed run left can still be locked
            fd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)
        except OSError as error:  # the folder removed meanwhile, not ours to open
            raise InputError(f"cannot lock --out {out_dir} ({error.strerror or error}); "
                             f"choose another --out") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise InputError(f"another run is writing to {out_dir}; wait for it to end or "
                             f"choose another --out") from None
        except OSError:  # a file system without locks (some network ones): as before
            os.close(fd)
            try:
                yield
            finally:
                path.unlink(missing_ok=True)
            return
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    else:
        raise InputError(f"another run is writing to {out_dir}; wait for it to end or "
                         f"choose another --out")
    try:
        _remove_leftovers(Path(out_dir))
        yield
    finally:
        path.unlink(missing_ok=True)  # before the lock is let go
        os.close(fd)


def _remove_leftovers(out: Path) -> None:
    """The temporary files of a run that was killed while it wrote into ``out``."""
    for folder in out.glob(".black_box.*"):
        if folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder, ignore_errors=True)
    for name in RUN_FILES:
        for leftover in out.glob(f".{glob.escape(name)}.*.tmp"):
            leftover.unlink(missing_ok=True)


def report_json_text(report: dict) -> str:
    """The canonical text of report.json (sorted keys, so equal reports are equal bytes)."""
    return json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"


def predictions_frame(result: PipelineResult) -> pd.DataFrame:
    """Every row's labels, from which each fidelity and accuracy in the report follows.

    One row per training and test row, in that order: ``row`` (its index in the input
    table, and a held-out row's Id in fold_facts.pl), ``part`` (``train`` / ``test``),
    ``truth``, ``black_box``, and each learner's
    label of the full row (``imli``, ``fold``); with LIME, each learner's label of the
    row's LIME-filtered view too (``imli_lime``, ``fold_lime``: the LIME-protocol
    fidelity). Labels are the class names of ``report["dataset"]["class_names"]``.

    Parameters
    ----------
    result : PipelineResult
        A finished run.

    Returns
    -------
    pandas.DataFrame
        The columns above, one row per training and test row.
    """
    names = np.asarray(result.report["dataset"]["class_names"], dtype=object)
    labels = result.labels
    parts = {"train": ("train_raw", "train_lime", "y_train", "bb_train"),
             "test": ("test", "test_lime", "y_test", "bb_test")}
    frames = []
    for part, (raw, lime, truth, box) in parts.items():
        rows = result.views["fold"][raw].index  # FOLD's view of full rows: the table's rows
        frame = pd.DataFrame({"row": rows, "part": part,
                              "truth": names[labels[truth]], "black_box": names[labels[box]]})
        for name, predicted in result.predictions.items():
            frame[name] = names[predicted[raw]]
            if lime in predicted:
                frame[f"{name}_lime"] = names[predicted[lime]]
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def write_run(result: PipelineResult, out_dir: Path) -> dict[str, Path]:
    """Write every artefact of a run into ``out_dir`` (which :func:`prepare_out_dir` made).

    A previous run's files there that this run does not write (a learner or a kind of
    black box it does not have) are removed once the new ones are in place. Every file is
    rendered before the first is written; a write that fails or is stopped (Ctrl-C,
    SIGTERM, ``--max-seconds``) removes this run's files and a previous run's, so the
    directory never holds files of two runs that read as one.

    The report is first extended with its detail sections
    (:func:`explain.report_details.add_details`) unless they are already there; report.md
    and report.html are rendered from it.

    Parameters
    ----------
    result : PipelineResult
        A finished run.
    out_dir : Path
        The run's directory.

    Returns
    -------
    dict
        Artefact name -> path.
    """
    out = Path(out_dir)
    if not all("rule_stats" in entry for entry in result.report["learners"].values()):
        add_details(result)
    texts: dict[str, tuple[str, str]] = {}  # artefact -> (file name, text)
    for name, learner in result.learners.items():
        texts[name] = ("imli.txt" if name == "imli" else "fold.pl", learner.artifact_text)
    if "fold" in result.learners:
        # the held-out rows, each Id its row in the table (predictions.csv's `row`), so
        # plain swipl's answers can be set beside the run's
        test = result.views["fold"]["test"]
        with one_table():
            facts = result.learners["fold"].estimator.facts(test, ids=test.index)
        texts["fold_facts"] = ("fold_facts.pl", facts)
    # every text quoted: a label holding a lone CR would otherwise end a line for readers
    texts["predictions"] = ("predictions.csv", predictions_frame(result).to_csv(
        index=False, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC))
    try:
        written = _write_files(result, out, texts)
    except OSError as err:  # a full disk, a directory made read-only meanwhile
        where = f" ({err.filename})" if err.filename else ""
        raise InputError(f"cannot write the run's files in --out {out}: "
                         f"{err.strerror or err}{where}; no run's files are left "
                         f"there") from None
    # A previous run's files that this run did not write (--force, other learners or
    # black box) would read as this run's.
    for name in RUN_FILES + BLACK_BOX_FILES:
        if out / name not in written.values():
            (out / name).unlink(missing_ok=True)
    return written


def _write_files(result: PipelineResult, out: Path, texts: dict) -> dict[str, Path]:
    """The black box, then ``texts`` and the reports, into ``out``; on failure none of the
    run files is left there."""
    with tempfile.TemporaryDirectory(dir=out, prefix=".black_box.") as tmp:
        saved = Path(result.black_box.save(Path(tmp)))
        files = {key: name for key, (name, _) in texts.items()}
        if saved.exists():
            files["black_box"] = saved.name
        reports = {"report_md": "report.md", "report_html": "report.html",
                   "report_json": "report.json"}
        result.report["files"] = dict(sorted({**files, **reports}.items()))
        texts["report_md"] = ("report.md", render_markdown(result.report))
        texts["report_html"] = ("report.html", render_html(result.report))
        texts["report_json"] = ("report.json", report_json_text(result.report))
        written: dict[str, Path] = {}
        try:
            if saved.exists():
                written["black_box"] = out / saved.name
                os.replace(saved, written["black_box"])
            for key, (name, text) in texts.items():  # report.json last
                atomic_write_text(out / name, text)
                written[key] = out / name
        except BaseException:
            for name in RUN_FILES + BLACK_BOX_FILES:
                (out / name).unlink(missing_ok=True)
            raise
    return written

