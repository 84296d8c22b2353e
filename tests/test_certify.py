"""The certificate on the CPU twin's results (bit-identical to the H200's for these descriptors)."""
import numpy as np
import pytest

from bitorder import certify
from bitorder.desc import GEMMDesc
from bitorder.draws import numpy_draw
from bitorder.emulate import matmul


def honest(seed, m=32, k=256, n=48, kind="wide"):
    a = numpy_draw((m, k), "fp16", seed, 1, kind)
    b = numpy_draw((k, n), "fp16", seed, 2, kind)
    c = matmul(a, b, GEMMDesc("plain", "fp16", k, "wgmma", 16))
    return a, b, c


@pytest.fixture(scope="module")
def tau():
    return certify.calibrate([honest(s) for s in range(20)], projections=8)


def test_calibrated_on_one_seed_no_false_alarm_on_another(tau):
    assert 0 < tau < 1
    for s in range(1000, 1060):
        a, b, c = honest(s, kind="wide" if s % 2 else "narrow")
        r = certify.Certificate(b, projections=8, seed=7, tau=tau).check(a, c)
        assert r.ok, (s, r)


def test_a_single_element_fault_is_caught(tau):
    """Down to 1% of the largest output here (about 13 fp16 ulps of it); one or two ulps sit in the
    rounding a float bound must allow, which the exact row check catches instead."""
    a, b, c = honest(5)
    cert = certify.Certificate(b, projections=8, seed=7, tau=tau)
    mag = float(np.abs(c.astype(np.float64)).max())
    for rel in (1e-1, 3e-2, 1e-2):
        bad = c.copy()
        bad[3, 7] = np.float16(float(bad[3, 7]) + rel * mag)
        r = cert.check(a, bad)
        assert not r.ok and r.rows == [3], (rel, r)


def test_a_cancelling_pair_escapes_one_projection_half_the_time(tau):
    a, b, c = honest(6)
    d = 0.1 * float(np.abs(c.astype(np.float64)).max())
    bad = c.copy().astype(np.float64)
    bad[2, 1] += d
    bad[2, 9] -= d
    bad = bad.astype(np.float16)
    missed = sum(certify.Certificate(b, projections=1, seed=s, tau=tau).check(a, bad).ok for s in range(400))
    assert 140 < missed < 260          # about 1/2 of single projections miss it
    assert certify.projections_for(1e-6) == 20 and certify.missed_probability(20) < 1e-6


def test_exact_rows_find_a_one_ulp_fault():
    a, b, c = honest(8)
    d = GEMMDesc("plain", "fp16", a.shape[1], "wgmma", 16)
    assert certify.exact_rows(a, b, c, d, range(0, 32, 4)).ok
    bad = c.copy()
    bad.view(np.uint16)[4, 5] ^= 1
    r = certify.exact_rows(a, b, bad, d, range(0, 32, 4))
    assert not r.ok and r.rows == [4]


def test_clear_errors():
    a, b, c = honest(9)
    cert = certify.Certificate(b)
    with pytest.raises(ValueError, match="shapes do not match"):
        cert.check(a[:, :10], c)
    with pytest.raises(ValueError, match="finite"):
        cert.check(a, np.full_like(c, np.inf))
    with pytest.raises(ValueError, match="2-D"):
        certify.Certificate(b[None])


def test_a_blind_certificate_fails_the_certificate_gate(tmp_path):
    """Planted fault from a copied tree: the residual forgotten (every check passes). The gate
    (benchmarks/certify_eval.py) must fail on the copy, and the copy must be what ran."""
    from mutants import run_on_mutant
    p, src = run_on_mutant(tmp_path, "src/bitorder/certify.py", "resid = np.abs(c @ self.r - a @ self.br)",
                           "resid = 0 * np.abs(c @ self.r - a @ self.br)",
                           ["-c", "import sys, bitorder; print('BITORDER', bitorder.__file__); "
                                  "sys.argv = ['certify_eval', '--out', 'out', '--honest', '12']; "
                                  "sys.path.insert(0, 'benchmarks'); import certify_eval; sys.exit(certify_eval.main())"])
    assert src in p.stdout, p.stdout[-500:] + p.stderr[-500:]
    assert p.returncode == 1, p.stdout[-800:] + p.stderr[-800:]
    assert '"pass": false' in p.stdout


def test_the_certificate_gate_passes_unmutated(tmp_path):
    import json
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = subprocess.run([sys.executable, "benchmarks/certify_eval.py", "--out", str(tmp_path), "--honest", "12"],
                       cwd=root, capture_output=True, text=True, env=dict(os.environ, PYTHONPATH="src"))
    assert p.returncode == 0, p.stdout[-800:] + p.stderr[-800:]
    assert json.loads((tmp_path / "certify.json").read_text())["pass"] is True


def test_projections_follow_the_measured_escape_rate():
    """The H200's 1,000 products let a 1% cancelling pair through one projection 54.9% of the time
    (2026-11-30d): 24 projections for 1e-6, where the sign model's 1/2 gives 20."""
    assert certify.projections_for(1e-6, 0.549) == 24 and certify.missed_probability(24, 0.549) < 1e-6
    assert certify.missed_probability(23, 0.549) >= 1e-6
    assert certify.projections_for(1e-6, 1.0) is None
