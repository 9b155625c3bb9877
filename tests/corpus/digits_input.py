"""scikit-learn's bundled handwritten digits, served the way the TF-1.x tutorials served MNIST.

``read_data_sets(one_hot=True)`` returns ``.train`` and ``.test``, each with ``images`` (float32 in
[0, 1], 64 pixels a row), ``labels`` (one-hot or class numbers) and ``next_batch(n)``, which walks the
training set in a fixed order. The data is the file scikit-learn ships (what
``sklearn.datasets.load_digits()`` returns; tests/test_corpus.py checks that), read directly because
importing scikit-learn itself loads SciPy and costs more than a second per program.
"""
import importlib.util
import os

import numpy as np

TRAIN_SIZE = 1437  # 80% of the 1797 images; the other 360 are the test set


class DataSet:
    """Images and labels, with a cursor for ``next_batch``."""

    def __init__(self, images: np.ndarray, labels: np.ndarray):
        self.images = images
        self.labels = labels
        self.num_examples = len(images)
        self._cursor = 0

    def next_batch(self, batch_size: int):
        """The next ``batch_size`` examples, wrapping around at the end of the set."""
        index = (self._cursor + np.arange(batch_size)) % self.num_examples
        self._cursor = (self._cursor + batch_size) % self.num_examples
        return self.images[index], self.labels[index]


class DataSets:
    def __init__(self, train: DataSet, test: DataSet):
        self.train = train
        self.test = test


def digits_file() -> str:
    """Path of the digits CSV inside the installed scikit-learn (found without importing it)."""
    spec = importlib.util.find_spec("sklearn")
    if spec is None or spec.origin is None:
        raise ImportError("the corpus needs scikit-learn's bundled digits: pip install -e '.[test]'")
    return os.path.join(os.path.dirname(spec.origin), "datasets", "data", "digits.csv.gz")


def load_digits():
    """(images, targets): 1797 rows of 64 pixel values 0..16, and their classes 0..9."""
    table = np.loadtxt(digits_file(), delimiter=",")
    return table[:, :-1], table[:, -1].astype(np.int64)


def read_data_sets(one_hot: bool = False) -> DataSets:
    """Train and test sets from one fixed shuffle of the digits."""
    pixels, targets = load_digits()
    order = np.random.RandomState(0).permutation(len(pixels))
    images = (pixels[order] / 16.0).astype(np.float32)
    labels = np.eye(10, dtype=np.float32)[targets[order]] if one_hot else targets[order]
    return DataSets(DataSet(images[:TRAIN_SIZE], labels[:TRAIN_SIZE]),
                    DataSet(images[TRAIN_SIZE:], labels[TRAIN_SIZE:]))
