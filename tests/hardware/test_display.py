"""The OLED port: luma's dummy device, the real SSD1306/SH1106 drivers over a recording serial
interface, idle dimming, missing hardware, and the PNG frame sink."""

from __future__ import annotations

import io
import threading

import pytest
from luma.oled.device import sh1106, ssd1306
from PIL import Image

from hardware.display import DisplayError, FrameSink, OledDisplay, dummy_display, open_oled


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class RecordingSerial:
    """luma's serial interface (command/data/cleanup), recording what the driver sends."""

    def __init__(self):
        self.commands: list[tuple[int, ...]] = []
        self.data_bytes: list[list[int]] = []
        self.cleaned = False
        self.fail = False

    def command(self, *cmd):
        if self.fail:
            raise OSError(121, "Remote I/O error")
        self.commands.append(cmd)

    def data(self, data):
        if self.fail:
            raise OSError(121, "Remote I/O error")
        self.data_bytes.append(list(data))

    def cleanup(self):
        self.cleaned = True


def frame_with_pixel(x, y):
    image = Image.new("1", (128, 64))
    image.putpixel((x, y), 1)
    return image


def framebuffer(serial):
    """The bytes of the last whole frame sent (the drivers also clear the panel on start)."""
    sent = [b for chunk in serial.data_bytes for b in chunk]
    return sent[-128 * 64 // 8 :]


def test_dummy_display_keeps_the_frame_shown():
    display = dummy_display()
    display.show(frame_with_pixel(5, 9).convert("L"))  # any mode is converted to 1-bit
    assert display.device.image.getpixel((5, 9)) and not display.device.image.getpixel((6, 9))


def test_a_screen_of_the_wrong_size_is_refused():
    with pytest.raises(ValueError, match="128x64"):
        dummy_display().show(Image.new("1", (64, 32)))


def test_real_ssd1306_driver_sends_the_frame_and_contrast_over_its_serial_interface():
    serial = RecordingSerial()
    display = OledDisplay(ssd1306(serial), contrast=200)
    assert (0xAF,) in serial.commands  # display on
    assert serial.commands[-1] == (0x81, 200)
    display.show(frame_with_pixel(0, 0))
    pixels = framebuffer(serial)
    assert pixels[0] == 0x01 and sum(pixels) == 1  # column 0 of page 0, bit 0 = top-left


def test_real_sh1106_driver_sends_every_page():
    serial = RecordingSerial()
    display = OledDisplay(sh1106(serial))
    display.show(frame_with_pixel(127, 63))
    pixels = framebuffer(serial)
    assert pixels[-1] == 0x80 and sum(pixels) == 0x80  # last column, last page, top bit 7
    assert (0xB7, 2, 0x10) in serial.commands  # page 7, with the SH1106's 2-column offset


def test_rotation_two_turns_the_picture_upside_down():
    serial = RecordingSerial()
    OledDisplay(ssd1306(serial, rotate=2)).show(frame_with_pixel(0, 0))
    pixels = framebuffer(serial)
    assert pixels[-1] == 0x80 and sum(pixels) == 0x80


def test_quarter_turns_are_refused_because_screens_are_landscape():
    with pytest.raises(DisplayError, match="rotation 0 or 2"):
        OledDisplay(ssd1306(RecordingSerial(), rotate=1))


def test_an_unchanged_screen_is_not_resent():
    serial = RecordingSerial()
    display = OledDisplay(ssd1306(serial))
    display.show(frame_with_pixel(3, 3))
    sent = len(serial.data_bytes)
    display.show(frame_with_pixel(3, 3))
    assert len(serial.data_bytes) == sent
    display.show(frame_with_pixel(4, 3))
    assert len(serial.data_bytes) > sent


def test_display_dims_after_idle_and_wakes_on_a_press_or_a_new_screen():
    serial, clock = RecordingSerial(), Clock()
    display = OledDisplay(ssd1306(serial), contrast=255, dim_after=60, clock=clock)
    display.show(frame_with_pixel(1, 1))
    clock.now = 59
    display.tick()
    assert not display.dimmed
    clock.now = 61
    display.tick()
    assert display.dimmed and serial.commands[-1] == (0x81, 1)
    display.wake()
    assert not display.dimmed and serial.commands[-1] == (0x81, 255)
    clock.now = 200
    display.tick()
    display.show(frame_with_pixel(2, 2))
    assert not display.dimmed


def test_a_failing_i2c_write_is_a_display_error_and_close_releases_the_bus():
    serial = RecordingSerial()
    display = OledDisplay(ssd1306(serial))
    serial.fail = True
    with pytest.raises(DisplayError, match="Remote I/O error"):
        display.show(frame_with_pixel(1, 1))
    serial.fail = False
    display.close()
    assert serial.cleaned


def test_opening_a_missing_panel_is_a_clear_error_not_a_crash():
    with pytest.raises(DisplayError, match=r"No sh1106 display at I2C bus 97, address 0x3c"):
        open_oled("sh1106", port=97, address=0x3C)
    with pytest.raises(DisplayError, match="Unknown display driver"):
        open_oled("ili9341")


def test_frame_sink_keeps_the_latest_frame_as_png():
    sink = FrameSink()
    assert sink.png == b""
    sink.show(frame_with_pixel(10, 20))
    image = Image.open(io.BytesIO(sink.png))
    assert image.size == (128, 64) and image.convert("1").getpixel((10, 20))
    version = sink.version
    sink.show(frame_with_pixel(10, 20))
    assert sink.version == version  # the same screen again is not a new frame


def test_frame_sink_wakes_a_waiting_stream_on_a_new_frame():
    sink = FrameSink()
    seen = []
    waiter = threading.Thread(target=lambda: seen.append(sink.wait(0, timeout=5)))
    waiter.start()
    sink.show(frame_with_pixel(1, 2))
    waiter.join(5)
    assert seen == [1]
    assert sink.wait(1, timeout=0.01) == 1  # nothing newer: returns after the timeout


def test_frame_sink_reports_dimming_to_the_mirror():
    clock = Clock()
    sink = FrameSink(dim_after=10, clock=clock)
    sink.show(frame_with_pixel(1, 1))
    clock.now = 11
    sink.tick()
    assert sink.dimmed and sink.version == 2
    sink.wake()
    assert not sink.dimmed and sink.version == 3
