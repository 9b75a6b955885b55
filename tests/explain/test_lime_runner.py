"""explain_rows around the engines: checkpoints, resume, progress, parallelism, Dask."""

import gc
import os
import shutil
import sys
import time
import warnings

import numpy as np
import pytest

from adapters import InputError
from explain import lime_parallel
from explain.lime_cache import cache_key
from explain.lime_runner import (LimeConfig, batch_size_for, explain_rows, pool_batches,
                                 probe_rows, rows_in_budget)
from tests.explain.test_lime_support import MIXED_CATEGORICAL, Counting, breast_cancer, mixed

CONFIG = LimeConfig(num_samples=200, top_k=3, batch_size=4, n_jobs=1)


def _explain(predict, cache_dir=None, config=CONFIG, **kwargs):
    X, y, _ = mixed()
    return explain_rows(X, X[:14], predict, config, categorical_features=MIXED_CATEGORICAL,
                        training_labels=y, cache_dir=cache_dir, **kwargs)


def _same(a, b):
    """Same features; weights equal up to rounding (numpy's SIMD sums may round differently
    with the memory alignment of another process or thread)."""
    assert np.array_equal(a.features, b.features)
    assert np.abs(a.weights - b.weights).max() < 1e-12
    assert np.abs(a.intercepts - b.intercepts).max() < 1e-12


def _probe_size():
    """Rows of the cache key's probe in :func:`_explain` (not a LIME batch)."""
    return (len(probe_rows(mixed()[0])) + 8,)


def test_resume_recomputes_only_missing_batches(tmp_path):
    predict = mixed()[2]
    fresh = _explain(predict)
    first = Counting(predict, ignore=_probe_size())
    full = _explain(first, tmp_path, model_fingerprint="forest-v1")
    _same(full, fresh)
    assert first.calls == 4  # 14 rows in batches of 4
    (directory,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    files = sorted(directory.glob("batch-*.npz"))
    assert len(files) == 4 and (directory / "meta.json").exists()
    files[1].unlink()
    again = Counting(predict, ignore=_probe_size())
    resumed = _explain(again, tmp_path, model_fingerprint="forest-v1")
    # the batch's 4 rows, and their pool's 199 shared samples once
    assert again.calls == 1 and again.rows == 4 + 199
    assert resumed.rows_from_cache == 10
    _same(resumed, fresh)
    cached = Counting(predict, ignore=_probe_size())
    assert _explain(cached, tmp_path, model_fingerprint="forest-v1").rows_from_cache == 14
    assert cached.calls == 0


def test_interrupted_run_keeps_finished_batches(tmp_path):
    predict = mixed()[2]

    class Interrupt(Exception):
        pass

    def failing(Z):
        if len(Z) > 100 and len(Z) not in _probe_size():
            failing.calls += 1
            if failing.calls == 3:
                raise Interrupt
        return predict(Z)

    failing.calls = 0
    with pytest.raises(Interrupt):
        _explain(failing, tmp_path)
    (directory,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    assert len(list(directory.glob("batch-*.npz"))) == 2
    assert not list(directory.glob("*.tmp"))
    again = Counting(predict, ignore=_probe_size())
    resumed = _explain(again, tmp_path)
    assert again.calls == 2 and resumed.rows_from_cache == 8
    _same(resumed, _explain(predict))


def test_cache_key_covers_parameters_model_and_data(tmp_path):
    X, y, predict = mixed()
    _explain(predict, tmp_path, model_fingerprint="a")
    _explain(predict, tmp_path, model_fingerprint="b")
    _explain(predict, tmp_path, config=LimeConfig(num_samples=200, top_k=2, n_jobs=1))
    _explain(predict, tmp_path, config=LimeConfig(num_samples=200, top_k=3, mode="exact",
                                                  n_jobs=1))
    _explain(lambda Z: predict(Z)[:, ::-1], tmp_path, model_fingerprint="a")  # other model
    explain_rows(X, X[1:15], predict, CONFIG, categorical_features=MIXED_CATEGORICAL,
                 cache_dir=tmp_path, model_fingerprint="a")
    assert len([p for p in tmp_path.iterdir() if p.is_dir()]) == 6
    # execution settings are not part of the key
    hit = _explain(predict, tmp_path, config=LimeConfig(num_samples=200, top_k=3,
                                                        batch_size=14, n_jobs=1),
                   model_fingerprint="a")
    assert hit.rows_from_cache == 14


def test_cache_tells_models_apart_that_agree_on_the_training_rows(tmp_path):
    """Two grown trees fit the training rows alike (probabilities 0 or 1 there) but not
    LIME's samples: with no fingerprint, the key's probe still tells them apart."""
    from sklearn.tree import DecisionTreeClassifier

    X, y, _ = mixed()
    trees = [DecisionTreeClassifier(max_features=0.3, random_state=seed).fit(X, y)
             for seed in (0, 1)]
    assert all((t.predict(X) == y).all() for t in trees)
    first, second = (explain_rows(X, X[:12], t.predict_proba, CONFIG, training_labels=y,
                                  categorical_features=MIXED_CATEGORICAL, cache_dir=tmp_path)
                     for t in trees)
    assert second.rows_from_cache == 0
    fresh = explain_rows(X, X[:12], trees[1].predict_proba, CONFIG, training_labels=y,
                         categorical_features=MIXED_CATEGORICAL)
    _same(second, fresh)


def test_cache_key_takes_numpy_integers_and_text_labels(tmp_path):
    X, y, predict = mixed()
    config = LimeConfig(num_samples=np.int64(200), top_k=np.int64(3), batch_size=4,
                        n_jobs=1, random_state=np.int64(7))
    text = np.array(["no", "yes"], dtype=object)[y]
    runs = [explain_rows(X, X[:8], predict, config, categorical_features=MIXED_CATEGORICAL,
                         training_labels=text.copy(), cache_dir=tmp_path) for _ in range(2)]
    assert runs[1].rows_from_cache == 8  # object arrays hash by value, not by address
    _same(runs[0], runs[1])


def test_unwritable_cache_warns_and_the_run_goes_on(tmp_path, monkeypatch):
    from explain.lime_cache import BatchStore

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(BatchStore, "save", full)
    predict = mixed()[2]
    with pytest.warns(RuntimeWarning, match="No space left.*going on without it"):
        result = _explain(predict, tmp_path)
    _same(result, _explain(predict))


def test_cache_key_covers_the_bin_edges():
    """Bins decide the explanations: explanations made with other edges (an older way of
    computing them) are never reused."""
    X, _, _ = mixed()
    common = dict(training_data=X, rows=X[:4], row_ids=np.arange(4), labels=np.ones(4),
                  categorical_features=MIXED_CATEGORICAL, training_labels=None,
                  config_items={"a": 1}, model_fingerprint="m", probe_probabilities=np.ones(2))
    key = cache_key(**common, edges={0: np.array([0.5, 1.5])})
    assert key == cache_key(**common, edges={0: np.array([0.5, 1.5])})
    assert key != cache_key(**common, edges={0: np.array([0.5, 1.25])})
    assert key != cache_key(**common, edges={1: np.array([0.5, 1.5])})
    assert key != cache_key(**common)


@pytest.mark.parametrize("content", [b"not a zip file", b""])
def test_unreadable_batch_file_is_explained_again(tmp_path, content):
    predict = mixed()[2]
    fresh = _explain(predict, tmp_path)
    (directory,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    sorted(directory.glob("batch-*.npz"))[0].write_bytes(content)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = _explain(predict, tmp_path)
        gc.collect()  # a file left open is reported when it is collected
    assert [str(w.message) for w in caught if w.category is RuntimeWarning
            and "unreadable" in str(w.message)]
    assert not [w for w in caught if w.category is ResourceWarning]
    assert again.rows_from_cache == 10
    _same(again, fresh)
    # the damaged file was removed and its rows saved anew: a third run reads them all;
    # so is a damaged file that no batch of this run's would overwrite
    (directory / "batch-999999990-000001.npz").write_bytes(content)
    with pytest.warns(RuntimeWarning, match="removed it"):
        _explain(predict, tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        third = _explain(predict, tmp_path)
    assert not [w for w in caught if "LIME cache file" in str(w.message)]
    assert third.rows_from_cache == len(third.features)
    _same(third, fresh)


def test_batch_file_naming_unknown_features_is_explained_again(tmp_path):
    predict = mixed()[2]
    fresh = _explain(predict, tmp_path)
    (directory,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    path = sorted(directory.glob("batch-*.npz"))[0]
    with np.load(path) as data:
        parts = {name: data[name] for name in data.files}
    nan_weight = parts["weights"].copy()
    nan_weight[0, 0] = np.nan
    unknown_feature = parts["features"].copy()
    unknown_feature[0, 0] = 99  # the table has no feature 99
    for field, damaged in (("features", unknown_feature), ("weights", nan_weight),
                           ("positions", parts["positions"].reshape(2, -1)),
                           ("positions", np.int64(3)),
                           ("weights", parts["weights"].astype(str))):
        np.savez(path, **{**parts, field: damaged})  # well-formed, but not what a run writes
        with pytest.warns(RuntimeWarning, match="inconsistent"):
            again = _explain(predict, tmp_path)
        assert again.rows_from_cache == 10
        _same(again, fresh)


def test_unusable_cache_directory_is_a_clear_error(tmp_path):
    (tmp_path / "a_file").write_text("x")
    for root in (tmp_path / "a_file", "/proc/surrogate-rules-nope"):
        with pytest.raises(InputError, match="cannot use .* as the LIME cache directory"):
            _explain(mixed()[2], root)


def test_cache_files_are_ordinary_files_a_group_can_share(tmp_path):
    # batches were 0600 under 0755 folders: another user of a shared cache found them
    # unreadable and removed them
    old = os.umask(0o002)
    try:
        _explain(mixed()[2], tmp_path)
    finally:
        os.umask(old)
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert files and {p.stat().st_mode & 0o777 for p in files} == {0o664}


def test_a_cache_that_refuses_files_mid_run_is_a_warning_not_an_end(tmp_path):
    # a full disk after the training rows ended a run that had said "going on"
    predict = mixed()[2]
    fresh = _explain(predict)
    _explain(predict, tmp_path)
    (key,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    shutil.rmtree(key)
    key.write_text("")  # the key's folder cannot be made, as on a full disk
    with pytest.warns(RuntimeWarning, match="could not write to the LIME cache .*; going on "
                                            "without it"):
        again = _explain(predict, tmp_path)
    assert again.rows_from_cache == 0
    _same(again, fresh)


def test_a_cache_directory_of_home_is_expanded_and_empty_text_refused(tmp_path, monkeypatch):
    # "~/x" made a directory named '~' where the run was, and "" cached into it
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    _explain(mixed()[2], "~/lime")
    assert (tmp_path / "home" / "lime").is_dir() and not (tmp_path / "~").exists()
    with pytest.raises(InputError, match="^the LIME cache directory is empty text"):
        _explain(mixed()[2], "")


def test_progress_is_reported():
    calls = []
    _explain(mixed()[2], progress=lambda done, total: calls.append((done, total)))
    assert calls == [(0, 14), (4, 14), (8, 14), (12, 14), (14, 14)]


@pytest.mark.parametrize("engine", ["batched", "reference"])
def test_too_few_samples_is_one_warning_not_a_flood(engine):
    # the reference engine printed scikit-learn's ill-conditioned warning for every row
    import warnings

    X, y, predict = breast_cancer()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        explain_rows(X, X[:6], predict, LimeConfig(num_samples=5, top_k=3, engine=engine,
                                                   n_jobs=1))
        explain_rows(X, X[:2], predict, LimeConfig(num_samples=40, top_k=3, engine=engine,
                                                   n_jobs=1))
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1, messages
    assert messages[0].startswith(f"LIME draws 5 samples per row to weigh {X.shape[1]} features")


@pytest.mark.parametrize("engine", ["batched", "reference"])
def test_processes_give_the_same_results(engine, monkeypatch):
    monkeypatch.setattr(lime_parallel, "WORKER_START_SECONDS", 0.0)  # workers, however small
    X, y, predict = breast_cancer()
    config = dict(num_samples=200, top_k=3, engine=engine, batch_size=2)
    local = explain_rows(X, X[:6], predict, LimeConfig(n_jobs=1, **config))
    parallel = explain_rows(X, X[:6], predict, LimeConfig(n_jobs=2, **config))
    _same(local, parallel)


@pytest.mark.parametrize("engine", ["batched", "reference"])
def test_dask_cluster_gives_the_same_results(engine):
    # two worker threads share the engine: the reference engine must not share lime's state
    distributed = pytest.importorskip("distributed")
    X, y, predict = mixed()
    config = dict(num_samples=200, top_k=3, batch_size=3, engine=engine)
    local = explain_rows(X, X[:9], predict, LimeConfig(n_jobs=1, **config),
                         categorical_features=MIXED_CATEGORICAL)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster, set_as_default=False) as client:
            remote = explain_rows(X, X[:9], predict, LimeConfig(**config),
                                  categorical_features=MIXED_CATEGORICAL, client=client)
            by_address = explain_rows(X, X[:9], predict,
                                      LimeConfig(scheduler=cluster.scheduler_address,
                                                 **config),
                                      categorical_features=MIXED_CATEGORICAL)
    _same(local, remote)
    _same(local, by_address)


class _SlowEcho:
    """An engine whose batches take a while; equal instances pickle (and hash) alike."""

    def explain(self, rows, seeds, labels, predict_fn):
        return predict_fn(rows)


def _slow_identity(rows):
    time.sleep(0.05)
    return rows


class _Pid:
    """An engine answering with the process that ran each batch."""

    def explain(self, rows, seeds, labels, predict_fn):
        predict_fn(rows)
        return np.full(len(rows), os.getpid())


def test_workers_start_only_for_work_that_outlasts_their_start(monkeypatch):
    # on small tables starting workers took longer than the whole LIME stage in one process
    batches = [(np.zeros((2, 1)), [i, i], [0, 0]) for i in range(6)]

    def processes(start_seconds):
        monkeypatch.setattr(lime_parallel, "WORKER_START_SECONDS", start_seconds)
        done = dict(lime_parallel.run_batches(_Pid(), _slow_identity, batches, n_jobs=2))
        assert sorted(done) == list(range(6))
        return {int(pids[0]) for pids in done.values()}

    # 5 batches left of 0.05 s each: 0.125 s saved by 2 workers
    assert processes(1.0) == {os.getpid()}
    ran = processes(0.05)
    assert os.getpid() in ran and len(ran) > 1  # the first batch here, the rest in workers
    assert len(processes(0.0)) > 1


def test_workers_are_stopped_when_their_batches_are_done(monkeypatch):
    # idle workers held 250-300 MB each through the learners' fits (a 200,000-row table)
    monkeypatch.setattr(lime_parallel, "WORKER_START_SECONDS", 0.0)
    batches = [(np.zeros((2, 1)), [i, i], [0, 0]) for i in range(6)]
    done = dict(lime_parallel.run_batches(_Pid(), _slow_identity, batches, n_jobs=2))
    workers = {int(pids[0]) for pids in done.values()} - {os.getpid()}
    assert workers
    for pid in workers:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_dask_runs_sharing_a_client_do_not_share_scattered_data():
    # two runs scattering equal objects: ending one must not drop the other's copies
    # (content-hashed keys did, and the other run failed with "lost dependencies")
    distributed = pytest.importorskip("distributed")
    batches = [(np.full((1, 2), i), [i], [0]) for i in range(12)]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster, set_as_default=False) as client:
            first = lime_parallel.run_batches(_SlowEcho(), _slow_identity, batches,
                                              client=client)
            second = lime_parallel.run_batches(_SlowEcho(), _slow_identity, batches,
                                               client=client)
            next(first)
            done = [next(second)]
            first.close()
            done += list(second)
    assert sorted(i for i, _ in done) == list(range(12))
    assert all(np.array_equal(rows, np.full((1, 2), i)) for i, rows in done)


def test_missing_dask_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    X, y, predict = mixed()
    with pytest.raises(ImportError, match=r"surrogate-rules\[dask\]"):
        explain_rows(X, X[:2], predict, LimeConfig(num_samples=50, scheduler="tcp://h:1"),
                     categorical_features=MIXED_CATEGORICAL)
    with pytest.raises(ImportError, match=r"surrogate-rules\[dask\]"):
        list(lime_parallel.run_batches(None, predict, [], client=object()))


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:1", "not-an-address",
                                     "inproc://nothing", "inproc://10.1.1.1/1/1"])
def test_unreachable_scheduler_is_a_clear_error(address):
    pytest.importorskip("distributed")
    with pytest.raises(InputError, match=f"could not connect to the Dask scheduler '{address}'"):
        with lime_parallel.dask_client(None, address):
            pass


def test_a_real_scheduler_on_tcp_passes_the_handshake_check():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None, protocol="tcp") as cluster:
        with lime_parallel.dask_client(None, cluster.scheduler_address) as client:
            assert client.scheduler.address == cluster.scheduler_address


@pytest.mark.parametrize("reply", [None, b"", b"SSH-2.0-OpenSSH_9.2\r\n"])
def test_a_service_that_is_not_a_dask_scheduler_is_a_clear_error(monkeypatch, reply):
    # a Client connected to, say, a web server waited for its handshake for ever
    import socket
    import threading

    pytest.importorskip("distributed")
    server = socket.create_server(("127.0.0.1", 0))
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"

    def serve():
        conn, _ = server.accept()
        if reply is None:
            conn.recv(1)  # silent until the client gives up
        else:
            conn.sendall(reply)  # then hangs up, or speaks first but not Dask
        conn.close()

    threading.Thread(target=serve, daemon=True).start()
    monkeypatch.setattr(lime_parallel, "HANDSHAKE_WAIT", 0.5)
    words = {None: "sent no Dask handshake within 0.5 s",
             b"": "closed the connection at once"}.get(reply, "speaks another protocol")
    try:
        with pytest.raises(InputError, match=f"'{address}'.*{words}.*: not a Dask scheduler"):
            with lime_parallel.dask_client(None, address):
                pass
    finally:
        server.close()


def test_batch_size_follows_the_memory_budget():
    config = LimeConfig(num_samples=5000, memory_budget_mb=32, pool_rows=4)
    per_row = 8 * (5000 * 30 * 4 + 3 * 30 * 30)  # neighbourhoods and Gram matrices
    assert rows_in_budget(config, 30) == 32 * 2**20 // per_row == 6
    # a wide table: the d x d Gram matrices a row's fit needs are most of it
    wide = LimeConfig(num_samples=500, memory_budget_mb=256)
    assert rows_in_budget(wide, 2000) == 256 * 2**20 // (8 * 2000 * (500 * 4 + 3 * 2000)) == 2
    assert batch_size_for(config, 30, 10_000, 2) == 6
    single = LimeConfig(num_samples=5000, memory_budget_mb=32, pool_rows=1)
    assert batch_size_for(single, 30, 10, 2) == 2  # small jobs: about 4 batches per worker
    small = LimeConfig(num_samples=500, pool_rows=8)
    assert batch_size_for(small, 30, 10, 2) == 8  # ... but a pool is not cut apart
    tight = LimeConfig(memory_budget_mb=0.1)
    assert rows_in_budget(tight, 30) == 1
    assert batch_size_for(tight, 30, 10_000, 2) == 32  # nor by the budget: fitted by rows
    assert batch_size_for(LimeConfig(memory_budget_mb=0.1, pool_rows=1), 30, 10_000, 2) == 1
    assert batch_size_for(LimeConfig(batch_size=17), 30, 10_000, 2) == 17


def test_a_tight_budget_fits_by_rows_but_predicts_a_pool_once(monkeypatch):
    from explain import lime_batch

    fitted_rows = []

    def spy(binary, *args, **kwargs):
        fitted_rows.append(len(binary))
        return fit_local_models(binary, *args, **kwargs)

    fit_local_models = lime_batch.fit_local_models
    X, y, predict = mixed()
    config = LimeConfig(num_samples=200, top_k=3, n_jobs=1, pool_rows=8)
    roomy = explain_rows(X, X[:16], predict, config, categorical_features=MIXED_CATEGORICAL,
                         training_labels=y)
    counting = Counting(predict)
    monkeypatch.setattr(lime_batch, "fit_local_models", spy)
    tight = explain_rows(X, X[:16], counting, LimeConfig(**{**config.__dict__,
                                                           "memory_budget_mb": 0.001}),
                         categorical_features=MIXED_CATEGORICAL, training_labels=y)
    assert counting.rows == 16 + 2 * 199  # two pools, each drawn and predicted once
    assert counting.calls == 2
    assert fitted_rows == [1] * 16  # ... and their rows fitted one at a time
    _same(tight, roomy)


def test_rows_of_a_pool_share_one_neighbourhood():
    X, y, predict = mixed()
    config = LimeConfig(num_samples=200, top_k=3, n_jobs=1, pool_rows=8)
    pooled = Counting(predict)
    exp = explain_rows(X, X[:16], pooled, config, categorical_features=MIXED_CATEGORICAL,
                       training_labels=y)
    assert pooled.rows == 16 + 2 * 199  # ids 0-7 and 8-15: two pools, their samples once
    for i in (0, 5, 9, 15):  # each row alone, seeded by its pool, gets the same explanation
        alone = explain_rows(X, X[i:i + 1], predict, config, training_labels=y,
                             categorical_features=MIXED_CATEGORICAL, row_ids=[i])
        assert np.array_equal(alone.features[0], exp.features[i])
        assert np.abs(alone.weights[0] - exp.weights[i]).max() < 1e-12
    single = Counting(predict)
    own = explain_rows(X, X[:16], single, LimeConfig(**{**config.__dict__, "pool_rows": 1}),
                       categorical_features=MIXED_CATEGORICAL, training_labels=y)
    assert single.rows == 16 * 200  # pool_rows=1: a neighbourhood per row
    assert not np.array_equal(own.weights, exp.weights)


def test_pool_batches_keep_pools_whole():
    pools = np.array([3, 0, 3, 1, 0, 3, 1, 2, 2, 2, 2, 2])
    batches = pool_batches(np.arange(12), pools, size=4)
    assert sorted(np.concatenate(batches).tolist()) == list(range(12))
    assert all(len(b) <= 4 for b in batches)
    for pool in (0, 1, 3):  # pools of at most 4 rows stay in one batch
        assert sum(pool in pools[b] for b in batches) == 1
    assert sum(2 in pools[b] for b in batches) == 2  # 5 rows of pool 2: cut once


@pytest.mark.parametrize("value", [0, -1, 1.5])
def test_pool_rows_must_be_a_positive_int(value):
    with pytest.raises(ValueError, match="pool_rows"):
        LimeConfig(pool_rows=value)


@pytest.mark.parametrize("name, most", [("num_samples", 1_000_000),
                                        ("pool_rows", 1_000_000_000)])
def test_samples_and_pools_have_a_ceiling(name, most):
    # 10**10 samples: a 37 GiB array; a pool of 2**63 rows: an OverflowError
    LimeConfig(**{name: most})
    with pytest.raises(ValueError, match=f"^LimeConfig.{name} .* must be at most {most:,}"):
        LimeConfig(**{name: most + 1})


@pytest.mark.parametrize("engine", ["batched", "reference"])
def test_top_k_above_the_features_keeps_them_all_in_arrays_of_their_width(engine):
    # --top-k 2147483647 allocated (rows, top_k) arrays: 2.34 TiB
    X, y, predict = mixed()
    d = X.shape[1]

    def explain(top_k, selection="auto"):
        config = LimeConfig(num_samples=200, top_k=top_k, n_jobs=1, engine=engine,
                            feature_selection=selection)
        return explain_rows(X, X[:6], predict, config, categorical_features=MIXED_CATEGORICAL,
                            training_labels=y)

    huge = explain(2**31 - 1)
    assert huge.features.shape == huge.weights.shape == (6, d)
    assert (huge.features >= 0).all()  # every feature, every row
    _same(huge, explain(d, "highest_weights"))  # what "auto" chose for the huge k


def test_entropy_bins_cut_where_the_black_box_decides():
    """The default discretizer is supervised by the black box: on a feature the model
    thresholds at 0.3, a cut falls at 0.3 (quartiles of a uniform feature do not); without
    training labels, explain_rows uses the black box's own labels of the training rows."""
    rng = np.random.RandomState(0)
    X = rng.uniform(0, 1, size=(400, 3))

    def predict(Z):
        p = np.clip(0.5 + 4 * (Z[:, 0] - 0.3), 0.02, 0.98)
        return np.column_stack([1 - p, p])

    labels = np.argmax(predict(X), axis=1)
    config = LimeConfig(num_samples=200, top_k=2, n_jobs=1)
    assert config.discretizer == "entropy"
    derived = explain_rows(X, X[:8], predict, config)
    given = explain_rows(X, X[:8], predict, config, training_labels=labels)
    _same(derived, given)
    assert np.abs(derived.edges[0] - 0.3).min() < 0.01
    quartile = explain_rows(X, X[:8], predict, LimeConfig(num_samples=200, top_k=2, n_jobs=1,
                                                          discretizer="quartile"))
    assert np.abs(quartile.edges[0] - 0.3).min() > 0.05
    assert (derived.features[:, 0] == 0).all()  # the feature the model uses comes first


def test_runs_in_two_threads_share_the_workers_until_both_end(monkeypatch):
    # the first run to end stopped the process's workers under the other, which hung
    import threading

    monkeypatch.setattr(lime_parallel, "WORKER_START_SECONDS", 0.0)
    done = {}

    def run(k, n):
        batches = [(np.zeros((2, 1)), [i, i], [0, 0]) for i in range(n)]
        done[k] = dict(lime_parallel.run_batches(_Pid(), _slow_identity, batches, n_jobs=2))

    threads = [threading.Thread(target=run, args=(k, n), daemon=True)
               for k, n in enumerate((4, 24))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads)
    assert sorted(done[0]) == list(range(4)) and sorted(done[1]) == list(range(24))
    assert lime_parallel._USERS == [0]
