"""Assignment between predicted and gold items: optimal (Hungarian) and globally greedy."""

from assay._matching.greedy import Match, greedy_match
from assay._matching.optimal import Assignment, optimal_assignment, optimal_assignments

__all__ = ["Assignment", "Match", "greedy_match", "optimal_assignment", "optimal_assignments"]
