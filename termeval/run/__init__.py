"""The facades' machinery: the one driver (one process | job J | merge), the launcher, the `termeval` command and the CLI helpers."""
