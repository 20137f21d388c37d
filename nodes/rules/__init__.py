"""The built-in offline (`rules`) implementations of the model roles."""
