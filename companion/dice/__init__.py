"""Dice vision: camera frame -> reading of pip dice, settle detection, synthetic trays.

- `reader.read(frame, profile=None, expected=None) -> reading.Reading`: one BGR frame.
- `settle.SettleDetector(profile, expected).feed(frame) -> Reading | None`: a camera stream,
  one reading per roll once the dice stop.
- `profile.load(path=None) -> Profile`: every tunable number, from TOML
  (companion/dice/default_profile.toml); `tune.tune(...)` fits one to labelled photos.
- `synth.render(scene, rng)` / `synth.random_scene(faces, rng)` / `synth.throw_sequence(...)`:
  rendered trays for tests, the simulated camera and benchmarks.

Modules import OpenCV and NumPy themselves; importing this package stays cheap.
"""
