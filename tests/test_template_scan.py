"""A template emitter knows where its arguments go: what it reports about the expression it builds
(placeholder references in ``scan``'s order, operation count, ``rt`` helpers) is exactly what
``statement.scan`` finds walking that expression, on every instruction of the op corpus."""
import ast

from optable import corpus_modules
from s2sgrad.codegen.emitters.template import Template, template
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
