"""Vision round trips (WebFovea): capped screenshots, coordinate actions, the hybrid element
list, Set-of-Mark overlays, pixel-level change, OCR cross-checks and answer scoring.

Pillow, ImageHash and pytesseract come with the ``vision`` extra and are imported lazily:
importing this package (or :mod:`pagelens.vision.coords`) needs none of them.
"""
