#!/usr/bin/env python3
"""The message catalogs: every file with translatable strings is in po/POTFILES.in, and the
Turkish, Italian and Greek catalogs translate every message of a template made fresh from the
sources (so a new string fails this test until it is translated), with no fuzzy entry and every
format placeholder kept (msgfmt --check)."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

SRC = os.environ.get("DYNOSCOPE_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
REQUIRED = ["el", "it", "tr"]

# The keywords and flags of meson's 'glib' gettext preset (po/meson.build), so that this
# template is the one `ninja dynoscope-pot` writes.
XGETTEXT_ARGS = [
    "--from-code=UTF-8", "--add-comments", "--keyword=_", "--keyword=N_", "--keyword=C_:1c,2",
    "--keyword=NC_:1c,2", "--keyword=g_dcgettext:2", "--keyword=g_dngettext:2,3",
    "--keyword=g_dpgettext2:2c,3", "--flag=N_:1:pass-c-format", "--flag=C_:2:pass-c-format",
    "--flag=NC_:2:pass-c-format", "--flag=g_dngettext:2:pass-c-format",
    "--flag=g_strdup_printf:1:c-format", "--flag=g_string_printf:2:c-format",
    "--flag=g_string_append_printf:2:c-format", "--flag=g_error_new:3:c-format",
    "--flag=g_set_error:4:c-format", "--flag=g_markup_printf_escaped:1:c-format",
    "--flag=g_printf:1:c-format", "--flag=g_fprintf:2:c-format",
]

C_MARKS = re.compile(r"\b(?:_|N_|C_|NC_|ngettext|g_dngettext)\s*\(")
UI_MARK = re.compile(r'translatable="yes"')


def listed():
    with open(os.path.join(SRC, "po", "POTFILES.in"), encoding="utf-8") as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


def linguas():
    with open(os.path.join(SRC, "po", "LINGUAS"), encoding="utf-8") as f:
        return [w for line in f for w in line.split("#")[0].split()]


def stats(po):
    r = subprocess.run(["msgfmt", "--check", "--statistics", "-o", os.devnull, po],
                       capture_output=True, text=True)
    return r.returncode, r.stderr.strip()


class Catalogs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="test-catalogs-")
        cls.pot = os.path.join(cls.tmp.name, "dynoscope.pot")
        r = subprocess.run(["xgettext", *XGETTEXT_ARGS, "--package-name=dynoscope",
                            "--files-from=" + os.path.join(SRC, "po", "POTFILES.in"),
                            "--directory=" + SRC, "--output=" + cls.pot],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_potfiles_lists_every_file_with_strings(self):
        missing = []
        for top in ("src", "ui"):
            for root, _, files in os.walk(os.path.join(SRC, top)):
                for name in files:
                    path = os.path.join(root, name)
                    rel = os.path.relpath(path, SRC)
                    if name.endswith((".c", ".h")):
                        with open(path, encoding="utf-8") as f:
                            text = f.read()
                        # A file that only defines the macros (gi18n itself) is not a source.
                        if C_MARKS.search(text) and rel not in listed():
                            missing.append(rel)
                    elif name.endswith(".ui"):
                        with open(path, encoding="utf-8") as f:
                            if UI_MARK.search(f.read()) and rel not in listed():
                                missing.append(rel)
        self.assertEqual(missing, [], "add these to po/POTFILES.in")
        for rel in listed():
            self.assertTrue(os.path.exists(os.path.join(SRC, rel)), rel + " is listed but gone")

    def test_required_languages_are_built(self):
        for lang in REQUIRED:
            self.assertIn(lang, linguas(), f"po/LINGUAS lacks {lang}")
            self.assertTrue(os.path.exists(os.path.join(SRC, "po", lang + ".po")), lang)

    def test_every_message_translated(self):
        for lang in REQUIRED:
            with self.subTest(lang=lang):
                po = os.path.join(SRC, "po", lang + ".po")
                code, text = stats(po)
                self.assertEqual(code, 0, text)
                merged = os.path.join(self.tmp.name, lang + ".po")
                r = subprocess.run(["msgmerge", "--quiet", "--no-wrap", "-o", merged, po,
                                    self.pot], capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stderr)
                code, text = stats(merged)
                self.assertEqual(code, 0, text)
                self.assertRegex(text, r"^\d+ translated messages?\.$",
                                 f"{lang}: {text} (msgmerge --update po/{lang}.po with a fresh "
                                 "template, then translate the new and fuzzy messages)")
                # Obsolete entries are kept by msgmerge; what counts is the template's messages.
                n = int(text.split()[0])
                with open(self.pot, encoding="utf-8") as f:
                    template = sum(1 for line in f if line.startswith("msgid ")) - 1
                self.assertEqual(n, template, lang)


if __name__ == "__main__":
    unittest.main(verbosity=2)
