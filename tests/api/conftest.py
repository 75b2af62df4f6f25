from tests.factories import alice, bob, carol, dave, fake_game, moderator, transactional_db_or_db

__all__ = ["alice", "bob", "carol", "dave", "fake_game", "moderator", "transactional_db_or_db"]
