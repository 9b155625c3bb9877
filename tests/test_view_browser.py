"""The ``s2sgrad view`` page in a real browser: headless Chromium driven by Selenium.

Skips unless Selenium (``pip install s2sgrad[browser]``) and a Chromium with its driver
(Debian: ``apt-get install chromium chromium-driver``) are installed. Clicks lines of each
column, checks what the page highlights and says, and saves a screenshot in the test's
temporary directory.
"""
import shutil

import pytest

from test_cli import run_cli
from view_pages import GRADIENTS_LINE, LOSS_LINE, STOP_LINE, TRAIN

webdriver = pytest.importorskip("selenium.webdriver")
BROWSER = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(BROWSER is None or DRIVER is None, reason="needs Chromium and chromedriver")

EXPLAINED = TRAIN + "    tf.view(loss, feed_dict=feed, explain=(loss, [w, b]), path='explained.html')\n"


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1600,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=DRIVER))
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    directory = tmp_path_factory.mktemp("view")
    (directory / "train.py").write_text(EXPLAINED)
    result = run_cli("view", "train.py", "-o", "page.html", cwd=directory)
    assert result.returncode == 0, result.stderr
    return directory


def _classes(browser, selector):
    return {e.get_attribute("id"): set(e.get_attribute("class").split())
            for e in browser.find_elements("css selector", selector)}


def _marked(browser, column, cls):
    return [e.text for e in browser.find_elements("css selector", f".{column} .row.{cls}")]


def test_selecting_a_program_line_highlights_its_forward_and_gradient_statements(browser, pages, tmp_path):
    browser.get((pages / "page.html").as_uri())
    assert browser.title == "s2sgrad view"
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0   # loads nothing
    browser.find_element("id", f"p0_{LOSS_LINE}").click()
    assert "sel" in _classes(browser, f"#p0_{LOSS_LINE}")[f"p0_{LOSS_LINE}"]
    forward, gradient = _marked(browser, "generated", "fwd"), _marked(browser, "generated", "grad")
    assert any(line.endswith(f"# Mean  train.py:{LOSS_LINE}") for line in forward)
    assert gradient and all("# grad of " in line for line in gradient)
    assert any(f"# grad of Square  train.py:{LOSS_LINE}" in line for line in gradient)
    assert _marked(browser, "ir", "fwd") and _marked(browser, "ir", "grad")
    info = browser.find_element("id", "info").text
    assert info.startswith(f"train.py:{LOSS_LINE}: ") and f"{len(forward)} forward and {len(gradient)} gradient" in info
    browser.save_screenshot(str(tmp_path / "program_line.png"))
    assert (tmp_path / "program_line.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_selecting_a_generated_gradient_statement_shows_its_op_and_both_user_lines(browser, pages, tmp_path):
    browser.get((pages / "page.html").as_uri())
    statement = next(e for e in browser.find_elements("css selector", ".generated .row[data-op]")
                     if f"# grad of Square  train.py:{LOSS_LINE}" in e.text)
    statement.click()
    assert "sel" in statement.get_attribute("class").split()
    program = _classes(browser, ".program .row")
    assert "fwd" in program[f"p0_{LOSS_LINE}"] and "grad" in program[f"p0_{GRADIENTS_LINE}"]
    assert sum(1 for c in program.values() if c & {"fwd", "grad", "sel"}) == 2
    ir = _marked(browser, "ir", "grad")
    assert len(ir) == 1 and "Mul(" in ir[0] and f"# train.py:{GRADIENTS_LINE}" in ir[0]
    info = browser.find_element("id", "info").text
    assert info.startswith("op 'gradients/Square_grad/mul_1' of type Mul: ")
    assert f"grad of Square train.py:{LOSS_LINE} (gradients at train.py:{GRADIENTS_LINE})" in info
    forward = next(e for e in browser.find_elements("css selector", ".generated .row[data-op]")
                   if e.text.endswith(f"# Sub  train.py:{LOSS_LINE}"))
    forward.click()
    program = _classes(browser, ".program .row")
    assert [row for row, c in program.items() if c & {"fwd", "grad"}] == [f"p0_{LOSS_LINE}"]
    assert browser.find_element("id", "info").text == f"op 'sub' of type Sub: train.py:{LOSS_LINE}"
    browser.save_screenshot(str(tmp_path / "statement.png"))
    assert (tmp_path / "statement.png").stat().st_size > 10_000


def test_explain_results_are_inline_and_lead_to_their_line(browser, pages, tmp_path):
    browser.get((pages / "explained.html").as_uri())
    note = browser.find_element("css selector", ".program .why")
    assert note.text.startswith("'b:0': ") and "tf.stop_gradient" in note.text
    assert note.location["y"] > browser.find_element("id", f"p0_{STOP_LINE}").location["y"]   # right below it
    browser.find_element("css selector", ".explain pre[data-line]").click()
    assert "sel" in _classes(browser, ".program .row")[f"p0_{STOP_LINE}"]
    if shutil.which("dot"):
        assert browser.find_elements("css selector", ".picture svg")
    browser.save_screenshot(str(tmp_path / "explain.png"))
