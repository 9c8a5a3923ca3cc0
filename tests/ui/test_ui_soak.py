"""Issue 11: five seeded AI-vs-AI battles through the real battle screen (both scenarios,
five of the six configurations, random clicks and keys between the AI's moves) end
without one exception.  The long run is ``python bench/ui_soak.py --battles 300``."""
import importlib.util
from pathlib import Path


def _soak_module():
    path = Path(__file__).resolve().parents[2] / "bench" / "ui_soak.py"
    spec = importlib.util.spec_from_file_location("ui_soak", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_five_battles_through_the_battle_screen_without_an_exception(monkeypatch, tmp_path):
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("HEXFRONT_DATA_DIR", str(tmp_path))
    r = _soak_module().soak(5, seed=11, p_inject=0.08, quiet=True)
    assert r["battles"] == 5 and r["exceptions"] == 0
    assert r["finished"] == 5 and r["frames"] > 1000
