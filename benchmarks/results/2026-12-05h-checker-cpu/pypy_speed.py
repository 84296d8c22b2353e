import sys, types, os
src = os.path.abspath(sys.argv[1])
pkg = types.ModuleType("bitorder"); pkg.__path__ = [os.path.join(src, "bitorder")]
sys.modules["bitorder"] = pkg
sys.argv = [sys.argv[0]] + sys.argv[2:]
sys.path.insert(0, os.path.join(src, "..", "benchmarks"))
import checker_speed
checker_speed.main()
