"""Run the lit + FileCheck lowering tests as part of the suite."""
import os
import subprocess
import sys


def test_lit_suite():
    lit_dir = os.path.join(os.path.dirname(__file__), "lit")
    proc = subprocess.run([sys.executable, "-c", "from lit.main import main; main()", "-v", lit_dir], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "Passed" in proc.stdout
