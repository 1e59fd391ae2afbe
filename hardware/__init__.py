"""Hardware ports, each with a real driver and a fake that behaves like it.

- `hardware.camera`: Pi camera (picamera2), USB webcam, recorded rolls, simulated tray.
- `hardware.buttons`: the five-button panel on gpiozero (MockFactory pins off-Pi).
- `hardware.display`: the 128x64 OLED on luma.oled; luma's dummy device and a PNG frame sink.

Drivers import their libraries only when opened, so everything runs on a machine without them.
"""
