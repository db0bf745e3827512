"""Debounced buttons (pull-ups: a pressed button reads 0): press, hold and short-release events."""

from .messages import HOLD, PRESS, SHORT_RELEASE
from .ticks import ticks_diff

DEBOUNCE_MS = 20


class Buttons:
    def __init__(self, pins, debounce_ms=DEBOUNCE_MS):
        n = len(pins)
        self.pins = pins
        self.debounce_ms = debounce_ms
        self.raw = [1] * n
        self.raw_since = [0] * n
        self.stable = [1] * n
        self.down_at = [0] * n
        self.held = [False] * n

    def scan(self, now, hold_ms):
        """The (index, kind) events since the last scan: a level counts once stable debounce_ms."""
        events = []
        for i, pin in enumerate(self.pins):
            value = 1 if pin.value() else 0
            if value != self.raw[i]:
                self.raw[i], self.raw_since[i] = value, now
            elif value != self.stable[i] and ticks_diff(now, self.raw_since[i]) >= self.debounce_ms:
                self.stable[i] = value
                events.extend(self._edge(i, value, now))
            down = self.stable[i] == 0 and not self.held[i]
            if down and ticks_diff(now, self.down_at[i]) >= hold_ms:
                self.held[i] = True
                events.append((i, HOLD))
        return events

    def _edge(self, i, value, now):
        if value == 0:
            self.down_at[i], self.held[i] = now, False
            return [(i, PRESS)]
        return [] if self.held[i] else [(i, SHORT_RELEASE)]
