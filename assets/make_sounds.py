"""Writes assets/sounds/click.wav and dice.wav: short 16-bit mono effects made from
a decaying sine (the click) and nine bursts of decaying noise (dice on a table).

    python assets/make_sounds.py
"""
import array
import math
import random
import wave
from pathlib import Path

RATE = 22050


def synth(name: str, rate: int = RATE, channels: int = 1) -> bytes:
    """A short 16-bit effect for the mixer's rate and channels: a click or dice."""
    rnd = random.Random(7)
    out = array.array("h")
    if name == "dice":
        n = int(rate * 0.35)
        hits = sorted(rnd.randrange(n - 800) for _ in range(9))
        buf = [0.0] * n
        for start in hits:
            amp = rnd.uniform(0.25, 0.55)
            for i in range(600):
                buf[start + i] += amp * math.exp(-i / 90) * rnd.uniform(-1, 1)
        out.extend(int(max(-1, min(1, v)) * 20000) for v in buf)
    else:
        n = int(rate * 0.04)
        out.extend(int(9000 * math.exp(-i / 120) * math.sin(i * 0.35)) for i in range(n))
    if channels > 1:
        out = array.array("h", (v for v in out for _ in range(channels)))
    return out.tobytes()


if __name__ == "__main__":
    here = Path(__file__).resolve().parent / "sounds"
    here.mkdir(exist_ok=True)
    for name in ("click", "dice"):
        with wave.open(str(here / f"{name}.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(RATE)
            w.writeframes(synth(name))
        print(here / f"{name}.wav")
