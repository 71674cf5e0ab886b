"""Checks that every diagnostic the compiler can emit has a test.

Finds each error site in the frontend, the dialect verifiers, the passes and
the interpreter -- `error(loc) << "..."`, `emitError(...) << "..."`,
`emitOpError("...")`, `fail("...")` -- takes the first string literal of its
message, and requires that text to appear in a test (a CHECK line or an
expected-error). Prints the count and the untested messages; fails if any.
Usage: diagnostic_coverage.py SOURCE_ROOT
"""
import pathlib
import re
import sys

# An error call followed (possibly after `<<` on later lines) by its first
# string literal.
SITE = re.compile(
    # The message as the first argument: emitError("..."), fail("...").
    r'(?:\b(?:emitOpError|emitError|emitRemark|fail|error)\(\s*"((?:[^"\\]|\\.)*)")'
    # Or streamed after the location: error(loc) << "...", failAt(loc, "...").
    r'|(?:(?:\berror\([^;"]*?\)|\bemitError\([^;"]*?\)|\bfailAt\([^,;]*,)'
    r'\s*(?:<<\s*)?(?:[A-Za-z_:.()>-]+\s*<<\s*)?"((?:[^"\\]|\\.)*)")',
    re.S)
SOURCES = ["lib/Frontend", "lib/Dialect", "lib/Interpreter", "lib/Analysis",
           "lib/Conversion", "lib/Driver", "tools/tilec"]
TESTS = ["test", "unittests"]
# Diagnostics no input can reach, each with the reason.
UNREACHABLE = {
    # Emitted only if MLIRGen itself builds invalid IR (a compiler bug).
    "internal compiler error: the generated IR does not verify",
}


def main():
    root = pathlib.Path(sys.argv[1])
    messages = {}
    for folder in SOURCES:
        for path in sorted(p for p in (root / folder).rglob("*")
                           if p.suffix in {".cpp", ".h"}):
            text = path.read_text()
            for match in SITE.finditer(text):
                literal = (match.group(1) or match.group(2) or "")
                literal = literal.encode().decode("unicode_escape")
                # The stable part of the message: up to the first quote or
                # formatted value, at least a few characters long.
                key = literal.split("'")[0].strip()
                if len(key) < 6 or literal.strip() in UNREACHABLE:
                    continue
                line = text.count("\n", 0, match.start()) + 1
                messages.setdefault(key, f"{path.relative_to(root)}:{line}")
    corpus = ""
    for folder in TESTS:
        for path in (root / folder).rglob("*"):
            if path.suffix in {".tile", ".mlir", ".test", ".cpp"} and path.is_file():
                corpus += path.read_text(errors="replace")
    missing = [(where, key) for key, where in messages.items() if key not in corpus]
    for where, key in sorted(missing):
        print(f"untested diagnostic at {where}: \"{key}\"")
    print(f"{len(messages)} diagnostics, {len(messages) - len(missing)} tested, "
          f"{len(missing)} untested")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
