#!/usr/bin/python3
"""A small real image file for the RGB-vs-YUV444 comparison (tests/data/fixedpoint/).

Run with Debian's interpreter (python3-pil, python3-numpy); tests read the committed files:
    /usr/bin/python3 tests/gen/make_colour_image.py

scene_48x40.png: a 48 wide x 40 high drawn scene (sky gradient, sun, hills, a red house, a
  blue-green lake) saved as PNG; the UI and the CLI decode it with Qt and scale it to the model's
  input size.
scene_32x32.rgb: the same scene drawn directly at 32x32, raw interleaved RGB bytes (32*32*3),
  for the core test, which has no image decoder.
"""
import os

import numpy as np
from PIL import Image, ImageDraw

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "fixedpoint")


def scene(w, h):
    img = Image.new("RGB", (w, h))
    px = np.zeros((h, w, 3), dtype=np.uint8)
    for y in range(h):   # sky: deep blue to pale near the horizon
        t = y / max(1, h - 1)
        px[y, :, :] = (int(40 + 150 * t), int(90 + 120 * t), int(200 + 40 * t))
    img = Image.fromarray(px, "RGB")
    d = ImageDraw.Draw(img)
    d.ellipse([w * 0.70, h * 0.08, w * 0.90, h * 0.32], fill=(250, 210, 60))              # sun
    d.polygon([(0, h * 0.65), (w * 0.35, h * 0.45), (w * 0.7, h * 0.62), (w, h * 0.5), (w, h), (0, h)],
              fill=(60, 150, 60))                                                         # hills
    d.rectangle([w * 0.15, h * 0.55, w * 0.38, h * 0.8], fill=(190, 40, 35))              # house
    d.polygon([(w * 0.12, h * 0.56), (w * 0.265, h * 0.42), (w * 0.41, h * 0.56)], fill=(90, 50, 30))   # roof
    d.ellipse([w * 0.5, h * 0.75, w * 0.95, h * 0.95], fill=(40, 120, 140))              # lake
    return img


def main():
    os.makedirs(OUT, exist_ok=True)
    scene(48, 40).save(os.path.join(OUT, "scene_48x40.png"), optimize=True)
    raw = np.asarray(scene(32, 32), dtype=np.uint8)
    assert raw.shape == (32, 32, 3)
    with open(os.path.join(OUT, "scene_32x32.rgb"), "wb") as f:
        f.write(raw.tobytes())


if __name__ == "__main__":
    main()
