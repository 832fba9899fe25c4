"""The course notebook (docs/examples/course.ipynb) runs headless from top to
bottom on this build, and is committed without outputs."""
import json
import os
import sys

import pytest

NB = os.path.join(os.environ["top_srcdir"], "docs", "examples", "course.ipynb")


def test_committed_without_outputs():
    with open(NB) as f:
        nb = json.load(f)
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            assert not cell["outputs"] and cell["execution_count"] is None, cell["source"][:80]


def test_notebook_runs(tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("plotly")
    # a kernel of this Python (the one the package was built for), whatever is on PATH
    spec = tmp_path / "kernels" / "pstencil-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "pstencil test", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    monkeypatch.setenv("PSTENCIL_NB_SCALE", "0.25")
    monkeypatch.delenv("COURSE_FILE", raising=False)
    nb = nbformat.read(NB, as_version=4)
    client = nbclient.NotebookClient(nb, kernel_name="pstencil-test", timeout=300,
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                   for o in c.outputs)
    assert "checksum 0x" in text and "bitwise True" in text, text
    plots = sum(1 for c in nb.cells if c.cell_type == "code" for o in c.outputs
                if "application/vnd.plotly.v1+json" in o.get("data", {}))
    assert plots == 4, "%d plots drawn" % plots
