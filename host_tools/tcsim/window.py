"""The box in a pygame window: its screen, its keys (held as long as a keyboard key or the
mouse is), its seat ring; the virtual clock follows the wall clock (``make sim``).
``run_window(..., frames=N)`` stops after N frames for tests.  The keyboard shortcuts:
docs/simulator.md, "The window".
"""

import os
from typing import Any, Dict, List, Tuple

from PIL import Image

from .sim import Sim, world

KEYS = {
    "left": ("Left", ("left", "a")),
    "ok": ("Enter", ("return", "space", "s", "down")),
    "right": ("Right", ("right", "d")),
    "hand": ("H", ("h", "1")),
    "call": ("C", ("c", "2")),
    "raise": ("R", ("r", "3")),
    "fold": ("F", ("f", "4")),
    "menu": ("M", ("m", "5", "tab")),
}

BG = (28, 28, 32)
FG = (230, 230, 230)
BUTTON = (70, 70, 80)
BUTTON_DOWN = (112, 200, 255)


def run_window(board: str, setup: Any, engine: str = "app", frames: Any = None, keys: Tuple[Any,
               ...] = (), shots_dir: str = ".", save: Any = None) -> Any:
    """Open the window and run until it is closed (or *frames* frames);
    *save*: a path for a PNG of the whole window at the end."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    sim = Sim(board, setup, engine=engine)
    zoom = max(1, 960 // sim.width)
    if sim.height * zoom > 640:
        zoom = max(1, 640 // sim.height)
    sw, sh = sim.width * zoom, sim.height * zoom
    pad = 16
    ring_h = 56 if sim.ring is not None else 0
    btn_h = 64
    W = sw + 2 * pad
    H = sh + ring_h + btn_h + 3 * pad + 22
    pygame.display.init()  # no pygame.init(): the simulator needs no sound device
    pygame.font.init()
    screen = pygame.display.set_mode((W, H))
    pygame.display.set_caption("Table Clock - %s (%dx%d)" % (sim.profile["name"], sim.width,
                                                              sim.height))
    font = pygame.font.Font(None, 22)
    small = pygame.font.Font(None, 18)
    roles = sim.roles
    bw = (W - pad * (len(roles) + 1)) // len(roles)
    buttons = []
    for n, role in enumerate(roles):
        rect = pygame.Rect(pad + n * (bw + pad), sh + ring_h + 2 * pad, bw, btn_h)
        buttons.append((role, rect))
    bykey = {}
    for role in roles:
        for name in KEYS.get(role, (role, ()))[1]:
            bykey[pygame.key.key_code(name)] = role
    down = set()
    clock = pygame.time.Clock()
    last = pygame.time.get_ticks()
    shown = None
    img_at: Any = None  # the screen as a pygame Surface, made on the first frame
    frame = 0
    shots = 0
    mouse_role = None
    script: Dict[int, List[Tuple[str, bool]]] = {}
    for frame_at, role, is_down in keys:
        script.setdefault(frame_at, []).append((role, is_down))

    def key(role: str, is_down: Any) -> None:
        if is_down and role not in down:
            down.add(role)
            world.schedule(sim.pins[role], True, world.now_ms)
        elif not is_down and role in down:
            down.discard(role)
            world.schedule(sim.pins[role], False, world.now_ms)

    running = True
    while running:
        for role, is_down in script.get(frame, ()):
            key(role, is_down)
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
            elif event.type in (pygame.KEYDOWN, pygame.KEYUP):
                is_down = event.type == pygame.KEYDOWN
                if event.key in bykey:
                    key(bykey[event.key], is_down)
                elif is_down and event.key in (pygame.K_ESCAPE, pygame.K_q):
                    running = False
                elif is_down and event.key == pygame.K_t:
                    sim.tick(600 if event.mod & pygame.KMOD_SHIFT else 60)
                elif is_down and event.key == pygame.K_p:
                    sim.host({"do": "resume" if sim.state()["paused"] else "pause"})
                elif is_down and event.key == pygame.K_F2:
                    shots += 1
                    path = os.path.join(shots_dir, "tcsim-%03d.png" % shots)
                    sim.save_png(path, zoom)
                    print("saved", path)
            elif event.type == pygame.MOUSEBUTTONDOWN:
                for role, rect in buttons:
                    if rect.collidepoint(event.pos):
                        mouse_role = role
                        key(role, True)
            elif event.type == pygame.MOUSEBUTTONUP and mouse_role is not None:
                key(mouse_role, False)
                mouse_role = None
        now = pygame.time.get_ticks()
        ms = now - last if frames is None else 20
        last = now
        sim.run_for(max(1, min(ms, 1000)))
        # redraw the screen image when something may have changed
        stamp = (world.now_ms // 1000, tuple(sorted(down)), sim.table.last, sim.table.error,
                 sim.menu.i, sim.menu.mode, sim.menu.amount)
        if stamp != shown:
            shown = stamp
            img = sim.image().resize((sw, sh), Image.Resampling.NEAREST)
            img_at = pygame.image.fromstring(img.tobytes(), (sw, sh), "RGB")
        screen.fill(BG)
        screen.blit(img_at, (pad, pad))
        if sim.ring is not None:
            cols = sim.leds()
            n = len(cols)
            step = sw // n
            for i, c in enumerate(cols):
                cx = pad + step * i + step // 2
                cy = sh + pad + pad + ring_h // 2 - 12
                pygame.draw.circle(screen, tuple(c), (cx, cy), 14)
                pygame.draw.circle(screen, (90, 90, 90), (cx, cy), 14, 1)
                number_label = small.render(str(i + 1), True, FG)
                screen.blit(number_label, (cx - number_label.get_width() // 2, cy + 17))
        for role, rect in buttons:
            pygame.draw.rect(screen, BUTTON_DOWN if role in down else BUTTON, rect,
                             border_radius=10)
            name = "OK" if role == "ok" else role.capitalize()
            label = font.render(name, True, (0, 0, 0) if role in down else FG)
            hint = small.render("[%s]" % KEYS.get(role, (role,))[0], True, FG)
            screen.blit(label, (rect.centerx - label.get_width() // 2, rect.y + 14))
            screen.blit(hint, (rect.centerx - hint.get_width() // 2, rect.y + 38))
        help_ = small.render("T +1 min   Shift+T +10 min   P pause/resume   F2 screenshot   "
                             "Esc quit", True, (160, 160, 160))
        screen.blit(help_, (pad, H - 20))
        pygame.display.flip()
        frame += 1
        if frames is not None and frame >= frames:
            break
        if frames is None:
            clock.tick(50)
    if save:
        pygame.image.save(screen, save)
    pygame.quit()
    return sim
