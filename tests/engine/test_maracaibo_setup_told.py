"""The setup is explained in the first mail (issue 21): the text that lists the dealt cards says
what the choice is (plan one, keep four, the rest to the pile), that it is simultaneous and
secret, and how to write it in one mail; once the choice is made the explanation is gone."""

from __future__ import annotations

import engine
from engine.games.maracaibo import content as C

RULES = engine.get("maracaibo")


def test_the_first_mail_explains_the_setup_choice() -> None:
    st = RULES.setup(["Ana", "Bruno"], {}, "setup-told")
    text = " ".join(RULES.render_mail_text(RULES.view(st, 0)).split())
    assert "YOUR DEALT CARDS TO CHOOSE FROM Plan one of these 8 cards" in text
    assert f"keep {C.HAND_LIMIT} (your starting hand)" in text
    assert "nobody sees your choice before all have chosen" in text
    assert "'plan <card>', then a 'keep <card>' line for each card kept" in text
    # as explained, the choice is made: plan one, keep four, in one batch of lines
    seat = 0
    plan = next(o for o in RULES.options(st, seat) if o.code.startswith("p"))
    RULES.apply(st, seat, plan.move)
    assert f"Keep {C.HAND_LIMIT} more of these" in " ".join(RULES.render_mail_text(RULES.view(st, seat)).split())
    for _ in range(C.HAND_LIMIT):
        RULES.apply(st, seat, next(o for o in RULES.options(st, seat) if o.code.startswith("k")).move)
    after = RULES.render_mail_text(RULES.view(st, seat))
    assert "Plan one of these" not in after and "more of these" not in after
