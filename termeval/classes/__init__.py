"""Discovered-class and pairs files: tokenizer, parser, fast reader, connected components."""
