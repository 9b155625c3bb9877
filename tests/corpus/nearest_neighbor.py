"""Nearest-neighbour classification of the digits with an L1 distance built from tf ops, one test
image per run, and no training at all."""
import numpy as np
import s2sgrad as tf

from digits_input import read_data_sets

digits = read_data_sets(one_hot=True)
Xtr, Ytr = digits.train.images, digits.train.labels
Xte, Yte = digits.test.images[:120], digits.test.labels[:120]

xtr = tf.placeholder("float", [None, 64])
xte = tf.placeholder("float", [64])

distance = tf.reduce_sum(tf.abs(tf.add(xtr, tf.negative(xte))), reduction_indices=1)
pred = tf.arg_min(distance, 0)
nearest_distance = tf.reduce_min(distance)

accuracy = 0.
init = tf.global_variables_initializer()
with tf.Session() as sess:
    sess.run(init)
    for i in range(len(Xte)):
        nn_index, d = sess.run([pred, nearest_distance], feed_dict={xtr: Xtr, xte: Xte[i, :]})
        if i % 20 == 0:
            print("Test", i, "Prediction:", np.argmax(Ytr[nn_index]), "True Class:", np.argmax(Yte[i]),
                  "distance: %.4f" % d)
        if np.argmax(Ytr[nn_index]) == np.argmax(Yte[i]):
            accuracy += 1. / len(Xte)
    print("Done!")
    print("Accuracy:", accuracy)
