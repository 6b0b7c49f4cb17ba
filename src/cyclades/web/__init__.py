"""The browser game: its static files (`static/`) and the drawing data the server sends it."""
