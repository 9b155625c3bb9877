"""The corpus of classic TF-1.x programs in tests/corpus: which programs, their command lines, and how
their printed output is compared with what TensorFlow printed."""
import math
import os
import re

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
EXPECTED = os.path.join(CORPUS, "expected")
HELPERS = {"digits_input.py", "record_tensorflow.py"}
ARGV_MARK = "# corpus-argv:"

# float32 training runs: a few ulps of difference per step (other summation orders in NumPy's and
# Eigen's reductions and matmuls) stay well below 1e-4 relative over the corpus' step counts;
# ATOL covers values that converge towards zero, where relative error means nothing.
RTOL = 1e-4
ATOL = 1e-5

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|\bnan\b|\binf\b")


def program_names() -> list[str]:
    """Names (without .py) of the corpus programs, sorted."""
    return sorted(name[:-3] for name in os.listdir(CORPUS) if name.endswith(".py") and name not in HELPERS)


def program_path(name: str) -> str:
    return os.path.join(CORPUS, name + ".py")


def expected_path(name: str) -> str:
    return os.path.join(EXPECTED, name + ".txt")


def program_argv(name: str) -> list[str]:
    """Command-line arguments the program is run with: its '# corpus-argv:' line, if any."""
    with open(program_path(name)) as f:
        for line in f:
            if line.startswith(ARGV_MARK):
                return line[len(ARGV_MARK):].split()
    return []


def split_numbers(text: str) -> tuple[str, list[str]]:
    """The text with every number replaced by '#' and runs of spaces collapsed, and the numbers."""
    template = re.sub(r"[ \t]+", " ", NUMBER.sub("#", text)).strip()
    return template, NUMBER.findall(text)


def output_differences(actual: str, expected: str, rtol: float = RTOL, atol: float = ATOL) -> list[str]:
    """Where ``actual`` differs from ``expected``: other words, or a number outside the tolerance."""
    actual_lines, expected_lines = actual.strip().splitlines(), expected.strip().splitlines()
    if len(actual_lines) != len(expected_lines):
        return [f"{len(actual_lines)} lines printed, TensorFlow printed {len(expected_lines)}"]
    differences = []
    for number, (got, want) in enumerate(zip(actual_lines, expected_lines, strict=True), 1):
        got_words, got_numbers = split_numbers(got)
        want_words, want_numbers = split_numbers(want)
        if got_words != want_words or len(got_numbers) != len(want_numbers):
            differences.append(f"line {number}: {got!r}, TensorFlow: {want!r}")
        elif not all(_close(g, w, rtol, atol) for g, w in zip(got_numbers, want_numbers, strict=True)):
            differences.append(f"line {number}: {got!r}, TensorFlow: {want!r} (rtol {rtol}, atol {atol})")
    return differences


def _close(got_text: str, want_text: str, rtol: float, atol: float) -> bool:
    """Within tolerance, plus one unit in the last printed digit: both sides were rounded for printing."""
    got, want = float(got_text), float(want_text)
    if math.isnan(want) or math.isinf(want):
        return got == want or (math.isnan(got) and math.isnan(want))
    rounding = max(_last_digit_unit(got_text), _last_digit_unit(want_text))
    return abs(got - want) <= atol + rtol * abs(want) + rounding


def _last_digit_unit(text: str) -> float:
    """The value of one unit in the last digit of a printed number ('0.4348' -> 1e-4); 0 for integers."""
    mantissa, _, exponent = text.lower().partition("e")
    if "." not in mantissa and not exponent:
        return 0.0
    return 10.0 ** (int(exponent or 0) - len(mantissa.partition(".")[2]))
