"""Datasets from a pandas DataFrame, a CSV file or a bundled scikit-learn table."""
from __future__ import annotations

import codecs
import csv
import io
import re
import stat
import warnings
from collections import Counter
from dataclasses import replace
from os import PathLike
from decimal import Decimal, InvalidOperation
from pathlib import Path

import numpy as np
import pandas as pd

from .columns import (MISSING_TOKENS, NUMERIC_SHARE, clean_features, composed,
                      leading_zeros, number_label, spaced_alike, spaced_note,
                      zero_padded)
from .dataset import Dataset
from .errors import InputError, counted, listing, quoted
from .target import encode_target, label_strings

BUNDLED = ("breast_cancer", "wine", "iris")
"""Names :func:`load_dataset` knows without a file (scikit-learn's copies)."""

_DEFAULT_POSITIVE = {"breast_cancer": "malignant"}
_DELIMITERS = (",", ";", "\t", "|")
_THOUSANDS_AND_COMMA = re.compile(r"[+-]?\d{1,3}(\.\d{3})+,\d*")
_DECIMAL_COMMA = re.compile(r"[+-]?(\d+,?\d*|,\d+)([eE][+-]?\d+)?\Z")
#: How many rows of a CSV file are looked at for numbers written with leading zeros.
ZERO_PADDED_ROWS = 10_000


def from_frame(df, target, positive=None, name="frame", *, binary=False, missing=(),
               drop=(), keep=()):
    """Clean a DataFrame into a :class:`Dataset`.

    Parameters
    ----------
    df : pandas.DataFrame
        Features and the target column; not modified.
    target : str
        Name of the target column.
    positive : str, int, float, bool or None, default=None
        The target value that counts as class 1, matched as a string (``1`` matches
        ``"1"``). With more than two classes the rest become class 0. ``None``: for a
        binary target the yes of labels that read as no/yes (0/1, -1/1, False/True,
        no/yes, n/y, negative/positive), else the minority class; a multi-class target
        stays multi-class (``y`` in ``0 .. k-1``, classes in sorted order).
    name : str, default="frame"
        Name of the dataset in reports.
    binary : bool, default=False
        Refuse a multi-class target when no ``positive`` is given.
    missing : sequence of str or float, default=()
        Feature values that mean "missing" (a sentinel such as ``-999``), matched as text
        in either Unicode form (``é`` as one character or as ``e`` and an accent) and, when
        they are numbers, as numbers (``-999`` matches ``-999.0``).
    drop : str or sequence of str, default=()
        Columns to leave out (an ID, a leak of the target), each noted.
    keep : str or sequence of str, default=()
        Columns to keep although the reading would drop them as useless features (a single
        value, no value, too many categories, an identifier), each noted: a model that
        reads them cannot be explained without them.

    Returns
    -------
    Dataset
        Columns typed and cleaned as described in :mod:`adapters.columns`; every change
        is listed in ``notes``.

    Raises
    ------
    InputError
        An empty table, duplicate column names, a missing target column, a target with one
        class (or too many for the mode), no usable feature column, or a column to drop or
        keep that is not a feature column of the table (or both).

    Examples
    --------
    >>> df = pd.DataFrame({"age": [30, 41, None, 25], "job": ["a", "b", "a", "b"],
    ...                    "ok": ["y", "n", "n", "n"]})
    >>> ds = from_frame(df, "ok")
    >>> ds.y.tolist(), ds.class_names, ds.categorical
    ([1, 0, 0, 0], ('n', 'y'), ('job',))
    """
    if not isinstance(df, pd.DataFrame):
        raise InputError(f"expected a pandas DataFrame, got {type(df).__name__}")
    if df.shape[0] == 0 or df.shape[1] == 0:
        raise InputError(f"the table is empty ({df.shape[0]} rows, {df.shape[1]} "
                         f"columns); give a table with a header and data rows")
    names = [str(c) for c in df.columns]
    _check_unique(names)
    _check_composed_unique(names)
    if target is None:
        raise InputError(f"choose the target column (target / --target); columns are "
                         f"{listing(names)}")
    target = _column_named(target, names)
    if target not in names:
        raise InputError(f"target column {quoted(target)} not found{_alike(target, names)}; "
                         f"columns are {listing(names)}")
    frame = df.set_axis(names, axis=1)
    y, class_names, labelled, notes, source_labels = encode_target(frame[target], target,
                                                               positive, binary)
    dropped = _named_columns(drop, names, target, "drop")
    kept = _named_columns(keep, names, target, "keep")
    if both := [c for c in kept if c in dropped]:
        raise InputError(f"cannot both drop and keep column {quoted(both[0])}")
    features = frame.drop(columns=[target, *dropped])
    notes += [f"dropped column {quoted(c)}, as asked" for c in dropped]
    if features.shape[1] == 0:
        but = f" once {listing(dropped)} {'is' if len(dropped) == 1 else 'are'} dropped" \
            if dropped else ""
        raise InputError(f"the table has no feature columns besides target "
                         f"{quoted(target)}{but}")
    # the index counts the input table's rows (0 ..), so a row keeps its number when rows
    # without a label are dropped
    features = features.set_axis(pd.RangeIndex(len(features)), axis=0).loc[labelled]
    features, missing_notes = _mark_missing(features, missing)
    X, categorical, feature_notes = clean_features(features, kept)
    notes = notes + missing_notes + feature_notes
    if X.shape[1] == 0:
        raise InputError(f"no usable feature column is left: {'; '.join(feature_notes)}")
    notes += _copies_of_target(X, y, class_names, len(source_labels))
    return Dataset(name=str(name), X=X, y=y, target=target, class_names=class_names,
                   categorical=categorical, notes=tuple(notes), source_labels=source_labels)


#: Rows, spread over the table, a column is first checked on for :func:`_copies_of_target`
#: (a wide table's other columns are passed over there, sorted by class or not).
_COPY_CHECK_ROWS = 1000


def _copies_of_target(X, y, class_names, n_labels) -> list[str]:
    """Notes on feature columns that tell the classes apart by their values alone, known
    on every row (at most as many values as the target has labels, each value on rows of
    one class): a copy of the target, or something known only with it, which would make
    the black box and the rules trivial."""
    notes = []
    sample = slice(None, None, max(1, len(y) // _COPY_CHECK_ROWS))
    for name in X.columns:
        column = X[name]
        if _pure(column.iloc[sample], y[sample], n_labels) and _pure(column, y, n_labels):
            value = column.iloc[0]
            shown = quoted(value if isinstance(value, str) else number_label(value))
            notes.append(f"column {quoted(name)} tells the classes apart on every row, each "
                         f"of its {column.nunique()} values on rows of one class (e.g. "
                         f"{shown} always with {quoted(class_names[y[0]])}): if it is the "
                         f"target in another form, or known only with it, drop it (--drop "
                         f"on the command line, drop= in Python)")
    return notes


def _pure(column, y, n_labels) -> bool:
    """Whether ``column`` is known on every row, with at most ``n_labels`` values, each
    on rows of a single class of ``y``."""
    codes, values = pd.factorize(column)
    if (codes < 0).any() or len(values) > n_labels:
        return False
    pairs = np.unique(codes.astype(np.int64) * (int(y.max()) + 1) + y)
    return len(pairs) == len(values)


def _named_columns(given, names, target, verb) -> list[str]:
    """The columns ``given`` (one name, or several) to ``verb`` (drop, keep), each a column
    of the table other than the target; an :class:`InputError` otherwise."""
    given = [given] if isinstance(given, str) else list(given)
    found = []
    for one in given:
        name = _column_named(one, names)
        if name not in names:
            raise InputError(f"cannot {verb} column {quoted(name)}: the table has no such "
                             f"column{_alike(name, names)}; columns are {listing(names)}")
        if name == target:
            raise InputError(f"cannot {verb} column {quoted(name)}: it is the target")
        found.append(name)
    return list(dict.fromkeys(found))


def _column_named(given, names) -> str:
    """The column of ``names`` that ``given`` names: as written, else without the spaces
    around it (a CSV reader strips them from the header), else as the same text in
    Unicode's composed form (NFC: ``é`` typed as one character or as ``e`` and an accent,
    as a file and a command line may each write it); ``str(given)`` when none does."""
    name = str(given)
    for candidate in (name, name.strip()):
        if candidate in names:
            return candidate
    form = composed(name.strip())
    return next((n for n in names if composed(n) == form), name)


def _check_composed_unique(names):
    """Raise :class:`InputError` naming column names that are the same text in different
    Unicode characters: they print alike, so no rule or note could tell them apart."""
    forms = [composed(n) for n in names]
    count = Counter(forms)
    same = [n for n, form in zip(names, forms) if count[form] > 1]
    if same:
        raise InputError(f"column names {', '.join(ascii(n) for n in same[:5])} (escaped, "
                         f"as they print alike) are the same text written with different "
                         f"Unicode characters (an accented letter as one character or as a "
                         f"letter and an accent); rename them")


def _alike(name, names) -> str:
    """`` (did you mean 'Churn'?)`` for the columns ``name`` matches but for case."""
    form = composed(name.strip()).casefold()
    alike = [n for n in names if composed(n).casefold() == form]
    return f" (did you mean {listing(alike)}?)" if alike else ""


def _mark_missing(features, missing):
    """``features`` with the values of ``missing`` made NaN: a note per column, and one
    for each value found nowhere (a typo would otherwise leave no trace)."""
    if isinstance(missing, str | bytes | int | float | bool):
        missing = [missing]  # one value, not its characters
    texts = list(dict.fromkeys(str(v).strip() for v in missing))
    if not texts:
        return features, []
    numbers = pd.to_numeric(pd.Series(texts, dtype=object), errors="coerce")
    features, notes, found = features.copy(), [], set()
    for name in features.columns:
        column = features[name]
        numeric = (pd.api.types.is_numeric_dtype(column.dtype)
                   and not pd.api.types.is_bool_dtype(column.dtype))
        if not numeric:
            text = column.astype(object).where(column.notna()).map(
                lambda v: str(v).strip(), na_action="ignore")
            parsed = pd.to_numeric(text, errors="coerce")
            forms = text.map(composed, na_action="ignore")
        hit = np.zeros(len(column), dtype=bool)
        for given, number in zip(texts, numbers):
            is_number = not np.isnan(number)
            if numeric and not is_number:
                continue  # a word cannot be a number column's value
            these = column.eq(number) if numeric else (  # as written in any Unicode form
                forms.eq(composed(given)) | (parsed.eq(number) if is_number else False))
            these = these.fillna(False).to_numpy(dtype=bool)
            if these.any():
                found.add(given)
                hit |= these
        if hit.any():
            values = pd.unique(column[hit])[:3]
            shown = ", ".join(quoted(number_label(v) if numeric else str(v))
                              for v in values)
            features[name] = column.astype(object).mask(hit) if column.dtype == bool \
                else column.mask(hit)
            notes.append(f"column {quoted(name)}: {counted(int(hit.sum()), 'value')} "
                         f"{shown} read as missing, as asked")
    unused = [t for t in texts if t not in found]
    if unused:
        notes.append(f"no feature value is {listing(unused)}, given as missing")
    return features, notes


def load_dataset(source, target=None, positive=None, *, binary=False, missing=(), drop=(),
                 keep=()):
    """Load a bundled dataset by name, or a CSV file.

    Parameters
    ----------
    source : str or path-like
        One of :data:`BUNDLED` — ``breast_cancer`` (scikit-learn's Wisconsin diagnostic
        breast cancer data, positive class ``malignant``), ``wine``, ``iris`` — or the path
        of a CSV file (comma, semicolon, tab or ``|`` separated, with a header row; UTF-8,
        bytes that are not UTF-8 read as Windows-1252, with a note).
    target : str, optional
        The target column; required for a CSV. A bundled dataset's target is ``"target"``
        (leave it unset).
    positive : str, int or None, default=None
        The class that counts as 1 (see :func:`from_frame`). For a bundled dataset it
        may also be a class index (``0``, ``"2"``) and the others become class 0.
    binary : bool, default=False
        Refuse a multi-class target when no ``positive`` is given.
    missing : sequence of str or float, default=()
        Feature values that mean "missing" (see :func:`from_frame`).
    drop : str or sequence of str, default=()
        Columns to leave out (see :func:`from_frame`).
    keep : str or sequence of str, default=()
        Columns to keep although the reading would drop them (see :func:`from_frame`).

    Returns
    -------
    Dataset
        The cleaned features, the labels ``0 .. k-1`` with their class names, and notes
        on what the reading did to the data.

    Raises
    ------
    InputError
        An unknown name or missing file, a CSV that does not parse, and everything
        :func:`from_frame` refuses.

    Examples
    --------
    >>> ds = load_dataset("breast_cancer")
    >>> ds.X.shape, ds.class_names
    ((569, 30), ('benign', 'malignant'))
    """
    if not isinstance(source, (str, PathLike)):
        fix = (": read a DataFrame with from_frame(df, target)"
               if isinstance(source, pd.DataFrame) else "")
        got = f"a {type(source).__name__}" if isinstance(source, pd.DataFrame) else repr(source)
        raise InputError(f"load_dataset takes a bundled dataset's name ({', '.join(BUNDLED)}) "
                         f"or a CSV file's path, got {got}{fix}")
    if isinstance(source, str) and source in BUNDLED:
        if Path(source).is_file():
            raise InputError(f"{quoted(source)} names both a bundled dataset and a file here; "
                             f"give ./{source} for the file, or run elsewhere for the "
                             "bundled dataset")
        return _load_bundled(source, target, positive, binary, missing, drop, keep)
    path = Path(source)
    if path.is_dir():
        raise InputError(f"{quoted(str(source))} is a directory; give the path of a CSV file")
    if not path.exists():
        hint = "" if path.suffix else f", or a bundled dataset: {', '.join(BUNDLED)}"
        raise InputError(f"no such file: {quoted(str(source))}; give a CSV path{hint}")
    mode = path.stat().st_mode
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):  # a pipe: `--data <(zcat x.gz)`
        raise InputError(f"{quoted(str(source))} is not a file but a device or socket; "
                         f"give the path of a CSV file")
    frame, notes = read_csv(path, target)
    try:
        dataset = from_frame(frame, target, positive, name=_text(path.stem), binary=binary,
                             missing=missing, drop=drop, keep=keep)
    except InputError as err:
        # what the reading did to the labels may be why the target is refused (two labels
        # written with and without spaces before them are one class)
        name = quoted(str(target).strip())
        said = [n for n in notes if n.startswith(f"target {name}:")]
        if target is not None and said and str(err).startswith(f"target column {name}"):
            raise InputError(f"{err} ({'; '.join(said)})") from None
        raise
    return _with_notes(dataset, [_text(note) for note in notes])


def _text(name: str) -> str:
    """``name`` with the bytes of a file name that are not UTF-8 (which Python reads as
    surrogate escapes, and no report can write) as U+FFFD."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


#: What a binary file that starts with these bytes is, and what to give instead.
_PACKED = {
    b"\x1f\x8b": "it is gzip-compressed: decompress it, e.g. --data <(zcat FILE)",
    b"\xfd7zXZ\x00": "it is xz-compressed: decompress it, e.g. --data <(xzcat FILE)",
    b"BZh": "it is bzip2-compressed: decompress it, e.g. --data <(bzcat FILE)",
    b"PK\x03\x04": "it is a ZIP archive, as an Excel workbook is: extract the CSV, or "
                   "save the sheet as CSV",
}


def read_csv(path, target=None):
    """Read a CSV file into a DataFrame of raw values.

    Parameters
    ----------
    path : path-like
    target : str, optional
        The target column, which the notes on feature values leave out.

    Returns
    -------
    frame : pandas.DataFrame
    notes : list of str
        How the file was read when it was not plain UTF-8 with commas.

    Raises
    ------
    InputError
        A binary or empty file, duplicate column names, or text that does not parse.
    """
    path = Path(path)
    raw = path.read_bytes()
    notes = []
    if raw[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):  # spreadsheets' "Unicode text"
        try:
            raw = raw.decode("utf-16").encode("utf-8")
            notes.append(f"read {path.name} as UTF-16")
        except UnicodeDecodeError:
            pass
    if b"\x00" in raw[:65536]:
        packed = next((hint for magic, hint in _PACKED.items() if raw.startswith(magic)),
                      "it holds binary data")
        raise InputError(f"{quoted(str(path))} is not a text CSV file ({packed}); give a "
                         f"comma-separated text file with a header row")
    text, note = _decode(raw, path.name)
    del raw  # a large file need not be held twice while it is parsed
    if note:
        notes.append(note)
    if not text or text.isspace():  # as strip() says, without its copy of the text
        raise InputError(f"{quoted(str(path))} is empty; give a CSV file with a header "
                         f"row and data rows")
    # Old Mac files end lines with a lone CR, which the csv module refuses; in a file of
    # LF or CRLF lines, a lone CR is a quoted field's own character and stays.
    text = text.replace("\r\n", "\n")
    if _first_line_end(text.lstrip(" \t\r\n")) == "\r":
        text = text.replace("\r", "\n")
    header_line = len(text) - len(text.lstrip(" \t\n"))
    blank = text[:header_line].count("\n")  # line numbers in messages count these too
    if header_line:
        text = text[header_line:]
        if blank:
            notes.append(f"skipped {blank} blank line(s) before {path.name}'s header")
    declared = _SEP_LINE.match(text)
    if declared:  # Excel's "sep=;" line: the file's delimiter, then the header
        text = text[declared.end():]
        blank += 1
        notes.append(f"read the delimiter {declared[1]!r} from {path.name}'s first line "
                     f"({declared[0].strip()!r})")
    delimiter, names = _sniff_header(text, declared[1] if declared else None)
    # A semicolon separates fields where the comma is the decimal mark (spreadsheets in
    # much of Europe); numbers with a decimal point still parse (adapters.columns).
    decimal = "," if delimiter == ";" else "."
    if delimiter != ",":
        comma = " (a decimal comma reads as a decimal point)" if decimal == "," else ""
        notes.append(f"read {path.name} with delimiter {delimiter!r}{comma}")
    _check_unique([n for n in names if n.strip()])
    stripped = [n.strip() for n in names if n.strip()]
    if len(set(stripped)) < len(stripped):
        same = [n for n in names if n.strip() and stripped.count(n.strip()) > 1]
        raise InputError(f"column names {listing(same)} are the same once the spaces around "
                         f"them are removed (as names are read); rename them")
    spaced = [n for n in names if n.strip() and n != n.strip()]
    if spaced:
        notes.append(f"removed the spaces around column names {listing(spaced, 5)}")
    try:
        extra = _extra_empty_fields(text, delimiter, len(names), path, blank)
    except InputError as err:
        if text.startswith("#"):  # a comment line, taken for the header
            raise InputError(f"{err}; its first line, read as the header, starts with "
                             f"'#': remove the comment lines above the header") from None
        raise
    if extra:
        notes.append(f"ignored the empty fields after the header's {len(names)} fields on "
                     f"{extra} data row(s) of {path.name}")
    try:
        # Missing-value words are left to adapters.columns, which notes them; no index
        # column is inferred, so a delimiter ending every data row shifts no column, and
        # only the header's columns are read (the extra fields were checked to be empty).
        frame = pd.read_csv(_buffer(text), sep=delimiter, skipinitialspace=True,
                            low_memory=False, index_col=False, keep_default_na=False,
                            na_values=[""], decimal=decimal,
                            usecols=range(len(names)) if extra else None)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as err:
        reason = re.sub(r"\bline (\d+)", lambda m: f"line {int(m[1]) + blank}",
                        " ".join(str(err).split()))
        raise _unparsable(path, reason) from None
    columns = [str(c).strip() for c in frame.columns]
    for i, column in enumerate(columns):
        if not column:  # a quoted blank (" "): named as pandas names an empty field
            columns[i] = f"Unnamed: {i}"
            while columns.count(columns[i]) > 1:
                columns[i] += "_"
    frame.columns = columns
    if decimal == ",":
        _read_decimal_commas(frame)
    notes += _leading_spaces(text, delimiter, frame, target)
    notes += _exact_target(text, delimiter, frame, target)  # first: it may keep the text
    notes += _zero_padded(text, delimiter, frame, target)
    _keep_blank_cells(text, delimiter, frame, target)  # last: numbers may become objects
    unnamed = [f"{i + 1} ({quoted(frame.columns[i])})" for i, n in enumerate(names)
               if not n.strip() and i < len(frame.columns)]
    if unnamed:
        notes.append(f"header fields {', '.join(unnamed)} of {path.name} are empty: "
                     f"named as pandas names them")
    return frame, notes


def _read_decimal_commas(frame) -> None:
    """Write the decimal commas of text columns as points where pandas left them (it reads
    ``0,5`` as 0.5 only in a column holding nothing but numbers, not one that also holds a
    missing-value word such as ``?``), so that such a column reads as numbers
    (:mod:`adapters.columns`) when at least :data:`NUMERIC_SHARE` of its values are."""
    for name in frame.columns:
        if not (pd.api.types.is_object_dtype(frame[name])
                or pd.api.types.is_string_dtype(frame[name])):
            continue
        text = frame[name].dropna().astype(str).str.strip()
        text = text[~text.str.lower().isin(MISSING_TOKENS)]
        if text.str.fullmatch(_THOUSANDS_AND_COMMA).any():
            continue  # '1.234,5': thousands separators, which stay text (with a note)
        numbers = text.str.match(_DECIMAL_COMMA)
        if len(text) and text.str.contains(",").any() and numbers.mean() >= NUMERIC_SHARE:
            commas = numbers[numbers].index
            frame.loc[commas, name] = text[commas].str.replace(",", ".", regex=False)


def _buffer(text: str) -> io.BytesIO:
    """``text`` as UTF-8 bytes for ``pd.read_csv``: a ``StringIO`` of the text holds four
    bytes a character (3 GB for a 750 MB file), and the parser encodes it to UTF-8
    anyway."""
    return io.BytesIO(text.encode("utf-8", "surrogatepass"))


def _lines(text: str):
    """The lines of ``text``, each with its ``"\\n"``, one at a time (as a
    ``StringIO`` of it gives them, without its copy of the whole text), for
    ``csv.reader``."""
    start = 0
    while start < len(text):
        end = text.find("\n", start) + 1 or len(text)
        yield text[start:end]
        start = end


def _first_line_end(text: str) -> str | None:
    """The character ending the first line (``"\\r"`` or ``"\\n"``), read as CSV reads
    it: a line break inside a double-quoted field does not end the line."""
    quoted_field = False
    for char in text[:1_000_000]:  # a header longer than that: read as LF lines
        if char == '"':
            quoted_field = not quoted_field
        elif char in "\r\n" and not quoted_field:
            return char
    return None


def _keep_blank_cells(text, delimiter, frame, target) -> None:
    """Put back the feature cells written as spaces alone (``" "``), which the reader
    made empty, so that :mod:`adapters.columns` counts them in its note on values read
    as missing (Telco's ``TotalCharges`` holds 11 such cells; empty cells go without
    saying). When a row splits into more fields without the reader's removal of spaces
    (a quoted field after a space), or holds empty fields past the header's, nothing is
    put back."""
    sep = re.escape(delimiter)
    spaces = " " if delimiter == "\t" else " \t"  # a tab file's empty fields are not blank
    # a file without a space has no blank cell: looking for one character first spares
    # the pattern's scan (4.6 s on 190 MB of numbers)
    if not any(space in text for space in spaces):
        return
    if not re.search(rf"(?:^|{sep})[{spaces}]+(?:{sep}|$)", text, re.M):
        return
    name = None if target is None else str(target).strip()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a row of more fields: its columns shift
            written = pd.read_csv(_buffer(text), sep=delimiter, index_col=False,
                                  dtype=str, keep_default_na=False, na_filter=False)
    except (pd.errors.ParserError, pd.errors.ParserWarning, ValueError):
        return
    if written.shape != frame.shape:
        return
    for k, column in enumerate(frame.columns):
        if column == name:
            continue
        missing = np.flatnonzero(frame[column].isna().to_numpy())
        cells = written.iloc[missing, k].to_numpy(dtype=object)
        blank = missing[[bool(c) and not c.strip() for c in cells]]
        if len(blank):
            values = frame[column].astype(object)
            values.iloc[blank] = written.iloc[blank, k].to_numpy(dtype=object)
            frame[column] = values


def _leading_spaces(text, delimiter, frame, target) -> list[str]:
    """Notes on text columns where a value is written both with and without spaces
    before it (``' a'``, ``'a'``) outside quotes: the reader drops such spaces (``a, b``
    files), so the values become one before :func:`adapters.columns.spaced_alike` sees
    them. Numbers and missing-value words are left out (spaces never part them)."""
    lead = re.compile(rf"(?:^|{re.escape(delimiter)})[ \t]+[^\s{re.escape(delimiter)}]", re.M)
    text_columns = [i for i, dtype in enumerate(frame.dtypes)
                    if not pd.api.types.is_numeric_dtype(dtype)]
    if not text_columns or not lead.search(text):
        return []
    # rows a quoted field after spaces splits differently are skipped: they are the rows
    # whose spaces the reader keeps apart anyway (inside the quotes)
    try:
        written = pd.read_csv(_buffer(text), sep=delimiter, index_col=False, dtype=str,
                              keep_default_na=False, na_filter=False, on_bad_lines="skip",
                              usecols=text_columns)
    except (pd.errors.ParserError, ValueError):
        return []  # the table as read stands; only this note is lost
    name = None if target is None else str(target).strip()
    notes = []
    for k, column in enumerate(frame.columns[text_columns]):
        if spaced_alike(frame[column]) is not None:
            continue  # the columns' own check sees these spaces, and notes them
        values = pd.Series(pd.unique(written.iloc[:, k]))
        stripped = values.str.strip()
        spaced = values.str.match(r"\s") & ~stripped.str.lower().isin(MISSING_TOKENS)
        spaced &= pd.to_numeric(stripped.str.replace(",", ".", regex=False),
                                errors="coerce").isna()
        plain = set(values[~values.str.match(r"\s")].str.strip())
        alike = [v for v, s in zip(values[spaced], stripped[spaced]) if s in plain]
        if alike:
            pair = f"{quoted(alike[0])}, {quoted(alike[0].strip())}"
            notes.append(spaced_note(column, pair, target=column == name))
    return notes


def _zero_padded(text, delimiter, frame, target) -> list[str]:
    """Notes on numeric feature columns written with leading zeros in the first
    :data:`ZERO_PADDED_ROWS` rows (pandas reads ``00501`` as 501 without a word)."""
    # a value written with leading zeros reads as a whole number, not below 0: only
    # columns holding one are read again (a table of measurements has none)
    head = frame.iloc[:ZERO_PADDED_ROWS]
    numeric = [i for i, dtype in enumerate(frame.dtypes)
               if pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)
               and _whole_not_negative(head.iloc[:, i])]
    if not numeric:
        return []
    written = pd.read_csv(_buffer(text), sep=delimiter, skipinitialspace=True,
                          index_col=False, keep_default_na=False, na_values=[""], dtype=str,
                          usecols=numeric, nrows=ZERO_PADDED_ROWS)
    notes = []
    for k, name in enumerate(frame.columns[numeric]):
        values = pd.unique(written.iloc[:, k].dropna())  # the first written so stays first
        if target is None or name != str(target).strip():
            notes += leading_zeros(name, values)
        elif (first := zero_padded(values)) is not None:
            notes.append(f"target {quoted(name)}: labels written with leading zeros are read "
                         f"as numbers ({quoted(first)} is the class "
                         f"{quoted(f'{float(first):g}')})")
    return notes


def _whole_not_negative(column) -> bool:
    """Whether a numeric column holds a whole number not below 0."""
    values = column.to_numpy(dtype=float, na_value=np.nan)
    return bool(np.any((values >= 0) & (values == np.floor(values))))


def _exact_target(text, delimiter, frame, target) -> list[str]:
    """A note, and the target column as written, when numbers would take distinct labels
    for one: 64-bit floats (``1e-400`` and ``0``; ``1e400`` and ``1e401``, both infinite),
    or one number written with and without leading zeros (``01`` and ``1``: codes). A
    target of booleans keeps its spelling (``TRUE``) when each value is written one way."""
    name = None if target is None else str(target).strip()
    dtype = frame[name].dtype if name in frame.columns else None
    boolean = dtype is not None and pd.api.types.infer_dtype(frame[name]) == "boolean"
    if not (pd.api.types.is_numeric_dtype(dtype) or boolean):
        return []
    # by position: the header's own text may differ from the (stripped) column name
    written = pd.read_csv(_buffer(text), sep=delimiter, skipinitialspace=True,
                          index_col=False, keep_default_na=False, na_values=[""], dtype=str,
                          usecols=[list(frame.columns).index(name)]).iloc[:, 0]
    if boolean:  # bool, or objects with missing labels
        # R writes TRUE and FALSE: labels keep their spelling when each value has one
        spellings = pd.unique(written.dropna().str.strip())
        if len(spellings) == frame[name].nunique():
            frame[name] = written
            return []
        groups = {}
        for label in spellings:
            groups.setdefault(label.lower(), []).append(label)
        merged = [f"{listing(labels, 3)} as {quoted(labels[0].lower().capitalize())}"
                  for labels in groups.values() if len(labels) > 1]
        if not merged:
            return []
        return [f"target {quoted(name)}: labels spelled apart are one class: "
                f"{'; '.join(merged)} (the reader takes each spelling of true and false "
                f"for the same value)"]
    numbers, spellings = {}, {}
    for label in pd.unique(written.dropna().str.strip()):
        try:  # a semicolon file's decimal comma (1,0) reads as a point, as pandas read it
            number = Decimal(label.replace(",", ".") if delimiter == ";" else label)
        except InvalidOperation:
            return []  # a word pandas reads as a number ("inf"): nothing exact to keep
        numbers.setdefault(float(number), {}).setdefault(number, label)
        spellings.setdefault(number, []).append(label)
    merged = next((exact for exact in numbers.values() if len(exact) > 1), None)
    padded = next((labels for labels in spellings.values()
                   if len(labels) > 1 and zero_padded(labels) is not None), None)
    if merged is None and padded is None:
        return _respelled_labels(name, written, frame[name], comma=delimiter == ";")
    frame[name] = written
    if merged is None:
        return [f"target {quoted(name)}: {listing(padded, 2)} are one number written with "
                f"and without leading zeros: read as written (codes), as distinct classes"]
    return [f"target {quoted(name)}: labels a 64-bit float cannot tell apart (e.g. "
            f"{', '.join(quoted(merged[v]) for v in sorted(merged)[:2])}) are read as "
            "written"]


def _respelled_labels(name, written, read, comma=False) -> list[str]:
    """A note when target labels read as numbers are shown otherwise than ``written``
    (``1e3`` as ``1000``, ``1.0`` as ``1``; with a decimal ``comma``, ``1,0`` as ``1`` but
    not ``0,5`` as ``0.5``, told by the file's note), as
    :func:`adapters.target.label_strings` shows them."""
    pairs = pd.DataFrame({"written": written.str.strip(), "read": read}).dropna()
    pairs = pairs.drop_duplicates("written")
    shown = label_strings(pairs["read"])
    changed = [f"{quoted(w)} as {quoted(s)}" for w, s in zip(pairs["written"], shown)
               if (w.replace(",", ".") if comma else w) != s]
    if not changed:
        return []
    return [f"target {quoted(name)}: labels are numbers, shown in their plain form "
            f"({', '.join(changed[:3])}{', ...' if len(changed) > 3 else ''})"]


def _decode(raw, name):
    """The text of a file's bytes, and a note when they are not all UTF-8.

    Bytes that are not UTF-8 are read as Windows-1252 (Latin-1 where it has no character):
    a spreadsheet's "CSV" in Western Europe, whose € is 0x80, and a UTF-8 file with a few
    such bytes pasted in keep their other characters.
    """
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as err:
        first = raw[:err.start].count(b"\n") + 1
    text = raw.decode("utf-8-sig", errors=_CP1252_ERRORS)
    valid = raw.decode("utf-8-sig", errors="ignore")
    if valid.isascii():
        return text, f"read {name} as Windows-1252 (it is not valid UTF-8)"
    n_bad = len(raw) - len(valid.encode("utf-8-sig" if raw.startswith(codecs.BOM_UTF8)
                                        else "utf-8"))
    return text, (f"read {name} as UTF-8 but for {n_bad} byte(s) that are not UTF-8 "
                  f"(the first on line {first}), read as Windows-1252")


def _cp1252_bytes(err):
    return "".join(_CP1252[b] for b in err.object[err.start:err.end]), err.end


_CP1252 = [bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in range(256)]
_CP1252_ERRORS = "surrogate_rules.cp1252"
codecs.register_error(_CP1252_ERRORS, _cp1252_bytes)


def _unparsable(path, reason):
    return InputError(f"could not parse {quoted(str(path))} as CSV ({reason}); check the "
                      f"delimiter, quoting and that every row has the header's number of "
                      f"fields")


def _extra_empty_fields(text, delimiter, n_fields, path, skipped=0) -> int:
    """How many data rows have more fields than the header, all of them empty.

    Raises :class:`InputError` when an extra field holds a value (pandas would drop it) or
    a row has fewer fields than the header (its values would land in other columns),
    naming its line in the file (``skipped`` lines came before ``text``).
    """
    def extra_fields(row, line) -> bool:
        values_beyond = len(row) > n_fields and any(f.strip() for f in row[n_fields:])
        # too few: pandas would fill the last fields, shifting no value back into place
        too_few = 0 < len(row) < n_fields and any(f.strip() for f in row)
        if values_beyond or too_few:
            raise _unparsable(path, f"line {line + skipped} has {len(row)} fields, the "
                                    f"header {n_fields}")
        return len(row) > n_fields

    extra = 0
    try:
        if any(c in text for c in '"\r\0'):
            rows = csv.reader(_lines(text), delimiter=delimiter, skipinitialspace=True)
            next(rows, None)
            for row in rows:
                extra += extra_fields(row, rows.line_num)
            return extra
        # Without quotes each line is a row, and a line holding the header's number of
        # delimiters has its number of fields: only the others are split (a table of
        # 200,000 rows in 0.2 s rather than 5 s).
        for number, line in enumerate(_lines(text), 1):
            if number > 1 and line.count(delimiter) != n_fields - 1:
                row = next(csv.reader([line], delimiter=delimiter, skipinitialspace=True), [])
                extra += extra_fields(row, number)
    except csv.Error:
        return 0  # pandas reports the quoting problem
    return extra


def _check_unique(names):
    """Raise :class:`InputError` naming the duplicated column names."""
    seen, duplicated = set(), []
    for n in names:
        if n in seen and n not in duplicated:
            duplicated.append(n)
        seen.add(n)
    if duplicated:
        raise InputError(f"duplicate column names: {listing(duplicated)}; rename them so "
                         f"every column has its own name")


def _load_bundled(name, target, positive, binary, missing=(), drop=(), keep=()):
    """One of scikit-learn's bundled tables, target values as class-name strings."""
    from sklearn import datasets as sk

    loader = {"breast_cancer": sk.load_breast_cancer, "wine": sk.load_wine,
              "iris": sk.load_iris}[name]
    bunch = loader(as_frame=True)
    class_names = [str(c) for c in bunch.target_names]
    if target is not None and str(target) != "target":
        raise InputError(f"bundled dataset {quoted(name)} has target 'target'; leave "
                         f"target unset")
    notes = [f"bundled scikit-learn dataset {quoted(name)}"]
    if positive is None and name in _DEFAULT_POSITIVE:
        positive = _DEFAULT_POSITIVE[name]
        notes.append(f"{quoted(positive)} is the bundled dataset's default positive class")
    elif str(positive).strip().isdigit() and str(positive).strip() not in class_names:
        index = int(str(positive).strip())
        if index >= len(class_names):
            raise InputError(f"positive class index {index} is out of range for "
                             f"{quoted(name)}; use one of {listing(class_names)} or an "
                             f"index 0..{len(class_names) - 1}")
        positive = class_names[index]
    frame = bunch.frame.copy()
    frame["target"] = np.asarray(class_names, dtype=object)[bunch.target.to_numpy()]
    dataset = from_frame(frame, "target", positive, name=name, binary=binary, missing=missing,
                         drop=drop, keep=keep)
    # scikit-learn numbers the classes in target_names' order, not in sorted order
    codes = dict(dataset.source_labels)
    dataset = replace(dataset, source_labels=tuple((c, codes[c]) for c in class_names))
    return _with_notes(dataset, notes)


def _with_notes(dataset, notes):
    """``dataset`` with ``notes`` put before its own."""
    return replace(dataset, notes=tuple(notes) + dataset.notes) if notes else dataset


#: Excel's first line naming the delimiter: ``sep=;``.
_SEP_LINE = re.compile(r"(?i)sep=([,;\t|])[ \t]*\n")


def _sniff_header(text: str, declared: str | None = None) -> tuple[str, list[str]]:
    """The delimiter that splits the header record into the most fields (or the
    ``declared`` one), and those fields.

    The header is read as a CSV record (quotes respected, so a delimiter or a newline
    inside a quoted name does not count); ties go to the comma.
    """
    best, fields = ",", []
    for delimiter in (declared,) if declared else _DELIMITERS:
        try:
            row = next(csv.reader(_lines(text), delimiter=delimiter))
        except (csv.Error, StopIteration):
            continue
        if len(row) > len(fields) or (len(row) == len(fields) and delimiter == ","):
            best, fields = delimiter, row
    return best, fields
