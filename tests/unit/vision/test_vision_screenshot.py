"""Screenshot cap, coordinate map and image-token formulas (pure)."""

from __future__ import annotations

import pytest

from pagelens.vision.screenshot import Geometry, ScreenshotConfig, cap_size, geometry_for
from pagelens.vision.tokens import image_tokens


@pytest.mark.parametrize(("size", "cap", "want"), [
    ((1280, 720), (1440, 810), (1280, 720)),  # never upscaled
    ((1920, 1080), (1440, 810), (1440, 810)),
    ((2560, 1080), (1440, 810), (1440, 608)),  # width-bound, aspect kept
    ((1000, 1600), (1440, 810), (506, 810)),  # height-bound
    ((1440, 810), (1440, 810), (1440, 810)),
])
def test_cap_keeps_aspect_and_never_upscales(size: tuple[int, int], cap: tuple[int, int],
                                             want: tuple[int, int]) -> None:
    got = cap_size(*size, *cap)
    assert got == want
    assert got[0] <= max(cap[0], size[0]) and got[1] <= cap[1] or got == size
    assert abs(got[0] / got[1] - size[0] / size[1]) < 0.01


def test_bad_sizes_and_configs_are_refused() -> None:
    with pytest.raises(ValueError):
        cap_size(0, 10, 100, 100)
    with pytest.raises(ValueError, match="format"):
        ScreenshotConfig(format="gif")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="quality"):
        ScreenshotConfig(quality=0)
    with pytest.raises(ValueError, match="small"):
        ScreenshotConfig(max_width=4)


def test_coordinates_round_trip_on_every_pixel_of_the_screenshot() -> None:
    for css in [(1280, 720), (1920, 1080), (1600, 900), (1366, 768)]:
        geo = geometry_for(*css, 2.0, ScreenshotConfig())
        for x in range(0, geo.width, 7):
            cx, _ = geo.to_css(x, 0)
            assert geo.to_screen(cx, 0)[0] == x, (css, x)
            assert 0 <= cx < geo.css_width


def test_identity_geometry_is_exact_in_css_pixels() -> None:
    geo = Geometry(1280, 720, 2.0, 1280, 720)
    assert geo.to_css(100, 200) == (100.0, 200.0) and geo.to_screen(100.4, 199.6) == (100, 200)


@pytest.mark.parametrize(("w", "h", "openai", "anthropic"), [
    # OpenAI: fit 2048², shortest side to 768, 512-px tiles; 1440x810 -> 1365x768 -> 3x2 tiles
    (1440, 810, 85 + 170 * 6, 1532),  # Anthropic: over 1.15 MP, shrunk to 1429x804 first
    (512, 512, 85 + 170, 350),
    (1024, 1024, 85 + 170 * 4, 1399),  # -> 768x768: 2x2 tiles
    (2048, 4096, 85 + 170 * 6, 1533),  # -> 1024x2048 -> 768x1536: 2x3 tiles
    (800, 450, 85 + 170 * 2, 480),
])
def test_image_token_formulas(w: int, h: int, openai: int, anthropic: int) -> None:
    assert image_tokens(w, h, "openai") == openai
    assert image_tokens(w, h, "openai-low") == 85
    assert image_tokens(w, h, "anthropic") == anthropic
    with pytest.raises(ValueError):
        image_tokens(w, h, "other")  # type: ignore[arg-type]
