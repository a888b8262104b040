"""The one reader of game pictures: what ``render(state)`` returns, for the checker, GUI and adapters.

A game draws SVG text (a ``str``, or UTF-8 ``bytes``), PNG ``bytes`` or a PIL image.
``read_picture`` turns any of them into a ``Picture`` holding SVG text or PNG bytes, or raises
``PictureError`` saying what came back and what is expected; every reader of pictures goes
through it, so what one accepts the others accept too.
"""

from __future__ import annotations

import base64
import io
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from typing import Any

import numpy as np

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
EXPECTED = "SVG text (str or UTF-8 bytes), PNG bytes or a PIL image"


class PictureError(TypeError):
    """``render(state)`` returned something that is not a picture."""


@dataclass(frozen=True)
class Picture:
    """A game's drawing: SVG text (its ``data-action`` elements are clickable) or PNG bytes."""

    svg: str | None = None
    png: bytes | None = None

    def data_uri(self) -> str:
        """The picture as a ``data:`` URI for an ``<img>``."""
        if self.svg is not None:
            return "data:image/svg+xml;base64," + base64.b64encode(self.svg.encode("utf-8")).decode("ascii")
        assert self.png is not None
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")

    def rgb_array(self) -> np.ndarray:
        """A PNG picture as an ``(H, W, 3)`` uint8 array (SVG is not rasterized: that needs a browser)."""
        if self.png is None:
            raise PictureError("an SVG picture has no pixels here; use its SVG text instead")
        try:
            from PIL import Image
        except ImportError:  # pragma: no cover - Pillow comes with games that draw PNG
            raise ImportError("decoding a PNG picture needs Pillow: pip install pillow") from None
        return np.asarray(Image.open(io.BytesIO(self.png)).convert("RGB"), dtype=np.uint8).copy()


def read_picture(picture: Any) -> Picture:
    """What ``render(state)`` returned, as a ``Picture``; ``PictureError`` when it is none of
    SVG text, PNG bytes or a PIL image."""
    if isinstance(picture, str):
        return Picture(svg=picture)
    if isinstance(picture, (bytes, bytearray)):
        data = bytes(picture)
        if data[:8] == PNG_MAGIC:
            return Picture(png=data)
        try:
            return Picture(svg=data.decode("utf-8"))
        except UnicodeDecodeError:
            raise PictureError(
                f"render(state) returned {len(data)} bytes that are neither PNG (they start "
                f"{data[:8]!r}) nor UTF-8 SVG text; return {EXPECTED}"
            ) from None
    if hasattr(picture, "save"):  # a PIL image
        buffer = io.BytesIO()
        try:
            picture.save(buffer, format="PNG")
        except Exception as exc:
            raise PictureError(f"render(state) returned an image that cannot be saved as PNG ({exc})") from None
        return Picture(png=buffer.getvalue())
    raise PictureError(f"render(state) returned {type(picture).__name__}; return {EXPECTED}")


def svg_problem(svg: str, n_actions: int) -> str | None:
    """What is wrong with SVG text a game drew (not well-formed, not <svg>, a bad data-action), or None."""
    try:
        root = ElementTree.fromstring(svg)
    except ElementTree.ParseError as exc:
        return f"returned SVG text that is not well-formed XML ({exc})"
    if not root.tag.endswith("svg"):
        return f"returned XML whose root is <{root.tag}>, not <svg>"
    for element in root.iter():
        value = element.get("data-action")
        if value is not None and not (value.isdigit() and int(value) < n_actions):
            return f"marked an element data-action={value!r}; it must be an action 0..{n_actions - 1}"
    return None
