"""Damaged checkpoints raise DataLossError naming the file and change no variable; a save killed at any
point leaves the previous checkpoint and the state file whole."""
from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import s2sgrad as tf
from tests import checkpoint_spec_reader as spec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUFFIXES = [".index", ".data-00000-of-00001"]


@pytest.fixture(autouse=True)
def fresh_graph():
    with tf.Graph().as_default() as g:
        yield g


def _model():
    a = tf.Variable(np.arange(12, dtype=np.float32).reshape(3, 4), name="a")
    b = tf.Variable(np.int64(-3), name="scope/b")
    s = tf.Variable(np.array([b"xy", b"", b"hello"], dtype=object), name="s")
    return [a, b, s]


@pytest.fixture
def saved(tmp_path):
    """(prefix, the saved values, a session whose variables hold other values, the variables, saver)."""
    variables = _model()
    saver = tf.train.Saver()
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    prefix = saver.save(sess, str(tmp_path / "m"))
    saved_values = sess.run(variables)
    sess.run([variables[0].assign(variables[0] * 0 - 1), variables[1].assign(7),
              variables[2].assign(tf.constant([b"o", b"t", b"h"]))])
    yield prefix, saved_values, sess, variables, saver
    sess.close()


def _values(sess, variables):
    return [np.asarray(v).tolist() for v in sess.run(variables)]


def _restore_outcome(sess, variables, saver, prefix, saved_values, path):
    """Restore; either DataLossError naming ``path`` with nothing changed, or exactly the saved values."""
    before = _values(sess, variables)
    try:
        saver.restore(sess, prefix)
    except tf.errors.DataLossError as e:
        assert path in str(e)
        assert _values(sess, variables) == before
        return "error"
    assert _values(sess, variables) == [np.asarray(v).tolist() for v in saved_values]
    return "restored"


def _file(saved, suffix):
    """The path of the saved checkpoint's file with ``suffix``, and its bytes."""
    path = saved[0] + suffix
    with open(path, "rb") as f:
        return path, f.read()


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_every_flipped_byte_is_an_error_or_harmless(suffix, saved):
    prefix, saved_values, sess, variables, saver = saved
    path, original = _file(saved, suffix)
    outcomes = []
    for i in range(len(original)):
        for bit in (0x01, 0x80):
            with open(path, "wb") as f:
                f.write(original[:i] + bytes([original[i] ^ bit]) + original[i + 1:])
            outcomes.append((i, _restore_outcome(sess, variables, saver, prefix, saved_values, path)))
    harmless = sorted({i for i, outcome in outcomes if outcome == "restored"})
    if suffix == ".data-00000-of-00001":
        assert harmless == []   # every data byte is covered by its tensor's CRC
    else:   # only what is never read: the (empty) meta-index block, its handle and the footer's padding
        footer = len(original) - 48
        meta_offset, i = spec.varint(original, footer)
        meta_size, _ = spec.varint(original, i)
        unread = set(range(meta_offset, meta_offset + meta_size + 5)) | set(range(footer, len(original) - 8))
        assert harmless and set(harmless) <= unread, harmless


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_every_truncation_is_an_error(suffix, saved):
    prefix, saved_values, sess, variables, saver = saved
    path, original = _file(saved, suffix)
    for n in range(len(original)):
        with open(path, "wb") as f:
            f.write(original[:n])
        assert _restore_outcome(sess, variables, saver, prefix, saved_values, path) == "error", n


def test_a_longer_data_file_still_restores(saved):
    prefix, saved_values, sess, variables, saver = saved
    with open(prefix + ".data-00000-of-00001", "ab") as f:
        f.write(b"trailing")
    assert _restore_outcome(sess, variables, saver, prefix, saved_values, "") == "restored"


def test_a_missing_data_file_is_not_found(saved):
    prefix, _, sess, variables, saver = saved
    os.remove(prefix + ".data-00000-of-00001")
    before = _values(sess, variables)
    with pytest.raises(tf.errors.NotFoundError, match="m.data-00000-of-00001"):
        saver.restore(sess, prefix)
    assert _values(sess, variables) == before


def test_reader_reports_damage_per_tensor(saved):
    prefix = saved[0]
    reader = tf.train.NewCheckpointReader(prefix)
    with open(prefix + ".data-00000-of-00001", "r+b") as f:
        f.seek(0)
        f.write(b"\x7f")
    with pytest.raises(tf.errors.DataLossError, match="checksum mismatch for tensor a"):
        reader.get_tensor("a")
    assert reader.get_tensor("scope/b") == -3


def test_a_garbled_state_file_means_no_checkpoint(saved, tmp_path):
    with open(tmp_path / "checkpoint", "w") as f:
        f.write("model_checkpoint_path: unquoted path\n")
    assert tf.train.get_checkpoint_state(str(tmp_path)) is None
    assert tf.train.latest_checkpoint(str(tmp_path)) is None


# -- a save killed part way ------------------------------------------------------------------------

_SCRIPT = textwrap.dedent("""
    import os, signal, sys
    import numpy as np
    import s2sgrad as tf
    from s2sgrad.checkpoint import bundle

    directory, when, same_prefix = sys.argv[1], sys.argv[2], sys.argv[3] == "same"
    v = tf.Variable(np.full(1000, 1.0, np.float32), name="v")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(saver.save(sess, os.path.join(directory, "m"), global_step=None if same_prefix else 1), flush=True)
        sess.run(v.assign(v * 2))

        def die():
            os.kill(os.getpid(), signal.SIGKILL)

        if when == "mid-write":
            def half_then_die(path, contents):
                with open(path, "wb") as f:
                    f.write(contents[:len(contents) // 2])
                die()
            bundle._write_synced = half_then_die
        else:   # the n-th rename of the save: 1 data file, 2 index file, 3 state file
            calls, replace = [0], os.replace
            def counting_replace(src, dst):
                calls[0] += 1
                if calls[0] == int(when):
                    die()
                replace(src, dst)
            os.replace = counting_replace
        saver.save(sess, os.path.join(directory, "m"), global_step=None if same_prefix else 2)
        print("not killed", flush=True)
""")


def _killed_save(tmp_path, when, prefix_kind="new"):
    result = subprocess.run([sys.executable, "-c", _SCRIPT, str(tmp_path), when, prefix_kind], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == -signal.SIGKILL, result.stderr
    assert "not killed" not in result.stdout


def _restored_value(prefix):
    with tf.Graph().as_default():
        v = tf.Variable(np.zeros(1000, np.float32), name="v")
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, prefix)
            return sess.run(v)


@pytest.mark.parametrize("when", ["mid-write", "1", "2", "3"])
def test_a_killed_save_leaves_the_previous_checkpoint_and_state(when, tmp_path):
    _killed_save(tmp_path, when)
    latest = tf.train.latest_checkpoint(str(tmp_path))
    assert latest == str(tmp_path / "m-1")
    assert np.all(_restored_value(latest) == 1.0)
    new = str(tmp_path / "m-2")
    if when == "3":   # both files were in place before the kill: the new checkpoint is whole
        assert np.all(_restored_value(new) == 2.0)
    else:
        assert not tf.train.checkpoint_exists(new)


@pytest.mark.parametrize("when", ["mid-write", "1", "2", "3"])
def test_a_killed_save_over_the_same_prefix_never_gives_wrong_numbers(when, tmp_path):
    _killed_save(tmp_path, when, "same")
    prefix = str(tmp_path / "m")
    if when == "2":   # the new data file is in place with the old index: their CRCs disagree
        with pytest.raises(tf.errors.DataLossError, match="m.data-00000-of-00001"):
            _restored_value(prefix)
    else:
        assert np.all(_restored_value(prefix) == (2.0 if when == "3" else 1.0))


def test_a_full_disk_mid_save_leaves_the_previous_checkpoint_and_state(tmp_path, monkeypatch):
    variables = _model()
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = saver.save(sess, str(tmp_path / "m"), global_step=1)
        saved_values = _values(sess, variables)
        with open(tmp_path / "checkpoint") as f:
            state = f.read()
        sess.run(variables[1].assign(99))

        def full_disk(path, contents):
            with open(path, "wb") as f:
                f.write(contents[:3])
            raise OSError(errno.ENOSPC, "No space left on device")
        monkeypatch.setattr("s2sgrad.checkpoint.bundle._write_synced", full_disk)
        for prefix in ["m", "m-1"]:   # a new prefix, and over the previous checkpoint itself
            with pytest.raises(tf.errors.ResourceExhaustedError, match="No space left on device"):
                saver.save(sess, str(tmp_path / prefix), global_step=None)
        monkeypatch.undo()
        assert sorted(os.listdir(tmp_path)) == ["checkpoint", "m-1.data-00000-of-00001", "m-1.index"]
        with open(tmp_path / "checkpoint") as f:
            assert f.read() == state
        saver.restore(sess, first)
        assert _values(sess, variables) == saved_values
