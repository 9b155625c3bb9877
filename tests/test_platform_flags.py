"""tf.flags / tf.app.flags and tf.app.run.

Values and messages recorded from TensorFlow 2.21's ``tf.compat.v1.flags`` (absl flags under
TF-1.x's wrapper) and ``tf.compat.v1.app.run``; the exception classes are s2sgrad's own
(``tf.flags.IllegalFlagValueError`` etc., named as absl's).
"""
import os
import subprocess
import sys
import textwrap

import pytest

import s2sgrad as tf
from s2sgrad.platform.flags import FlagValues

flags = tf.flags
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def fv():
    """A private registry with the flags every test below reads."""
    values = FlagValues()
    flags.DEFINE_string("name", "def", "a name", flag_values=values)
    flags.DEFINE_integer("steps", 10, "steps", lower_bound=0, flag_values=values)
    flags.DEFINE_float("lr", 0.1, "lr", flag_values=values)
    flags.DEFINE_boolean("fast", False, "fast", flag_values=values)
    flags.DEFINE_bool("slow", True, "slow", flag_values=values)
    flags.DEFINE_list("layers", "1,2", "layers", flag_values=values)
    flags.DEFINE_enum("mode", "train", ["train", "eval"], "mode", flag_values=values)
    flags.DEFINE_string("nodef", None, "no default", flag_values=values)
    return values


def test_the_namespaces():
    assert tf.app.flags is tf.flags
    assert tf.flags.FLAGS is tf.app.flags.FLAGS


def test_a_full_command_line(fv):
    rest = fv(["prog", "--name=x", "--steps", "5", "--fast", "--noslow", "rest1", "--lr=1e-3", "--layers=a,b,,c",
               "--mode=eval", "rest2"])
    assert rest == ["prog", "rest1", "rest2"]
    assert (fv.name, fv.steps, fv.lr, fv.fast, fv.slow, fv.layers, fv.mode, fv.nodef) == (
        "x", 5, 0.001, True, False, ["a", "b", "", "c"], "eval", None)
    assert fv.is_parsed()


@pytest.mark.parametrize("argv, rest, name, value", [
    (["prog", "--", "--name=y"], ["prog", "--name=y"], "name", "def"),
    (["prog", "--fast=false"], ["prog"], "fast", False),
    (["prog", "--fast=1"], ["prog"], "fast", True),
    (["prog", "--fast", "false"], ["prog", "false"], "fast", True),   # a bool takes no separate value
    (["prog", "-steps=4"], ["prog"], "steps", 4),
    (["prog", "--name="], ["prog"], "name", ""),
    (["prog", "--name", "--steps=3"], ["prog"], "name", "--steps=3"),   # the next word is the value
    (["prog", "--layers="], ["prog"], "layers", []),
    (["prog", "--steps=0x10"], ["prog"], "steps", 16),
    (["prog", "--steps= 7"], ["prog"], "steps", 7),
    (["prog", "--lr=3"], ["prog"], "lr", 3.0),
    (["prog", "--steps=3", "--steps=4"], ["prog"], "steps", 4),
    (["prog", "-", "x"], ["prog", "-", "x"], "steps", 10),
])
def test_spellings(fv, argv, rest, name, value):
    assert fv(argv) == rest
    assert getattr(fv, name) == value


@pytest.mark.parametrize("argv, error, message", [
    (["prog", "--steps=abc"], flags.IllegalFlagValueError,
     "flag --steps=abc: invalid literal for int() with base 10: 'abc'"),
    (["prog", "--steps=-1"], flags.IllegalFlagValueError, "flag --steps=-1: -1 is not a non-negative integer"),
    (["prog", "--lr=abc"], flags.IllegalFlagValueError, "flag --lr=abc: could not convert string to float: 'abc'"),
    (["prog", "--mode=bad"], flags.IllegalFlagValueError, "flag --mode=bad: value should be one of <train|eval>"),
    (["prog", "--mode=EVAL"], flags.IllegalFlagValueError, "flag --mode=EVAL: value should be one of <train|eval>"),
    (["prog", "--steps=1e3"], flags.IllegalFlagValueError, "flag --steps=1e3: invalid literal for int()"),
    (["prog", "--fast=yes"], flags.IllegalFlagValueError, "flag --fast=yes: non-boolean argument 'yes'"),
    (["prog", "--unknown=3"], flags.UnrecognizedFlagError, "Unknown command line flag 'unknown'"),
    (["prog", "--nounknown"], flags.UnrecognizedFlagError, "Unknown command line flag 'nounknown'"),
    (["prog", "--noname"], flags.UnrecognizedFlagError, "Unknown command line flag 'noname'. Did you mean: name ?"),
    (["prog", "--help"], flags.UnrecognizedFlagError, "Unknown command line flag 'help'"),
    (["prog", "--steps"], flags.Error, "Missing value for flag --steps"),
    (["prog", "--nofast=1"], ValueError, "--nofast=1 does not take an argument"),
    ([], ValueError, "argv cannot be an empty list, and must contain the program name as the first element."),
    ("prog", TypeError, "argv should be a tuple/list of strings, not bytes or string."),
])
def test_bad_command_lines(fv, argv, error, message):
    with pytest.raises(error) as info:
        fv(argv)
    assert str(info.value).startswith(message)


def test_a_failed_parse_changes_no_value(fv):
    fv(["prog", "--name=first"])
    with pytest.raises(flags.IllegalFlagValueError):
        fv(["prog", "--name=changed", "--steps=x"])
    with pytest.raises(flags.UnrecognizedFlagError):
        fv(["prog", "--name=changed", "--what"])
    assert (fv.name, fv.steps) == ("first", 10)


def test_known_only_keeps_undefined_flags_and_the_separator(fv):
    assert fv(["prog", "--unknown=1", "a", "--steps=2", "--", "--name=z"], known_only=True) == [
        "prog", "--unknown=1", "a", "--", "--name=z"]
    assert (fv.steps, fv.name) == (2, "def")


def test_defining(fv):
    with pytest.raises(flags.DuplicateFlagError, match="The flag 'name' is defined twice. First from "
                       "test_platform_flags.py, second from test_platform_flags.py. Description from first "
                       "occurrence: a name"):
        flags.DEFINE_string("name", "x", "dup", flag_values=fv)
    with pytest.raises(flags.IllegalFlagValueError, match="flag --bad=abc: invalid literal for int"):
        flags.DEFINE_integer("bad", "abc", "bad default", flag_values=fv)
    with pytest.raises(flags.IllegalFlagValueError, match="flag --bad2=1.5: expected a string or int, found float"):
        flags.DEFINE_integer("bad2", 1.5, "bad default", flag_values=fv)
    with pytest.raises(flags.IllegalFlagValueError, match="flag --e2=z: value should be one of <a>"):
        flags.DEFINE_enum("e2", "z", ["a"], "bad default", flag_values=fv)
    with pytest.raises(flags.IllegalFlagValueError, match="flag --b2=maybe: non-boolean argument"):
        flags.DEFINE_boolean("b2", "maybe", "bad default", flag_values=fv)
    with pytest.raises(flags.Error, match="Flag name cannot be empty"):
        flags.DEFINE_integer("", 1, "x", flag_values=fv)
    assert "bad" not in fv and "e2" not in fv   # a refused definition registers nothing
    flags.DEFINE_boolean("b3", "true", "str default", flag_values=fv)
    flags.DEFINE_float("f2", 1, "int default", flag_values=fv)
    flags.DEFINE_list("l2", ["a", "b"], "list default", flag_values=fv)
    holder = flags.DEFINE_integer("Bad-Name", 1, "x", flag_values=fv)
    flags.DEFINE_string("req", "r", "required", flag_values=fv, required=True)
    fv(["prog"])
    assert (fv.b3, fv.f2, fv.l2, holder.value, fv.req) == (True, 1.0, ["a", "b"], 1, "r")
    assert str(flags.UnrecognizedFlagError("x", "--x=1", ["y"])) == "Unknown command line flag 'x'. Did you mean: y ?"


def test_reading_and_setting_values(fv):
    fv(["prog"])
    with pytest.raises(AttributeError, match="missing"):
        _ = fv.missing
    fv.steps = 99
    assert fv.steps == 99 and fv["steps"].value == 99 and fv.flag_values_dict()["steps"] == 99
    with pytest.raises(flags.UnrecognizedFlagError, match="Unknown command line flag 'nosuch'"):
        fv.nosuch = 1
    assert "steps" in fv and len(fv) == 8 and "steps" in list(fv)
    fv.unparse_flags()
    assert not fv.is_parsed()


def test_the_first_read_parses_sys_argv_as_tf1(fv, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["prog", "--steps=3"])
    assert not fv.is_parsed()
    assert fv.steps == 3
    assert fv.is_parsed()
    fv.unparse_flags()
    assert fv.steps == 3   # parsed again


# -- tf.app.run, end to end in a subprocess -----------------------------------------------------------

PROGRAM = textwrap.dedent('''
    import s2sgrad as tf

    tf.app.flags.DEFINE_integer("steps", 10, "number of steps")
    tf.app.flags.DEFINE_string("name", "n", "a name")
    tf.flags.DEFINE_boolean("verbose", False, "talk more")
    FLAGS = tf.app.flags.FLAGS


    def main(argv):
        x = tf.placeholder(tf.float32, [])
        with tf.Session() as sess:
            value = sess.run(x * FLAGS.steps, {x: 2.0})
        print("main", argv[1:], FLAGS.steps, FLAGS.name, FLAGS.verbose, value)
        return 3 if FLAGS.name == "three" else None


    if __name__ == "__main__":
        tf.app.run()
''')


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "train.py"
    path.write_text(PROGRAM)
    return path


def run_program(path, *args):
    return subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": ROOT})


@pytest.mark.parametrize("args, stdout, code", [   # as TF 2.21's tf.compat.v1.app.run
    ([], "main [] 10 n False 20.0\n", 0),
    (["--steps=4", "extra", "--name=three", "--verbose"], "main ['extra'] 4 three True 8.0\n", 3),
    (["--unknown=1", "a"], "main ['--unknown=1', 'a'] 10 n False 20.0\n", 0),
    (["--", "--steps=5"], "main ['--', '--steps=5'] 10 n False 20.0\n", 0),
    (["--steps", "7", "--noverbose"], "main [] 7 n False 14.0\n", 0),
])
def test_app_run_parses_the_command_line_and_exits_with_mains_result(program, args, stdout, code):
    done = run_program(program, *args)
    assert (done.stdout, done.returncode) == (stdout, code), done.stderr


def test_app_run_with_a_bad_value_fails_naming_the_flag(program):
    done = run_program(program, "--steps=x")
    assert done.returncode == 1 and done.stdout == ""
    assert "IllegalFlagValueError: flag --steps=x: invalid literal for int() with base 10: 'x'" in done.stderr


def test_app_run_help_lists_the_flags_and_exits_1(program):
    done = run_program(program, "--help")
    assert done.returncode == 1
    assert "--steps: number of steps\n    (default: '10')" in done.stdout
    assert "--verbose: talk more\n    (default: 'false')" in done.stdout


def test_app_run_takes_main_and_argv(fv, monkeypatch):
    seen = []
    monkeypatch.setattr(flags, "FLAGS", fv)   # app.run parses into tf.flags.FLAGS
    with pytest.raises(SystemExit) as exit_info:
        tf.app.run(main=lambda argv: seen.append((argv, fv.steps)) or 5, argv=["prog", "--steps=2", "x"])
    assert exit_info.value.code == 5
    assert seen == [(["prog", "x"], 2)]


def test_required_flags(fv):
    flags.DEFINE_string("data_dir", None, "data", flag_values=fv)
    flags.mark_flag_as_required("data_dir", flag_values=fv)
    with pytest.raises(flags.IllegalFlagValueError,
                       match="flag --data_dir=None: Flag --data_dir must have a value other than None."):
        fv(["prog", "--steps=3"])
    assert not fv.is_parsed()
    assert fv(["prog", "--data_dir=/x"]) == ["prog"] and fv.data_dir == "/x"
    with pytest.raises(KeyError, match="no flag named 'nope'"):
        flags.mark_flag_as_required("nope", flag_values=fv)


def test_old_programs_list_the_flags_through_dunder_flags(fv):
    fv(["prog", "--steps=3"])
    listed = {name: flag.value for name, flag in sorted(fv.__flags.items())}   # as TF-1.x tutorials print them
    assert listed["steps"] == 3 and listed["name"] == "def" and len(listed) == 8
