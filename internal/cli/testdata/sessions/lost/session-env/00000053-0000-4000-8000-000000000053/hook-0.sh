# hand-made placeholder
