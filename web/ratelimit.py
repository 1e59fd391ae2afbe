"""Per-client token buckets: a phone stuck in a loop (or someone guessing the PIN) slows down,
the rest of the table does not notice."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class RateLimiter:
    """`allow(key)` spends one token from `key`'s bucket of `burst`, refilled at `rate` per second.

    >>> limiter = RateLimiter(rate=1, burst=2, clock=iter([0, 0, 0]).__next__)
    >>> [limiter.allow("phone") for _ in range(3)]
    [True, True, False]
    """

    def __init__(
        self,
        rate: float,
        burst: float,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 4096,
    ):
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._max_keys = max_keys
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, last time)
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        now = self._clock()
        with self._lock:
            tokens, last = self._buckets.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            allowed = tokens >= 1
            if allowed:
                tokens -= 1
            if len(self._buckets) >= self._max_keys and key not in self._buckets:
                self._forget_full(now)
            self._buckets[key] = (tokens, now)
        return allowed

    def _forget_full(self, now: float) -> None:
        """Drop buckets that have refilled (they carry no information) to bound memory."""
        full = [
            k
            for k, (tokens, last) in self._buckets.items()
            if tokens + (now - last) * self.rate >= self.burst
        ]
        for k in full or list(self._buckets)[: len(self._buckets) // 2]:
            del self._buckets[k]
