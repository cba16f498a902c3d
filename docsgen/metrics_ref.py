"""The metrics reference: every metric of the daemon's registry, with its type and labels."""

from __future__ import annotations

from dataclasses import dataclass

from prometheus_client.metrics import MetricWrapperBase

from agentd.metrics import Metrics
from docsgen.markdown import GENERATED, cell, code, table

#: The sample names each type exposes, after the family's name.
SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_sum", "_count")}


@dataclass(frozen=True, slots=True)
class MetricRow:
    """One metric family as the reference shows it."""

    name: str
    type: str
    labels: tuple[str, ...]
    help: str

    @property
    def exposed(self) -> tuple[str, ...]:
        """The names of its samples in ``/metrics``."""
        return tuple(self.name + s for s in SUFFIXES.get(self.type, ("",)))


def metric_rows() -> list[MetricRow]:
    """Every metric a :class:`~agentd.metrics.Metrics` registers, in registration order."""
    metrics = Metrics()
    rows = []
    for value in vars(metrics).values():
        if not isinstance(value, MetricWrapperBase):
            continue
        (family,) = value.describe()
        # prometheus_client keeps a metric's label names only on the wrapper.
        labels = tuple(value._labelnames)
        rows.append(MetricRow(family.name, family.type, labels, family.documentation))
    return rows


INTRO = """# Metrics

Every metric of the daemon's Prometheus registry, served at `/metrics` to admin principals (see
[Operations](../operations.md#metrics) and [HTTP API](http-api.md)). Tenant labels are capped:
past 1,000 distinct tenants the rest count as `_other`.

"""


def metrics_page() -> str:
    """The metrics reference page."""
    rows = [
        [
            "<br>".join(code(n) for n in r.exposed),
            r.type,
            ", ".join(code(label) for label in r.labels) or "-",
            cell(r.help),
        ]
        for r in metric_rows()
    ]
    return INTRO + GENERATED + "\n" + table(["metric", "type", "labels", "what it counts"], rows)
