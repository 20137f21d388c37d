"""Input formats: our JSONL of rounds, Mem-Gallery / MemEye JSON and LoCoMo JSON."""
