"""Word embeddings, skip-gram style: each word predicts its neighbours through an embedding lookup
and a full softmax over the vocabulary; the nearest words by cosine similarity are printed at the end.
The text is made up from a few sentence patterns, so words of one kind share their contexts."""
import collections

import numpy as np
import s2sgrad as tf

rng = np.random.RandomState(5)
kinds = {
    'animal': ['cat', 'dog', 'horse', 'cow'],
    'colour': ['red', 'green', 'blue', 'yellow'],
    'number': ['two', 'three', 'four', 'five'],
    'food': ['apples', 'bread', 'grass', 'rice'],
}
patterns = [['the', 'colour', 'animal', 'eats', 'number', 'food'],
            ['number', 'animal', 'like', 'colour', 'food'],
            ['a', 'animal', 'sees', 'the', 'colour', 'food']]

words = []
for _ in range(300):
    for slot in patterns[rng.randint(len(patterns))]:
        words.append(kinds[slot][rng.randint(4)] if slot in kinds else slot)
print('Data size', len(words))


def build_dataset(words):
    count = collections.Counter(words).most_common()
    dictionary = {}
    for word, _ in sorted(count, key=lambda pair: (-pair[1], pair[0])):
        dictionary[word] = len(dictionary)
    data = [dictionary[word] for word in words]
    reverse_dictionary = dict(zip(dictionary.values(), dictionary.keys()))
    return data, count, dictionary, reverse_dictionary


data, count, dictionary, reverse_dictionary = build_dataset(words)
vocabulary_size = len(dictionary)
print('Vocabulary size', vocabulary_size)

# (centre word, context word) pairs with a window of one word on each side.
pairs = np.array([(data[i], data[i + offset]) for i in range(1, len(data) - 1) for offset in (-1, 1)])
data_index = 0


def generate_batch(batch_size):
    global data_index
    index = (data_index + np.arange(batch_size)) % len(pairs)
    data_index = (data_index + batch_size) % len(pairs)
    return pairs[index, 0], pairs[index, 1]


batch_size = 128
embedding_size = 8
valid_words = ['cat', 'red', 'two', 'bread']
valid_examples = np.array([dictionary[w] for w in valid_words])

train_inputs = tf.placeholder(tf.int32, shape=[batch_size])
train_labels = tf.placeholder(tf.int32, shape=[batch_size])
valid_dataset = tf.constant(valid_examples, dtype=tf.int32)

with tf.device('/cpu:0'):
    embeddings = tf.Variable(rng.uniform(-1.0, 1.0, (vocabulary_size, embedding_size)).astype(np.float32))
    embed = tf.nn.embedding_lookup(embeddings, train_inputs)

softmax_weights = tf.Variable((rng.randn(vocabulary_size, embedding_size) / np.sqrt(embedding_size))
                              .astype(np.float32))
softmax_biases = tf.Variable(np.zeros([vocabulary_size], np.float32))
logits = tf.matmul(embed, tf.transpose(softmax_weights)) + softmax_biases
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=train_labels, logits=logits))

optimizer = tf.train.GradientDescentOptimizer(1.0).minimize(loss)

norm = tf.sqrt(tf.reduce_sum(tf.square(embeddings), 1, keep_dims=True))
normalized_embeddings = embeddings / norm
valid_embeddings = tf.nn.embedding_lookup(normalized_embeddings, valid_dataset)
similarity = tf.matmul(valid_embeddings, normalized_embeddings, transpose_b=True)

init = tf.global_variables_initializer()
num_steps = 601

with tf.Session() as session:
    init.run()
    average_loss = 0
    for step in range(num_steps):
        batch_inputs, batch_labels = generate_batch(batch_size)
        _, loss_val = session.run([optimizer, loss], {train_inputs: batch_inputs, train_labels: batch_labels})
        average_loss += loss_val
        if step % 100 == 0:
            if step > 0:
                average_loss /= 100
            print('Average loss at step ', step, ': ', average_loss)
            average_loss = 0
    sim = similarity.eval()
    for i, word in enumerate(valid_words):
        nearest = (-sim[i, :]).argsort()[1:4]
        print('Nearest to %s: %s' % (word, ', '.join(reverse_dictionary[k] for k in nearest)))
    print('similarity cat-dog %.5f, cat-red %.5f' % (sim[0, dictionary['dog']], sim[0, dictionary['red']]))
