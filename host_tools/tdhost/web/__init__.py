"""The host's web pages (docs/web.md): the big-screen clock (``/``), the TD console (``/td``)
and the players' phone page, served from the TD's laptop with no internet (every asset in
``static/``): ``app`` the application, ``room`` the room's routes, ``server`` uvicorn beside
the poll loop, ``chromium`` a headless browser for screenshots."""
