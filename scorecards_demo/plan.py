"""The corpus plan: how many servers, which ids, how many tools each, which have history.

Decided once, in the parent process, because three things are corpus-wide: ids must be unique,
the tool counts must add up to exactly what was asked, and the share of servers with history is
a share of the whole. Everything else about a server is decided later from its own plan, so
workers need nothing but their plans.
"""

from __future__ import annotations

import math
import random
import unicodedata
from dataclasses import dataclass, replace

from scorecards_demo.domains import DOMAINS
from scorecards_demo.layout import before_base, stamp
from scorecards_demo.rng import derive_rng
from scorecards_demo.wording import article

MAX_TOOLS_PER_SERVER = 500
"""tdqs refuses a tools/list with more tools than this."""
TAIL_CAP = 120
"""Where the long tail of tool counts ends, unless the requested mean needs more."""
SIZE_SIGMA = 0.8
THREE_CAPTURE_SHARE = 0.2
FORK_SHARE = 0.05
"""Servers that are forks of an earlier server of their kind: its name and description under
another owner, as registries have many ("GitHub MCP Server" several times over)."""
CATEGORY_SHARE = 0.9
"""Servers whose server.json names a category (it is optional): their kind's (`category()`)."""

_DOMAIN_WEIGHTS = {
    "web": 9,
    "git": 7,
    "sql": 7,
    "files": 6,
    "issues": 6,
    "browser": 5,
    "memory": 4,
    "chat": 4,
    "docs": 4,
    "observability": 4,
    "kubernetes": 3,
    "payments": 3,
    "crm": 3,
    "analytics": 3,
    "email": 3,
    "calendar": 3,
    "maps": 3,
    "weather": 3,
    "ci": 3,
    "shop": 3,
    "compute": 2,
    "storage": 2,
    "translate": 2,
    "vectors": 2,
    "sheets": 2,
    "helpdesk": 2,
    "dns": 1,
    "social": 2,
    "music": 1,
    "travel": 1,
    "home": 1,
    "hr": 1,
    "accounting": 1,
    "lms": 1,
}
_HEADS = (
    "kest",
    "vel",
    "nor",
    "quill",
    "brisk",
    "lum",
    "ora",
    "pax",
    "tern",
    "zeph",
    "cob",
    "dun",
    "fen",
    "gale",
    "hal",
    "ivo",
    "jun",
    "kai",
    "lark",
    "mav",
    "nim",
    "opal",
    "pim",
    "quo",
    "rho",
    "sol",
    "tav",
    "ula",
    "vex",
    "wren",
    "yar",
    "zin",
    "café",
    "mån",
    "kō",
    "señ",
)
_TAILS = (
    "ly",
    "ify",
    "wise",
    "stack",
    "base",
    "hub",
    "forge",
    "io",
    "flow",
    "kit",
    "works",
    "labs",
    "ware",
    "line",
    "port",
)
_OWNERS = (
    "acme",
    "northwind",
    "contoso",
    "fabrikam",
    "initech",
    "globex",
    "umbrella",
    "hooli",
    "piedpiper",
    "vandelay",
    "wayne",
    "stark",
    "tyrell",
    "cyberdyne",
    "soylent",
    "wonka",
    "oceanic",
    "massive",
    "dunder",
    "prestige",
    "jdoe",
    "asmith",
    "mkumar",
    "lchen",
    "ogarcia",
    "tnguyen",
    "pmuller",
    "rsilva",
    "kim-dev",
    "opsfolk",
    "devtools-club",
    "mcp-community",
    "agentsmith",
    "toolsmith",
    "quietbyte",
    "bitfield",
    "nullpointer",
    "hexagon",
    "sparrow",
    "otter-labs",
)
_ID_PATTERNS = (
    "{brand}-mcp",
    "{brand}-mcp-server",
    "mcp-{brand}",
    "mcp-server-{brand}",
    "{brand}-{topic}-mcp",
    "{owner}-{brand}-mcp",
    "{owner}-{topic}-mcp",
    "{brand}-{topic}",
)
_NAME_PATTERNS = (
    "{Brand} MCP Server",
    "{Brand} MCP",
    "{Brand} {Topic}",
    "MCP Server for {Brand}",
    "{Brand}",
)


@dataclass(frozen=True)
class ServerPlan:
    server_id: str
    display_name: str
    description: str
    repository_url: str | None
    homepage_url: str | None
    brand: str
    domain: int
    """Index into `domains.DOMAINS` of the server's main domain."""
    tool_count: int
    captures: tuple[str, ...]
    """The `generatedAt` of each capture, oldest first; the last is the current one."""
    categories: tuple[str, ...] = ()


def tool_counts(servers: int, tools: int, rng: random.Random) -> list[int]:
    """`servers` counts that add up to exactly `tools`: log-normal, so most servers have 3-20
    tools and a long tail reaches ~120, each at least 1 and at most 500."""
    if servers < 1:
        raise ValueError("servers must be at least 1")
    if tools < servers:
        raise ValueError(f"{tools} tools cannot give each of {servers} servers at least one")
    if tools > servers * MAX_TOOLS_PER_SERVER:
        raise ValueError(f"{tools} tools over {servers} servers exceeds tdqs's {MAX_TOOLS_PER_SERVER} per server")
    mean = tools / servers
    cap = min(MAX_TOOLS_PER_SERVER, max(TAIL_CAP, math.ceil(3 * mean)))
    mu = math.log(mean) - SIZE_SIGMA**2 / 2
    raw = [rng.lognormvariate(mu, SIZE_SIGMA) for _ in range(servers)]
    scale = tools / sum(raw)
    counts = [min(cap, max(1, round(value * scale))) for value in raw]
    order = list(range(servers))
    rng.shuffle(order)
    difference = tools - sum(counts)
    position = 0
    while difference != 0:
        index = order[position % servers]
        position += 1
        if difference > 0 and counts[index] < cap:
            counts[index] += 1
            difference -= 1
        elif difference < 0 and counts[index] > 1:
            counts[index] -= 1
            difference += 1
    return counts


def _ascii(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return "".join(ch for ch in folded.lower() if ch.isalnum())


def _brand(domain_index: int, rng: random.Random) -> str:
    if rng.random() < 0.4:
        return rng.choice(DOMAINS[domain_index].brands)
    return (rng.choice(_HEADS) + rng.choice(_TAILS)).capitalize()


def _server_id(brand: str, topic: str, taken: set[str], rng: random.Random) -> str:
    slug = _ascii(brand)
    for _ in range(12):
        candidate = rng.choice(_ID_PATTERNS).format(brand=slug, topic=topic, owner=rng.choice(_OWNERS))
        if candidate not in taken:
            return candidate
    base = f"{rng.choice(_OWNERS)}-{slug}-mcp"
    suffix = 2
    while f"{base}-{suffix}" in taken:
        suffix += 1
    return f"{base}-{suffix}"


def _captures(count: int, rng: random.Random) -> tuple[str, ...]:
    ago = rng.randrange(3600, 45 * 86400)
    moments = [ago]
    for _ in range(count - 1):
        ago += rng.randrange(7 * 86400, 120 * 86400)
        moments.append(ago)
    return tuple(stamp(before_base(seconds)) for seconds in reversed(moments))


def category(domain_index: int) -> str:
    """A server's category, from its kind: `issue tracker` → `Issue tracker`."""
    label = DOMAINS[domain_index].label
    return label[:1].upper() + label[1:]


def _forks_and_categories(plans: list[ServerPlan], seed: int, fork_share: float) -> list[ServerPlan]:
    """Some servers become forks of an earlier one of their kind (same name and description, the
    fork's own owner and id), and most name their kind's category. Drawn from streams of their own,
    so the rest of the corpus is what it was without them."""
    forks, named = derive_rng(seed, "forks"), derive_rng(seed, "categories")
    done: list[ServerPlan] = []
    for plan in plans:
        if forks.random() < fork_share:
            earlier = [other for other in done if other.domain == plan.domain]
            if earlier:
                source = forks.choice(earlier)
                plan = replace(plan, display_name=source.display_name, description=source.description,
                               brand=source.brand)
        if named.random() < CATEGORY_SHARE:
            plan = replace(plan, categories=(category(plan.domain),))
        done.append(plan)
    return done


def plan_corpus(*, servers: int, tools: int, seed: int, history_share: float,
                fork_share: float = FORK_SHARE) -> list[ServerPlan]:
    if not 0.0 <= history_share <= 1.0:
        raise ValueError("history_share must be between 0 and 1")
    if not 0.0 <= fork_share <= 1.0:
        raise ValueError("fork_share must be between 0 and 1")
    counts = tool_counts(servers, tools, derive_rng(seed, "tool-counts"))
    rng = derive_rng(seed, "servers")
    with_history = set(rng.sample(range(servers), round(history_share * servers)))
    keys = [domain.key for domain in DOMAINS]
    weights = [_DOMAIN_WEIGHTS.get(key, 1) for key in keys]
    taken: set[str] = set()
    plans: list[ServerPlan] = []
    for index in range(servers):
        domain_index = rng.choices(range(len(DOMAINS)), weights=weights)[0]
        domain = DOMAINS[domain_index]
        brand = _brand(domain_index, rng)
        topic = rng.choice(domain.topics)
        server_id = _server_id(brand, topic, taken, rng)
        taken.add(server_id)
        captures = 1
        if index in with_history:
            captures = 3 if rng.random() < THREE_CAPTURE_SHARE else 2
        owner = rng.choice(_OWNERS)
        resources = [resource.plural for resource in domain.resources][:3]
        offers = f": {', '.join(resources)}" if resources else ""
        plans.append(
            ServerPlan(
                server_id=server_id,
                display_name=rng.choice(_NAME_PATTERNS).format(Brand=brand, Topic=topic.capitalize()),
                description=f"Connects MCP clients to {brand}, {article(domain.label)} {domain.label}{offers}.",
                repository_url=f"https://code.example/{owner}/{server_id}" if rng.random() < 0.85 else None,
                homepage_url=f"https://{_ascii(brand)}.example/" if rng.random() < 0.4 else None,
                brand=brand,
                domain=domain_index,
                tool_count=counts[index],
                captures=_captures(captures, rng),
            )
        )
    return _forks_and_categories(plans, seed, fork_share)
