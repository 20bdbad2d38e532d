"""What each of the model's attention calls meant: captured eagerly (capture), joined with the trace (join), its
mask recognised from values (masks, maskfile), as a benchmark Shape (shapes)."""
