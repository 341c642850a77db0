#!/usr/bin/env python3
"""The metainfo software centres read: a release with its date and notes, screenshots that are
committed PNGs of data/screenshots (at the URLs of the repository the metainfo names), an OARS
content rating, the gettext domain, the launchable desktop file, the binaries it provides, and
the translations of po/LINGUAS."""
import os
import sys
import unittest
import xml.etree.ElementTree as ET

METAINFO = sys.argv.pop(1)
SRC = os.environ.get("DYNOSCOPE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


class Metainfo(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.root = ET.parse(METAINFO).getroot()

    def test_release(self):
        releases = self.root.findall("releases/release")
        self.assertTrue(releases)
        with open(os.path.join(SRC, "meson.build"), encoding="utf-8") as f:
            self.assertIn(f"version: '{releases[0].get('version')}'", f.read(),
                          "the newest release is not the project's version")
        self.assertRegex(releases[0].get("date") or "", r"^\d{4}-\d{2}-\d{2}$")
        self.assertTrue(releases[0].findall("description/p"))

    def test_screenshots_are_committed_pngs(self):
        homepage = self.root.find("url[@type='homepage']").text
        prefix = homepage.replace("https://github.com/", "https://raw.githubusercontent.com/")
        shots = self.root.findall("screenshots/screenshot")
        self.assertGreaterEqual(len(shots), 3)
        self.assertEqual([s.get("type") for s in shots].count("default"), 1)
        for shot in shots:
            self.assertTrue((shot.findtext("caption") or "").strip())
            url = shot.find("image").text
            self.assertTrue(url.startswith(prefix + "/main/data/screenshots/"), url)
            path = os.path.join(SRC, "data", "screenshots", os.path.basename(url))
            self.assertTrue(os.path.isfile(path), f"{url}: no {path}")
            with open(path, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", path)

    def test_rating_translation_launchable_provides(self):
        self.assertEqual(self.root.find("content_rating").get("type"), "oars-1.1")
        translation = self.root.find("translation")
        self.assertEqual((translation.get("type"), translation.text), ("gettext", "dynoscope"))
        self.assertEqual(self.root.find("launchable[@type='desktop-id']").text,
                         "io.github.dynoscope.Dynoscope.desktop")
        self.assertEqual(sorted(b.text for b in self.root.findall("provides/binary")),
                         ["dynoscope", "dynoscope-cli"])
        self.assertTrue(self.root.findtext("developer_name"))

    def test_translated(self):
        # The merge of po/LINGUAS's catalogs: the summary and description in every language.
        lang = "{http://www.w3.org/XML/1998/namespace}lang"
        with open(os.path.join(SRC, "po", "LINGUAS"), encoding="utf-8") as f:
            languages = [l.strip() for l in f if l.strip() and not l.startswith("#")]
        self.assertTrue(languages)
        for language in languages:
            with self.subTest(language=language):
                summary = [e for e in self.root.findall("summary") if e.get(lang) == language]
                self.assertEqual(len(summary), 1)
                self.assertNotEqual(summary[0].text, self.root.findtext("summary"))
                self.assertTrue([e for e in self.root.iter("p") if e.get(lang) == language])


if __name__ == "__main__":
    unittest.main()
