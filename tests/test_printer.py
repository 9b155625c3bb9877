"""The statement printer gives exactly ``ast.unparse``'s text: on every statement the code
generator writes for the op corpus, and on random expression trees of the printed subset.
Wrapped into lines of a width, the text parses to the same tree, and generated code keeps
within ``MAX_LINE``."""
import ast

from hypothesis import given
from hypothesis import strategies as st

from optable import corpus_modules
from s2sgrad.codegen.emit import MAX_LINE
from s2sgrad.codegen.printer import print_lines, print_statement


def _statements(source: str) -> list:
    tree = ast.parse(source)
    run = next(node for node in tree.body if isinstance(node, ast.FunctionDef))
    return [s for s in run.body if isinstance(s, (ast.Assign, ast.Return))]


def test_every_generated_statement_prints_as_ast_unparse():
    checked = 0
    for case, module in corpus_modules():
        for stmt in _statements(module.source):
            assert print_statement(stmt) == ast.unparse(stmt), case.id
            checked += 1
        assert max(len(line) for line in module.source.splitlines()) <= MAX_LINE, module.source
    assert checked > 1000


_NAMES = st.sampled_from(["x", "y", "np", "rt", "g_w"]).map(lambda n: ast.Name(n, ast.Load()))
_CONSTANTS = st.one_of(st.integers(-3, 3), st.floats(allow_nan=True, allow_infinity=True, width=32),
                       st.booleans(), st.none(), st.text(max_size=3), st.just(Ellipsis),
                       st.complex_numbers(max_magnitude=2, allow_nan=False)).map(ast.Constant)
_BINOPS = [ast.Add, ast.Sub, ast.Mult, ast.MatMult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.BitAnd,
           ast.BitOr, ast.BitXor, ast.LShift, ast.RShift]
_CMPOPS = [ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.In, ast.NotIn]


def _compound(children):
    binop = st.builds(lambda left, op, right: ast.BinOp(left, op(), right), children, st.sampled_from(_BINOPS),
                      children)
    unary = st.builds(lambda op, v: ast.UnaryOp(op(), v), st.sampled_from([ast.USub, ast.UAdd, ast.Invert, ast.Not]),
                      children)
    compare = st.builds(lambda left, ops, rs: ast.Compare(left, [o() for o in ops], rs[:len(ops)] or [left]),
                        children, st.lists(st.sampled_from(_CMPOPS), min_size=1, max_size=2),
                        st.lists(children, min_size=2, max_size=2))
    call = st.builds(lambda f, args, kw: ast.Call(f, args, [ast.keyword("axis", kw)]), children,
                     st.lists(children, max_size=2), children)
    attribute = st.builds(lambda v: ast.Attribute(v, "T", ast.Load()), children)
    index = st.one_of(children, st.builds(lambda a, b: ast.Slice(a, b, None), children, children),
                      st.builds(lambda e: ast.Tuple(e, ast.Load()), st.lists(children, max_size=3)))
    subscript = st.builds(lambda v, i: ast.Subscript(v, i, ast.Load()), children, index)
    tuple_ = st.builds(lambda e: ast.Tuple(e, ast.Load()), st.lists(children, max_size=3))
    list_ = st.builds(lambda e: ast.List(e, ast.Load()), st.lists(children, max_size=3))
    return st.one_of(binop, unary, compare, call, attribute, subscript, tuple_, list_)


_EXPRESSIONS = st.recursive(st.one_of(_NAMES, _CONSTANTS), _compound, max_leaves=12)


@given(_EXPRESSIONS, st.booleans())
def test_random_trees_print_as_ast_unparse(expr, as_return):
    if as_return:
        stmt = ast.Return(expr)
    else:
        stmt = ast.Assign([ast.Name("out", ast.Store())], expr, None, lineno=0)
    assert print_statement(stmt) == ast.unparse(stmt)


_TARGETS = st.one_of(st.sampled_from(["out", "g_w"]).map(lambda n: ast.Name(n, ast.Store())),
                     st.lists(st.sampled_from(["a", "bb", "_", "ccc_1"]), min_size=2, max_size=5).map(
                         lambda names: ast.Tuple([ast.Name(n, ast.Store()) for n in names], ast.Store())))


@given(_EXPRESSIONS, _TARGETS, st.booleans(), st.integers(8, 60))
def test_wrapped_lines_parse_to_the_same_tree(expr, target, as_return, width):
    stmt = ast.Return(expr) if as_return else ast.Assign([target], expr, None, lineno=0)
    lines = print_lines(stmt, width)
    one_line = print_statement(stmt)
    if len(one_line) <= width:
        assert lines == [one_line]
    assert ast.dump(ast.parse("\n".join(lines)).body[0]) == ast.dump(ast.parse(one_line).body[0]), lines


def test_long_targets_calls_and_returns_are_wrapped_readably():
    tree = ast.parse("first_output_of_the_op, second_output_of_the_op = rt.softmax_xent(logits, labels)\n"
                     "total = rt.add_n([term_0, term_1, term_2, term_3, term_4, term_5, term_6, term_7])\n"
                     "return (loss, new_layer_1_weights, new_layer_1_bias, new_layer_2_weights)")
    assert [print_lines(stmt, 50) for stmt in tree.body] == [
        ["(first_output_of_the_op,",
         " second_output_of_the_op) = rt.softmax_xent(",   # aligned after "(" would leave no room
         "     logits, labels)"],
        ["total = rt.add_n([term_0, term_1, term_2, term_3,",
         "                  term_4, term_5, term_6, term_7])"],
        ["return (loss, new_layer_1_weights,",
         "        new_layer_1_bias, new_layer_2_weights)"]]


def test_an_operator_chain_broken_inside_a_call_gets_no_parentheses_of_its_own():
    tree = ast.parse("g_x = np.maximum(first_long_operand * second_long_operand + third_long_operand - fourth,"
                     " other)\nout = first_long_operand * second_long_operand + third_long_operand")
    assert [print_lines(stmt, 48) for stmt in tree.body] == [
        ["g_x = np.maximum((first_long_operand",
         "                  * second_long_operand)",   # a broken operand keeps its grouping
         "                 + third_long_operand - fourth,",
         "                 other)"],
        ["out = (first_long_operand * second_long_operand",   # outside brackets: parentheses added
         "       + third_long_operand)"]]
