from tests.factories import alice, bob, carol, dave, fake_game, moderator

__all__ = ["alice", "bob", "carol", "dave", "fake_game", "moderator"]
