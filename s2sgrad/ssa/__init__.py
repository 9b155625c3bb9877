"""The SSA IR as data: Operations and their Tensors in a Graph, its printer and its verifier."""
