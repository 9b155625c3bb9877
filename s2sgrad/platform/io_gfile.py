"""``tf.io.gfile``: TF2's lowercase names for the file functions of ``tf.gfile``."""
from __future__ import annotations

import os

from .gfile import (Copy as copy, DeleteRecursively as rmtree, Exists as exists, GFile, Glob as glob,
                    IsDirectory as isdir, ListDirectory as listdir, MakeDirs as makedirs, MkDir as mkdir,
                    Remove as remove, Rename as rename, Stat as stat, Walk as walk)

__all__ = ["GFile", "copy", "exists", "glob", "isdir", "join", "listdir", "makedirs", "mkdir", "remove", "rename",
           "rmtree", "stat", "walk"]

join = os.path.join
