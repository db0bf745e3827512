"""The placement helper of Knister and Détrak: a seat's placements of the current roll, ranked by
expected final score.

Baseline: the exact expected final score if every later roll were written in a random empty cell
(a random adjacent pair for Détrak). Under that play each empty cell ends up holding an independent
roll, so by linearity of expectation the sheet's expectation is the sum of its lines'
expectations, and a line's expectation depends only on what it holds and how many cells it has
left: memoised once per pattern, a placement is valued with a few table look-ups. For Détrak a cell
with no empty neighbour can never be filled any more: it counts as a hole for good.

Default estimator: one roll of lookahead on that baseline, still exact for the play it assumes:
the next roll written where the baseline says, the rest at random. It plays clearly better (see
bench/bench_hints.py). `rollouts=N` re-values the best few by Monte Carlo games played greedily
(common random numbers); measured, it plays no better and costs far more, so it is optional.
Pure: randomness comes only from the `random.Random` passed in.

The two games share only the interface the ranking calls, so each game's model has its own module
(`knister`, `detrak`) and `ranking` holds what they share.
"""

from engine.hints.detrak import DETRAK_LOOKAHEAD
from engine.hints.detrak import _detrak_line as _detrak_line  # cleared by bench/bench_hints.py
from engine.hints.knister import SUM_PROB
from engine.hints.knister import _knister_line as _knister_line  # cleared by bench/bench_hints.py
from engine.hints.ranking import Hint, rank

__all__ = ["DETRAK_LOOKAHEAD", "SUM_PROB", "Hint", "rank"]
