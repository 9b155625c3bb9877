"""Second-order optimisation with tf.gradients and tf.hessians: Newton's method for logistic
regression (the graph gives gradient and Hessian, NumPy solves for the step; a few steps reach the
optimum, as the gradient norm shows), plus gradients with grad_ys and through tf.stop_gradient."""
import numpy as np
import s2sgrad as tf

rng = np.random.RandomState(17)
n, d = 120, 3
features = np.hstack([rng.randn(n, d - 1), np.ones((n, 1))]).astype(np.float64)
true_w = np.array([1.5, -2.0, 0.3])
targets = (rng.rand(n) < 1.0 / (1.0 + np.exp(-features.dot(true_w)))).astype(np.float64)

X = tf.placeholder(tf.float64, [None, d])
t = tf.placeholder(tf.float64, [None])
w = tf.Variable(np.zeros(d), name="w")

logits = tf.reduce_sum(X * w, reduction_indices=1)
loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=t, logits=logits)) + 0.01 * tf.reduce_sum(w * w)
grad = tf.gradients(loss, w)[0]
hess = tf.hessians(loss, w)[0]
newton_step = tf.placeholder(tf.float64, [d])
update = tf.assign_sub(w, newton_step)

feed = {X: features, t: targets}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for it in range(6):
        loss_value, grad_value, hess_value = sess.run([loss, grad, hess], feed)
        print("iteration %d: loss %.10f, |gradient| %.3e" % (it, loss_value, np.linalg.norm(grad_value)))
        sess.run(update, {newton_step: np.linalg.solve(hess_value, grad_value)})
    print("w =", sess.run(w))
    print("Hessian eigenvalues:", np.linalg.eigvalsh(sess.run(hess, feed)))

# Gradients with a given upstream gradient (grad_ys), and through stop_gradient.
a = tf.placeholder(tf.float32, [3])
b = tf.constant([1.0, 2.0, 3.0])
f = a * a * b
weighted = tf.gradients(f, a, grad_ys=tf.constant([1.0, 0.5, 0.25]))[0]
frozen = tf.gradients(tf.reduce_sum(tf.stop_gradient(a * a) * a), a)[0]
second = tf.hessians(tf.reduce_sum(tf.pow(a, 3)), a)[0]
with tf.Session() as sess:
    values = {a: [1.0, -2.0, 0.5]}
    print("grad_ys:", sess.run(weighted, values))
    print("stop_gradient:", sess.run(frozen, values))
    print("hessian of sum(a^3):", sess.run(second, values).tolist())
