"""Determinism: the same program yields byte-identical generated source and IR text in any
process, whatever PYTHONHASHSEED (string and set ordering must never leak into the output)."""
from __future__ import annotations

import hashlib
import subprocess
import sys

from conftest import checkout_env

# Builds a program that touches the order-sensitive parts: many variables and slots, group,
# gradient aggregation, CSE and folding, string constants, name collisions, the decorator
# with keyword and dict arguments. Prints every generated module and IR text.
PROGRAM = r'''
import numpy as np
import s2sgrad as tf

x = tf.placeholder(tf.float32, [None, 4], name="x")
labels = tf.placeholder(tf.int32, [None], name="labels")
layers = []
h = x
for i, width in enumerate([5, 3, 2]):
    with tf.variable_scope(f"layer{i}"):
        w = tf.get_variable("w", [h.shape[1], width], initializer=tf.glorot_uniform_initializer(seed=i))
        b = tf.get_variable("b", [width], initializer=tf.zeros_initializer())
    h = tf.nn.relu(tf.matmul(h, w) + b) if i < 2 else tf.matmul(h, w) + b
    layers.append(h)
shared = tf.reduce_sum(x, axis=1, name="np")
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=h))
loss = loss + 1e-3 * tf.add_n([tf.nn.l2_loss(v) for v in tf.trainable_variables()]) + 0.0 * tf.reduce_sum(shared)
text = tf.constant(["é", "run", "'\n'"], name="text")
step = tf.train.AdamOptimizer(0.01).minimize(loss, global_step=tf.train.get_or_create_global_step())
grads = tf.gradients(loss, tf.trainable_variables() + [x])
everything = tf.group(*[v.initializer for v in tf.global_variables()])
feeds = {x: np.ones((3, 4), np.float32), labels: [0, 1, 1]}
print(str(tf.get_default_graph()))
print(tf.ir([loss] + grads, [x, labels]))
with tf.Session() as sess:
    sess.run(everything)
    for fetches in ([loss, text], grads, [step, loss], layers):
        print(sess.source(fetches, feeds))

def energy(w, data, **options):
    return np.sum(np.tanh(data["a"] @ w) * options["scale"]) + np.sum(data["b"] ** 2)

f = tf.value_and_grad(energy, wrt=(0, 1))
args = (np.ones((3, 2)), {"b": np.arange(2.0), "a": np.ones((4, 3))})
print(f.source(*args, scale=2.0))
print(f.ir(*args, scale=2.0))
'''


def _output(hash_seed: str) -> str:
    code = f"exec(compile({PROGRAM!r}, 'program.py', 'exec'))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            env=checkout_env(PYTHONHASHSEED=hash_seed))
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_generated_source_and_ir_are_byte_identical_across_processes():
    outputs = {seed: _output(seed) for seed in ("0", "1", "4242")}
    reference = outputs["0"]
    assert "def run(" in reference and "= Placeholder()" in reference and "grad(energy)" in reference
    for seed, text in outputs.items():
        assert hashlib.sha256(text.encode()).hexdigest() == hashlib.sha256(reference.encode()).hexdigest(), (
            seed, _first_difference(reference, text))


def test_the_same_program_built_twice_in_one_process_gives_the_same_text(capsys):
    texts = []
    for _ in range(2):
        namespace = {"__name__": "program"}
        with __import__("s2sgrad").Graph().as_default():
            exec(compile(PROGRAM, "program.py", "exec"), namespace)  # the test program
        texts.append(capsys.readouterr().out)
    assert texts[0] == texts[1], _first_difference(*texts)


def _first_difference(a: str, b: str) -> str:
    for i, (la, lb) in enumerate(zip(a.splitlines(), b.splitlines(), strict=False)):
        if la != lb:
            return f"line {i + 1}:\n{la}\n{lb}"
    return "lengths differ"
