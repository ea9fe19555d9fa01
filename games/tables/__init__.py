"""Tables and play: the models of a table's life, the only write path (``service``), the
lobby, the clock, the reads (``selectors``, ``board``), and the pages of the tables."""
