"""adafruit_display_text.label.Label stand-in: keeps its properties (tests/sim
under MicroPython; the real library draws glyphs)."""


class Label:
    def __init__(self, font, text="", color=0xFFFFFF, background_color=None, scale=1,
                 line_spacing=1.25, padding_left=0, padding_right=0, anchor_point=None,
                 anchored_position=None, **kwargs):
        self.font = font
        self.text = text
        self.color = color
        self.background_color = background_color
        self.scale = scale
        self.anchor_point = anchor_point
        self.anchored_position = anchored_position
        self.hidden = False
        self.x = 0
        self.y = 0
