"""Seat ring colours: one NeoPixel per seat, read at a glance.

Colour-blind-safe (Okabe-Ito palette, distinct in hue *and* brightness):
  action seat   yellow   (240, 228, 66), full brightness, blinks with the shot clock
  button        white    (255, 255, 255)
  small blind   sky blue (86, 180, 233)
  big blind     blue     (0, 114, 178)
  away          vermillion (213, 94, 0), dim
  other player  dim white (24, 24, 24); empty seat: off
The action colour wins over the position colours.  Pure: the hardware
adapter writes the list to the pixels.
"""

ACTION = (240, 228, 66)
BUTTON = (255, 255, 255)
SMALL = (86, 180, 233)
BIG = (0, 114, 178)
AWAY = (106, 47, 0)
SEATED = (24, 24, 24)
OFF = (0, 0, 0)


def colours(st, n, blink_off=False):
    """Colours for seats 1..*n* (list index 0 is seat 1)."""
    out = [OFF] * n
    for k in st["stacks"]:
        out[int(k) - 1] = SEATED
    for s in st["away"]:
        out[s - 1] = AWAY
    if st["sb_seat"]:
        out[st["sb_seat"] - 1] = SMALL
    if st["bb_seat"]:
        out[st["bb_seat"] - 1] = BIG
    if st["button"]:  # heads-up the button is the small blind: it shows the button
        out[st["button"] - 1] = BUTTON
    a = st["action"]
    if a and not blink_off:
        out[a - 1] = ACTION
    return out
