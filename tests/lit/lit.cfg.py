# lit configuration: lowering tests over the texts bitorder's compile harness produces.
import os
import shutil
import sys

import lit.formats

config.name = "bitorder"
config.test_format = lit.formats.ShTest()  # lit 23 refuses ShTest(True)
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["kernels"]

# FileCheck comes from the `filecheck` package (its command is `filecheck`), next to this Python.
filecheck = shutil.which("filecheck", path=os.path.dirname(sys.executable)) or shutil.which("filecheck")
if filecheck is None:
    lit_config.fatal("filecheck not found: pip install filecheck (the project's test extra)")
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%filecheck", filecheck))
config.substitutions.append(("%kernels", os.path.join(os.path.dirname(__file__), "kernels")))
# PYTHONPATH: a worktree run with PYTHONPATH=src must compile with its own bitorder, not the installed one
for var in ("BITORDER_CACHE_DIR", "HOME", "TRITON_CACHE_DIR", "PATH", "PYTHONPATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
