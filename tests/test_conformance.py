"""Every conformance scenario (the shared contract and our own) as one pytest case each.

They run through :func:`referee.rules.conformance.run_scenario`, the code ``gravekeeper check``
uses, so a failing scenario shows up in the pytest report (and is shared among the xdist
workers) as well as in ``scripts/test``'s conformance step.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.rules.conformance import run_scenario, scenario_files

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = [ROOT.parent / "shared" / "conformance", ROOT / "tests" / "scenarios"]
FILES = list(scenario_files(str(f) for f in FOLDERS if f.is_dir()))


def test_scenarios_found() -> None:
    assert any("scenarios" in str(f) for f in FILES)


@pytest.mark.parametrize("path", FILES, ids=[str(f.relative_to(f.parents[2])) for f in FILES])
def test_scenario(path: Path) -> None:
    result = run_scenario(path)
    assert result.passed, "\n".join(result.failures)
