"""A template emitter knows where its arguments go: what it reports about the expression it builds
(placeholder references in ``scan``'s order, operation count, ``rt`` helpers) is exactly what
``statement.scan`` finds walking that expression, on every instruction of the op corpus."""
import ast

from optable import corpus_modules
from s2sgrad.codegen.emitters.template import Template, template
from s2sgrad.codegen.printer import expression_text, precedence
from s2sgrad.codegen.statement import REF, scan


def test_templates_report_what_a_scan_finds(monkeypatch):
    checked, with_refs = 0, 0
    original = Template.scanned

    def checking(self, instr, args):
        nonlocal checked, with_refs
        expr, found = original(self, instr, args)
        assert found == scan(expr), (instr.prim.name, found, scan(expr))
        checked += 1
        with_refs += len(found[0]) > 1
        return expr, found

    monkeypatch.setattr(Template, "scanned", checking)
    for _ in corpus_modules():
        pass
    assert checked > 500 and with_refs > 100, (checked, with_refs)


class _Instr:
    def __init__(self, args, **attrs):
        self.args, self.attrs = args, attrs


def _name(text):
    return ast.Name(text, ast.Load())


def test_arguments_that_are_expressions_are_scanned_where_they_sit():
    """An argument that is an expression of its own (a helper call) and an attribute written as a
    negative number count their operations and helpers; a name used twice gives two references."""
    emit = template("rt.clip(x * x, y, lo) + np.sum(y, axis=axis)", ("x", "y"))
    x, padded = _name(REF + "x"), ast.Call(ast.Attribute(_name("rt"), "pad", ast.Load()), [_name(REF + "z")], [])
    instr = _Instr([x, padded], lo=-2, axis=(0, 1))
    expr, found = emit.scanned(instr, lambda arg, _: arg)   # arguments already expressions
    assert ast.unparse(emit(instr, [x, padded])) == ast.unparse(expr)
    assert ast.unparse(expr) == "rt.clip(\0x * \0x, rt.pad(\0z), -2) + np.sum(rt.pad(\0z), axis=(0, 1))"
    assert found == scan(expr)
    refs, size, helpers = found
    assert [r[0].id for r in refs] == [REF + "z", REF + "z", REF + "x", REF + "x"] and refs[2][0] is x
    assert size == 7 and helpers == {"clip", "pad"}  # clip, *, pad, -2, +, sum, pad again


def test_a_templates_text_is_what_the_printer_writes_for_its_tree(monkeypatch):
    """On every instruction of the op corpus a template writes as text, the text (holes left as
    their tokens) is the printer's text of the template's tree, with the same references in the
    same order, the same size and the same helpers."""
    checked, literals = 0, 0
    original = Template.texted

    def checking(self, instr, token, literal_text):
        nonlocal checked, literals
        stmt = original(self, instr, token, literal_text)
        if stmt is not None:
            def render(v, ins):
                rendered = token(v, ins)
                return ast.Name(rendered, ast.Load()) if type(rendered) is str else rendered
            expr, (refs, size, helpers) = self.scanned(instr, render)
            assert stmt.text() == expression_text(expr, 0), instr.prim.name
            assert [r[0].id for r in stmt.refs] == [r[0].id for r in refs], instr.prim.name
            assert (stmt.size, set(stmt.helpers)) == (size, helpers), instr.prim.name
            assert stmt.precedence == precedence(expr)
            checked += 1
            literals += any(type(token(v, instr)) is not str for v in instr.args)
        return stmt

    monkeypatch.setattr(Template, "texted", checking)
    for _ in corpus_modules():
        pass
    assert checked > 500 and literals > 50, (checked, literals)


def _texted(emit, instr):
    return emit.texted(instr, lambda arg, _: arg, lambda node, context, dotted: (
        expression_text(node, context) + (" " if dotted and type(node) is ast.Constant and isinstance(node.value, int)
                                          else ""), scan(node)[1]))


def test_holes_take_the_parentheses_the_printer_gives_them():
    """Each hole is written as the printer writes what stands there: parenthesized where the
    enclosing operation binds tighter (either side of ``**``, a unary minus, an attribute's value),
    not inside brackets; an int attribute's value keeps its space (``1 .real``)."""
    emit = template("(x ** y) ** -z + w.real + np.sum(x, axis=axis)[k]", ("x", "y", "z", "w"))
    for args, attrs in [((ast.BinOp(_name("a"), ast.Add(), _name("b")), ast.UnaryOp(ast.USub(), _name("c")),
                          ast.BinOp(_name("d"), ast.Pow(), _name("e")), ast.Constant(1)), {"axis": (0, 1), "k": -1}),
                        ((_name(REF + "a"), _name(REF + "b"), _name(REF + "c"), _name(REF + "d")),
                         {"axis": 0, "k": (1, 2)})]:
        instr = _Instr(list(args), **attrs)
        expected = expression_text(emit(instr, list(args)), 0)
        stmt = _texted(emit, instr)
        assert stmt.text() == expected


def test_folding_text_into_text_parenthesizes_as_the_printer_does():
    """A statement's text put into another's hole is parenthesized exactly where the printer
    would parenthesize the folded tree."""
    add, mul, neg = template("x + y"), template("x * y"), template("-x")
    a, b, c = (REF + name for name in "abc")
    for outer, inner, hole in [(mul, add, a), (add, mul, a), (neg, add, a), (add, add, b), (mul, mul, b)]:
        inner_stmt = _texted(inner, _Instr([b, c]))
        args = [a, b] if outer is not neg else [a]
        outer_stmt = _texted(outer, _Instr([arg if arg != hole else "\x00hole" for arg in args]))
        outer_stmt.absorb("\x00hole", inner_stmt)
        tree = outer(_Instr([]), [(inner(_Instr([]), [_name(b), _name(c)]) if arg == hole else _name(arg))
                                  for arg in args])
        assert outer_stmt.text() == expression_text(tree, 0), (outer_stmt.text(), ast.unparse(tree))
