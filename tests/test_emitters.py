"""Declarations hold data, code generation holds code: a primitive declares its shape rule, its
flags and (when elementwise) its NumPy expression text; the ``ast``-building emitters and the
simplifications over codegen Values live in ``s2sgrad.codegen``, found by primitive object."""
import ast
import dataclasses
import pathlib

import pytest

import s2sgrad.primitives as primitives
from s2sgrad.codegen import emitters
from s2sgrad.codegen.simplify import SIMPLIFY
from s2sgrad.primitives import ALL, FAMILIES, Primitive

FAMILY_TABLES = {name: getattr(emitters, name).EMITTERS
                 for name in ("array", "control", "data", "fills", "indexing", "joining", "linalg", "math",
                              "matrix", "nn", "reduce", "state", "summary", "tensor_array", "segment", "debug",
                              "sampling", "conv", "eig", "numpy_random", "complex", "numpy_corners",
                              "fft")}


def test_a_primitive_declares_no_emitter_or_simplification():
    fields = {f.name for f in dataclasses.fields(Primitive)}
    assert not fields & {"emit", "simplify"}, "emitters and simplifications belong to s2sgrad.codegen"
    assert all(isinstance(p.expr, str) for p in ALL), "an expr is NumPy text; code lives in codegen"


def test_every_emitter_comes_from_exactly_one_place():
    """An elementwise ``expr`` or one family table, never both, never two tables."""
    for p in ALL:
        places = [name for name, table in FAMILY_TABLES.items() if p in table] + (["expr"] if p.expr else [])
        assert len(places) <= 1, f"{p.name} has emitters in {places}"
        assert (p in emitters.EMITTERS) == bool(places), p.name


def test_the_merged_table_rejects_a_second_emitter():
    with pytest.raises(ValueError, match="Tanh"):
        emitters._merged({primitives.math.TANH: emitters.math.EMITTERS[primitives.math.POW]})


@pytest.mark.parametrize("name", sorted(FAMILY_TABLES))
def test_a_family_table_holds_its_own_family(name):
    declared = {v for v in vars(getattr(primitives, name)).values() if isinstance(v, Primitive)}
    strays = sorted(p.name for p in FAMILY_TABLES[name] if p not in declared)
    assert not strays, f"codegen/emitters/{name}.py has emitters for other families' primitives: {strays}"


def test_simplifications_are_keyed_by_declared_primitives():
    assert set(SIMPLIFY) <= set(ALL)


def test_an_expr_names_its_declared_inputs():
    """Every expr parses, and uses only its ``expr_args`` (at most arity many), ``np``, ``rt`` and attrs."""
    for p in ALL:
        if not p.expr:
            continue
        names = {n.id for n in ast.walk(ast.parse(p.expr, mode="eval")) if isinstance(n, ast.Name)}
        inputs = names & set(p.expr_args)
        assert inputs, f"{p.name}: expr {p.expr!r} reads none of its inputs {p.expr_args}"
        if p.arity is not None:
            assert inputs <= set(p.expr_args[:p.arity]), f"{p.name}: expr {p.expr!r} reads past its {p.arity} inputs"


def _modules(package):
    return sorted(pathlib.Path(package.__file__).parent.glob("*.py"))


@pytest.mark.parametrize("path", _modules(primitives), ids=lambda p: p.name)
def test_declarations_build_no_code(path):
    """No ``ast`` in primitives/, and no reading of codegen Values (``.const``, ``.producer``, ``.outs``)."""
    tree = ast.parse(path.read_text())
    imports = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imports |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "ast" not in imports and not any("codegen" in m for m in imports), path.name
    attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert not attrs & {"const", "producer", "outs", "emit", "simplify"}, path.name


def test_families_are_the_emitter_modules():
    assert sorted(FAMILY_TABLES) == sorted(m.__name__.rsplit(".", 1)[1] for m in FAMILIES)
