#!/usr/bin/env python3
"""The generated dynoscope-cli(1) has a section for every command of `dynoscope-cli --help` and
every option of each command's own --help, and renders with man."""
import os
import re
import shutil
import subprocess
import sys
import unittest

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"
PAGE = sys.argv.pop(1) if len(sys.argv) > 1 else "build/data/man/dynoscope-cli.1"
ENV = dict(os.environ, LANGUAGE="C", LC_ALL="C.UTF-8")


def cli_help(*args):
    r = subprocess.run([CLI, *args, "--help"], capture_output=True, text=True, env=ENV, timeout=30)
    assert r.returncode == 0, r.stderr
    return r.stdout


def commands():
    text = cli_help().split("\nCommands:\n", 1)[1]
    return [m.group(1) for m in re.finditer(r"^  (?!dynoscope-cli )([a-z][a-z0-9-]*) ", text, re.M)]


def subcommands(name):
    """The subcommands the synopses of NAME in `dynoscope-cli --help` name (model check, ...)."""
    return sorted(set(re.findall(r"^\s+dynoscope-cli .*?\b" + name + r" ([a-z]+)\b", cli_help(),
                                 re.M)))


def roff(text):
    return text.replace("\\", "\\e").replace("-", "\\-")


class ManPage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(PAGE, encoding="utf-8") as f:
            cls.page = f.read()

    def test_every_command_has_a_section(self):
        names = commands()
        self.assertGreaterEqual(len(names), 10, names)
        self.assertEqual(subcommands("model"), ["apply", "check", "estimate", "infer"])
        self.assertEqual(subcommands("snapshot"), ["base", "pull"])
        sections = re.findall(r"^\.SS (\S+)$", self.page, re.M)
        self.assertEqual([s.replace("\\-", "-") for s in sections], names)

    def test_every_option_of_every_command(self):
        for name in commands():
            subs = subcommands(name)
            helps = [cli_help(name, sub) for sub in subs] if subs else [cli_help(name)]
            for h in helps:
                if "Application Options:" not in h:
                    continue
                for opt in re.findall(r"^  (-\S.*?)(?:\s{2,}|$)",
                                      h.split("Application Options:", 1)[1], re.M):
                    self.assertTrue("\\fB" + roff(opt) + "\\fR" in self.page, f"{name}: {opt}")

    def test_global_options(self):
        for opt in ("--db PATH", "--endpoint URL", "--profile NAME", "--region R",
                    "--ca-bundle FILE", "--version"):
            self.assertIn("\\fB" + roff(opt) + "\\fR", self.page)

    def test_hand_written_sections(self):
        for heading in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "ENVIRONMENT",
                        "FILES", "EXIT STATUS", "SEE ALSO"):
            self.assertRegex(self.page, r"(?m)^\.SH " + re.escape(heading) + "$")

    @unittest.skipUnless(shutil.which("man"), "man is not installed")
    def test_renders(self):
        r = subprocess.run(["man", "--warnings", "-l", PAGE], capture_output=True, text=True,
                           env=dict(ENV, MANWIDTH="80", MANPAGER="cat", PAGER="cat"), timeout=30)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr.strip(), "")
        self.assertIn("dynoscope-cli --db PATH serve", r.stdout.replace("‐\n", ""))
        self.assertIn("COMMANDS", r.stdout)


if __name__ == "__main__":
    unittest.main()
