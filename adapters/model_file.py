"""A user's saved XGBoost model file, read and matched to the data.

:func:`load_xgboost` reads the file into an :class:`~adapters.xgboost_box.XGBoostBlackBox`
whose columns and category codes are the data's: columns matched by name (as written, as
:func:`~adapters.xgboost_box.xgboost_names` wrote them, or without the spaces around them),
categories recoded from the ones the model stores. :func:`restrict_to_model` and
:func:`dropped_columns_read` fit the table to the columns the model reads, and read the
numbers it trained as categories as its categories.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import xgboost as xgb

from .blackbox import missing_words_note, spaced_names
from .columns import exact_number, number_label, written_alike
from .encoding import check_encoder
from .errors import InputError, listing, quoted
from .xgboost_box import (_BY_MARGIN, _OBJECTIVES, _XGBOOST_UNESCAPE, XGBoostBlackBox,
                          xgboost_names)


def load_xgboost(path, encoder):
    """Load a saved XGBoost classifier (UBJSON or JSON, under any file name).

    The model's columns are matched to the encoder's by name (any order); categorical
    columns must agree, and the categories stored in the model (XGBoost ≥ 3.1) are mapped
    onto the encoder's codes. A model without stored categories is assumed to use the
    encoder's codes (sorted categories), as models trained by :func:`train_xgboost` with
    older XGBoost do; a user's model, for a column whose categories are all numbers, their
    numeric order, as pandas codes a category of numbers (a CSV's column of codes).

    Parameters
    ----------
    path : path-like
        A file written by ``Booster.save_model`` / ``XGBClassifier.save_model`` or by
        :meth:`XGBoostBlackBox.save`: ``.json``, ``.ubj``, or another name, which XGBoost
        >= 2.1 writes as UBJSON (``model.bin``).
    encoder : TableEncoder
        Fitted on the data the model will see.

    Returns
    -------
    XGBoostBlackBox
        The model, reading rows in ``encoder``'s layout.

    Raises
    ------
    InputError
        A missing file, a file XGBoost cannot read (a pickle, the old binary format), a
        model that is not a probabilistic classifier, or columns that do not match the
        encoder.
    """
    booster = _read_booster(path)
    check_encoder(encoder)
    config = json.loads(booster.save_config())["learner"]
    objective = config["objective"]["name"]
    if objective not in _OBJECTIVES + _BY_MARGIN:
        why = (" (nor scores with one threshold: XGBClassifier.predict compares them with "
               "0.5, the logistic function with 0)" if objective == "binary:logitraw" else "")
        raise InputError(f"model objective {quoted(objective)} does not give class "
                         f"probabilities{why}; use a model trained with binary:logistic, "
                         f"reg:logistic, binary:hinge, multi:softprob or multi:softmax")
    n_classes = max(2, int(config["learner_model_param"]["num_class"]))
    order = _column_order(booster, encoder)
    recode, notes = _recode(booster, encoder, order)
    if objective == "binary:hinge":
        notes.append("the model's objective binary:hinge gives labels, not probabilities: "
                     "LIME explains the scores that decide them, through the logistic "
                     "function (not calibrated)")
    known = set(encoder.feature_names_) | set(xgboost_names(encoder.feature_names_))
    spaced = [n for n in booster.feature_names or () if n not in known]
    if spaced:  # read by their names without the spaces around them (_name_index)
        notes = list(notes) + [
            f"the model names columns {listing(spaced, 10)} with the spaces around them "
            f"that reading the table removed: read as the same columns"]
    if booster.feature_names is None:
        notes = [f"the model names no columns: its columns are read as the data's "
                 f"{listing(encoder.feature_names_, 10)}, in this order"] + list(notes)
    # a gblinear model's rounds update one linear model, which predicts with all of them
    linear = config["gradient_booster"]["name"] == "gblinear"
    best = None if linear else booster.attributes().get("best_iteration")
    iteration_range = (0, int(best) + 1) if best is not None else (0, 0)
    if best is not None and int(best) + 1 < booster.num_boosted_rounds():
        notes = list(notes) + [
            f"the model file records early stopping at round {int(best)}: its first "
            f"{int(best) + 1} of {booster.num_boosted_rounds()} trees are explained, as "
            f"XGBClassifier.predict reads the file (Booster.predict uses all of them)"]
    identity = np.array_equal(order, np.arange(len(order)))
    info = {"file": str(path), "objective": objective,
            "n_trees": iteration_range[1] or booster.num_boosted_rounds()}
    if notes:
        info["notes"] = notes
    return XGBoostBlackBox(booster, encoder, n_classes, iteration_range,
                           column_order=None if identity else order, recode=recode,
                           info=info)


def _read_booster(path) -> xgb.Booster:
    """The model saved at ``path``, or an :class:`InputError` saying why not."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"expected the path of a model file, not a {type(path).__name__}: "
                         f"save the model with save_model('model.ubj') and give that path")
    # any name: XGBoost >= 2.1 writes UBJSON whatever the suffix (model.bin, model.model),
    # and the content says what the file is
    path = Path(path)
    if path.is_dir():
        raise InputError(f"model file {quoted(str(path))} is a directory; give the file "
                         f"written by save_model")
    if not path.is_file():
        raise InputError(f"no such model file: {quoted(str(path))}; give the path of a file "
                         f"written by save_model")
    try:
        # from the file's bytes: XGBoost takes a path as UTF-8 text, which a path of other
        # bytes is not
        content = bytearray(path.read_bytes())
    except OSError as err:
        raise InputError(f"could not read model file {quoted(str(path))}: "
                         f"{err.strerror or err}") from None
    if content.startswith(b"\xef\xbb\xbf"):  # a JSON file an editor saved with a BOM
        del content[:3]
    if not content:  # XGBoost aborts the process on an empty buffer
        raise InputError(f"model file {quoted(str(path))} is empty; give a file written by "
                         f"XGBoost's save_model")
    if content.startswith(b"\x80"):  # pickle's protocols 2 and later
        raise InputError(f"model file {quoted(str(path))} is a Python pickle, which is "
                         f"never loaded (unpickling runs code); save the model with "
                         f"save_model as .json or .ubj")
    if content.lstrip().startswith(b"["):
        raise InputError(f"model file {quoted(str(path))} holds a JSON array, not a model "
                         f"(save_model writes an object); give a file written by XGBoost's "
                         f"save_model")
    if not content.lstrip().startswith(b"{"):
        # JSON and UBJSON models are objects; anything else (the old binary format)
        # gets XGBoost's least helpful message
        raise InputError(f"could not load XGBoost model {quoted(str(path))}: not JSON or "
                         f"UBJSON (save_model's formats); a model in XGBoost's old binary "
                         f"format must be saved again as .json or .ubj")
    booster = xgb.Booster()
    try:
        booster.load_model(content)
    except UnicodeDecodeError:
        # a garbled file can make XGBoost's own message undecodable
        raise InputError(f"could not load XGBoost model {quoted(str(path))}: not a model "
                         f"file XGBoost can read; give a file written by XGBoost's "
                         f"save_model") from None
    except xgb.core.XGBoostError as err:
        # "[10:42:00] /path/to/src/file.cc:123: what went wrong Stack trace: [bt] ..."
        reason = " ".join(str(err).split("Stack trace:")[0].split())
        reason = re.sub(r"^\[[\d:]+\] \S+:\d+: ", "", reason)[:200]
        raise InputError(f"could not load XGBoost model {quoted(str(path))}: {reason}; "
                         f"give a file written by XGBoost's save_model") from None
    return booster


def restrict_to_model(dataset, path):
    """``dataset`` with only the columns the saved model at ``path`` was trained on.

    When the model names only a part of the table's columns, the others are left out;
    else ``dataset`` comes back unchanged (:func:`load_xgboost` then says what does not
    match).

    A table often holds more than a model reads (an id, the columns of another model);
    explaining the model in terms of columns it never sees would be misleading.

    Parameters
    ----------
    dataset : Dataset
        The table as read.
    path : path-like
        A model file, as for :func:`load_xgboost`.

    Returns
    -------
    Dataset
        With a note naming the columns left out; a numeric column the model reads as
        categories (integers trained as a pandas category) is read as its categories.

    Raises
    ------
    InputError
        The model reads a column that reading the table dropped (a single value, an
        identifier), naming it and why; :func:`dropped_columns_read` names them, to keep
        (``keep=`` of :func:`adapters.load_dataset`).
    """
    booster = _read_booster(path)
    names = booster.feature_names
    columns = [str(c) for c in dataset.X.columns]
    if names is None:
        return dataset
    by_name = {n: columns[i] for n, i in _name_index(
        names, columns, ours=booster.attr("class_names") is not None).items()}
    dataset = _numbers_as_the_models_categories(dataset, booster, by_name)
    absent = [n for n in names if n not in by_name]
    asked = [c for n in absent for c in _as_written(n)
             if f"dropped column {quoted(c)}, as asked" in dataset.notes]
    if asked:
        raise InputError(f"the model reads {listing(asked, 10)}, which you asked to drop "
                         f"(--drop on the command line, drop= in Python); a model cannot be "
                         f"explained without the columns it reads")
    dropped = [note for n in absent for c in _as_written(n) for note in dataset.notes
               if note.startswith(f"dropped column {quoted(c)}:")]
    if dropped:
        raise InputError(f"the model reads columns the table's reading dropped "
                         f"({'; '.join(dropped)}); a model cannot be explained without "
                         f"them: keep them (keep= in load_dataset or from_frame)")
    if absent or len(names) >= len(columns):
        return dataset
    keep = {by_name[n] for n in names}
    kept = [c for c in dataset.X.columns if str(c) in keep]
    left = [c for c in dataset.X.columns if str(c) not in keep]
    note = (f"the model reads {len(kept)} of the table's {len(columns)} columns: "
            f"{listing(left, 10)} left out of the explanation")
    # what reading the table said of a column left out ("used as a feature") is moot
    about = tuple(f"column {quoted(c)}{end}" for c in left for end in (" ", ":"))
    notes = tuple(n for n in dataset.notes if not n.startswith(about))
    return replace(dataset, X=dataset.X[kept],
                   categorical=tuple(c for c in dataset.categorical if c in kept),
                   notes=notes + (note,))


def dropped_columns_read(dataset, path) -> list[str]:
    """The columns the saved model at ``path`` reads that reading the table dropped.

    Reading drops useless features (a single value, no value, an identifier...): a model
    cannot be explained without the ones it reads, so they are to be kept (``keep=`` of
    :func:`adapters.load_dataset`).

    Parameters
    ----------
    dataset : Dataset
        The table as read.
    path : path-like
        A model file, as for :func:`load_xgboost`.

    Returns
    -------
    list of str
        Column names, in the model's order.
    """
    names = _read_booster(path).feature_names or []
    found = []
    for name in names:
        for column in _as_written(name):
            if any(note.startswith(f"dropped column {quoted(column)}: ")
                   for note in dataset.notes):
                found.append(column)
                break
    return found


def _as_written(name) -> list[str]:
    """A model's column ``name`` as the table may write it: as it is, or as
    :func:`xgboost_names` escaped it, each also without the spaces around it (reading a
    CSV's header removes them)."""
    unescaped = _XGBOOST_UNESCAPE.sub(lambda m: chr(int(m.group(1), 16)), name)
    return list(dict.fromkeys([name, unescaped, name.strip(), unescaped.strip()]))


def _name_index(names, columns, ours=False) -> dict:
    """Each of a model's column ``names`` that names one of ``columns``, with its index.

    A model names a column as the data writes it, or as :func:`xgboost_names` wrote it
    for XGBoost, each name on its own; every name is read as so written for a model
    trained here (``ours``) or one that names every column so. A name with spaces around
    it that names no column otherwise reads the column named without them (a CSV's reading
    removes them; pandas keeps them), when no other name of the model does.

    Raises
    ------
    InputError
        A name that is one column as written and another as written for XGBoost.
    """
    safe = xgboost_names(columns)
    index = {n: i for i, n in enumerate(safe)}
    if ours or set(names) == set(safe):
        return {n: index[n] for n in names if n in index}
    for i, column in enumerate(columns):
        if index.get(column, i) != i and column in names:
            raise InputError(f"the model's column {quoted(column)} is both the table's "
                             f"column of that name and {quoted(columns[index[column]])} as "
                             f"written for XGBoost (which refuses '[', ']' and '<'); rename "
                             f"one of them")
        index[column] = i
    found = {n: index[n] for n in names if n in index}
    # a CSV's reading removes the spaces around its header's names, which a model trained
    # on the file as pandas reads it keeps (' age')
    used = set(found.values())
    taken = {column for column, i in index.items() if i in used}
    for name, column in spaced_names([n for n in names if n not in found], index,
                                     taken).items():
        found[name] = index[column]
    return found


def _numbers_as_the_models_categories(dataset, booster, by_name):
    """``dataset`` with each numeric column that the model reads as categories (a zip code
    trained as a pandas category of integers) read as categories too, written as XGBoost
    stores numeric categories (``501``, ``2.5``), or as the model writes the same number
    (``'02139'``, a zip code whose zeros reading the CSV dropped), with a note."""
    stored = _stored_categories(booster)
    turned, respelled = {}, {}
    for j, (name, kind) in enumerate(zip(booster.feature_names,
                                         booster.feature_types or ())):
        column = by_name.get(name)
        if (kind != "c" or column is None or column in dataset.categorical
                or not pd.api.types.is_numeric_dtype(dataset.X[column])
                or pd.api.types.is_bool_dtype(dataset.X[column])):
            continue
        known = (stored.get(j) or (0, None))[1]
        values = dataset.X[column].to_numpy(dtype=np.float64)
        text = pd.Series([None if np.isnan(v) else number_label(v) for v in values],
                         index=dataset.X.index, dtype=object)
        if known is not None:
            spelled = _same_numbers(sorted(set(text.dropna()) - set(known)), known)
            text = text.map(lambda t: spelled.get(t, t))
            if spelled:
                respelled[column] = spelled
        if known is not None and not set(text.dropna()) & set(known):
            continue  # no number is one of its categories: load_xgboost refuses the types
        turned[column] = text
    if not turned:
        return dataset
    X = dataset.X.assign(**turned)
    categorical = tuple(c for c in X.columns if c in dataset.categorical or c in turned)
    notes = [f"columns {listing(list(turned), 10)} hold numbers in the table and categories "
             f"in the model: read as categories, as the model reads them"]
    notes += [f"column {quoted(column)}: the numbers {listing(list(spelled), 5)} read as the "
              f"model's categories {listing(list(spelled.values()), 5)}, the same numbers "
              f"written otherwise" for column, spelled in respelled.items() if column in turned]
    # the reading's advice on the zeros it dropped is moot: the model's categories keep them
    zeros = tuple(f"column {quoted(c)} has numbers written with leading zeros" for c in turned)
    return replace(dataset, X=X, categorical=categorical,
                   notes=tuple(n for n in dataset.notes if not n.startswith(zeros))
                   + tuple(notes))


def _same_numbers(labels, known) -> dict[str, str]:
    """Each of ``labels`` (numbers, as :func:`number_label` writes them) that is the number
    of exactly one of the model's categories ``known`` written otherwise, with that one
    (``'2139'``: ``'02139'``)."""
    by_number: dict = {}
    for category in known:
        number = exact_number(category)
        if number is not None:
            by_number.setdefault(number, []).append(category)
    found = {}
    for label in labels:
        same = by_number.get(exact_number(label), [])
        if len(same) == 1:
            found[label] = same[0]
    return found


def _column_order(booster, encoder):
    """Model column ``j`` → encoder column index, checking names and types."""
    names = booster.feature_names
    if names is None:
        n_model, n_data = booster.num_features(), encoder.n_features_in_
        if n_model != n_data:
            extra = (" (the command line's --drop COLUMN leaves out one it was not)"
                     if n_data > n_model else "")
            raise InputError(f"the model has {n_model} column{'s' * (n_model != 1)}, the "
                             f"data {n_data}; give the data the model was trained on, its "
                             f"columns in order{extra}")
        return np.arange(encoder.n_features_in_)
    index = _name_index(names, encoder.feature_names_)
    missing = [n for n in names if n not in index]
    if missing:
        by_case = {c.casefold(): c for c in encoder.feature_names_}
        alike = [f"{quoted(by_case[n.casefold()])} for {quoted(n)}" for n in missing
                 if n.casefold() in by_case]
        hint = (f" (the data names {', '.join(alike[:5])}: rename its columns as the model "
                f"names them)" if alike else "")
        raise InputError(f"the model's columns {listing(missing, 10)} are not in the "
                         f"data{hint}; give the data the model was trained on")
    order = np.array([index[n] for n in names])
    if len(names) != encoder.n_features_in_:
        unread = [c for i, c in enumerate(encoder.feature_names_) if i not in set(order)]
        raise InputError(f"the model reads {len(names)} of the data's "
                         f"{encoder.n_features_in_} columns, not {listing(unread, 10)}; give "
                         f"the data the model was trained on (restrict_to_model(dataset, "
                         f"path) keeps a table to the model's columns)")
    types = booster.feature_types
    if types is not None:
        categorical = set(encoder.categorical_indices_)
        wrong = []
        for j, t in enumerate(types):
            in_data = order[j] in categorical
            if (t == "c") == in_data or (in_data and _is_bool(encoder, order[j])):
                continue  # a bool column's codes (False 0, True 1) are the model's numbers
            wrong.append(f"{quoted(names[j])} ("
                         + ("categories in the model, numbers in the data" if t == "c"
                            else "numbers in the model, categories in the data") + ")")
        if wrong:
            raise InputError(f"the model and the data read columns {', '.join(wrong[:10])} "
                             f"differently; train the model on the data's types (numbers "
                             f"as numbers, text as pandas categories)")
    return order


def _is_bool(encoder, i):
    """Whether encoder column ``i`` holds the categories ``False``/``True`` only."""
    return list(encoder.categories_[encoder.feature_names_[i]]) in (["False", "True"],
                                                                    ["False"], ["True"])


def _recode(booster, encoder, order):
    """Per model column, the map from encoder codes to the model's stored codes.

    Returns ``(recode, notes)``. A data category the model does not store as written is
    matched to the one it stores with spaces around it (``" Private"``: the table's reading
    strips them). Non-ASCII category strings are not stored faithfully by XGBoost 3.1-3.2
    (the byte array is cut at the character count): such a column's categories are
    matched by their length and the start that is stored, in either Unicode form (``é`` as
    one character or as ``e`` and an accent); when that does not pair them,
    the data's sorted order is assumed if the stored starts agree with it, else refused.
    Data lacking some of the model's categories is read only when each of its own pairs
    with one of the model's.
    """
    recode, notes = {}, []
    stored = _stored_categories(booster)
    ours_trained_here = booster.attr("class_names") is not None
    for j, kind in enumerate(booster.feature_types or ()):
        if kind == "c" and j not in stored:
            name = encoder.feature_names_[order[j]]
            ours = list(encoder.categories_[name])
            numbers = [exact_number(c) for c in ours]
            how = "data's sorted categories"
            if not ours_trained_here and ours and None not in numbers:
                # a user's category of numbers (pandas codes them in numeric order, 2
                # before 10); train_xgboost coded the encoder's text order
                ranked = sorted(range(len(ours)), key=numbers.__getitem__)
                ours, how = [ours[k] for k in ranked], "data's categories in numeric order"
                if ranked != list(range(len(ranked))):
                    recode[j] = np.argsort(ranked).astype(np.float64)
            notes.append(f"column {quoted(name)}: the model stores no categories (saved by "
                         f"XGBoost before 3.1); its codes are taken as the {how} "
                         f"{listing(ours, 5)}")
    for j, (count, categories) in stored.items():
        name = encoder.feature_names_[order[j]]
        ours = list(encoder.categories_.get(name, ()))
        if categories is None:
            cut = _cut_categories(booster, j)
            codes = _match_cut_categories(cut, ours)
            # the data may lack some of the model's categories (a rare one, in a sample),
            # or hold some it never saw, when the stored parts pair each of its own with
            # one of the model's or with none
            if len(ours) != count and codes is None:
                raise InputError(f"column {quoted(name)} has {len(ours)} categories in the "
                                 f"data but {count} in the model; give the data the model "
                                 f"was trained on")
            unseen = [c for c, code in zip(ours, codes or ()) if np.isnan(code)]
            if unseen:
                notes += _unseen_notes(name, unseen, ours, "non-ASCII ones")
            if codes is not None and codes != list(range(len(ours))):
                recode[j] = np.array(codes, dtype=np.float64)
            elif codes is None and not all(written_alike(c, start, length)
                                           for c, (start, length) in zip(ours, cut)):
                raise InputError(f"column {quoted(name)}: the model's non-ASCII categories "
                                 f"are stored cut short (XGBoost 3.1-3.2) and are not the "
                                 f"data's {listing(ours, 5)} in sorted order; train the "
                                 f"model with its categories in sorted order")
            how = ("matched to the data's by their length and the part that is stored"
                   if codes is not None else "assuming the data's sorted order")
            notes.append(f"column {name!r}: non-ASCII categories stored in the model "
                         f"cannot be read back; {how}")
        elif categories != ours:
            position = {c: k for k, c in enumerate(categories)}
            spaced = {}
            for k, c in enumerate(categories):
                spaced.setdefault(c.strip(), []).append(k)
            codes = [position.get(c, spaced[c][0] if len(spaced.get(c, ())) == 1 else np.nan)
                     for c in ours]
            recode[j] = np.array(codes, dtype=np.float64)
            stripped = [c for c in ours if c not in position and len(spaced.get(c, ())) == 1]
            if stripped:
                notes.append(f"column {quoted(name)}: the model stores "
                             f"{listing([categories[spaced[c][0]] for c in stripped], 5)} "
                             f"with spaces around them, which reading the table removed; "
                             f"read as the same categories")
            unseen = [c for c, code in zip(ours, codes) if np.isnan(code)]
            notes += _unseen_notes(name, unseen, ours, listing(categories, 5))
            notes += missing_words_note(name, categories, ours)
    return recode, notes


def _unseen_notes(name, unseen, ours, trained_on) -> list[str]:
    """The note on the data's categories of column ``name`` that the model never saw
    (read as missing); refused when it saw none of them."""
    if unseen and len(unseen) == len(ours):
        raise InputError(f"column {quoted(name)}: the model knows none of the data's "
                         f"categories {listing(ours, 5)} (it was trained on {trained_on}); "
                         f"give the data the model was trained on")
    if not unseen:
        return []
    # XGBoost 3.2's own predict on a DataFrame refuses such a category ("not in the
    # training set") or, for some frames, reads it as another category: neither says
    # what the model means by it
    return [f"column {quoted(name)}: the model never saw {listing(unseen, 5)}; they are "
            f"read as missing values (the branch each split learned for them), where "
            f"XGBoost's own predict refuses them or takes them for other categories"]


def _cut_categories(booster, j):
    """``(start, length)`` of each category of model column ``j`` whose strings XGBoost
    stored cut short: the start that is stored, and the length in characters."""
    model = json.loads(bytes(booster.save_raw(raw_format="json")))
    entry = model["learner"]["gradient_booster"]["model"]["cats"]["enc"][j]
    offsets = entry["offsets"]
    # the bytes are the first (number of characters) bytes of the strings' UTF-8
    text = bytes(v & 0xFF for v in entry["values"]).decode("utf-8", errors="ignore")
    return [(text[a:b], b - a) for a, b in zip(offsets, offsets[1:])]


def _match_cut_categories(cut, ours):
    """The model's code of each of ``ours`` given the model's ``cut`` categories (see
    :func:`_cut_categories`), or None when their starts and lengths do not pair them one
    to one. With another count of ``ours`` than the model has, each must fit exactly one
    of the model's (an absent category of the same start and length could be the one
    written), or none (NaN: a category the model never saw)."""
    candidates = [{i for i, c in enumerate(ours) if written_alike(c, start, length)}
                  for start, length in cut]
    if len(ours) != len(cut):
        fits = [[k for k, found in enumerate(candidates) if i in found]
                for i in range(len(ours))]
        if any(len(k) > 1 for k in fits):
            return None
        codes = [k[0] if k else np.nan for k in fits]  # NaN: fits none, never seen
        matched = [c for c in codes if not np.isnan(c)]
        return None if len(set(matched)) < len(matched) else codes
    codes = [None] * len(ours)
    progress = True
    while progress:
        progress = False
        for k, found in enumerate(candidates):
            found -= {i for i, code in enumerate(codes) if code is not None}
            if len(found) == 1 and k not in codes:
                codes[found.pop()] = k
                progress = True
    return None if None in codes else codes


def _stored_categories(booster):
    """``{model column: (count, category strings in code order or None)}`` from the model.

    ``None`` when the strings are not ASCII (see :func:`_recode`).
    """
    model = json.loads(bytes(booster.save_raw(raw_format="json")))
    cats = model["learner"]["gradient_booster"].get("model", {}).get("cats", {})
    stored = {}
    for j, entry in enumerate(cats.get("enc") or []):
        values = entry.get("values") or []
        if not values:
            continue
        if "offsets" not in entry:
            stored[j] = (len(values), [number_label(v) for v in values])
            continue
        offsets = entry["offsets"]
        raw = bytes(v & 0xFF for v in values)
        if not raw.isascii():
            stored[j] = (len(offsets) - 1, None)
            continue
        stored[j] = (len(offsets) - 1,
                     [raw[a:b].decode("ascii") for a, b in zip(offsets, offsets[1:])])
    return stored
