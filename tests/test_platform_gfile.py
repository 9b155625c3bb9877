"""tf.gfile and tf.io.gfile on local files, with TF's error classes.

Error classes (and the messages where s2sgrad keeps TF's words) recorded from TensorFlow 2.21's
``tf.compat.v1.gfile`` run on the same files; s2sgrad sorts listings, which TF leaves unordered.
"""
import os
import pathlib

import pytest

import s2sgrad as tf

G = tf.gfile


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """a.txt, d/x.txt, d/sub/y.txt under a fresh current directory."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text("line1\nline2\nline3")
    (tmp_path / "d" / "sub").mkdir(parents=True)
    (tmp_path / "d" / "x.txt").write_text("x")
    (tmp_path / "d" / "sub" / "y.txt").write_text("y")
    return tmp_path


def test_queries(tree):
    assert G.Exists("a.txt") and not G.Exists("nope") and not G.Exists("")
    assert G.Exists(b"a.txt") and G.Exists(pathlib.Path("a.txt"))
    assert G.IsDirectory("d") and not G.IsDirectory("a.txt") and not G.IsDirectory("nope")
    assert G.ListDirectory("d") == ["sub", "x.txt"]
    assert G.Glob("d/*") == ["d/sub", "d/x.txt"]
    assert G.Glob("*.txt") == ["./a.txt"]   # TF's spelling of a match in the current directory
    assert G.Glob(["*.txt", "d/*.txt"]) == ["./a.txt", "d/x.txt"]
    assert G.Glob("nope/*") == [] and G.Glob("") == []
    stat = G.Stat("a.txt")
    assert (stat.length, stat.is_directory, stat.mtime_nsec > 0) == (17, False, True)
    assert G.Stat("d").is_directory


def test_walk(tree):
    assert list(G.Walk("d")) == [("d", ["sub"], ["x.txt"]), ("d/sub", [], ["y.txt"])]
    assert list(G.Walk("d", in_order=False)) == [("d/sub", [], ["y.txt"]), ("d", ["sub"], ["x.txt"])]
    assert list(G.Walk("d/"))[1][0] == "d/sub"
    assert list(G.Walk("nope")) == []


def test_making_and_deleting(tree):
    G.MkDir("d")              # an existing directory is fine, as in TF
    G.MkDir("m1")
    G.MakeDirs("m2/m3")
    G.MakeDirs("m2/m3")
    assert G.IsDirectory("m1") and G.IsDirectory("m2/m3")
    G.DeleteRecursively("m2")
    assert not G.Exists("m2")
    G.DeleteRecursively("a.txt")   # a file too
    assert not G.Exists("a.txt")


def test_copy_and_rename(tree):
    G.Copy("a.txt", "d/x.txt", overwrite=True)
    assert open("d/x.txt").read() == "line1\nline2\nline3"
    G.Rename("d/x.txt", "a2.txt")
    G.Rename("a2.txt", "a.txt", overwrite=True)
    assert not G.Exists("d/x.txt") and not G.Exists("a2.txt") and G.Exists("a.txt")
    G.Remove("a.txt")
    assert not G.Exists("a.txt")


NOT_FOUND, EXISTS = tf.errors.NotFoundError, tf.errors.AlreadyExistsError
PRECONDITION = tf.errors.FailedPreconditionError


@pytest.mark.parametrize("action, error, message", [
    (lambda: G.MkDir("n1/n2"), NOT_FOUND, "n1/n2; No such file or directory"),
    (lambda: G.MakeDirs("a.txt"), PRECONDITION, "a.txt is not a directory"),
    (lambda: G.MakeDirs("a.txt/q"), PRECONDITION, "a.txt is not a directory"),
    (lambda: G.ListDirectory("nope"), NOT_FOUND, "Could not find directory nope"),
    (lambda: G.ListDirectory("a.txt"), NOT_FOUND, "Could not find directory a.txt"),
    (lambda: G.Remove("nope"), NOT_FOUND, "nope; No such file or directory"),
    (lambda: G.Remove("d"), PRECONDITION, "d; Is a directory"),
    (lambda: G.Rename("nope", "b"), NOT_FOUND, "nope; No such file or directory"),
    (lambda: G.Rename("d/x.txt", "a.txt"), EXISTS, "a.txt: file already exists"),
    (lambda: G.Rename("d/sub", "d"), EXISTS, "d: file already exists"),
    (lambda: G.Copy("a.txt", "d/x.txt"), EXISTS, "d/x.txt: file already exists"),
    (lambda: G.Copy("nope", "q"), NOT_FOUND, "nope; No such file or directory"),
    (lambda: G.Copy("a.txt", "nodir/q"), NOT_FOUND, "nodir/q; No such file or directory"),
    (lambda: G.DeleteRecursively("nope"), NOT_FOUND, "nope not found"),
    (lambda: G.Stat("nope"), NOT_FOUND, "nope; No such file or directory"),
    (lambda: G.GFile("nope").read(), NOT_FOUND, "nope; No such file or directory"),
    (lambda: G.GFile("d").read(), PRECONDITION, "d; Is a directory"),
    (lambda: G.GFile("nodir/f", "w").write("a"), NOT_FOUND, "nodir/f; No such file or directory"),
    (lambda: G.GFile("a.txt", "x"), tf.errors.InvalidArgumentError, "GFile mode 'x' is not 'r' or 'w' or 'a'"),
    (lambda: G.GFile("a.txt", "r").write("x"), tf.errors.PermissionDeniedError, "File a.txt isn't open for writing"),
    (lambda: G.GFile("w.txt", "w").read(), tf.errors.PermissionDeniedError, "File w.txt isn't open for reading"),
    (lambda: G.Exists(3), TypeError, "Expected binary or unicode string, got 3"),
    (lambda: G.GFile(3), TypeError, "Expected binary or unicode string, got 3"),   # TF fails later
])
def test_errors_are_tfs(tree, action, error, message):
    with pytest.raises(error) as info:
        action()
    assert str(info.value).startswith(message)
    assert G.Exists("a.txt") and G.Exists("d/x.txt")   # a failed call changes nothing it was not asked to


def test_a_directory_rename_onto_a_non_empty_directory(tree):
    os.mkdir("m1")
    with pytest.raises(PRECONDITION, match="Directory not empty"):
        G.Rename("m1", "d", overwrite=True)
    assert G.IsDirectory("m1")


def test_reading(tree):
    assert G.GFile("a.txt").read() == "line1\nline2\nline3"
    assert G.GFile("a.txt", "rb").read() == b"line1\nline2\nline3"
    assert G.GFile("a.txt").readline() == "line1\n"
    assert list(G.GFile("a.txt")) == ["line1\n", "line2\n", "line3"]
    assert G.GFile("a.txt").readlines() == ["line1\n", "line2\n", "line3"]
    assert G.GFile("a.txt").read(3) == "lin" and G.GFile("a.txt").read(-1) == "line1\nline2\nline3"
    assert next(G.GFile(pathlib.Path("a.txt"))) == "line1\n"
    f = G.GFile("a.txt")
    assert f.readline() == "line1\n" and f.tell() == 6
    f.seek(0)
    assert f.read() == "line1\nline2\nline3"
    assert (f.size(), f.name, f.mode, f.seekable()) == (17, "a.txt", "r", True)
    f.close()
    assert f.read() == "line1\nline2\nline3"   # reopened, as TF does
    assert G.Open is G.GFile and G.FastGFile("a.txt").read() == "line1\nline2\nline3"


def test_writing(tree):
    with G.GFile("w.txt", "w") as f:
        f.write("hello")
        f.write(b" bytes")
        f.flush()
    assert open("w.txt").read() == "hello bytes"
    with G.GFile("w.txt", "a") as f:
        f.write("more")
    assert open("w.txt").read() == "hello bytesmore"
    with G.GFile("w.bin", "wb") as f:
        f.write(b"\x00\x01")
    assert open("w.bin", "rb").read() == b"\x00\x01"
    with G.GFile("w.txt", "r+") as f:
        assert f.read(5) == "hello"


def test_io_gfile_has_tf2s_lowercase_names(tree):
    io = tf.io.gfile
    assert sorted(io.__all__) == ["GFile", "copy", "exists", "glob", "isdir", "join", "listdir", "makedirs",
                                  "mkdir", "remove", "rename", "rmtree", "stat", "walk"]
    assert io.exists("a.txt") and io.isdir("d") and io.listdir("d") == ["sub", "x.txt"]
    assert io.glob("*.txt") == ["./a.txt"] and io.stat("a.txt").length == 17
    io.makedirs("z/z")
    io.mkdir("z")
    io.copy("a.txt", "z/a.txt")
    io.rename("z/a.txt", "z/b.txt")
    io.remove("z/b.txt")
    assert list(io.walk("z")) == [("z", ["z"], []), ("z/z", [], [])]
    io.rmtree("z")
    assert not io.exists("z")
    with pytest.raises(NOT_FOUND, match="nope not found"):
        io.rmtree("nope")
    with pytest.raises(EXISTS):
        io.copy("a.txt", "d/x.txt")
    assert io.join("a", "b") == os.path.join("a", "b")
    with io.GFile("a.txt") as f:
        assert f.readline() == "line1\n"


def test_io_gfile_walk_reports_errors_to_onerror(tree):
    seen = []
    assert list(tf.io.gfile.walk("nope", onerror=seen.append)) == []
    assert [type(e) for e in seen] == [NOT_FOUND] and "Could not find directory nope" in str(seen[0])
    assert list(tf.io.gfile.walk("d", topdown=False))[-1] == ("d", ["sub"], ["x.txt"])
