"""The host's two web pages (issue #6, docs/web.md): the big-screen clock for a TV or
projector (``/``) and the TD console with every table (``/td``), served from the TD's
laptop with no internet (every asset is in ``static/``).

    from tdhost.web.server import run_in_thread
    web = run_in_thread(live, "0.0.0.0", 8000, token, lock)   # lock shared with live.poll()
    print(web.url, web.url + "/td?token=" + token)
    ...
    web.stop()

``app.make_app`` is the Starlette application; ``server.run_in_thread`` runs it with uvicorn
beside the host's poll loop; ``room`` the players' page, display settings and printouts;
``chromium`` opens the pages in a headless browser for screenshots.
"""
