"""tf.resource_loader: data files next to the calling script (as TF 2.21's tf.compat.v1.resource_loader)."""
import os
import subprocess
import sys

import pytest

import s2sgrad as tf

HERE = os.path.dirname(os.path.abspath(__file__))


def test_paths_are_relative_to_the_calling_script():
    assert tf.resource_loader.get_data_files_path() == HERE
    assert tf.resource_loader.get_path_to_datafile("data/x.txt") == os.path.join(HERE, "data", "x.txt")
    assert tf.resource_loader.readahead_file_path("/a/b") == "/a/b"


def test_code_without_a_file_gets_relative_paths():
    program = ("import s2sgrad as tf\n"
               "loader = tf.resource_loader\n"
               "print(repr(loader.get_data_files_path()), loader.get_path_to_datafile('x.txt'))")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          cwd=os.path.dirname(HERE))
    assert (done.returncode, done.stdout) == (0, "'' x.txt\n"), done.stderr


def test_load_resource_reads_under_the_package_root():
    root = tf.resource_loader.get_root_dir_with_all_resources()
    assert root == os.path.dirname(os.path.abspath(tf.__file__))
    assert tf.resource_loader.load_resource("py.typed") == open(os.path.join(root, "py.typed"), "rb").read()
    with pytest.raises(FileNotFoundError):
        tf.resource_loader.load_resource("nope")
