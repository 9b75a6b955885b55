"""Feature columns: telling numeric from categorical, and cleaning each one.

The rules, applied column by column (each change is reported as a note):

* a bool column is categorical (``"True"`` / ``"False"``); a pandas ``category`` column is
  categorical; any other numeric dtype is numeric;
* text (object / string) values are stripped; ``""``, ``"?"``, ``"NA"``, ``"N/A"``,
  ``"NaN"``, ``"null"``, ``"None"`` (any case) and pandas' other missing-value words
  (``"#N/A"``, ``"<NA>"``, ...) are missing, noted with a count when a column held such a
  word;
* a text column whose values are numbers written with thousands separators, a decimal
  comma, ``%``, a currency sign or one unit after them (``70 kg``) stays categorical,
  with a note saying so; so does one holding dates or times (``2021-01-27``,
  ``27/01/2021 10:30``, ``Jan 27, 2021``, ``27-Jan-21``, ``10:30``, or a datetime dtype);
* a text column whose non-missing values all parse as numbers is numeric; one where at
  least :data:`NUMERIC_SHARE` of them do is numeric too, the other values becoming missing
  (noted with examples); otherwise it is categorical and keeps its strings (noted when
  most of them are numbers, and when one number is written in several ways: ``1``,
  ``1.0``);
* numbers written as text whose '.' looks like a thousands separator (``1.381`` beside
  ``950``) are read with '.' as the decimal point, with a note;
* integers that a 64-bit float cannot tell apart (beyond 2**53, such as card numbers) make
  their column categorical, with a note;
* a duration (timedelta) column is numeric, in seconds;
* infinite values are treated as missing (noted with a count);
* a cell holding several values (a list, tuple, set, dict or array) is refused;
* a column with no values, or a single distinct value, is dropped;
* a categorical column with more than :data:`MAX_CATEGORIES` distinct values, or with a
  different value in every row (more than :data:`ID_MIN_DISTINCT` of them), is dropped as an
  identifier or free text (a rule on such a value would name one row);
* a numeric column holding a different whole number on every row, in increasing or
  decreasing order, is kept but noted as a possible row ID;
* a numeric column of whole numbers that all read as dates written YYYYMMDD
  (``20210129``) is kept as numbers, with a note;
* a numeric column without a header name (pandas' ``Unnamed: N``) holding consecutive
  integers is dropped as a saved row index.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Collection
from decimal import Decimal, InvalidOperation

import numpy as np
import pandas as pd

from .errors import InputError, counted, listing, quoted

MISSING_TOKENS = frozenset({"", "?", "na", "n/a", "nan", "null", "none", "#n/a", "#n/a n/a",
                            "#na", "<na>", "-nan", "-1.#ind", "-1.#qnan", "1.#ind",
                            "1.#qnan"})
_NUMBER_DRESSING = re.compile(r"[\s,%$€£¥]")
_WITH_UNIT = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)\s*([^\W\d_]+)\Z")
NUMERIC_SHARE = 0.9
MAX_CATEGORIES = 100
ID_MIN_DISTINCT = 10
_UNNAMED = re.compile(r"(Unnamed: \d+)?\Z")
#: 2**53: beyond it, a 64-bit float does not hold every integer.
_EXACT = 2 ** 53
#: From 1e16 on, ``repr`` writes a float in exponent form (``1e+16``); below, a whole
#: float prints as its integer's digits and ``.0``.
EXPONENT_FORM = 1e16
_INTEGER = re.compile(r"\s*[+-]?\d+\s*\Z")
_THOUSANDS = re.compile(r"[+-]?\d{1,3}(\.\d{3})+\Z")
_LEADING_ZERO = re.compile(r"\s*0\d+\s*\Z")
_TIME = r"\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(\s?[ap]\.?m\.?)?(\s?(Z|UTC|GMT|[+-]\d{2}:?\d{2}))?"
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
#: Dates and times as people and programs write them: ISO (``2021-01-27``, ``2021-01``,
#: ``2021-01-27T10:30:00Z``), with slashes or dots (``27/01/2021 10:30``), with a month's
#: name (``Jan 27, 2021``, ``27 Jan 2021``, ``27-Jan-21``, ``Wed, 27 Jan 2021 10:30:00``),
#: and a time of day alone (``10:30``, ``3:05 PM``).
_DATE = re.compile(
    rf"(?i)((mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?"
    rf"(\d{{4}}-\d{{1,2}}-\d{{1,2}}|\d{{4}}-(0?[1-9]|1[0-2])|\d{{1,2}}[/.]\d{{1,2}}[/.]\d{{2,4}}"
    rf"|{_MONTH}\s+\d{{1,2}}(st|nd|rd|th)?,?\s+\d{{4}}|\d{{1,2}}[\s-]{_MONTH}[\s,-]+(\d{{4}}|\d{{2}}))"
    rf"(,?[ T]{_TIME})?\Z|{_TIME}\Z")


def number_label(value):
    """``"1"`` for 1.0, ``"0.5"`` for 0.5; a float32 or float16 by its own shortest
    decimal (``"0.1"``, not ``"0.10000000149011612"``); an integer exactly. A whole float
    is its integer's digits up to :data:`EXPONENT_FORM` (``"9007199254740994"``, also
    beyond 2**53: the float is exactly that integer), from there on its shortest decimal
    as ``repr`` writes it: ``"1e+308"``, not the 309 digits of the float nearest 10**308.

    >>> number_label(2.0), number_label(2.0**53 + 2), number_label(1e308)
    ('2', '9007199254740994', '1e+308')
    """
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, np.floating) and value.itemsize < 8:
        value = str(value)
    value = float(value)
    return str(int(value)) if value.is_integer() and abs(value) < EXPONENT_FORM else repr(value)


def objects(series):
    """Values of ``series`` as an object array of its own values, NaN where missing.

    Unlike ``to_numpy(dtype=object, na_value=nan)``, which makes a ``category`` column's
    integers floats when one is missing (``1.0``; ``2**60 + 1`` as ``2**60``).

    Parameters
    ----------
    series : pandas.Series
        Any dtype.

    Returns
    -------
    numpy.ndarray of object

    Raises
    ------
    InputError
        A cell holds several values (a list, tuple, set, dict or array).

    Examples
    --------
    >>> objects(pd.Series([1, None, 3], dtype=object).astype("category")).tolist()
    [1, nan, 3]
    """
    values = series.astype(object).to_numpy(dtype=object, copy=True)
    values[pd.isna(values)] = np.nan
    cells = (values if series.dtype == object else series.cat.categories
             if isinstance(series.dtype, pd.CategoricalDtype) else ())
    several = next((v for v in cells
                    if isinstance(v, Collection) and not isinstance(v, (str, bytes))), None)
    if several is not None:
        shown = repr(several)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise InputError(f"column {quoted(series.name)} has a cell holding several values "
                         f"({shown}, a {type(several).__name__}); give each cell a single "
                         f"number or word")
    return values


def as_strings(series):
    """Values of ``series`` as stripped Python ``str``, NaN where missing.

    Parameters
    ----------
    series : pandas.Series
        Any dtype.

    Returns
    -------
    numpy.ndarray of object
        ``str`` values; NaN for missing values and for :data:`MISSING_TOKENS`.

    Raises
    ------
    InputError
        As :func:`objects`.

    Examples
    --------
    >>> as_strings(pd.Series([" a", None, "?", 3])).tolist()
    ['a', nan, nan, '3']
    """
    values = objects(series)
    present = ~pd.isna(values)

    def clean(v):
        text = str(v).strip()
        return np.nan if text.lower() in MISSING_TOKENS else text

    # once per distinct value when all are text (1, 1.0 and True are one to a hash table)
    strings = pd.api.types.infer_dtype(values[present], skipna=False) == "string"
    values[present] = (_each(clean, values[present]) if strings
                       else np.array([clean(v) for v in values[present]], dtype=object))
    return values


def composed(text: str) -> str:
    """``text`` in Unicode's composed form (NFC): ``"é"`` typed as one character or as
    ``"e"`` and a combining accent is the same string.

    >>> composed("e\u0301") == "\u00e9"
    True
    """
    return unicodedata.normalize("NFC", text)


def written_alike(text: str, start: str, length: int) -> bool:
    """Whether ``text``, in some Unicode form (composed, decomposed or mixed: ``ệ`` as one
    character, or as ``ê`` and a dot below), may be ``length`` characters that begin with
    ``start``, as XGBoost stores a category cut short (the first ``length`` bytes of its
    UTF-8). Texts are the same when their composed forms are (:func:`composed`); the
    last letter of ``start`` may lack accents that come after the cut.

    >>> written_alike("\u1ec7t", "\u00ea", 3), written_alike("\u1ec7t", "e", 2)
    (True, False)
    """
    if text.isascii() and start.isascii():
        return len(text) == length and text.startswith(start)
    cut = len(start)
    while cut and unicodedata.combining(start[cut - 1]):
        cut -= 1
    cut = max(cut - 1, 0)  # the last letter: more of its accents may follow the cut
    head = unicodedata.normalize("NFD", start[:cut])
    rest = unicodedata.normalize("NFD", text)
    if not rest.startswith(head):
        return False
    rest, last = rest[len(head):], unicodedata.normalize("NFD", start[cut:])
    letters = 0  # its characters that are no accent (a Hangul syllable has 2 or 3)
    while letters < len(last) and not unicodedata.combining(last[letters]):
        letters += 1
    end = letters
    while end < len(rest) and unicodedata.combining(rest[end]):
        end += 1
    # the accents of the last letter that come after the cut: the letter's in text but
    # not in start (one character each: none is composed with another)
    accents = Counter(rest[letters:end])
    accents.subtract(last[letters:])
    if rest[:letters] != last[:letters] or min(accents.values(), default=0) < 0:
        return False
    after, left = rest[end:] if last else rest, accents.total() if last else 0
    return left + len(composed(after)) <= length - len(start) <= left + len(after)


def merge_composed(values):
    r"""``values`` with the texts that are the same in Unicode's composed form (NFC) made
    that form, and each merged group (``'cafe\u0301' = 'caf\xe9'``: escaped, as they
    print alike). Texts that share their form with no other, and missing values, stay as
    they are (a model's classes are numbered in their labels' sorted order).

    >>> merge_composed(np.array(["e\u0301", "\u00e9", "e", np.nan], dtype=object))[1]
    ["'e\\u0301' = '\\xe9'"]
    """
    texts = [text for text in pd.unique(values) if isinstance(text, str)]
    if all(text.isascii() or unicodedata.is_normalized("NFC", text) for text in texts):
        return values, []  # distinct texts already in composed form share none
    spellings = {}
    for text in texts:
        spellings.setdefault(composed(text), []).append(text)
    merged = {form: texts for form, texts in spellings.items() if len(texts) > 1}
    if not merged:
        return values, []
    canonical = {t: form for form, texts in merged.items() for t in texts}
    return (np.array([canonical.get(v, v) if isinstance(v, str) else v for v in values],
                     dtype=object),
            [" = ".join(ascii(t) for t in texts) for texts in merged.values()])


def codes_by_form(values, categories) -> np.ndarray:
    """The position in ``categories`` of each of ``values`` (texts not found as written)
    that is the same text in Unicode's composed form (NFC) as exactly one category; -1
    for the others. Free when the texts are all ASCII or NFC (:func:`merge_composed`'s
    fast path): then no two differ in form alone.

    Parameters
    ----------
    values : array-like of str
        Texts not among ``categories`` as written.
    categories : sequence of str
        The known categories.

    Returns
    -------
    numpy.ndarray of intp

    Examples
    --------
    >>> codes_by_form(["cafe\u0301", "tea"], ["caf\u00e9", "milk"]).tolist()
    [0, -1]
    """
    which, distinct = pd.factorize(np.asarray(values, dtype=object))
    forms, merged = merge_composed(np.array([*categories, *distinct], dtype=object))
    if not merged:
        return np.full(len(which), -1, dtype=np.intp)
    known = pd.Index(forms[:len(categories)], dtype=object)
    unique = ~known.duplicated(keep=False)  # a form two categories share names neither
    codes = pd.Index(known[unique], dtype=object).get_indexer(forms[len(categories):])
    return np.where(codes < 0, -1, np.flatnonzero(unique)[codes])[which].astype(np.intp)


def composed_note(name, merged: list[str], target: bool = False) -> str:
    """The note that values of column ``name`` that are the same text in two Unicode
    forms (``merged``, from :func:`merge_composed`) were read as one."""
    what = "labels" if target else "values"
    one = "one class" if target else "one category"
    return (f"{'target' if target else 'column'} {quoted(name)}: {what} that are the same "
            f"text in different Unicode characters (an accented letter as one character "
            f"or as a letter and an accent) are {one} ({'; '.join(merged)})")


def spaced_alike(series) -> str | None:
    """The first values of ``series`` that read as one once stripped (``'a '``, ``'a'``),
    quoted; ``None`` when no two do."""
    alike, _ = _spacing(series)
    return None if alike is None else _first_three(alike)


def _first_three(values) -> str:
    return ", ".join(quoted(v) for v in values[:3])


def _spacing(series) -> tuple[list | None, str | None]:
    """The first values of ``series`` that read as one once stripped, and the first value
    with spaces around it that is not a missing-value word (``None`` for none)."""
    seen: dict = {}
    spaced = None
    for value in pd.unique(series.dropna().to_numpy(dtype=object)):
        if isinstance(value, str):
            stripped = value.strip()
            seen.setdefault(stripped, []).append(value)
            if spaced is None and stripped != value and stripped.lower() not in MISSING_TOKENS:
                spaced = value
    return next((group for group in seen.values() if len(group) > 1), None), spaced


def spaces_notes(name, series, target: bool = False) -> list[str]:
    """The note on the values of column ``name`` (``series``, as given) that the reading
    strips of the spaces around them: :func:`spaced_note` when that makes two values one,
    else one naming such a value.

    Parameters
    ----------
    name : str
        The column.
    series : pandas.Series
        Its values as given.
    target : bool, default=False
        Whether it is the target (labels, classes) rather than a feature (categories).

    Returns
    -------
    list of str
        At most one note.
    """
    alike, spaced = _spacing(series)
    if alike is not None:
        return [spaced_note(name, _first_three(alike), target)]
    if spaced is None:
        return []
    return [f"{'target' if target else 'column'} {quoted(name)}: "
            f"{'labels' if target else 'values'} written with spaces around them are read "
            f"without them (e.g. {quoted(spaced)} as {quoted(spaced.strip())})"]


def spaced_note(name, alike: str, target: bool = False) -> str:
    """The note that values of column ``name`` differing only in the spaces around them
    (``alike``, from :func:`spaced_alike`) were read as one."""
    if target:
        return (f"target {quoted(name)}: labels that differ only in the spaces around "
                f"them are one class ({alike})")
    return (f"column {quoted(name)}: values that differ only in the spaces around them "
            f"are one category ({alike})")


def clean_features(frame, keep=()):
    """Type and clean every column of ``frame`` (the target already removed).

    Parameters
    ----------
    frame : pandas.DataFrame
        Feature columns with unique ``str`` names.
    keep : collection of str, default=()
        Columns kept although they are useless as features (a model reads them), noted.

    Returns
    -------
    X : pandas.DataFrame
        Kept columns in their original order: numeric ones ``float64`` with NaN for
        missing, categorical ones ``object`` dtype of ``str`` with NaN for missing.
    categorical : tuple of str
        The categorical columns of ``X``.
    notes : list of str
        One line per change made.

    Examples
    --------
    >>> X, cat, notes = clean_features(pd.DataFrame({"a": ["1", "2", "x"] * 4,
    ...                                                "b": ["u", "v", "u"] * 4,
    ...                                                "k": [7] * 12}))
    >>> X.dtypes.astype(str).tolist(), cat
    (['object', 'object'], ('a', 'b'))
    >>> print(*notes, sep="\\n")  # doctest: +NORMALIZE_WHITESPACE
    column 'a': 8 of 12 values are numbers but 4 are not (e.g. 'x'), too many to read them
    as missing: read as categories, each number its own; make those values empty to
    compare the column as numbers
    dropped column 'k': a single value ('7')
    """
    kept, categorical, notes = {}, [], []
    for name in frame.columns:
        kind, values, column_notes, seen = _typed(name, frame[name])
        notes.extend(column_notes)
        reason = _reason_to_drop(name, kind, values, seen)
        if reason and name in keep:
            notes.append(f"kept column {quoted(name)}, as asked: {reason}")
        elif reason:
            notes.append(f"dropped column {quoted(name)}: {reason}")
            continue
        if kind == "numeric":
            notes += _ordered_ids(name, values) + _compact_dates(name, values)
        kept[name] = pd.Series(values, index=frame.index,
                               dtype=object if kind == "categorical" else "float64")
        if kind == "categorical":
            categorical.append(name)
    X = pd.DataFrame(kept, index=frame.index)
    return X, tuple(categorical), notes + _same_columns(X)


def _same_columns(X) -> list[str]:
    """A note per group of columns that hold the same value on every row: they are kept
    (a model may read either), but they share what LIME and the rules say of one."""
    groups: dict[int, list[list]] = {}
    for name in X.columns:
        key = int(pd.util.hash_pandas_object(X[name], index=False).sum())
        for group in groups.setdefault(key, []):
            if X[group[0]].equals(X[name]):
                group.append(name)
                break
        else:
            groups[key].append([name])
    return [f"columns {listing(group, 5)} hold the same values on every row: LIME and the "
            f"rules may name any of them (--drop on the command line, drop= in Python, "
            f"leaves the others out)"
            for same in groups.values() for group in same if len(group) > 1]


def _one_form(name, text: np.ndarray, notes: list[str]) -> np.ndarray:
    """The categories ``text`` of column ``name`` with those that are the same text in two
    Unicode forms made one (:func:`merge_composed`), noted in ``notes``."""
    text, same_text = merge_composed(text)
    if same_text:
        notes.append(composed_note(name, same_text))
    return text


def _typed(name, series):
    """``(kind, values, notes, seen)``: the column as float64 or as object strings, and
    what the notes on a categorical column say its values are (``"numbers"`` written as
    text, ``"dates"``, or ``None``)."""
    dtype = series.dtype
    if pd.api.types.is_bool_dtype(dtype) or isinstance(dtype, pd.CategoricalDtype):
        text = as_strings(series)
        notes = _missing_words(name, series, text)
        notes += spaces_notes(name, series)
        return "categorical", _one_form(name, text, notes), notes, None
    if pd.api.types.is_timedelta64_dtype(dtype):
        seconds = series.dt.total_seconds().to_numpy(dtype="float64", na_value=np.nan)
        values, notes = _finite(name, seconds)
        return "numeric", values, [f"column {quoted(name)} holds durations, read as "
                                   f"seconds"] + notes, None
    if pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_complex_dtype(dtype):
        values = series.to_numpy(dtype="float64", na_value=np.nan)
        if pd.api.types.is_integer_dtype(dtype) and (np.abs(values) >= _EXACT).any():
            codes = _big_integers(name, series.dropna().tolist())
            if codes:
                return "categorical", as_strings(series), codes, None
        values, notes = _finite(name, values)
        return "numeric", values, notes, None
    text = as_strings(series)
    notes = _missing_words(name, series, text)
    present = ~pd.isna(text)
    parsed = _numbers(text[present])
    parses = ~np.isnan(parsed)
    if not present.any() or parses.mean() < NUMERIC_SHARE:
        notes += spaces_notes(name, series)
        text = _one_form(name, text, notes)
        numbers = (_mostly_numbers(name, text[present], parses)
                   + numbers_spelled_apart(name, text[present][parses])
                   + _dressed_numbers(name, text[present])
                   + _other_digits(name, text[present])
                   + _numbers_with_a_unit(name, text[present]))
        dates = _dates(name, text[present])
        seen = "numbers" if numbers else "dates" if dates else None
        return "categorical", text, notes + numbers + dates, seen
    big = parses & (np.abs(np.nan_to_num(parsed)) >= _EXACT)
    if big.any():
        codes = _big_integers(name, [int(t) for t in text[present][big] if _INTEGER.match(t)])
        if codes:
            return "categorical", text, notes + codes, None
    if not parses.all():
        bad = pd.unique(text[present][~parses])
        notes.append(f"column {quoted(name)}: {int((~parses).sum())} non-numeric values "
                     f"in a numeric column treated as missing (e.g. "
                     f"{', '.join(quoted(v) for v in bad[:3])})")
    notes += _dotted_thousands(name, text[present][parses])
    notes += leading_zeros(name, text[present][parses])
    values = np.full(len(text), np.nan)
    values[present] = parsed
    values, inf_notes = _finite(name, values)
    return "numeric", values, notes + inf_notes, None


def _big_integers(name, integers) -> list[str]:
    """A note when 64-bit floats would take distinct ``integers`` (Python ints) for one
    number, as they do beyond 2**53; the column is then read as categories: such integers
    are codes (account or card numbers), not amounts."""
    big = {i for i in integers if abs(i) >= _EXACT}
    if len({float(i) for i in big}) == len(big):
        return []
    return [f"column {quoted(name)} holds integers too large for a 64-bit float to tell "
            f"apart (e.g. {min(big, key=abs)}); read as categories, as codes"]


def _dotted_thousands(name, text):
    """A note when the numbers with a '.' all look like thousands (``1.381``) and the others
    have none (``950``): what a '.' thousands separator writes (a semicolon file's
    ``1.381,50``), which reads as a decimal point."""
    dotted = [t for t in text if "." in t]
    if not dotted or len(dotted) == len(text) or not all(_THOUSANDS.match(t) for t in dotted):
        return []
    return [f"column {quoted(name)}: every number with a '.' has three digits after it "
            f"(e.g. {quoted(dotted[0])}) and the others have none, as if '.' separated "
            f"thousands; they were read with '.' as the decimal point: remove the '.' if it "
            f"separates thousands"]


def zero_padded(text) -> str | None:
    """The first of ``text`` (values as written) that is a whole number with leading zeros
    (``00501``), or ``None``."""
    return next((t.strip() for t in text if _LEADING_ZERO.match(t)), None)


def leading_zeros(name, text) -> list[str]:
    """A note when some of a numeric column's values, as written (``text``), are whole
    numbers with leading zeros (``00501``): codes, perhaps, whose zeros reading them as
    numbers loses."""
    first = zero_padded(text)
    if first is None:
        return []
    return [f"column {quoted(name)} has numbers written with leading zeros, read as numbers "
            f"({quoted(first)} is {float(first):g}); if they are codes rather than "
            f"quantities, write them with a letter (e.g. {quoted('z' + first)}) to compare "
            "them as categories"]


def _by_value(compute, text, missing):
    """``compute(distinct)``, the results for the distinct values of ``text``, spread back
    over every value (a column of 200,000 cells often holds a few); ``missing`` where a
    value is missing."""
    codes, distinct = pd.factorize(pd.Series(text, dtype=object))
    return np.append(compute(distinct), missing)[codes]


def _each(function, text, dtype=object, missing=None):
    """``function`` of every value of ``text``, called once per distinct value."""
    return _by_value(lambda distinct: np.array([function(v) for v in distinct], dtype=dtype),
                     text, missing)


def _numbers(text):
    """``text`` parsed as floats, NaN where a value is not a number."""
    return _by_value(lambda distinct: pd.to_numeric(
        pd.Series(distinct, dtype=object), errors="coerce").to_numpy(dtype="float64",
                                                                      na_value=np.nan),
        text, np.nan)


def _missing_words(name, series, text):
    """A note counting the words (``"NA"``, ``"?"``, ...) and the cells of spaces alone
    (``" "``) that became missing values; empty cells go without saying."""
    raw = objects(series)
    words = raw[pd.isna(text) & ~pd.isna(raw)]
    words = [w.strip() or w for w in words.astype(str) if w]
    if not words:
        return []
    shown = ", ".join(quoted(w) for w in pd.unique(np.asarray(words, dtype=object))[:3])
    return [f"column {quoted(name)}: {counted(len(words), 'value')} "
            f"{shown} read as missing"]


def _mostly_numbers(name, text, parses):
    """A note when most values of a column read as categories are numbers: each number is
    then a category of its own, with no threshold between them."""
    if not len(text) or parses.mean() < 0.5:
        return []
    others = pd.unique(text[~parses])
    return [f"column {quoted(name)}: {int(parses.sum())} of {len(text)} values are "
            f"numbers but {len(text) - int(parses.sum())} are not (e.g. "
            f"{', '.join(quoted(v) for v in others[:3])}), too many to read them as missing: "
            f"read as categories, each number its own; make those values empty to compare "
            f"the column as numbers"]


def exact_number(text):
    """``text`` as a finite :class:`~decimal.Decimal`, or None (a signalling NaN could not
    even be hashed)."""
    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def numbers_spelled_apart(name, numbers, target=False):
    """A note when a column read as categories (or the target) writes one number in
    several ways (``1``, ``1.0``): each spelling is a category (class) of its own. Leading
    zeros (``01``) are codes."""
    spellings: dict = {}
    for t in pd.unique(numbers):
        number = exact_number(t)  # None for a word, or a number to pandas only ("1_000")
        if number is not None:
            spellings.setdefault(number, []).append(t)
    apart = next((ts for ts in spellings.values()
                  if len(ts) > 1 and zero_padded(ts) is None), None)
    if apart is None:
        return []
    return [f"{'target' if target else 'column'} {quoted(name)}: {listing(apart, 3)} are "
            f"one number written differently, read as different "
            f"{'classes' if target else 'categories'}; write them alike to make them one"]


def _dressed_numbers(name, text):
    """A note when categorical ``text`` is numbers with separators, ``%`` or currency."""
    dressed = _each(lambda t: bool(_NUMBER_DRESSING.search(t)), text, bool, False)
    if not dressed.any():
        return []
    parses = ~np.isnan(_numbers(_each(lambda t: _NUMBER_DRESSING.sub("", t), text)))
    if parses.mean() < NUMERIC_SHARE:
        return []
    # a value with both marks shows what keeps the column text ('1.234,5' rather than
    # '0,5', which alone reads as a number in a semicolon-separated file)
    both = [t for t in text[dressed] if "," in t and "." in t]
    shown = both[0] if both else text[dressed][0]
    return [f"column {quoted(name)} holds numbers written as text (e.g. "
            f"{quoted(shown)}), read as categories; write them with a '.' "
            f"decimal point and no thousands separators, '%' or currency to use them as "
            f"numbers"]


def _other_digits(name, text):
    """A note when categorical ``text`` is numbers written in digits other than 0-9
    (full-width ``１２``, Arabic-Indic ``١٢``): numbers to Python, categories to a CSV."""
    def ascii_digits(value):
        return "".join(str(unicodedata.decimal(c)) if c > "\x7f" and
                       unicodedata.category(c) == "Nd" else c for c in value)

    if all(t.isascii() for t in pd.unique(np.asarray(text, dtype=object))):
        return []
    written = _each(ascii_digits, text)
    if np.isnan(_numbers(written)).mean() > 1 - NUMERIC_SHARE:
        return []
    first = next(t for t, w in zip(text, written) if t != w)
    return [f"column {quoted(name)} holds numbers written with digits other than 0-9 (e.g. "
            f"{quoted(first)}), read as categories; write them with the digits 0-9 to use "
            f"them as numbers"]


def _what_values(seen, otherwise: str) -> str:
    """What a dropped column's values are, as the notes above it said (``seen``: numbers
    written as text, or dates), or ``otherwise``."""
    if seen == "numbers":
        return "mostly numbers written as text, see above"
    if seen == "dates":
        return "dates or times, see above"
    return otherwise


def _numbers_with_a_unit(name, text):
    """A note when categorical ``text`` is numbers followed by one and the same unit
    (``70 kg``, ``170cm``)."""
    units = pd.Series(_each(lambda t: m[3] if (m := _WITH_UNIT.match(t)) else None, text),
                      dtype=object)
    if not len(units) or units.isna().all():
        return []
    unit = units.mode().iloc[0]
    if (units == unit).mean() < NUMERIC_SHARE:
        return []
    first = text[(units == unit).to_numpy()][0]
    return [f"column {quoted(name)} holds numbers with a unit (e.g. {quoted(first)}), read "
            f"as categories, each value its own; write them without {quoted(unit)} to "
            f"compare them as numbers"]


def _dates(name, text):
    """A note when categorical ``text`` is dates or times (:data:`_DATE`)."""
    if not len(text):
        return []
    dated = _each(lambda t: bool(_DATE.match(t)), text, bool, False)
    if dated.mean() < NUMERIC_SHARE:
        return []
    return [f"column {quoted(name)} holds dates or times (e.g. {quoted(text[dated][0])}), "
            f"read as categories, so a rule can only name single dates; convert them to "
            f"numbers (e.g. days since a date) to get thresholds"]


def _finite(name, values):
    """Replace ±inf by NaN, with a note when there were any; refuse numbers the black box
    (XGBoost, LIME's bins: 32-bit floats) cannot hold, and note the ones it cannot tell
    apart."""
    infinite = np.isinf(values)
    notes = []
    if infinite.any():
        values = np.where(infinite, np.nan, values)
        notes.append(f"column {quoted(name)}: {int(infinite.sum())} infinite values "
                     f"treated as missing")
    present = values[~np.isnan(values)]
    if len(present) and np.abs(present).max() > np.finfo(np.float32).max:
        raise InputError(f"column {quoted(name)} holds numbers beyond ±3.4e38, which the "
                         f"black box (32-bit floats) cannot hold; rescale it (e.g. divide "
                         f"by a power of ten or take a logarithm)")
    distinct = len(np.unique(present))
    if distinct > 1:
        kept = len(np.unique(present.astype(np.float32)))
        if 2 * kept <= distinct:  # a few merged neighbours in a large column are no news
            notes.append(f"column {quoted(name)}: {distinct} distinct values are only "
                         f"{kept} in 32-bit floats, which the black box reads; rescale or "
                         f"shift it to keep them apart")
    return values, notes


def _ordered_ids(name, values) -> list[str]:
    """A note on a numeric column that looks like a row ID: a different whole number on
    every row (more than :data:`ID_MIN_DISTINCT`), in increasing or decreasing file order.
    It is kept (a measurement may look the same), but a rule on it would pick rows by
    where they are in the file."""
    if len(values) <= ID_MIN_DISTINCT or np.isnan(values).any():
        return []
    steps = np.diff(values)
    if not (np.all(values == np.round(values)) and (np.all(steps > 0) or np.all(steps < 0))):
        return []
    order = "increasing" if steps[0] > 0 else "decreasing"
    return [f"column {quoted(name)} holds a different whole number on every row, in "
            f"{order} order, as a row ID does; it is used as a feature, so drop it if it "
            f"is an ID (--drop on the command line, drop= in Python): a rule on it picks "
            f"rows by their place in the file"]


def _compact_dates(name, values) -> list[str]:
    """A note on a numeric column whose values are all whole numbers that read as dates
    written YYYYMMDD (``20210129``), years 1900 to 2100: as numbers, the days of a month
    and the next are 70 or more apart, so a threshold between two dates is not a number
    of days."""
    present = np.unique(values[~np.isnan(values)])
    if len(present) < 2 or not np.all(present == np.round(present)) \
            or present.min() < 19000101 or present.max() > 21001231:
        return []
    days = pd.to_datetime(pd.Series(present.astype(np.int64).astype(str)), format="%Y%m%d",
                          errors="coerce")
    if days.isna().any():
        return []
    return [f"column {quoted(name)} holds whole numbers that read as dates written YYYYMMDD "
            f"(e.g. {int(present[0])}), read as numbers, as written; if they are dates, "
            f"convert them to numbers of days (e.g. since a date) so that thresholds count "
            f"days"]


def _reason_to_drop(name, kind, values, seen=None):
    """Why the column is useless as a feature, or ``None`` to keep it (``seen``: what the
    notes said a categorical column's values are, see :func:`_typed`)."""
    present = values[~pd.isna(values)]
    if len(present) == 0:
        return "no values (all missing)"
    distinct = pd.unique(present)
    if len(distinct) == 1 and len(present) == len(values):
        shown = number_label(distinct[0]) if kind == "numeric" else distinct[0]
        return f"a single value ({quoted(shown)})"
    if kind == "categorical":
        if len(distinct) > MAX_CATEGORIES:
            return (f"{len(distinct)} distinct values, more than {MAX_CATEGORIES} "
                    f"categories ({_what_values(seen, 'an identifier or free text?')})")
        if len(distinct) > ID_MIN_DISTINCT and len(distinct) == len(present):
            return (f"a different value in every row ({len(distinct)} values: "
                    f"{_what_values(seen, 'an identifier?')})")
    elif _UNNAMED.match(str(name)) and len(present) == len(values):
        steps = np.diff(values)
        if np.all(values == np.round(values)) and np.all(steps == 1):
            return "a saved row index (no header name, consecutive integers)"
    return None
