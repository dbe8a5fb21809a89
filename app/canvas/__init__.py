"""The canvas: one painter for every frame, on screen and in exports."""

from app.canvas.context import Blanks, FrameOptions
from app.canvas.frame import FrameItem, build_frame_scene
from app.canvas.theme import DARK, HIGH_CONTRAST, SLIDE, THEMES, Theme

__all__ = ["DARK", "HIGH_CONTRAST", "SLIDE", "THEMES", "Blanks", "FrameItem", "FrameOptions",
           "Theme", "build_frame_scene"]
