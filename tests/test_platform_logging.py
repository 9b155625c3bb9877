"""tf.logging: TF-1.x's functions on Python's logger "tensorflow" (as TF 2.21's tf.compat.v1.logging)."""
import logging
import os
import subprocess
import sys

import pytest

import s2sgrad as tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def tf_logger():
    logger = logging.getLogger("tensorflow")
    level = logger.level
    yield logger
    logger.setLevel(level)


def test_constants_and_the_logger_name():
    assert (tf.logging.DEBUG, tf.logging.INFO, tf.logging.WARN, tf.logging.ERROR, tf.logging.FATAL) == (
        10, 20, 30, 40, 50)
    assert tf.get_logger() is logging.getLogger("tensorflow")


def test_verbosity(tf_logger):
    tf.logging.set_verbosity(tf.logging.INFO)
    assert tf.logging.get_verbosity() == 20 == tf_logger.level
    tf.logging.set_verbosity(5)
    assert tf.logging.get_verbosity() == 5
    with pytest.raises(ValueError, match="Unknown level: 'bad'"):
        tf.logging.set_verbosity("bad")
    assert tf.logging.get_verbosity() == 5


def test_messages_reach_the_tensorflow_logger(tf_logger, caplog):
    tf.logging.set_verbosity(tf.logging.INFO)
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        tf.logging.info("hello %s", "world")
        tf.logging.warn("w %d", 3)
        tf.logging.warning("w2")
        tf.logging.error("e")
        tf.logging.fatal("fat")   # logs; does not exit (as TF)
        tf.logging.debug("dbg")   # below the verbosity
        tf.logging.log(tf.logging.ERROR, "via log")
        tf.logging.log_if(tf.logging.INFO, "if %d", True, 1)
        tf.logging.log_if(tf.logging.INFO, "not shown", False)
        tf.logging.vlog(tf.logging.INFO, "v")
    assert [(r.name, r.levelname, r.getMessage()) for r in caplog.records] == [
        ("tensorflow", "INFO", "hello world"), ("tensorflow", "WARNING", "w 3"), ("tensorflow", "WARNING", "w2"),
        ("tensorflow", "ERROR", "e"), ("tensorflow", "CRITICAL", "fat"), ("tensorflow", "ERROR", "via log"),
        ("tensorflow", "INFO", "if 1"), ("tensorflow", "INFO", "v")]
    assert {os.path.basename(r.pathname) for r in caplog.records} == {"test_platform_logging.py"}


def test_log_every_n_and_first_n_count_per_call_site(tf_logger, caplog):
    # TF 2.21 shares one counter between the two calls below (so it logs every "every" line and one
    # "first" line); s2sgrad counts each call site, as the functions' documentation says
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        for i in range(5):
            tf.logging.log_every_n(tf.logging.INFO, "every %d", 2, i)
            tf.logging.log_first_n(tf.logging.INFO, "first %d", 2, i)
    assert [r.getMessage() for r in caplog.records] == ["every 0", "first 0", "first 1", "every 2", "every 4"]


def test_a_program_prints_as_tf_on_stderr():
    program = ("import s2sgrad as tf\n"
               "tf.logging.info('hidden')\n"
               "tf.logging.set_verbosity(tf.logging.INFO)\n"
               "tf.logging.info('hello %s', 'world')\n"
               "tf.logging.warn('w %d', 3)\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT)
    expected_stderr = "INFO:tensorflow:hello world\nWARNING:tensorflow:w 3\n"
    assert (done.returncode, done.stdout, done.stderr) == (0, "", expected_stderr)
