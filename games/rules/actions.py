"""Actions a player can take, and the typed error for an illegal one.

Actions are small immutable values with a text form used by logs, the referee and forms:

===============  ==========================================================
``pass``         pass (bidding)
``take``         take the turned card's suit (first round)
``take H``       name a suit (second round), or cover with ``take SA`` /
                 ``take TA`` (surenchère)
``exchange``     swap the trump 7 for the turned card (seven_exchange)
``redeal``       ask for a redeal: main nulle or four 7s (moderne options)
``announce``     declare one's announces (announces="declared", first trick)
``play JH``      play a card
===============  ==========================================================
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import MODES, card_of, code_of

PASS_, TAKE_, EXCHANGE_, REDEAL_, ANNOUNCE_, PLAY_ = (
    "pass",
    "take",
    "exchange",
    "redeal",
    "announce",
    "play",
)
_NO_ARG = -1


class Action(NamedTuple):
    kind: str
    arg: int = _NO_ARG  # the card of a play, the mode of a take (-1: the turned suit)

    def __str__(self) -> str:
        if self.kind == PLAY_:
            return f"play {code_of(self.arg)}"
        if self.kind == TAKE_ and self.arg != _NO_ARG:
            return f"take {MODES[self.arg]}"
        return self.kind

    @classmethod
    def parse(cls, text: str) -> Action:
        """The action for ``"play JH"``, ``"take SA"``, ``"pass"``; a bare ``"JH"`` plays."""
        if not isinstance(text, str):
            raise IllegalAction("unknown_action", gettext_noop("Action inconnue."))
        words = text.split()
        try:
            if len(words) == 1:
                if words[0] in SIMPLE:
                    return SIMPLE[words[0]]
                return PLAY[card_of(words[0])]
            if len(words) == 2 and words[0] == PLAY_:
                return PLAY[card_of(words[1])]
            if len(words) == 2 and words[0] == TAKE_ and words[1] in MODES:
                return TAKE_MODE[MODES.index(words[1])]
        except ValueError:
            pass
        raise IllegalAction(
            "unknown_action", gettext_noop("Action inconnue : « {text} »."), params={"text": text}
        )


PASS = Action(PASS_)
TAKE = Action(TAKE_)
EXCHANGE = Action(EXCHANGE_)
REDEAL = Action(REDEAL_)
ANNOUNCE = Action(ANNOUNCE_)
PLAY = tuple(Action(PLAY_, c) for c in range(32))
TAKE_MODE = tuple(Action(TAKE_, m) for m in range(6))
SIMPLE = {a.kind: a for a in (PASS, TAKE, EXCHANGE, REDEAL, ANNOUNCE)}


def gettext_noop(message: str) -> str:
    """Mark an engine message for translation without importing Django.

    The engine speaks French; Django's ``makemessages`` extracts the marked strings and the
    site translates them when it shows a refusal (``games.tables.service``). Unmarked text would
    reach an English player in French.
    """
    return message


class IllegalAction(Exception):
    """An action the rules refuse: ``code`` for machines, ``message`` in French for people.

    ``template`` is the marked message before ``params`` are put in (``str.format``): the
    text a translation catalogue knows.
    """

    def __init__(
        self,
        code: str,
        template: str,
        index: int | None = None,
        params: dict[str, str] | None = None,
    ) -> None:
        self.code = code
        self.template = template
        self.params = params or {}
        self.message = template.format(**self.params) if params else template
        self.index = index  # position in an action list, when replaying one
        super().__init__(self.message)

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"
