"""`scorecards verify`: is a published site what its manifest says, and what its data builds?

- `site`: a site to check, from a folder, a tar or a URL, read the same way.
- `compare`: the files of a site against its manifest, and two manifests against each other.
- `rebuild`: the data built again into a temporary folder, for its manifest.

Each finding is one line naming what and where; the exit code says the worst kind found (`CODES`).
"""

from __future__ import annotations

CODES = {
    "verified": 0,
    "unreachable": 3,
    "manifest": 4,
    "differs": 5,
    "missing": 6,
    "extra": 7,
    "other-data": 8,
    "rebuild-differs": 9,
}
"""Exit codes, the smallest found wins: 0 every file as the manifest says (and, with --data, as
the data builds it); 1 the rebuild could not run (builder.cli); 2 a bad argument (as every
command); 3 the site could not be read (a URL that does not answer, a tar that is not one); 4 the
manifest is missing, cut short or not a manifest; 5 a file's bytes are not those the manifest
lists; 6 a file the manifest lists is missing; 7 a file the manifest does not list; 8 the data
folder's files are not the inputs the manifest lists; 9 the data builds files other than those
published."""
