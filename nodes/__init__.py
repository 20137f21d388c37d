"""Graph nodes (one small function each), state and context classes, pure routers."""
