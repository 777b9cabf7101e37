"""Where the real third-party data the tests read comes from: every file of `shared/` a test opens,
with its upstream repository, the commit it was read at, the path there, its licence, the sha256 of
the file as the tests use it and the sha256 of each upstream file it is made from.

The folders' NOTICE.md files say how each file was copied; most are byte-for-byte, and for the
others `make` does the same again to the downloaded bytes: the FlowMCP examples are the text of a
```json block under a heading of the spec's Markdown, and the real-tools captures are re-serialised
as `{"server": {name, source, license, captured?}, "tools": [...]}` (2-space indent, UTF-8, newline at
the end), the validator's reports unwrapped to the innermost `tools[].tool.source.raw`, and
github-mcp-server.json assembled from its 117 `.snap` files in name order. Every made file was
checked here to equal the one in shared/, byte for byte.

tests/shared_data.py finds these files (shared/ beside the checkout, then pooch's cache or a
download) and checks both hashes."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import quote

from markdown_it import MarkdownIt

RAW_URL = "https://raw.githubusercontent.com"


@dataclass(frozen=True)
class Upstream:
    """One file of a public repository, at a pinned commit."""

    repo: str
    commit: str
    path: str
    sha256: str

    def url(self, base_url: str = RAW_URL) -> str:
        return f"{base_url}/{self.repo}/{self.commit}/{quote(self.path)}"


Make = Callable[["SharedFile", Sequence[bytes]], bytes]


def verbatim(file: SharedFile, blobs: Sequence[bytes]) -> bytes:
    """A byte-for-byte copy of its one upstream file."""
    (blob,) = blobs
    return blob


@dataclass(frozen=True)
class SharedFile:
    """A file of shared/ (`name` is its path there) and how to make it again from upstream."""

    name: str
    sha256: str
    licence: str
    copyright: str
    sources: tuple[Upstream, ...]
    make: Make = verbatim

    @property
    def stem(self) -> str:
        return PurePosixPath(self.name).stem


def json_block(heading: str) -> Make:
    """The text of the first ```json block under the Markdown heading `heading` (its inline text)."""

    def make(file: SharedFile, blobs: Sequence[bytes]) -> bytes:
        (blob,) = blobs
        tokens = MarkdownIt("commonmark").parse(blob.decode("utf-8"))
        for i, token in enumerate(tokens):
            if token.type == "heading_open" and tokens[i + 1].content == heading:
                for block in tokens[i + 2 :]:
                    if block.type == "heading_open":
                        break
                    if block.type == "fence" and block.info.strip() == "json":
                        return block.content.encode("utf-8")
        raise LookupError(f"{file.sources[0].path}: no ```json block under the heading {heading!r}")

    return make


def _tools_file(file: SharedFile, source: str, tools: list[Any], captured: dict[str, Any] | None) -> bytes:
    """The real-tools layout: the server's name, source and licence, what the source said about the
    capture, and the tool objects unchanged (pretty JSON, 2-space indent, UTF-8, newline at the end)."""
    server: dict[str, Any] = {"name": file.stem, "source": source, "license": file.licence}
    if captured is not None:
        server["captured"] = captured
    return (json.dumps({"server": server, "tools": tools}, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def proxy_capture(file: SharedFile, blobs: Sequence[bytes]) -> bytes:
    """An mcp-proxy snapshot: its `tools`, and everything else at its top level as `captured`."""
    (blob,) = blobs
    (upstream,) = file.sources
    document = json.loads(blob)
    captured = {key: value for key, value in document.items() if key != "tools"}
    return _tools_file(file, f"{upstream.repo}:{upstream.path}@{upstream.commit}", document["tools"], captured)


def validator_report(file: SharedFile, blobs: Sequence[bytes]) -> bytes:
    """A chief-builder validator report: each `tools[].tool.source.raw`, unwrapped to the innermost
    when the source is itself a file that wraps the server's answer; `captured` names the command,
    how deep the definitions were, and the report's timestamp and MCP spec version."""
    (blob,) = blobs
    (upstream,) = file.sources
    document = json.loads(blob)
    tools, depths, locations = [], set(), set()
    for entry in document["tools"]:
        source, depth = entry["tool"]["source"], 1
        while isinstance(source["raw"].get("source"), dict) and "raw" in source["raw"]["source"]:
            source, depth = source["raw"]["source"], depth + 1
        tools.append(source["raw"])
        depths.add(depth)
        locations.add(source["location"])
    (depth,), (location,) = depths, locations
    captured = {
        "location": location,
        "unwrappedFrom": "tools[].tool.source.raw" + (f" (nested {depth} levels)" if depth > 1 else ""),
        "timestamp": document["metadata"]["timestamp"],
        "mcpSpecVersion": document["metadata"]["mcpSpecVersion"],
    }
    return _tools_file(file, f"{upstream.repo}:{upstream.path}@{upstream.commit}", tools, captured)


def toolsnaps(file: SharedFile, blobs: Sequence[bytes]) -> bytes:
    """github-mcp-server's tool snapshots, one tool per `.snap` file, in the order of their names."""
    first = file.sources[0]
    folder = PurePosixPath(first.path).parent
    return _tools_file(file, f"{first.repo}:{folder}/*.snap@{first.commit}", [json.loads(b) for b in blobs], None)


MIT = "MIT"
BLNS = ("minimaxir/big-list-of-naughty-strings", "db33ec7b1d5d9616a88c76394b7d0897bd0b97eb")
CLEO = ("kryptobaseddev/cleo", "77fb47e0495c2456dfd45bdbe480198e7445123b")
PROXY = ("jakemannix/mcp-proxy", "4384b8a298c9db9a4651f2e6b34048ae9bc7d0f9")
VALIDATOR = ("chief-builder/mcp_tool_description_validator", "ab4daaaf710cf1ba78dd698915f77e9c13d79982")
GITHUB = ("github/github-mcp-server", "64a49f34d076b6f5917dae1424521d43c7bcae84")
SPEC = ("FlowMCP/flowmcp-spec", "9852eb01d7da9710d80c60c275d013b9b3ee9dc2")
GRADING = ("FlowMCP/flowmcp-grading", "013b4faeabdd6fd46d0b627db557fdf565b52b4d")
PROXY_COPYRIGHT = "Copyright (c) 2024 Sergey Parfenyuk"
VALIDATOR_COPYRIGHT = "none published (MIT per its package.json; repository owner chief-builder)"
GITHUB_COPYRIGHT = "Copyright (c) 2025 GitHub"
SPEC_COPYRIGHT = "Copyright (c) 2025 αηdr3α5 ɮαηɦօlʐ3ʀ"
SPEC_FOLDER = "grading/2.0.0/draft/spec"
GRADING_MD = f"{SPEC_FOLDER}/08-grading-model.md"
GRADING_MD_SHA256 = "8b911d38086003f8f5e21589e09a70f82321ba80a49e1b3b498998acd30565a0"

# The 88 versions of ten tools' .snap in github-mcp-server's history: file name, commit, sha256.
GITHUB_HISTORY = (
    ("add_issue_comment--2025-06-18T08-38-32Z--3e988d5.json", "3e988d5ab530cd65f038cba0e4cdcc3abfc11196", "3cfb3b5b936e37e7f2a2dfe37ca29691d9aeefaf7c20d3fd78371d43035011f8"),
    ("add_issue_comment--2025-10-23T11-27-07Z--3ba8d4a.json", "3ba8d4a1221dc3c3d3c1509b95594736fe2353f7", "3d17d0a5da77a8bccec5ca0e08e9b5f7350d5c7bd994a07efa30351c008feaa7"),
    ("add_issue_comment--2025-12-01T13-30-59Z--60aef5d.json", "60aef5d2e3daff60f2485d9ad9730447d63a2e0f", "53c6558c371b3b5ce6ac60aaa6028f5e1a11c2ba5bc588c3ebe69019241c53ed"),
    ("add_issue_comment--2026-01-15T15-15-39Z--87a1110.json", "87a1110c15e4a9d3935707fb2da8d87f0e581c96", "9342dc205d784537af6fe61b2c2b2ffc681fa2fc305c9f493d26463f33015f1b"),
    ("add_issue_comment--2026-06-10T17-55-04Z--8bbd902.json", "8bbd902b9e459baa40014c9f4ad83b056c4709d4", "a3c2366135ee2661365df1f1f1b378dfb4b27137e2ec01b7f28111ac1c765725"),
    ("add_issue_comment--2026-06-27T07-19-50Z--8cd03c0.json", "8cd03c018525ae0bafc9b3cdb84ec2133e01bac2", "82baeb822153fe636fcc65f0a590e7ea008fc78e7f14a849c3939082385a7ffe"),
    ("add_issue_comment--2026-07-01T16-12-12Z--225c47c.json", "225c47cda1d5f7fba3a90292933ade8d9a801c47", "e0ea577c17d9b2e573d388bfa6346a8be28abd20870ca56e3c52700191d1af75"),
    ("add_issue_comment--2026-08-18T21-42-29Z--2211a4d.json", "2211a4d645dec3f77d4f49b89accbe0739746b72", "f4536df6f4642504b1d9588876c2ae358f602b140431b66894a1d69cd120aec3"),
    ("add_issue_comment--2026-08-20T08-50-12Z--fcdd664.json", "fcdd664099f957c4a7dc183d9381cef191e8c8a9", "176277396a9eeea52356d2e34c178b242cda7a3c9b3790300431d80d8c850cfa"),
    ("create_or_update_file--2025-06-18T08-38-32Z--3e988d5.json", "3e988d5ab530cd65f038cba0e4cdcc3abfc11196", "e34653e8698f7e5a6bbc275051122c7b421782be01e484fd0e58c9f72bb6b111"),
    ("create_or_update_file--2025-06-25T06-12-38Z--2a2df24.json", "2a2df24af2b0d83cb6156842266d9f3b6f263dd2", "c579c5a5779a2b0615cc5813184f687229fb9727c9db52ca4beef73e2ca95641"),
    ("create_or_update_file--2025-07-08T16-51-24Z--3341e6b.json", "3341e6bc461b461f0789518879f97bbd86ef7ee9", "120cdacc72f0dfa996d188d3f11b073f41345ae183f39dcc74bf7d8244c14ff1"),
    ("create_or_update_file--2025-12-01T13-30-59Z--60aef5d.json", "60aef5d2e3daff60f2485d9ad9730447d63a2e0f", "2e66827fb5bf4648ac24569c4921cff60627b9eacce75318c28e7bc87112a159"),
    ("create_or_update_file--2025-12-16T14-44-52Z--afe34d8.json", "afe34d82004360041954423dc7e45bab29af1278", "417e7e576489931191abd8af5533368384280953019726c00a308ba4ab54efc2"),
    ("create_or_update_file--2026-01-15T15-15-39Z--87a1110.json", "87a1110c15e4a9d3935707fb2da8d87f0e581c96", "c273a8068f6314d724d50e2c1d7679f299e1012762e4246323762cbb1da819cb"),
    ("create_or_update_file--2026-03-04T13-34-49Z--ccb9b53.json", "ccb9b5308d705465d4619164083667b720df7279", "46c98c0541b3b2193082268289e1d50293d5b91bd4e3a7540bfe44657bf8a843"),
    ("create_or_update_file--2026-07-01T16-12-12Z--225c47c.json", "225c47cda1d5f7fba3a90292933ade8d9a801c47", "7828da5c1b501cd3ac97e33834c4e4addea34335d09263d1d65d108b8bc81dbe"),
    ("create_or_update_file--2026-07-31T07-49-14Z--3778a41.json", "3778a41476e31a072430cfee7c5d31c5f72def60", "93d1851af5f51fad40653d63f7d3d00293fbf59a2e0e80de16988d2ed21a701c"),
    ("create_or_update_file--2026-08-19T11-06-59Z--30600ba.json", "30600ba3353ea8c1c46f2163639a3771c38d4fc5", "d6d19f8e72554ebb2504a3a7fee7ff6915f278e95b0ca27a7b701c4055544342"),
    ("create_or_update_file--2026-08-19T11-06-59Z--596203e.json", "596203ef54fc465d60f883b08d75c4b8961a4a50", "d42ad53f93de084d72e27dbe1a380566d0d5f7ea71bca3e54194d99c2c8c46e5"),
    ("create_or_update_file--2026-08-19T11-06-59Z--bb3a1b2.json", "bb3a1b2a03c4c84655652e376c331959eb9a8464", "690ce8dfd0ce7c81f182c2a7aa81fadd6c0d5ee28a9170eef88aeeea52c2346d"),
    ("get_me--2025-05-28T13-56-54Z--023f59d.json", "023f59d5cc9330fb5da82f3eb9da99ba89030d25", "77b5766ab3e2e3caa8e013d2a804b5364718959a1a60e0dcc18996cf8c8b8658"),
    ("get_me--2025-07-07T16-07-48Z--0cf70eb.json", "0cf70ebdb5486293095848844620cc01e4f2bedf", "c0a62fbc1793d468fde4dd53ed470fe9466fc9814629b209695473c7a497372a"),
    ("get_me--2025-12-01T13-30-59Z--60aef5d.json", "60aef5d2e3daff60f2485d9ad9730447d63a2e0f", "99c477f4fdcf4adf87739cfcfeafc3781caee9bf7adc3a357330eb13f3dc5c8b"),
    ("get_me--2025-12-04T14-56-24Z--f197a9f.json", "f197a9fd2a0d7770dd75e5497785d5afa5212b93", "c9a68aa830bc03f78d5c03bcd9d0edc53cf0f6be0698211ab82350b5d89da150"),
    ("get_me--2025-12-08T10-15-21Z--82c4930.json", "82c493056edfd49a4e15d9cd0ce5908bd9b59e1a", "c06fc6a39ed807fc5061178b91af937536d7579b690e688dae1ea7cf78083d06"),
    ("get_me--2026-01-15T15-15-39Z--87a1110.json", "87a1110c15e4a9d3935707fb2da8d87f0e581c96", "6dfc53b964aac15d30c6ab730feeaaa73c0db7202fb7cfa27f0fc2bc892c3ccd"),
    ("get_me--2026-02-12T13-03-00Z--e83440d.json", "e83440db5838f57ad67fa37865dc69615c8e5025", "0d698d878d0e3ef43091c8398f922b91e455fa4ff3616575e04609779abf9724"),
    ("get_me--2026-05-19T10-19-30Z--f21dcd3.json", "f21dcd38abaafda1c555238fa018c88b5236afa7", "7d50962282cb6098e6850f743eabf9f2f6dd339748d5f77971b2a08a7bafb78d"),
    ("get_me--2026-07-01T16-12-12Z--225c47c.json", "225c47cda1d5f7fba3a90292933ade8d9a801c47", "9f40526f31b4881ca17f8f3a0e5400ce75a9a36a4e5658661e0d67ddec5160e1"),
    ("list_issues--2025-06-18T08-38-32Z--3e988d5.json", "3e988d5ab530cd65f038cba0e4cdcc3abfc11196", "af2b675a25e871048f515d4a16dd7a74ecc5593352fbfe759d57312222fe1daf"),
    ("list_issues--2025-08-08T14-26-48Z--8aa3379.json", "8aa3379feacb388289379d27b27692e91dd3c2ed", "581ea17dddba7be2062edc36f55b7e95a778c81971f2e4b5f23e65f3420e7799"),
    ("list_issues--2025-08-11T14-48-26Z--f818830.json", "f818830ff1f6334cf3d8f50bef742c326134a235", "960679e8a872133c31ec174244b5e2842c6918eb4bdd80668518e58101d96d31"),
    ("list_issues--2025-12-01T13-30-59Z--60aef5d.json", "60aef5d2e3daff60f2485d9ad9730447d63a2e0f", "454ddddf3f4e2b132309527c806bd1556f5a8bf105f71366ba3da58814a17314"),
    ("list_issues--2026-01-15T15-15-39Z--87a1110.json", "87a1110c15e4a9d3935707fb2da8d87f0e581c96", "c1ccfd94c0bbd21137f7eb293a785522fb35449e3c6f9fa629d880dd20b7cfd9"),
    ("list_issues--2026-05-21T14-36-17Z--13e7f10.json", "13e7f10fc8ddff977e02043aec4574d9c8ded8ec", "7458b2de993278b5d2d75860b7779dcd6ebf56a92be7cf6f9d140e540800bf8d"),
    ("list_issues--2026-05-21T21-01-19Z--f5e26a8.json", "f5e26a85407cd7995606086bd3ae641261756662", "c1ccfd94c0bbd21137f7eb293a785522fb35449e3c6f9fa629d880dd20b7cfd9"),
    ("list_issues--2026-06-10T22-09-34Z--918a42f.json", "918a42f05a344be9466b18dfb153d8faf02a4d5d", "9bf000031292813661e169d88e5836b1cc2bf803a02b993467e61ce58b568998"),
    ("list_issues--2026-06-19T12-09-47Z--a378370.json", "a37837027f6ac03560ebebd9f51f9f1f898b28c4", "84b486adc4a92f61eff57ca3a362033b3813d4633166f458adba0c84a26ef1c3"),
    ("list_issues--2026-07-01T16-12-12Z--225c47c.json", "225c47cda1d5f7fba3a90292933ade8d9a801c47", "edb6a3d084ed6e2331e395db2be002fe6b3a3f933b5ac64bee31273404734cee"),
    ("list_issues--2026-07-29T13-06-03Z--456fae9.json", "456fae9d0464944b946a288aed152dbb0c369a76", "7614af0b387d4a0f138fa0f55d453379818ee9cca3d7e8c2043259045e963448"),
    ("list_issues--2026-08-19T09-36-21Z--95a8e75.json", "95a8e7570581e15f383d261d4e6db5bfdaebfdbb", "e89db4668ef6c20901d7d91cac8485b4c1f8f2eb4afc6f244f79ae79032cf403"),
    ("list_label--2025-10-09T09-24-18Z--bbfc44c.json", "bbfc44c552b13152fce3f3a651b87a5bbcc14615", "c0f970975ed9a44a3810c77d30ff2c5d06614a012614162b4753923d944d8793"),
    ("list_label--2025-10-23T11-27-07Z--3ba8d4a.json", "3ba8d4a1221dc3c3d3c1509b95594736fe2353f7", "d5f54a089bba007e02447d3b7ffe0b98d0ad91f32a116121db2ab54fc9cdb403"),
    ("list_label--2025-12-01T13-30-59Z--60aef5d.json", "60aef5d2e3daff60f2485d9ad9730447d63a2e0f", "cb4f4c0220bcfde473de1e99b30bc313630ff10baa868717839750f7aae1e93a"),
    ("list_label--2026-01-15T16-33-22Z--0bf791a.json", "0bf791a4ce73ad36a6c6b441fcfdd07e146140ec", "76782acdd1da3563f0043f5b961dfe774058fb9a804b5a965ec624d3225aa39f"),
    ("list_label--2026-05-21T14-41-21Z--f39f758.json", "f39f758d6f46475795140065972528e035a0c769", "908f69c62750b15a6c9658967509530e8609ebf74b97ee92f968ac2ba0523181"),
    ("list_label--2026-07-01T16-12-12Z--225c47c.json", "225c47cda1d5f7fba3a90292933ade8d9a801c47", "58ee7732c20e905bc37e76fea55758c2ab33df3b27a012a6ea9b860d5319dae5"),
    ("list_label--2026-08-10T08-35-52Z--cdfa34e.json", "cdfa34e0a9d3e1ae6825345471f25185dd61d74e", "634fdb8453deea1f2b43efdeee3f3dc0bff012a3d4ab31432913fceccabd5254"),
    ("projects_write--2026-01-06T17-38-12Z--66a0164.json", "66a01645f82e00c56a141e08903402f9d4e1ead7", "b92f991c4882929eb1b1a25a2984cf5b3ff54e7aee13b13f1c14d85e72d5b3c8"),
    ("projects_write--2026-01-15T15-15-39Z--87a1110.json", "87a1110c15e4a9d3935707fb2da8d87f0e581c96", "386fc8744ef14ed8eabc82ec1b1f088a893a7362b69944c04e235e2684208c90"),
    ("projects_write--2026-01-22T22-27-21Z--eaaf1ea.json", "eaaf1ea833672efa96b97d2e6bf20364e7029f78", "818c72c6d0487305d07332023d05de206e7d4b3d4dd817ded554ca0d4aa7c266"),
    ("projects_write--2026-02-18T09-14-40Z--67b8bf2.json", "67b8bf2ed266a1edd03cb0f79ed8538a01e3101b", "8a0e57a685df2ce44b866642f866908ba92e30c3657646c0ab0bfda1e73d92bf"),
    ("projects_write--2026-05-29T19-13-20Z--5d47ccc.json", "5d47ccc32fbf5358e45539fb4b29791fbc1ef535", "6103bf4bacc77fbde2ffe3b36d6f7a23910801e112b4c47aa88e1f0b5c419909"),
    ("projects_write--2026-07-01T16-12-12Z--225c47c.json", "225c47cda1d5f7fba3a90292933ade8d9a801c47", "5dd6af1ac155d5ea8083dedc377485fba29e5146728cf0ed8989379f87d5060c"),
    ("projects_write--2026-07-10T17-25-32Z--c36e4e4.json", "c36e4e4493c76eafe2c1a9cbc5272e8eede29189", "a9ed81959f5811535332c1ba730f4b5adb838aa3d9c16b42c59acea371c1b03f"),
    ("projects_write--2026-07-29T19-57-26Z--d080b23.json", "d080b23f593d153808fc212dc9a69d6e38ef68c9", "0f16e6595b7dc5681ad0d4fa3f04f1d8f073fa4a7a274d7b10790cf6b0dd5747"),
    ("projects_write--2026-08-12T12-41-33Z--d6cab97.json", "d6cab9757ac577eecf1821ff167895a76b342beb", "a9842cd9eafe3f9249bca8b25f7984b66d89c303517898d62efb30f922b56373"),
    ("projects_write--2026-08-12T13-40-51Z--2198e85.json", "2198e8599bbbcb98a0d6cd7cabe9a48629acdf29", "e754a1d7c5e40ef50020496bf5d0a55f18096c948a857b9fda0fca463509aa40"),
    ("search_issues--2025-06-18T08-38-32Z--3e988d5.json", "3e988d5ab530cd65f038cba0e4cdcc3abfc11196", "e60ce4e773d5014348d9097dfb5773e5c994e95772b603cd14a002b8b21fe60c"),
    ("search_issues--2025-06-26T11-53-13Z--805358b.json", "805358ba3d3df1411fbd11ae906fdffc517f2c72", "9e58dc5215ad6c1e90cb5f90383897c0fb3a6743ea777381327d370155b4bc6d"),
    ("search_issues--2025-06-26T11-53-13Z--8bd7152.json", "8bd715235b4cf319d625702beda06fefb52de0f1", "095bff30480be025e488daaf17a0a0ac846116f9847d227c30f7876c61be59c9"),
    ("search_issues--2025-08-08T12-34-04Z--d65d1d5.json", "d65d1d5455989bfc45da11eab467d91e78fa8ce8", "4b8d9479082f011c26b23f86a2d784dbe7e6225509760840718172265dfebe64"),
    ("search_issues--2025-12-01T13-30-59Z--60aef5d.json", "60aef5d2e3daff60f2485d9ad9730447d63a2e0f", "ac1cb30f9f7e8115354fe7ce7126ac61f303936d286b959eaf58ec711e49fc48"),
    ("search_issues--2026-01-15T15-15-39Z--87a1110.json", "87a1110c15e4a9d3935707fb2da8d87f0e581c96", "59ebb83a457643361eb5b357a804d5729100722873083310fd2a9d656dc28da5"),
    ("search_issues--2026-07-01T16-12-12Z--225c47c.json", "225c47cda1d5f7fba3a90292933ade8d9a801c47", "59c7327fa6d3905039dbf93d27700c847e62453d7fc0471190c1a5eb4dd229d5"),
    ("search_issues--2026-07-29T13-06-03Z--456fae9.json", "456fae9d0464944b946a288aed152dbb0c369a76", "a8d2566c8df2c4eccc9d87b5ef25494a8915caa71cfa5f76fa48239521e9ac1e"),
    ("search_issues--2026-08-06T14-51-13Z--f3cb662.json", "f3cb662c25456f993115ad11fffafd0c5a5b9f97", "f7ce861fd1f85caf9e220237ab4e711d955aa6c96347574253e5c93657b68d82"),
    ("search_users--2025-06-18T08-38-32Z--3e988d5.json", "3e988d5ab530cd65f038cba0e4cdcc3abfc11196", "e0a48c63d5633065da7accaf504d864fbc6d9389eb2b926199e32d990d8ac038"),
    ("search_users--2025-06-26T10-35-12Z--acba284.json", "acba2848a32dc54a8ab70581bc463cf4afbb5410", "0790c212790900a0f7b7a546ce23e75918316e8d14883dbbb57ace5291ddf391"),
    ("search_users--2025-07-30T11-37-24Z--4b64121.json", "4b64121b97f456163ef78a3d244462647068f585", "83f3060c51f731d6b518532fe6ef69b9013690050dae65ce0337ab9885b1feba"),
    ("search_users--2025-12-01T13-30-59Z--60aef5d.json", "60aef5d2e3daff60f2485d9ad9730447d63a2e0f", "aaf28a3c44d484383458c89dc7786681c07cdb9952145f1c77951ff46d146a7f"),
    ("search_users--2026-01-15T15-15-39Z--87a1110.json", "87a1110c15e4a9d3935707fb2da8d87f0e581c96", "d9f4075a5fc42a8e174c637edb78be75cffeae7bfe8d894c5c836126d3fea57a"),
    ("search_users--2026-07-01T16-12-12Z--225c47c.json", "225c47cda1d5f7fba3a90292933ade8d9a801c47", "1f11dd3173ac611afc1479c8a8aee215f2509b565676b2cbd5df0b7249a8c017"),
    ("update_issue_labels--2026-04-14T14-40-00Z--62266f8.json", "62266f804b1e24b5c22f158c4c79b1db4950967c", "b70af872ae38edf7c0672b1f191bf79be0d3bf4d76a947c2b96e9bc8516bc85e"),
    ("update_issue_labels--2026-05-20T09-00-19Z--b2b4936.json", "b2b49361fdde70b95e1740077c2cd54489eee235", "1aca19bf456aa333386d0ff7ae45228f6f739355aee0da56f9ef9c01ede3b713"),
    ("update_issue_labels--2026-05-28T09-29-34Z--d661abf.json", "d661abf4cab483204cbfc433a775bc8ddab68d0e", "80b7ce0ae8adcb3cb2575114602aedcbd2ad48ce997ce4a6840a43d81915e33c"),
    ("update_issue_labels--2026-06-05T14-04-22Z--457f599.json", "457f59932ac041c9276e03e634b0e0c30f19ba3e", "d0a6ed3cb634b85719e7d93f640f0214fe4313c73160a3863fb79b70f7f5e33f"),
    ("update_issue_labels--2026-06-17T13-50-16Z--6830c4d.json", "6830c4d39426f6a7931f668eacd9eaf91b4822a8", "b44b8d062dabbc81958e4ba4c9e5af14d985f3c4f1ff66d67cd644ec8eb7cbfb"),
    ("update_issue_labels--2026-07-01T16-12-12Z--225c47c.json", "225c47cda1d5f7fba3a90292933ade8d9a801c47", "ad715302c9932f78d93e54584cbb401cd05d7d51963600d0ec7852e8477bf8fa"),
    ("update_issue_type--2026-04-14T14-40-00Z--62266f8.json", "62266f804b1e24b5c22f158c4c79b1db4950967c", "7a3cc040e6e675828976b6265f079cfec56ac5ec5da04bd778dab9f661aa17b8"),
    ("update_issue_type--2026-05-13T10-47-41Z--59fa9a7.json", "59fa9a73ba79714674bf9ff794858147d1960099", "5718ccf582bf0f9bd721ce002092cc1c16c9664305d5236dc6eada26b9b79314"),
    ("update_issue_type--2026-05-26T15-19-15Z--57f4df4.json", "57f4df4728e2f7b51ddb36c7a87b169ce24186c5", "e8dd0f0ee0c3f35009994203ae5ae3ec1402a7fdfc862a1ab44c075812c2b00c"),
    ("update_issue_type--2026-05-28T09-29-34Z--d661abf.json", "d661abf4cab483204cbfc433a775bc8ddab68d0e", "880c6baf2bf8ae8ebefdf1683720364b1f6a45ab92e0a9db9862ad8999fcb375"),
    ("update_issue_type--2026-06-05T14-04-22Z--457f599.json", "457f59932ac041c9276e03e634b0e0c30f19ba3e", "454aef5e13af8156092a5324f5072c574069e8f7ede31c463047c63942181438"),
    ("update_issue_type--2026-06-17T13-50-16Z--6830c4d.json", "6830c4d39426f6a7931f668eacd9eaf91b4822a8", "6fb9e25398f3cc16de20cd11d161bedbb6fd4f0db48d727d2a02b59e3273a786"),
    ("update_issue_type--2026-07-01T16-12-12Z--225c47c.json", "225c47cda1d5f7fba3a90292933ade8d9a801c47", "e11d548307e69d5b4b07547cddb06ff882f454eb625e389e9510050ea6785451"),
    ("update_issue_type--2026-08-07T00-25-58Z--e7f7bb8.json", "e7f7bb8b31bd98c3a65167905126e136aa8d85eb", "01ad6d494e73c0d10c030c4ccfbe8fcfcf40e4dd98914d490284cedd9f619398"),
)

# The 117 tool snapshots github-mcp-server.json is made of, at GITHUB's commit: file name, sha256.
GITHUB_TOOLSNAPS = (
    ("actions_get.snap", "691f6b96781c05472afec9367eba778b1be7c33faa98a143016e63594053d85b"),
    ("actions_list.snap", "392ed5150cd1f5c5cee5eb53ff0e3ed768d37d95fe96369d3419189e4ba2deab"),
    ("actions_run_trigger.snap", "860a9b7869eb7d493b558772d0eee8add9a7825935860ad2f3c213506da51aa6"),
    ("add_comment_to_pending_review.snap", "018060f9c4fbe1a6abef65e9297c908bcb9783f4da555134ef50d497cc427af0"),
    ("add_issue_comment.snap", "176277396a9eeea52356d2e34c178b242cda7a3c9b3790300431d80d8c850cfa"),
    ("add_issue_comment_reaction.snap", "bcffc1d907818a5d0ca49e77d09409a732ac79e35140919f7dd0f39a5c1f561b"),
    ("add_issue_reaction.snap", "e8a4eed40510d89566c3c3f04c7d4bce03b7b83b737986986d59d51fa64a87e2"),
    ("add_pull_request_review_comment.snap", "edaf45545b4cf0f91494763cab87c44e0ffab8682b95434e8d3cfdb7c6b6e241"),
    ("add_pull_request_review_comment_reaction.snap", "5ee19129310c7c228f91dea6212542314e7f1ca3f80a76a9047308ceabec5764"),
    ("add_reply_to_pull_request_comment.snap", "05bbd9ff18968f43603f3b951c586a25ec82d07000b8b6652ee15bc469217e9a"),
    ("add_sub_issue.snap", "90ce37e9d18c1487c51b43228a57f241ca8ebf716a1220885d5c7991295b6e00"),
    ("assign_copilot_to_issue.snap", "b20ec9268b37c0c692d5d94c32334f0c9ed1ca6bf13c1b5b334a5386092fb679"),
    ("assign_copilot_to_issue_with_intent.snap", "82d7b66be59d47a97e20585b7b43004731e9a692fccdc600648a76940c92b96b"),
    ("create_branch.snap", "176171ebe2fc55fdd3f66fc266ae162238150d0893fe710b9810338a5767f831"),
    ("create_gist.snap", "f691b464c5f4dc3886d60b315e218191c3732e049ad06e1beb30dd7de0e6b7eb"),
    ("create_issue.snap", "f130af5dbd0bb8b3a4cbfd5d56d88b86f69d2f3f0e23614625b2ba576265e485"),
    ("create_or_update_file.snap", "d6d19f8e72554ebb2504a3a7fee7ff6915f278e95b0ca27a7b701c4055544342"),
    ("create_pull_request.snap", "42f05b7b35d1921d88ab8dec37eb25f5d2afad732a150018045ee47cba359ad1"),
    ("create_pull_request_review.snap", "fb6acf97d15a1a29b6e1cc5fb708e67ab44751a0ae7da7d4283367eeabc6addb"),
    ("create_repository.snap", "a004cfe421475e9b92e5fec3d9f1dfd6d27b356d03fc9841044b1e378621d1b4"),
    ("delete_file.snap", "7a8a6055aceea37560a353394fda835128dbd674644d64c07ca6616c8da90a20"),
    ("delete_pending_pull_request_review.snap", "4cd4b30d8833a4ebe434cff075f02c7cfbb96585b45bab7e472f6ca1a7fc536a"),
    ("delete_repository.snap", "66df932d883ca4227ff9044ebcf0069a351f1995987b833c44d9a5d9bcd8ded4"),
    ("discussion_comment_write.snap", "024c5a4e3f420b419d831ea1c5768a8538825d16a4e92a5ba0bac780544ba018"),
    ("dismiss_notification.snap", "fb9801676b6adf89873c25fb04ac1475416775d2ace46c028043e8946790569d"),
    ("find_duplicate_ff_duplicate_detection.snap", "ec01d257768a02bc3bda0891d3b7abe4628c05a080b2e35e0c10cd558c937925"),
    ("fork_repository.snap", "98392ec6d54d9d768e7de3caeac5c5f00452957573a62a894e0733399b7c92b4"),
    ("get_code_quality_finding.snap", "69877c070147fc60ef069253f58abdb8f9364255fa26ba4aac293d8a76ab7aa5"),
    ("get_code_scanning_alert.snap", "1b59d62b66bcafd2c2cede77ea423bedc62dd59b4b5b9d1ac10b1854e09d6066"),
    ("get_commit.snap", "f41a925c8e336127850a40e55b9a3929ba848d437c238e30d836ace520f431e9"),
    ("get_dependabot_alert.snap", "f7e20968dea8aab39bc1e3c3c83cabbc411b5ebc8759ad7bb6ccbef643068451"),
    ("get_discussion.snap", "fa67b819dac18555b28aafe2903cddf6e34fbbbb9230e365aefa14d56238f738"),
    ("get_discussion_comments.snap", "4e5148db42c73fa75d9f36df952c31e03016880728fe18307d7cb1d2ad8d1f72"),
    ("get_file_blame.snap", "c7a7482d7d225a1784dd361b7ac4619e954f2f3a17ba4d42b3032d1fc25a7c2d"),
    ("get_file_contents.snap", "7cb6db962e68f7fe3620a30bd35cc2d760601950aeaf224e27de7a33ae56edd3"),
    ("get_gist.snap", "27011ea34af444a397fc704478fd6483f30fcd12e13d7033e201ce935f21471b"),
    ("get_global_security_advisory.snap", "37118ad29092e8f2c462ad3996a41b7d41effd72bf5bf68529a77846f656c937"),
    ("get_job_logs.snap", "ae4db7a8b27a573335881a6e00f378cb30bc71cf6e0ad66a8b0b14f28ccf6a4a"),
    ("get_label.snap", "076b06a4fe99e9673cf1a74d10a67d38b0585f3d535360e5ffb225f53f36c325"),
    ("get_latest_release.snap", "681ded74a1b33ed12e5435ecb0fb54ee806cb37870b524d96f1e77a88715a67f"),
    ("get_me.snap", "9f40526f31b4881ca17f8f3a0e5400ce75a9a36a4e5658661e0d67ddec5160e1"),
    ("get_notification_details.snap", "42fa38187151941cdb4f4ae962bf711213f2a8a3b16da81ea219e4b2b82ae41a"),
    ("get_release_by_tag.snap", "6e151f5364d07553dcd7fb8a6661cb8f1a9dce4d07d8e2f40d5d80fab5df9cd4"),
    ("get_repository_tree.snap", "5860bae95f285034fff6818d5d74822c78b52a1e9c675834a1b850f0de69076c"),
    ("get_secret_scanning_alert.snap", "e2c7da159063265ad682be882e72f38cfc1c8d7faa3289954175bd4d39e2964b"),
    ("get_tag.snap", "977fdaf2cc78d870532331acf2f22a31d2d2d35c28b5605bae24023697d88701"),
    ("get_team_members.snap", "24b7517901390399b46199d4f24cddbc61a379d5610c961e9f1d6712e3e6fa06"),
    ("get_teams.snap", "bdf0b2a807632cc62fd2f3f05b7491c2f8f8876f601da24bfe684facfc727fdf"),
    ("issue_dependency_read_ff_issue_dependencies.snap", "eca654b3480a710a9bcc4a80b1f45066ff4057617ca296696fe4e4c2ceec81d7"),
    ("issue_dependency_write_ff_issue_dependencies.snap", "8ac3c23c619bc5d86bbcd3b6ab1c69ceb79e47f403bdb11b89dfd76acfdc9815"),
    ("issue_read.snap", "0607dac48fed24690d592ebb949677061bf643a1838ba8b436708b09c8381f00"),
    ("issue_write.snap", "f3ab54bad1d3fe65378d2eccae3b0fea02256139a4f7752abf6b4d1facc0d4ae"),
    ("label_write.snap", "e371263f5a5c4acb49eb870103024ddbf0d014acaf4c6e2686f10d39727acdfa"),
    ("list_branches.snap", "ec54d73c9dfd79401331f2f674a02d44eed8218f0d3564e2ada8496d00c4b278"),
    ("list_code_scanning_alerts.snap", "3df0d507f8360ebb3a514be7276f0054aade1f9a05d4930fda4f8f186f0c86bf"),
    ("list_commits.snap", "b2f1d578e2477cbaf12cb776bbbaaac62f2039268922fa6e8218b1c91db74230"),
    ("list_dependabot_alerts.snap", "11b7a5b5d2d9670efe1e2a9936d089eaa08b037b9b1f3a1fc6d78ed1a5761f37"),
    ("list_discussion_categories.snap", "6a4b909b149a06dba80060720adf2761ddd0737930671ca3dff45db6a8324ef6"),
    ("list_discussions.snap", "4095c7f203cba8643de0b7c54866857f2d5edfd1b6cdc87bd9f30dd4684bfa16"),
    ("list_gists.snap", "70ec7eebdb1e389872da6b273c85a7f1d4c5e20729268bc1ca85c4732e876533"),
    ("list_global_security_advisories.snap", "f9117e116db1622ef11db2fac28b01f618de51678de416162f7879f1b58aa297"),
    ("list_issue_fields.snap", "26013ad97fa49f07a762fbbc68d76daf415503681d5046f000ca1c60c4dff212"),
    ("list_issue_types.snap", "ab8cf84e23a124f4c307d8a9b3110d3bd64d8c3959bdedaca5ffb4036033788a"),
    ("list_issues.snap", "e89db4668ef6c20901d7d91cac8485b4c1f8f2eb4afc6f244f79ae79032cf403"),
    ("list_label.snap", "634fdb8453deea1f2b43efdeee3f3dc0bff012a3d4ab31432913fceccabd5254"),
    ("list_notifications.snap", "fbbea492fc5b275113e456f9018252b47f7ab29dab097feee3b8062db775611a"),
    ("list_org_repository_security_advisories.snap", "a349f3db2800878bdb639ce325951128fa3cde66eceddd761b674a11ae4fbf41"),
    ("list_pull_requests.snap", "d5d621c6f4a83c551fa6ef398c67ad85ded9f2b83ebddae2d187d05a6e6aec89"),
    ("list_releases.snap", "28687936275c7e21393ca9633c40c4262b96cce7293c7f54cf26ac17acab7cd5"),
    ("list_repository_collaborators.snap", "cae2bcdca922c1c9b70af329e4eb214b95427889cfea91ad787654ffbf837ccc"),
    ("list_repository_security_advisories.snap", "3cc2caa1db62aed048bd3a39f4d73821d1c3fa5f25687adb348546e977a9da07"),
    ("list_secret_scanning_alerts.snap", "2ffd04f5c2fa8fcd62eb086559fceacc62f18614c787c54986082e0844022e5c"),
    ("list_starred_repositories.snap", "98d643e738456c3f86e93c68a15645b255fb5f0cefcea58338351b12bc395300"),
    ("list_tags.snap", "ce7c13a7426ccac822f914b90787a5c616d62ddb193873de446e7d850a706ce5"),
    ("manage_notification_subscription.snap", "27dbecfb676e1ee3176928d5d48e65c1c31ebb800810987b52e760bf0f0ec651"),
    ("manage_repository_notification_subscription.snap", "2f6679eb3643976a98a388919b9e261d43cde7833d9ca55750fd79986b331dcb"),
    ("mark_all_notifications_read.snap", "00cc5aec510ef93bd645d24c5da92e585e0e48ea433335d393858d1edba3a557"),
    ("merge_pull_request.snap", "6af32da22c45c936512830d32d0c4879f3a4fb6df92fe7025b2554d4838dfb66"),
    ("projects_get.snap", "6f2182338daf1ef6684e42becf216576e85d3f3d9e0906b9c41aa6df16af82a1"),
    ("projects_list.snap", "00affbad2dfb5531117d3b972eb62c6b4dcff9f7c6edb4415c2c214a7d1f1b53"),
    ("projects_write.snap", "e754a1d7c5e40ef50020496bf5d0a55f18096c948a857b9fda0fca463509aa40"),
    ("pull_request_read.snap", "270a6122399a7e1c2d592bf43829cb8f0c2f6bf31a8893f10de35ccd4b92f22b"),
    ("pull_request_review_write.snap", "8d12503b5b28611e17ec4a8ced5cc16bd572c3899d4e6e34bc5e69a7144bf4aa"),
    ("push_files.snap", "303b42fe2d778bf55f16029d87445d69b7ea8fe74aceb07d09d4d386cb041697"),
    ("remove_sub_issue.snap", "7dcc55b4016bfe1bbd930319f8f0fb9a08ad40b830eca3bf66a7a21a6efefca5"),
    ("reprioritize_sub_issue.snap", "5510cd49b45dedbabb06fbc93d3fc49dddb3b5e49eeac33c751fa8ef44d3a8d8"),
    ("request_copilot_review.snap", "b0e5b8bca6c071c73fc0657ee5b27c51c335a0d744a0a66dc31e2fcb271004d9"),
    ("request_pull_request_reviewers.snap", "444624892ff62a85f2c141512cb09518beef87184f57ffa7786666727410e5bd"),
    ("resolve_review_thread.snap", "b12ee1d284991f5372d13fcffbc353d3543a66e1b9f0c635426a3f41319e5eff"),
    ("search_code.snap", "0fd1b423d55810000f3262fac44dd481bc3c7f4f7ffbe0ee36fe9cd643bfe06c"),
    ("search_commits.snap", "9b71880703d7c331a374fb41e937fc07394f3c252c42e06751c5f44a01bc3932"),
    ("search_issues.snap", "f7ce861fd1f85caf9e220237ab4e711d955aa6c96347574253e5c93657b68d82"),
    ("search_orgs.snap", "b630e9b05879ff44448f97bcf12acafd3a8c99b5bc6eb67cf7687a85d8d3e54c"),
    ("search_pull_requests.snap", "1177adc5198644466cf88746f581e4463c6ad21e1c9b7c7aaf945a919f620771"),
    ("search_repositories.snap", "714aa41fa7252277e448843438c5a79e29b60a76d274a23c049952223692c1b4"),
    ("search_users.snap", "1f11dd3173ac611afc1479c8a8aee215f2509b565676b2cbd5df0b7249a8c017"),
    ("set_issue_fields.snap", "9a967c587b5e1207d383544625de0cc780e3b41b7691c113cbfce86ab1d58324"),
    ("star_repository.snap", "e941c9f867195776366063ad5ca7e71736ee5c85767281535b1283d046ea5a14"),
    ("sub_issue_write.snap", "cbdfea2f65055254b452b6ff236c8af360c0f0d0d67c253c430f0a23da2ea936"),
    ("submit_pending_pull_request_review.snap", "226e2123ebb8180cd745ba6ec2ade2312492dd0cbc70c81fbeafac270340290a"),
    ("ui_get.snap", "53033016a9700cece95b000a27fc6492a3311820b2f943be3e89be0aab915fc6"),
    ("unresolve_review_thread.snap", "8dcc8fc7975bcc5180d5b06b0f631ece3f578ceab3045c692ec29a8ce4f7068d"),
    ("unstar_repository.snap", "d8be1c3f442fadd8881a90d5cba31db54f9ff689e49b3221b6547b31630db093"),
    ("update_gist.snap", "0ebdabea0de2379aeae7d3320394f63efb50ffa991bd11be14d56ae0b58ca9aa"),
    ("update_issue_assignees.snap", "46c5193daa0f50564c2e9d62bcfa904975f6760fdc0eeaad621ad51ba92420c7"),
    ("update_issue_body.snap", "a91beae17c58f4e4f77e3d09d9499705b6605c46ac3f69d7ba9721c60859b317"),
    ("update_issue_labels.snap", "ad715302c9932f78d93e54584cbb401cd05d7d51963600d0ec7852e8477bf8fa"),
    ("update_issue_milestone.snap", "e1eb5f9696f678b52bf242837b8443530d0751c0e7e492dcf5ce5a329401d0bd"),
    ("update_issue_state.snap", "27bd2eb1a4d8644f5dcf847a5fe0d1bb828b214c006b22438f2e62463e67a285"),
    ("update_issue_title.snap", "507284bcc489b108c81a1e8f6919cef349fc2ddc72f76b898ecd9ba62154ce65"),
    ("update_issue_type.snap", "01ad6d494e73c0d10c030c4ccfbe8fcfcf40e4dd98914d490284cedd9f619398"),
    ("update_pull_request.snap", "67c03d81b6b395f6e0143819bba4ed339febed71fd62c00d6219f4f601cea8ee"),
    ("update_pull_request_body.snap", "aeb64dafe7c4a17b1177a64a843135f878e5274120f9bbb0c3a545f06bc346fc"),
    ("update_pull_request_branch.snap", "75a8006440cdce7cf58b83673f8a7e52f8cb1791d223a6aab8d2f0f4519e9572"),
    ("update_pull_request_draft_state.snap", "50b53fb81842993d976a8ad5ea207e4f96580b64292b1d4510f7c1ff5ffd0c97"),
    ("update_pull_request_state.snap", "63aa19bd448faf8eb5025452a0e0ad0077f947a02729551c46934c573c934896"),
    ("update_pull_request_title.snap", "23d5a7974bd63e20b6823b447602b49b26a05cfd42d478f6064e03256bead2e0"),
)


def _proxy(name: str, sha256: str, upstream_sha256: str) -> SharedFile:
    source = Upstream(*PROXY, f"demo/mcp-snapshots/{name}.json", upstream_sha256)
    return SharedFile(f"real-tools/{name}.json", sha256, MIT, PROXY_COPYRIGHT, (source,), proxy_capture)


def _validator(name: str, sha256: str, upstream_sha256: str) -> SharedFile:
    source = Upstream(*VALIDATOR, f"tests/fixtures/{name}.json", upstream_sha256)
    return SharedFile(f"real-tools/{name}.json", sha256, MIT, VALIDATOR_COPYRIGHT, (source,), validator_report)


def _spec_example(name: str, sha256: str, markdown: str, markdown_sha256: str, heading: str) -> SharedFile:
    source = Upstream(*SPEC, f"{SPEC_FOLDER}/{markdown}", markdown_sha256)
    return SharedFile(f"flowmcp-examples/{name}", sha256, MIT, SPEC_COPYRIGHT, (source,), json_block(heading))


def _snap_history(name: str, commit: str, sha256: str) -> SharedFile:
    tool = name.split("--")[0]
    source = Upstream(GITHUB[0], commit, f"pkg/github/__toolsnaps__/{tool}.snap", sha256)
    return SharedFile(f"real-tools/github-mcp-server-history/{name}", sha256, MIT, GITHUB_COPYRIGHT, (source,))


FILES: tuple[SharedFile, ...] = (
    SharedFile(
        "bad-input/naughty-strings.json", "b5edb4dffb234fa8b37c6353ec2cbd414ce721a03968d26343a7c276ab360f63",
        MIT, "Copyright (c) 2015-2020 Max Woolf",
        (Upstream(*BLNS, "blns.json", "b5edb4dffb234fa8b37c6353ec2cbd414ce721a03968d26343a7c276ab360f63"),),
    ),
    SharedFile(
        "bad-input/not-json-capture.json", "008e6d7af6771ac78617800eef1b7364d038f2ffc8467727ec60550907740582",
        MIT, PROXY_COPYRIGHT,
        (Upstream(*PROXY, "demo/mcp-snapshots/server-sqlite.json",
                  "008e6d7af6771ac78617800eef1b7364d038f2ffc8467727ec60550907740582"),),
    ),
    SharedFile(
        "real-cleo/GRADES.jsonl", "2974c9fb019e6ab716da01e0144316bd7a8693fa7cc4d63e9fab15e51de81ff0",
        MIT, "Copyright (c) 2026 CLEO Contributors",
        (Upstream(*CLEO, ".cleo/metrics/GRADES.jsonl", "2974c9fb019e6ab716da01e0144316bd7a8693fa7cc4d63e9fab15e51de81ff0"),),
    ),
    _spec_example(
        "grading-entry-autonomous.json", "fab4c10d9f7f061b299a50f5a1536742ee0bc270d34c9ec236dbca2b7a0a822b",
        "08-grading-model.md", GRADING_MD_SHA256, "Autonomous Grading (`single-test`, three answers)",
    ),
    SharedFile(
        "flowmcp-examples/08-grading-model.schema.json", "344fefc3a61db55442a63e02e7e21e8a2477c003ed2167405c35da9801443f4a", MIT, SPEC_COPYRIGHT,
        (Upstream(*SPEC, f"{SPEC_FOLDER}/08-grading-model.schema.json", "344fefc3a61db55442a63e02e7e21e8a2477c003ed2167405c35da9801443f4a"),),
    ),
    _spec_example(
        "grading-entry-rejected-veto.json", "6fdb4faf532b1355f5fca0c2d3c9413db71c4d723c7967f112d7f5892f32de0d",
        "08-grading-model.md", GRADING_MD_SHA256, "Rejected (Categorical Veto)",
    ),
    _spec_example(
        "namespace-index.json", "56f113cad5efb6a9f6fea1428b896aa248c7f16206af90493dc41ea53d4cc3e9",
        "23-index-json.md", "9627cbafd494e5c10de0e4eac99194d8fa776e70f822eac60d69c307bfb61554",
        "Example `index.json` (namespace)",
    ),
    _spec_example(
        "lock-snapshot.json", "740f888ab7476c6e6158b648f16fa8ceaaa767bfce0d03ef5c041c07bf57f000",
        "16-selection-lockfile.md", "44af6381dde491d7f0739e2c57c17b49cc10c82b26868e8b04fd40520fb1413f",
        "`index.json.lockSnapshot` (Frozen Pins, replaces `selection.lock.json`)",
    ),
    SharedFile(
        "flowmcp-examples/flowmcp-grading/single-test--mock-response-pass.json",
        "1fd3f274fb40a48d847935cfb1267eb614114587e97111b4df537f8930d0e3dd",
        MIT, "Copyright (c) 2026 FlowMCP Contributors",
        (Upstream(*GRADING, "tests/integration/fixtures/skills/single-test/mock-response-pass.json",
                  "1fd3f274fb40a48d847935cfb1267eb614114587e97111b4df537f8930d0e3dd"),),
    ),
    _proxy("cloudflare-browser", "2c09905a5e066e99d1e8f90b199b7ffc1d5498c0ebaf1c09decb9ba8b5e37d47",
           "7b63dc9f8306c21bdf505b183172f99fa535fed283a1189bbdc79819efd824b9"),
    _proxy("cloudflare-docs", "9c639def0ecdbdd208c5aad4acba689d8d7e2f880483dcab8dea570629b22e8d",
           "085e594a316d152e6bb9a0206629233cf526d3df71650333b64acf13a09e59d0"),
    _proxy("cloudflare-radar", "7ff6880ac19e943caa5605abae05765dce4f11c7152746aece0a2c149d58f2b3",
           "453e68e99cbdf9e468abd909ac6b6f02653f7c95c23f8d4343783cb9e2444202"),
    _proxy("mcp-server-fetch", "270588ef270547f8d73594f70a2861dc773c6c586eb518f32bc1a411eddcc6e0",
           "5292c44dbe57c8e8829fc01cbc1433794cc66e5f0e9e49dda659eb436ba719f9"),
    _proxy("server-filesystem", "98b4aba68b025d261647f912c44296c9f495052ead28641d36b930d29a2f4706",
           "b49293e91c6e8d4f8da40ad002c3c8c3db4c09e26ead50da62b37ab54a10848b"),
    _proxy("server-github", "071d778d610e13965f2745d3640906b4af0d5d8b71a7264a3fd5fa7c0e49f962",
           "3c230cef5b147c284f97eb2248cbb9022e0f45d1506e878d3964267a003b1d9c"),
    _proxy("server-memory", "8fc3fd6aa9d810f45c50a147de030370844d78a40fe64f15e9e6cbcd0e9d00a7",
           "7b7aa2266349ad3235dc0907131dd6bf0052e0618b0643703d9d10e92fe3e23a"),
    _proxy("server-puppeteer", "c77db7dfc5b7c982dbee5d299b11c26a46e15a5cf1db7f100a78c5a247331fbb",
           "0ad6c7be818788cbe9aed21bbb19d62bd8fa2249374a719bee891d1726aa557b"),
    _validator("official-everything", "3386487d39e0223fabb80ac6d6efd2342701ceb1bebb3a74f09017a596c3c839",
               "adf56423fb76b72d57814322335ec8a0df13ce1d269ecd870f10c2f1713af016"),
    _validator("official-sequential-thinking", "714e3af373dc40166ca919d3feddf058b5bb100c474b5f3f38f72bfca11d2462",
               "1cd953d07acdbd796f5efe77aa7655555827a731e9521b59cf9cf760f9cd13ba"),
    _validator("thirdparty-playwright", "072d0afed157de3cb84268568c13ca3b85de26321b4c4415bb3aefc8c075202a",
               "d649175aef9083e5660278b159e3536e91bf0dc542f0954a0375f60591365025"),
    _validator("thirdparty-sqlite", "54abe20906f7ab9c32a80c30adaca5344e16cd47e6a6e659aac90923fd0d5fda",
               "b988c9d37028fd5a915e5849fc7b9b95bcf0852f3d2f0c4f57a628fa8d33831c"),
    SharedFile(
        "real-tools/github-mcp-server.json", "964151445f64fd8b17162687581e67c16a26cedd44fc9c7c053e7b5eb0d80847",
        MIT, GITHUB_COPYRIGHT,
        tuple(Upstream(*GITHUB, f"pkg/github/__toolsnaps__/{name}", sha256) for name, sha256 in GITHUB_TOOLSNAPS),
        toolsnaps,
    ),
    *(_snap_history(*row) for row in GITHUB_HISTORY),
)

BY_NAME: dict[str, SharedFile] = {file.name: file for file in FILES}
