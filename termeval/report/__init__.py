"""What a person looks at (docs/report.md): <exp>/report.html (page.py: one self-contained page,
a section per stage; svg.py: its plots; tables.py: its tables; timeline.py: the recordings'
tiers), Praat TextGrids of the same tiers (textgrid.py), and the driver's side of it
(write.py). Fed by plain data a stage already has (termeval/core/stage.py View); imports only
termeval/core, so every benchmark may build its View with timeline.Tier and Recording."""
