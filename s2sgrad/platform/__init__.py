"""What surrounds a TF-1.x model: devices, session configuration and program scaffolding
(``tf.app``, ``tf.flags``, ``tf.logging``, ``tf.gfile``). Nothing here depends on the graph."""
