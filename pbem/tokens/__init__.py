"""API tokens: several per account, named, scoped (read / play / moderate), expiring, stored hashed."""
