"""The target column: dropping rows without a label, choosing the positive class, and
turning labels into the integers ``0 .. k-1``."""
from __future__ import annotations

from decimal import Decimal

import numpy as np
import pandas as pd

from .columns import (as_strings, codes_by_form, composed, composed_note, exact_number,
                      merge_composed, number_label, numbers_spelled_apart, spaced_alike,
                      spaces_notes, zero_padded)
from .errors import InputError, counted, listing, quoted

MAX_CLASSES = 50

#: A target of more classes than digits, all numbers, may be a quantity; the run says so.
MANY_NUMBERED = 11


def label_strings(series):
    """Target values as strings; integral numbers print without ``.0``.

    A numeric column that had missing values is float in pandas, so ``1`` arrives as
    ``1.0``; it is shown (and matched against ``positive``) as ``"1"``.

    Parameters
    ----------
    series : pandas.Series

    Returns
    -------
    numpy.ndarray of object
        ``str`` labels, NaN where missing.

    Examples
    --------
    >>> label_strings(pd.Series([1.0, None, 0.0])).tolist()
    ['1', nan, '0']
    """
    dtype = series.dtype
    if pd.api.types.is_integer_dtype(dtype):  # exactly: 2**62 + 1 is not 2**62
        values = series.to_numpy(dtype=object, na_value=np.nan)
        return np.array([v if pd.isna(v) else str(int(v)) for v in values], dtype=object)
    if (pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)
            and not pd.api.types.is_complex_dtype(dtype)):
        values = series.to_numpy(dtype="float64", na_value=np.nan)
        own = np.dtype(getattr(dtype, "numpy_dtype", dtype)).type  # float32 0.1 is "0.1"
        labels = np.full(len(values), np.nan, dtype=object)
        for i, v in enumerate(values):
            if np.isfinite(v):
                labels[i] = number_label(own(v))
        return labels
    return as_strings(series)


def encode_target(series, target, positive=None, binary=False):
    """Integer labels for ``series``.

    Parameters
    ----------
    series : pandas.Series
        The target column.
    target : str
        Its name, for messages.
    positive : str, int, float, bool or None
        The value that becomes class 1, matched against the labels as strings (``1``
        matches ``"1"``; a case-insensitive match is used when there is no exact one).
        With more than two classes the others become class 0 (one-vs-rest). ``None``:
        for two labels that read as no/yes (0/1, -1/1, False/True, no/yes, n/y,
        negative/positive, any case) the yes; for two other classes the minority class
        (on a tie, the later in sorted order); for more, the target stays multi-class.
    binary : bool, default=False
        Refuse a multi-class target unless ``positive`` is given.

    Returns
    -------
    y : numpy.ndarray of int64
        Labels of the kept rows.
    class_names : tuple of str
    keep : numpy.ndarray of bool
        Rows whose target is present.
    notes : list of str
    source_labels : tuple of (str, int)
        Every label in sorted order (numbers in numeric order), with its label in ``y``:
        class ``i`` of a model trained on the raw target (numbered as scikit-learn's
        ``LabelEncoder`` numbers it) is ``y`` label ``source_labels[i][1]``.

    Raises
    ------
    InputError
        No labelled rows, one class, ``positive`` not a label, a multi-class target when
        ``binary``, or more than :data:`MAX_CLASSES` classes.

    Examples
    --------
    >>> y, names, keep, notes, source = encode_target(pd.Series(["a", "b", "b", None]), "t")
    >>> y.tolist(), names, keep.tolist(), source
    ([1, 0, 0], ('b', 'a'), [True, True, True, False], (('a', 1), ('b', 0)))
    """
    labels = label_strings(series)
    keep = ~pd.isna(labels)
    notes = []
    notes += spaces_notes(target, series, target=True)
    if not keep.all():
        worded = _words_read_as_missing(series, keep)
        words = list(dict.fromkeys(worded))
        dropped, written = int((~keep).sum()), ""
        if words:
            written = (f"written {', '.join(quoted(w) for w in words[:3])}"
                       f"{', ...' if len(words) > 3 else ''}")
            if len(worded) < dropped:  # the others are empty cells (None, NaN)
                written = f"{dropped - len(worded)} empty, {len(worded)} {written}"
            written = f" ({written})"
        notes.append(f"dropped {counted(dropped, 'row')} with a missing value in target "
                     f"{quoted(target)}{written}")
    labels = labels[keep]
    labels, merged = _merge_equal_numbers(labels)
    if merged:
        notes.append(f"target {quoted(target)}: labels written differently for the same "
                     f"number are one class ({'; '.join(merged)})")
    else:
        notes += numbers_spelled_apart(target, labels, target=True)
    labels, same_text = merge_composed(labels)
    if same_text:
        notes.append(composed_note(target, same_text, target=True))
    if len(labels) == 0:
        raise InputError(f"target column {quoted(target)} has no values"
                         f"{_missing_words(series, keep)}; choose a column that "
                         f"holds the class labels")
    classes = _sorted_labels(pd.unique(labels))
    _refuse_mixed_truth(classes, target)
    counts = {c: int(np.sum(labels == c)) for c in classes}
    notes += _same_but_case(classes, counts, target)
    if len(classes) == 1:
        words = _missing_words(series, keep, empty=True)
        if (alike := spaced_alike(series)) is not None:
            words += f" (labels that differ only in the spaces around them are one: {alike})"
        if merged:
            words += f" (labels written differently for the same number are one: {merged[0]})"
        raise InputError(f"target column {quoted(target)} has a single class "
                         f"({quoted(classes[0])}){words}; a classifier needs at least two")
    if positive is not None:
        try:
            chosen = match_label(positive, classes, target)
        except InputError as err:  # a label read as missing ('NA'): say where it went
            missing = {w.casefold() for w in _words_read_as_missing(series, keep)}
            if str(positive).strip().casefold() not in missing:
                raise
            raise InputError(f"{err}{_missing_words(series, keep)}") from None
        y = (labels == chosen).astype(np.int64)
        if len(classes) == 2:
            other = classes[0] if classes[1] == chosen else classes[1]
            names = (other, chosen)
            notes.append(f"positive class (1): {quoted(chosen)} ({counts[chosen]} of "
                         f"{len(labels)} rows)")
        else:
            names = (rest_name(chosen, classes), chosen)
            notes.append(f"one-vs-rest: class 1 is {quoted(chosen)} ({counts[chosen]} of "
                         f"{len(labels)} rows), class 0 the other {len(classes) - 1} "
                         f"classes")
        return y, names, keep, notes, _codes(classes, names[1])
    if len(classes) == 2:
        chosen = _conventional_positive(classes)
        if chosen is not None:
            why = "the yes side of a yes/no target"
        elif counts[classes[0]] == counts[classes[1]]:
            chosen, why = classes[1], f"as many rows as {quoted(classes[0])}, the later label"
        else:
            chosen = min(classes, key=counts.get)
            why = "the minority class"
        other = classes[0] if chosen == classes[1] else classes[1]
        notes.append(f"positive class (1): {quoted(chosen)} ({counts[chosen]} of "
                     f"{len(labels)} rows; {why}); choose another with --positive "
                     f"(positive= in Python)")
        return ((labels == chosen).astype(np.int64), (other, chosen), keep, notes,
                _codes(classes, chosen))
    if binary:
        raise InputError(f"target column {quoted(target)} has {len(classes)} classes "
                         f"({listing(classes, 10)}); choose the positive class with "
                         f"--positive (positive= in Python) to learn it against the rest")
    if len(classes) > MAX_CLASSES:
        numbers = pd.to_numeric(pd.Series(labels), errors="coerce")
        if numbers.notna().all():
            raise InputError(
                f"target column {quoted(target)} has {len(classes)} distinct numbers, more "
                f"than {MAX_CLASSES} classes: a quantity to predict, not a class; rules "
                f"explain a classifier, so add a class column made from it (e.g. whether "
                f"it is above its median, {numbers.median():g}) and give that as the target")
        raise InputError(f"target column {quoted(target)} has {len(classes)} distinct "
                         f"values, more than {MAX_CLASSES} classes; choose a class column, "
                         f"or a positive class to learn it against the rest")
    index = {c: i for i, c in enumerate(classes)}
    y = np.array([index[c] for c in labels], dtype=np.int64)
    notes.append(f"multi-class target with {len(classes)} classes")
    if len(classes) >= MANY_NUMBERED and pd.to_numeric(pd.Series(classes),
                                                       errors="coerce").notna().all():
        notes.append(f"target {quoted(target)}: its {len(classes)} labels are all numbers, "
                     f"each read as a class of its own, with no order; if it is a quantity, "
                     f"give a class column made from it as the target")
    return y, tuple(classes), keep, notes, tuple(index.items())


def _refuse_mixed_truth(classes, target):
    """Raise :class:`InputError` when the labels write truth values both as words and as
    numbers (``True`` and ``1``, ``False`` and ``0``): read as text they would be
    different classes, and which of them are one is the table's to say."""
    words = [c for c in classes if c.casefold() in ("true", "false")]
    numbers = [c for c in classes if _as_number(c) in (0.0, 1.0)]
    if words and numbers:
        raise InputError(f"target column {quoted(target)} writes truth values both as words "
                         f"({listing(words)}) and as numbers ({listing(numbers)}), which "
                         f"would be {len(classes)} different classes; write each truth value "
                         f"one way (True or 1, False or 0)")


def _same_but_case(classes, counts, target):
    """A note per group of labels that differ only in case (``yes``, ``Yes``): they are
    different classes, which is seldom what a table means."""
    groups = {}
    for c in classes:
        groups.setdefault(c.casefold(), []).append(c)
    return [f"target {quoted(target)}: labels {listing(group)} differ only in case and are "
            f"different classes ({', '.join(str(counts[c]) for c in group)} rows); write "
            f"them alike to make them one" for group in groups.values() if len(group) > 1]


def rest_name(chosen, classes):
    """The name of all classes but ``chosen`` together.

    Parameters
    ----------
    chosen : str
        The positive class.
    classes : collection of str
        The names taken.

    Returns
    -------
    str
        ``not chosen``, or, when a class has that name, ``not chosen (rest)`` (and so on).

    Examples
    --------
    >>> rest_name("a", ["a", "b", "not a"])
    'not a (rest)'
    """
    name = f"not {chosen}"
    while name in classes:
        name += " (rest)"
    return name


def labels_as_written(labels, source_labels):
    """A model's class ``labels``, each as the table writes it when it is the same text in
    another Unicode form (``é`` as one character or as ``e`` and an accent): a table read
    later may write them otherwise than the one the model was trained on.

    Parameters
    ----------
    labels : sequence of str or None
        The names a model file gives its classes.
    source_labels : sequence of (str, int)
        ``Dataset.source_labels``; the name of all classes but one (:func:`rest_name`)
        counts as written too.

    Returns
    -------
    list of str or None
        ``labels``, respelled; None when ``labels`` is None.

    Examples
    --------
    >>> labels_as_written(["cafe\u0301", "not tea"], [("caf\u00e9", 0), ("tea", 1)])
    ['café', 'not tea']
    """
    if labels is None:
        return None
    source = [label for label, _ in source_labels]
    known = list(dict.fromkeys([*source, *(rest_name(s, source) for s in source)]))
    codes = codes_by_form(labels, known)
    return [label if label in known or k < 0 else known[k] for label, k in zip(labels, codes)]


def _merge_equal_numbers(labels):
    """Labels with ``"1.0"`` and ``"1"`` (all numbers) as one label, and what was merged.

    Numbers are compared exactly, as decimals: ``"1e-400"`` is not ``"0"``, nor is
    ``"4611686018427387905"`` ``"4611686018427387904"`` (equal as 64-bit floats). A number
    written with leading zeros beside its plain spelling (``"01"``, ``"1"``) is a code:
    those stay distinct."""
    distinct = pd.unique(labels)
    numbers = [exact_number(v) for v in distinct]
    if any(n is None for n in numbers):
        return labels, []
    spellings = {}
    for text, number in zip(distinct, numbers):
        spellings.setdefault(number, []).append(text)
    codes = {n for n, texts in spellings.items() if zero_padded(texts) is not None}
    merged = [" = ".join(quoted(t) for t in texts) for n, texts in spellings.items()
              if len(texts) > 1 and n not in codes]
    if not merged:
        return labels, []
    canonical = {t: t if n in codes else _exact_label(n, spellings[n][0])
                 for t, n in zip(distinct, numbers)}
    return np.array([canonical[v] for v in labels], dtype=object), merged


def _exact_label(number, spelling):
    """``"1"`` for 1.0, ``"0.5"`` for 0.50: the short label when it is exactly ``number``,
    else ``spelling``."""
    if number == number.to_integral_value():
        return str(int(number))
    short = number_label(float(number))
    return short if Decimal(short) == number else spelling


#: Two labels that read as no/yes, by their case-folded text; the second is the positive.
_NO_YES = (("0", "1"), ("-1", "1"), ("false", "true"), ("no", "yes"), ("n", "y"),
           ("negative", "positive"))


def _conventional_positive(classes):
    """The "yes" of two labels that read as no/yes (1 of 0/1 or -1/1, True, yes), else None."""
    folded = [c.casefold() for c in classes]
    numbers = [_as_number(c) for c in classes]
    for no, yes in _NO_YES:
        if None not in numbers and _as_number(no) is not None:
            if sorted(numbers) == sorted([float(no), float(yes)]):
                return classes[numbers.index(float(yes))]
        elif sorted(folded) == sorted([no, yes]):
            return classes[folded.index(yes)]
    return None


def _codes(classes, chosen):
    """``(label, y label)`` pairs: 1 for ``chosen``, 0 for the others."""
    return tuple((c, int(c == chosen)) for c in classes)


def _sorted_labels(labels):
    """Labels in numeric order when they all are numbers, else in string order."""
    labels = [str(v) for v in labels]
    try:  # exactly, where two numbers are one float
        return sorted(labels, key=lambda v: (float(v), exact_number(v) or 0, v))
    except ValueError:
        return sorted(labels)


def _as_number(text):
    """``float(text)``, or None when ``text`` is not a number."""
    try:
        return float(text)
    except ValueError:
        return None


def match_label(given, classes, target, what="positive class"):
    """The label of ``classes`` that ``given`` names: as written, else as the same text in
    Unicode's composed form (NFC), else ignoring case, else as the same number (``"0.0"``
    names the label ``0``, ``"1"`` names ``"1.0"``).

    Parameters
    ----------
    given : object
        What the user wrote.
    classes : list of str
        The target's labels.
    target : str
        The target's name, for the message.
    what : str
        What ``given`` is, for the message.

    Raises
    ------
    InputError
        No label, or several, match.
    """
    if isinstance(given, (bool, np.bool_)):
        wanted = str(bool(given))
    elif isinstance(given, (int, float, np.integer, np.floating)):
        wanted = number_label(given)
    else:
        wanted = str(given).strip()
    if wanted in classes:
        return wanted
    same_text = [c for c in classes if composed(c) == composed(wanted)]
    if len(same_text) == 1:  # 'café' typed with 'é' or with 'e' and an accent
        return same_text[0]
    # in composed form: 'CAFE' and an accent is 'café' but for case, as 'CAFÉ' is
    folded = [c for c in classes if composed(c).casefold() == composed(wanted).casefold()]
    if len(folded) == 1:
        return folded[0]
    if folded:
        raise InputError(f"{what} {quoted(wanted)} matches {listing(folded)} of "
                         f"target {quoted(target)} when case is ignored; give one of "
                         f"them exactly")
    number = _as_number(wanted)  # "0.0" names the label 0, "1" names "1.0"
    same = [c for c in classes if number is not None and _as_number(c) == number]
    if len(same) == 1:
        return same[0]
    if same:
        raise InputError(f"{what} {quoted(wanted)} matches {listing(same)} of target "
                         f"{quoted(target)} as the same number; give one of them exactly")
    raise InputError(f"{what} {quoted(wanted)} is not a value of target "
                     f"{quoted(target)}; its values are {listing(classes, 10)}")


def _words_read_as_missing(series, keep) -> list[str]:
    """The labels read as missing that are words such as ``NA`` or ``?`` (not empty
    cells), one per such row."""
    raw = series.to_numpy(dtype=object, na_value=None)[~keep]
    return [str(w).strip() for w in raw if w is not None and str(w).strip()]


def _missing_words(series, keep, empty=False) -> str:
    """How many rows' labels were read as missing because of a word such as ``NA`` or
    ``?`` (and, with ``empty``, because they were empty), for an error that would
    otherwise hide them."""
    words = _words_read_as_missing(series, keep)
    n_empty = int((~keep).sum()) - len(words) if empty else 0
    parts = []
    if words:
        shown = ", ".join(quoted(w) for w in dict.fromkeys(words))
        parts.append(f"{counted(len(words), 'row')} labelled {shown[:80]}")
    if n_empty:
        parts.append(f"{counted(n_empty, 'row')} with an empty label")
    if not parts:
        return ""
    rename = " (rename such a label to keep it as a class)" if words else ""
    verb = "was" if len(words) + n_empty == 1 else "were"
    return f" after {' and '.join(parts)} {verb} dropped as missing labels{rename}"
