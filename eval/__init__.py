"""The evaluation harness: ``adamm eval`` (see the README, "Evaluation")."""
