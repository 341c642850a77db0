#!/usr/bin/env python3
"""Reads the test logs (every test's output: meson's testlog.txt) for the tests' secrets.

Every secret the tests hand Dynoscope holds a mark: "SeCrEt" in the C tests of src/net
(tests/net/test-*.c) and "DySeCrEtMaRk7Q2z" in every secret the fake AWS services issue
(tests/lib/aws_fakes.py). The suites that handle them run with G_MESSAGES_DEBUG=all, so a
secret in any message, at any level, in any output of the program or of the test that ran it
ends up here. Exit status 1, with the lines that hold one, if any does.

    build-aux/check-secrets.py build/meson-logs/testlog.txt [more logs...]
"""
import sys

MARKS = ("SeCrEt",)


def main(paths):
    found = []
    for path in paths:
        try:
            f = open(path, encoding="utf-8", errors="replace")
        except OSError as e:
            print(f"check-secrets: {e}", file=sys.stderr)
            return 2
        with f:
            test = "?"
            for number, line in enumerate(f, 1):
                if line.startswith("test:"):
                    test = line[5:].strip()
                if any(mark in line for mark in MARKS):
                    found.append(f"{path}:{number}: [{test}] {line.rstrip()[:300]}")
    if found:
        print(f"check-secrets: {len(found)} line(s) of the test logs hold a test secret:")
        print("\n".join(found[:50]))
        return 1
    print(f"check-secrets: no test secret in {', '.join(paths)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
