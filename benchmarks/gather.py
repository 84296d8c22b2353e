"""Results of jobs split into parts, gathered per name: the pinned suite checks each kernel's
space in shares, the checker gate each kernel's configurations in chunks, over one Pool."""


class Gather:
    """(name, merge(name, [its part results])) for each name, from an iterator of (name, part
    result) in task order, a name's parts consecutive and counts[name] of them. next(timeout)
    as multiprocessing's imap iterator has it, so that a stopped run can take what has arrived
    without waiting; partial() then gives the name whose parts were still arriving."""

    def __init__(self, arrivals, counts, merge):
        self.arrivals, self.counts, self.merge = arrivals, counts, merge
        self.name, self.got = None, []

    def __iter__(self):
        return self

    def __next__(self):
        return self.next()

    def next(self, timeout=None):
        while True:
            self.name, r = self.arrivals.next(timeout) if timeout is not None else next(self.arrivals)
            self.got.append(r)
            if len(self.got) == self.counts[self.name]:
                got, self.got = self.got, []
                return self.name, self.merge(self.name, got)

    def partial(self):
        """(name, merge of what arrived, the missing parts None) for the name whose parts were
        still arriving when the run stopped, or None when none was."""
        if not self.got:
            return None
        got, self.got = self.got, []
        return self.name, self.merge(self.name, got + [None] * (self.counts[self.name] - len(got)))
