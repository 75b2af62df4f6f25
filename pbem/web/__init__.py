"""Plain web pages: the lobby and a game's page (spectator view, and your own when logged in)."""
