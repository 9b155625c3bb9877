"""The style sheet and script of the ``s2sgrad view`` page, inlined into it (no network at view time).

The script reads the page's link table (a JSON block the page builder writes) and, on a click,
highlights what the clicked line is linked to: a program line's forward statements
(``fwd``) and gradient statements (``grad``) in the IR and the generated module; a
statement's op, its other rows and the user's lines that made it. ``#info`` says in words
what is highlighted.
"""
from __future__ import annotations

__all__ = ["STYLE", "SCRIPT"]

STYLE = """
body { font-family: Helvetica, Arial, sans-serif; margin: 0; color: #222; }
header { padding: 8px 14px; background: #f4f4f4; border-bottom: 1px solid #ccc; position: sticky; top: 0; z-index: 2; }
header h1 { font-size: 16px; margin: 0 0 4px 0; }
#info { font-size: 13px; min-height: 1.3em; }
.legend span { padding: 0 6px; margin-right: 6px; font-size: 12px; }
.columns { display: grid; grid-template-columns: 1fr 1fr 1fr; gap: 8px; padding: 8px; }
.column { border: 1px solid #ccc; overflow: auto; max-height: 78vh; }
.column h2 { font-size: 13px; margin: 0; padding: 4px 8px; background: #eee; position: sticky; top: 0; }
.column h3 { font-size: 12px; margin: 6px 8px 2px 8px; color: #555; }
pre { margin: 0; font-family: Menlo, Consolas, monospace; font-size: 12px; }
.row { display: block; white-space: pre; padding: 0 8px 0 0; cursor: pointer; }
.row:hover { background: #f6f6f6; }
.num { display: inline-block; width: 3.5em; color: #999; text-align: right; padding-right: 8px; user-select: none; }
.fwd, .legend .fwd { background: #dbe9f6; }
.grad, .legend .grad { background: #fbd9b5; }
.sel, .legend .sel { background: #fff3a0; outline: 1px solid #d4b800; }
.why { display: block; white-space: pre-wrap; margin: 0 8px 2px 4.3em; padding: 2px 6px; font-size: 12px;
       background: #fde8e8; border-left: 3px solid #c33; }
.explain { padding: 4px 14px; }
.explain pre { white-space: pre-wrap; background: #fafafa; border: 1px solid #ddd; padding: 6px; }
.pictures { padding: 4px 14px 20px 14px; }
.picture svg { max-width: 100%; height: auto; }
"""

SCRIPT = """
(function () {
  var links = JSON.parse(document.getElementById('links').textContent);
  var info = document.getElementById('info');
  function clear() {
    document.querySelectorAll('.sel, .fwd, .grad').forEach(function (e) {
      if (!e.closest('.legend')) { e.classList.remove('sel', 'fwd', 'grad'); }
    });
  }
  function mark(ids, cls) {
    var first = null;
    ids.forEach(function (id) {
      var e = document.getElementById(id);
      if (e) { e.classList.add(cls); first = first || e; }
    });
    return first;
  }
  function show(e) { if (e) { e.scrollIntoView({block: 'nearest'}); } }
  function opRows(key) { var op = links.ops[key]; return op.ir.concat(op.gen); }
  function selectLine(row) {
    clear();
    row.classList.add('sel');
    var keys = links.lines[row.id] || [];
    var fwd = 0, grad = 0;
    keys.forEach(function (key) {
      var op = links.ops[key];
      show(mark(opRows(key), op.gradient ? 'grad' : 'fwd'));
      if (op.gradient) { grad += op.gen.length; } else { fwd += op.gen.length; }
    });
    info.textContent = row.dataset.where + ': ' + keys.length + ' op(s), ' + fwd + ' forward and ' + grad +
      ' gradient line(s) of generated code';
  }
  function selectStatement(row) {
    clear();
    var key = row.dataset.op;
    var op = links.ops[key];
    mark(opRows(key), op.gradient ? 'grad' : 'fwd');
    row.classList.add('sel');
    show(mark(op.forward_lines, 'fwd'));
    mark(op.gradient_lines, 'grad');
    info.textContent = "op '" + op.name + "' of type " + op.type + ': ' + op.where;
  }
  document.querySelectorAll('.program .row').forEach(function (row) {
    row.addEventListener('click', function () { selectLine(row); });
  });
  document.querySelectorAll('.ir .row[data-op], .generated .row[data-op]').forEach(function (row) {
    row.addEventListener('click', function () { selectStatement(row); });
  });
  document.querySelectorAll('[data-line]').forEach(function (e) {
    e.addEventListener('click', function () {
      var row = document.getElementById(e.dataset.line);
      if (row) { selectLine(row); show(row); }
    });
  });
})();
"""
