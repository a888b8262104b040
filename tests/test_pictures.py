"""One reader of pictures: the checker, the browser app and the adapters accept and refuse the same
render results (SVG text or UTF-8 bytes, PNG bytes, a PIL image)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from makeenv.array.check import picture_problem
from makeenv.gui.common import picture_fields
from makeenv.pictures import Picture, PictureError, read_picture

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect data-action="1"/></svg>'


def png_bytes() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (3, 2), (255, 0, 0)).save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.mark.parametrize(
    "drawn",
    [SVG, SVG.encode("utf-8"), png_bytes(), Image.new("RGB", (3, 2))],
    ids=["svg-text", "svg-bytes", "png-bytes", "pil-image"],
)
def test_every_reader_accepts_the_same_pictures(drawn):
    picture = read_picture(drawn)
    assert picture_problem(drawn, n_actions=2) is None
    fields = picture_fields(drawn)
    if picture.svg is not None:
        assert fields == {"svg": SVG, "image": None}
    else:
        assert fields["svg"] is None and fields["image"].startswith("data:image/png;base64,")
        assert picture.rgb_array().shape == (2, 3, 3)


@pytest.mark.parametrize(
    "drawn, words", [(b"\xff\xfe\x00junk", "neither PNG"), (42, "returned int"), ([SVG], "returned list")]
)
def test_every_reader_refuses_the_same_non_pictures(drawn, words):
    with pytest.raises(PictureError, match=words):
        read_picture(drawn)
    problem = picture_problem(drawn, n_actions=2)
    assert problem is not None and words.split()[-1] in problem
    with pytest.raises(TypeError, match=words):
        picture_fields(drawn)


def test_svg_problems_are_named():
    assert "not well-formed" in picture_problem("<svg>", 2)
    assert "not <svg>" in picture_problem("<div/>", 2)
    assert "data-action='5'" in picture_problem(SVG.replace('"1"', '"5"'), 2)


def test_an_svg_picture_has_no_pixels():
    with pytest.raises(PictureError, match="SVG"):
        Picture(svg=SVG).rgb_array()
    assert np.array_equal(read_picture(png_bytes()).rgb_array()[0, 0], [255, 0, 0])
