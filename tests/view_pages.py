"""Programs the view-page tests show, and readers of a page's rows and link table."""
import html
import json
import re
import textwrap

TRAIN = textwrap.dedent('''\
    import numpy as np
    import s2sgrad as tf

    x = tf.placeholder(tf.float32, shape=[None, 2], name="x")
    y = tf.placeholder(tf.float32, shape=[None], name="y")
    w = tf.Variable(np.array([0.5, -0.25], np.float32), name="w")
    b = tf.Variable(1.5, name="b")
    pred = tf.reduce_sum(x * w, axis=1) + tf.stop_gradient(b)
    loss = tf.reduce_mean(tf.square(pred - y), name="loss")
    grad_w, grad_b = tf.gradients(loss, [w, b])
    feed = {x: [[1.0, 2.0], [3.0, -1.0]], y: [1.0, 2.0]}
    if __name__ == "__main__":
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print("values", sess.run([loss, grad_w], feed))
''')
LOSS_LINE, GRADIENTS_LINE, STOP_LINE = 9, 10, 8

DECORATED = textwrap.dedent('''\
    import numpy as np
    import s2sgrad


    def energy(x, y):
        z = np.tanh(x) * y
        return np.sum(z ** 2)


    g = s2sgrad.grad(energy)
''')


def rows(page):
    """row id -> its text (line numbers left out), for every row of the page's three columns."""
    found = re.findall(r'<span class="row" id="([^"]+)"[^>]*>(?:<span class="num">\d+</span>)?(.*?)</span>', page)
    return {row: html.unescape(text) for row, text in found}


def links(page):
    return json.loads(re.search(r'<script type="application/json" id="links">(.*?)</script>', page, re.S).group(1))


def why_note(page, row):
    """The explain note right below program row ``row`` (unescaped), or None."""
    note = re.search(rf'id="{row}"[^>]*><span class="num">\d+</span>[^<]*</span><span class="why">(.*?)</span>', page)
    return None if note is None else html.unescape(note.group(1))
