"""The story campaign's data (SUBSTITUTE CONTENT): story.json, the story cards; tiles.json, the disc tiles."""
