"""tf.summary.FileWriter: the event file's name, framing (CRC-32C) and first record, every kind of
event, the graph TensorBoard shows, flushing, closing and reopening, FileWriterCache, errors.
Files are read with the tests' own decoder and, when it is installed, TensorBoard's reader."""
import glob
import os
import socket
import struct

import numpy as np
import pytest

import s2sgrad as tf
from event_decoder import crc32c_bitwise, events, fields, png_pixels, records
from s2sgrad.wire import crc32c, masked_crc32c


def _event_files(logdir):
    return sorted(glob.glob(os.path.join(logdir, "events.out.tfevents.*")))


def _accumulator(logdir):
    module = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
    reader = module.EventAccumulator(str(logdir), size_guidance={"images": 0, "audio": 0, "scalars": 0,
                                                                 "histograms": 0, "tensors": 0})
    reader.Reload()
    return reader


def test_crc32c_matches_the_standard_check_value_and_a_bitwise_implementation():
    assert crc32c(b"123456789") == 0xE3069283
    data = np.random.default_rng(1).integers(0, 256, 1000).astype(np.uint8).tobytes()
    assert crc32c(data) == crc32c_bitwise(data) and crc32c(b"") == 0
    for size in (0, 1, 7, 8, 1000, 4099):   # the event files' CRC (vectorized) against the bit-by-bit one
        chunk = data[:size] * 5
        crc = crc32c_bitwise(chunk)
        assert masked_crc32c(chunk) == ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF
    crc = crc32c_bitwise(b"abc")
    assert masked_crc32c(b"abc") == ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def test_the_file_is_named_as_tensorflow_names_it_and_starts_with_the_file_version(tmp_path):
    writer = tf.summary.FileWriter(str(tmp_path), filename_suffix=".v1")
    writer.close()
    (path,) = _event_files(str(tmp_path))
    name = os.path.basename(path)
    prefix, seconds, host = name[:len("events.out.tfevents.")], name.split(".")[3], name[len("events.out.tfevents."):]
    assert prefix == "events.out.tfevents." and len(seconds) == 10 and seconds.isdigit()
    assert host == f"{seconds}.{socket.gethostname()}.v1"
    (first,) = events(path)
    assert first["file_version"] == "brain.Event:2" and first["step"] == 0
    assert writer.get_logdir() == str(tmp_path)


def test_summaries_from_ops_bytes_and_messages_are_written_at_their_steps(tmp_path):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [], name="value")
        scalar = tf.summary.scalar("x", x)
        with tf.Session() as sess, tf.summary.FileWriter(str(tmp_path)) as writer:
            writer.add_summary(sess.run(scalar, {x: 1.5}), global_step=3)
            writer.add_summary(sess.run(scalar, {x: 2.5}), global_step=np.int64(7))
            writer.add_summary(np.array(sess.run(scalar, {x: 3.5}), dtype=object))   # no step: 0

            class Message:
                def SerializeToString(self):
                    return sess.run(scalar, {x: 4.5})
            writer.add_summary(Message(), 9)
    got = [(e["step"], e["summary"][0]["simple_value"]) for e in events(str(tmp_path)) if "summary" in e]
    assert got == [(3, 1.5), (7, 2.5), (0, 3.5), (9, 4.5)]
    reader = _accumulator(tmp_path)
    assert [(s.step, s.value) for s in reader.Scalars("x")] == got


def test_every_record_is_framed_with_checked_crcs(tmp_path):
    with tf.summary.FileWriter(str(tmp_path)) as writer:
        writer.add_session_log(tf.SessionLog(status=tf.SessionLog.START), 1)
    (path,) = _event_files(str(tmp_path))
    data = bytearray(open(path, "rb").read())
    assert len(records(path)) == 2
    (length,) = struct.unpack("<Q", data[:8])
    data[12 + length // 2] ^= 1
    open(path, "wb").write(bytes(data))
    with pytest.raises(AssertionError, match="data CRC"):
        records(path)


def test_the_graph_holds_nodes_tensorboard_shows(tmp_path):
    with tf.Graph().as_default() as graph:
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        with tf.device("/cpu:0"):
            w = tf.Variable(tf.ones([3, 2]), name="w")
        y = tf.matmul(x, w, name="y")
        with tf.control_dependencies([y]):
            tf.identity(x, name="after")
        tf.split(y, 2, axis=1, name="parts")
        tf.identity(tf.split(y, 2, axis=1)[1], name="second")
        tf.summary.FileWriter(str(tmp_path), graph).close()
    reader = _accumulator(tmp_path)
    nodes = {n.name: n for n in reader.Graph().node}
    assert set(nodes) == {op.name for op in graph.get_operations()}
    assert nodes["y"].op == "MatMul" and list(nodes["y"].input) == ["x", "w"]
    assert "^y" in nodes["after"].input and list(nodes["second"].input) == ["split:1"]
    assert nodes["w"].device == "/device:CPU:0"
    assert nodes["x"].attr["dtype"].type == 1   # DT_FLOAT
    assert [d.size for d in nodes["x"].attr["_output_shapes"].list.shape[0].dim] == [-1, 3]
    assert nodes["y"].attr["transpose_a"].b is False
    assert len(nodes["parts"].attr["_output_shapes"].list.shape) == 2


def test_session_logs_events_and_run_metadata(tmp_path):
    with tf.summary.FileWriter(str(tmp_path)) as writer:
        writer.add_session_log(tf.summary.SessionLog(status=tf.SessionLog.CHECKPOINT, checkpoint_path="m-5"), 5)
        event = b"\x09" + struct.pack("<d", 12.5) + b"\x10\x0b"   # Event{wall_time: 12.5, step: 11}
        writer.add_event(event)
        writer.add_run_metadata(tf.RunMetadata(), "step_1")   # s2sgrad collects none: nothing written

        class Metadata:
            def SerializeToString(self):
                return b""
        writer.add_run_metadata(Metadata(), "step_2", global_step=2)
    found = events(str(tmp_path))
    assert found[1]["session_log"] == {"status": 3, "checkpoint_path": "m-5"} and found[1]["step"] == 5
    assert (found[2]["wall_time"], found[2]["step"]) == (12.5, 11)
    assert len(found) == 4 and dict(fields(records(_event_files(str(tmp_path))[0])[3]))[8]
    assert _accumulator(tmp_path).Tags()["run_metadata"] == ["step_2"]


def test_images_audio_and_text_reach_tensorboard(tmp_path):
    images = np.random.default_rng(2).integers(0, 256, (2, 3, 4, 3)).astype(np.uint8)
    clip = np.sin(np.linspace(0, 20, 80))[None]
    with tf.Graph().as_default():
        merged = tf.summary.merge([tf.summary.image("img", images, max_outputs=2),
                                   tf.summary.audio("clip", clip, 8000, max_outputs=1),
                                   tf.summary.text("note", tf.constant("hello"))])
        with tf.Session() as sess, tf.summary.FileWriter(str(tmp_path)) as writer:
            writer.add_summary(sess.run(merged), 4)
    reader = _accumulator(tmp_path)
    assert sorted(reader.Tags()["images"]) == ["img/image/0", "img/image/1"]
    (image,) = reader.Images("img/image/1")
    assert (image.step, image.width, image.height) == (4, 4, 3)
    np.testing.assert_array_equal(png_pixels(image.encoded_image_string), images[1])
    (audio,) = reader.Audio("clip/audio")
    assert (audio.sample_rate, audio.length_frames, audio.content_type) == (8000, 80, "audio/wav")
    assert audio.encoded_audio_string[:4] == b"RIFF"
    (text,) = reader.Tensors("note")
    assert text.tensor_proto.string_val == [b"hello"]


def test_events_wait_in_the_queue_until_max_queue_or_flush(tmp_path):
    writer = tf.summary.FileWriter(str(tmp_path), max_queue=3, flush_secs=3600)
    (path,) = _event_files(str(tmp_path))
    start = os.path.getsize(path)
    summary = b"\n\x08\n\x01a\x15\x00\x00\x80?"
    writer.add_summary(summary, 1)
    writer.add_summary(summary, 2)
    assert os.path.getsize(path) == start
    writer.add_summary(summary, 3)
    assert os.path.getsize(path) > start   # the third event flushed the queue
    writer.add_summary(summary, 4)
    size = os.path.getsize(path)
    writer.flush()
    assert os.path.getsize(path) > size
    writer.close()
    writer.close()
    with pytest.raises(RuntimeError, match="closed: call reopen"):
        writer.add_summary(summary, 5)


def test_reopen_starts_a_new_file_in_the_same_directory(tmp_path, monkeypatch):
    writer = tf.summary.FileWriter(str(tmp_path), filename_suffix=".a")
    writer.close()
    times = iter([4102444800.0, 4102444800.5, 4102444801.0])
    monkeypatch.setattr("s2sgrad.summary.writer.time.time", lambda: next(times))
    writer.reopen()
    writer.add_summary(b"", 1)
    writer.close()
    assert len(_event_files(str(tmp_path))) == 2
    assert os.path.basename(_event_files(str(tmp_path))[1]).startswith("events.out.tfevents.4102444800.")


def test_the_file_writer_cache_shares_one_writer_per_directory(tmp_path):
    tf.summary.FileWriterCache.clear()
    a = tf.summary.FileWriterCache.get(str(tmp_path))
    assert tf.summary.FileWriterCache.get(str(tmp_path) + "/") is a is tf.train.SummaryWriterCache.get(str(tmp_path))
    assert tf.summary.FileWriterCache.get(str(tmp_path / "other")) is not a
    tf.summary.FileWriterCache.clear()
    with pytest.raises(RuntimeError, match="closed"):
        a.add_summary(b"", 1)


def test_bad_arguments_are_refused(tmp_path):
    with pytest.raises(TypeError, match="logdir must be a directory path"):
        tf.summary.FileWriter(3)
    with pytest.raises(ValueError, match="max_queue"):
        tf.summary.FileWriter(str(tmp_path), max_queue=-1)
    with pytest.raises(ValueError, match="flush_secs"):
        tf.summary.FileWriter(str(tmp_path), flush_secs="soon")
    with pytest.raises(TypeError, match="filename_suffix"):
        tf.summary.FileWriter(str(tmp_path), filename_suffix=1)
    with pytest.raises(NotImplementedError, match="session="):
        tf.summary.FileWriter(str(tmp_path), session=object())
    with tf.summary.FileWriter(str(tmp_path)) as writer:
        with pytest.raises(TypeError, match="summary must be serialized bytes"):
            writer.add_summary(1.5, 1)
        with pytest.raises(TypeError, match="global_step must be an int"):
            writer.add_summary(b"", 1.5)
        with pytest.raises(ValueError, match="only graph or graph_def"):
            writer.add_graph(tf.Graph(), graph_def=b"")
        with pytest.raises(TypeError, match="graph must be a tf.Graph"):
            writer.add_graph("graph")
        with pytest.raises(TypeError, match="tag must be a string"):
            writer.add_run_metadata(None, 3)
    with pytest.raises(ValueError, match="SessionLog status"):
        tf.SessionLog(status=7)


def test_summary_messages_built_by_hand_and_parsed_from_ops(tmp_path):
    summary = tf.Summary(value=[tf.Summary.Value(tag="accuracy", simple_value=0.75)])
    summary.value.add(tag="h", histo=tf.HistogramProto(min=-1, max=2, num=2, sum=1, sum_squares=5,
                                                       bucket_limit=[0.0, 2.5], bucket=[1, 1]))
    with tf.summary.FileWriter(str(tmp_path)) as writer:
        writer.add_summary(summary, 2)
    (written,) = [e["summary"] for e in events(str(tmp_path)) if "summary" in e]
    assert [v["tag"] for v in written] == ["accuracy", "h"] and written[0]["simple_value"] == 0.75
    assert list(written[1]["histo"]["bucket"]) == [1.0, 1.0] and written[1]["histo"]["sum_squares"] == 5.0
    with tf.Graph().as_default():
        images = np.zeros((1, 2, 2, 3), np.uint8)
        merged = tf.summary.merge([tf.summary.scalar("loss", 0.5), tf.summary.histogram("w", [1.0, 2.0]),
                                   tf.summary.image("img", images), tf.summary.text("t", "a")])
        with tf.Session() as sess:
            serialized = sess.run(merged)
    parsed = tf.summary.Summary.FromString(serialized)
    assert [v.tag for v in parsed.value] == ["loss", "w", "img/image/0", "t"]
    assert parsed.value[0].HasField("simple_value") and parsed.value[0].simple_value == 0.5
    assert (parsed.value[1].histo.num, parsed.value[1].histo.max) == (2.0, 2.0)
    assert (parsed.value[2].image.height, parsed.value[2].image.colorspace) == (2, 3)
    assert parsed.SerializeToString() == serialized   # the text value's fields kept as they were
    image = tf.Summary.Image(height=2, width=2, colorspace=3,
                             encoded_image_string=parsed.value[2].image.encoded_image_string)
    again = tf.Summary(value=[tf.Summary.Value(tag="img/image/0", image=image)])
    assert again.SerializeToString() == tf.Summary(value=[parsed.value[2]]).SerializeToString()
    with pytest.raises(TypeError, match="simple_value must be a number"):
        tf.Summary.Value(tag="a", simple_value="high")
