"""The engine's size as issue 46 counts it: `builder/build.py` and `builder/engine/*.py`, in lines
(`wc -l`) and in lines of code (blank lines, comments and docstrings left out), at a git revision.

    python -m bench.engine_lines [REV ...]      # default: HEAD; e.g. 385aebb HEAD"""

from __future__ import annotations

import argparse
import ast
import io
import subprocess
import tokenize

SKIPPED = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}


def code_lines(source: str) -> int:
    """The lines that hold a token other than a comment, docstrings left out: a string standing
    alone as a statement of a module, class or function body (its docstring, and the attribute
    docstrings after assignments)."""
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            for statement in node.body:
                if (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
                        and isinstance(statement.value.value, str)):
                    docstrings.update(range(statement.lineno, (statement.end_lineno or statement.lineno) + 1))
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in SKIPPED:
            lines.update(n for n in range(token.start[0], token.end[0] + 1) if n not in docstrings)
    return len(lines)


def engine_files(rev: str) -> list[str]:
    listed = subprocess.run(["git", "ls-tree", "--name-only", rev, "builder/engine/", "builder/build.py"],
                            capture_output=True, text=True, check=True).stdout.split()
    return sorted(path for path in listed if path.endswith(".py"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("revs", nargs="*", default=["HEAD"])
    for rev in parser.parse_args().revs:
        sources = [subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True, check=True).stdout
                   for path in engine_files(rev)]
        print(f"{rev}: {len(sources)} files, {sum(s.count(chr(10)) for s in sources):,} lines, "
              f"{sum(code_lines(s) for s in sources):,} lines of code")


if __name__ == "__main__":
    main()
