"""A seeded heuristic bot: it plans a route, delivers, buys what pays, fights when it pays.

It reads only what its own seat may know (its hand, the public board; a test
resamples the hidden information and checks its choices do not change). Every
option gets a value in victory points, or what they are worth now (doubloons,
combat points, figures, influence, explorer steps, ship discs at rates that fall
as the game runs out); small noise from the seeded ``rnd`` breaks ties so that
games differ, and nothing else is random.

How it plays:

- **Sailing**: each location in reach is valued by the best main action there
  (the village actions it can afford, a delivery plus the city action, a quest,
  an assistant, a homeward space), less a little for every location skipped
  unless the round is about to end.
- **Delivering**: a hand card whose good a market on the route still takes is
  worth keeping (a delivery pays the market's doubloons and a disc off the ship
  board); it delivers the good whose card it needs least.
- **Ship upgrades**: a disc goes where it completes an area, else to the area
  worth most (more village actions, hand limit 6, the VP areas and what they
  unlock; an area by the side its tile shows: U6 on the Liberation's U side is
  the extra liberation), respecting the areas' order conditions.
- **Buying**: a card is worth its end VP, its income for the scorings left, its
  immediate effect, and its village, combat or assistant action times the uses
  left, less its cost; it buys the best cards it can afford, plans the best card
  it cannot yet afford (a planned card frees a place in the hand), and takes a
  display card when it is worth more than a blind draw.
- **Fighting**: it fights for the nation whose token value buys most (influence
  toward a noble rank, an annexation whose marker raises the nation's
  multiplier, card actions), paying combat points and figures only when the
  action is worth them.
- **Careers**: the lower task as soon as it is met; the upper one late, when
  the lower is out of reach.

The package: ``ctx.py`` (what things are worth to a seat: ``Ctx``), ``uprising.py`` (the
expansion's decisions), ``choose.py`` (the choice among options).
"""

from .choose import choose
from .ctx import WEIGHTS, Ctx

__all__ = ["WEIGHTS", "Ctx", "choose"]
