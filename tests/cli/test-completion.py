#!/usr/bin/env python3
"""Shell completion of dynoscope-cli. bash (data/completions/dynoscope-cli.bash) driven as bash
drives it: the script sourced, COMP_WORDS and COMP_CWORD set, the function called, COMPREPLY
read. zsh (data/completions/_dynoscope-cli) through a real interactive zsh in a pseudo-terminal
(zsh-complete.zsh): the line typed, Tab pressed, the screen read."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

CLI = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli")
SRC = os.environ.get("DYNOSCOPE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(SRC, "data", "completions", "dynoscope-cli.bash")


def quote(word):
    return "'" + word.replace("'", "'\\''") + "'"


def complete(*words, home=None):
    """COMPREPLY for the command line CLI WORDS..., the last word being completed."""
    line = [CLI, *words]
    script = (f". {quote(SCRIPT)}\n"
              f"COMP_WORDS=({' '.join(quote(w) for w in line)})\n"
              f"COMP_CWORD={len(line) - 1}\n"
              "_dynoscope_cli\n"
              'printf "%s\\n" "${COMPREPLY[@]}"\n')
    env = dict(os.environ, LANGUAGE="C", LC_ALL="C.UTF-8")
    env.pop("AWS_CONFIG_FILE", None)
    env.pop("AWS_SHARED_CREDENTIALS_FILE", None)
    if home is not None:
        env["HOME"] = home
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True,
                       text=True, env=env, timeout=30)
    assert r.returncode == 0, r.stderr
    return sorted(w for w in r.stdout.split("\n") if w)


@unittest.skipUnless(shutil.which("bash"), "bash is not installed")
class BashCompletion(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.db = make_db(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_command_names(self):
        self.assertEqual(complete("co"), ["codegen", "commit", "compare"])
        self.assertIn("serve", complete(""))
        self.assertEqual(complete("--db", self.db, "s"),
                         ["s3", "serve", "snapshot", "sql", "sso", "stage-file", "staged"])

    def test_global_options(self):
        self.assertEqual(complete("--e"), ["--endpoint"])
        self.assertIn("--ca-bundle", complete("-"))

    def test_options_of_compare(self):
        self.assertEqual(complete("--db", self.db, "compare", "--with-"),
                         ["--with-db", "--with-endpoint", "--with-export", "--with-incremental",
                          "--with-table"])
        opts = complete("--db", self.db, "compare", "--table", "Blog", "--")
        for opt in ("--table", "--base", "--exclude", "--json", "--stage", "--staging", "--help"):
            self.assertIn(opt, opts)
        self.assertNotIn("--pretty", opts)  # call's, not compare's

    def test_subcommands_and_their_options(self):
        self.assertEqual(complete("model", ""), ["apply", "check", "estimate", "infer"])
        self.assertIn("--dry-run", complete("--db", self.db, "model", "apply", "--d"))
        self.assertEqual(complete("exports", ""), ["describe", "list", "pitr", "start"])
        self.assertEqual(complete("s3", ""), ["ls", "put"])
        opts = complete("exports", "start", "--")
        for opt in ("--table", "--bucket", "--prefix", "--format", "--incremental", "--from",
                    "--to", "--view", "--time", "--wait", "--help"):
            self.assertIn(opt, opts)
        self.assertEqual(complete("exports", "start", "--format", ""), ["ion", "json"])
        self.assertEqual(complete("exports", "start", "--view", "NEW_I"), ["NEW_IMAGE"])
        self.assertIn("--enable", complete("exports", "pitr", "--e"))
        self.assertIn("--endpoint-url", complete("s3", "put", "--e"))

    def test_table_from_the_database(self):
        self.assertEqual(complete("--db", self.db, "keys", "--table", ""),
                         ["Blog", "Orders", "Workspaces"])
        self.assertEqual(complete("--db", self.db, "export", "-t", "O"), ["Orders"])
        # --table=NAME reaches the function as "--table" "=" "NAME"
        self.assertEqual(complete("--db", self.db, "compare", "--table", "=", "W"),
                         ["Workspaces"])

    def test_stage_file(self):
        # TABLE, then FILE; --format takes the formats a file of items can have
        self.assertEqual(complete("--db", self.db, "stage-file", "O"), ["Orders"])
        self.assertEqual(complete("--db", self.db, "stage-file", "--overwrite", "B"), ["Blog"])
        self.assertEqual(complete("--db", self.db, "stage-file", "--format", ""),
                         ["csv", "json", "jsonl"])
        self.assertNotIn("Orders", complete("--db", self.db, "stage-file", "Blog", ""))
        self.assertIn("--overwrite", complete("--db", self.db, "stage-file", "--"))

    def test_table_without_a_database_or_from_a_missing_one(self):
        missing = os.path.join(self.tmp.name, "missing.db")
        self.assertEqual(complete("--db", missing, "keys", "--table", ""), [])
        self.assertFalse(os.path.exists(missing), "completion created the database")
        self.assertEqual(complete("--endpoint", "http://127.0.0.1:1", "keys", "--table", ""), [])

    def test_profile_from_the_aws_files(self):
        with tempfile.TemporaryDirectory() as home:
            os.mkdir(os.path.join(home, ".aws"))
            with open(os.path.join(home, ".aws", "config"), "w") as f:
                f.write("[default]\nregion = eu-west-1\n[profile dev]\n[ profile prod-eu ]\n"
                        "region = eu-central-1\n")
            with open(os.path.join(home, ".aws", "credentials"), "w") as f:
                f.write("[ci]\naws_access_key_id = AKIDEXAMPLE\n[default]\n")
            self.assertEqual(complete("--profile", "", home=home),
                             ["ci", "default", "dev", "prod-eu"])
            self.assertEqual(complete("--profile", "p", home=home), ["prod-eu"])
        with tempfile.TemporaryDirectory() as empty:
            self.assertEqual(complete("--profile", "", home=empty), [])

    def test_files_for_db(self):
        self.assertEqual(complete("--db", os.path.join(self.tmp.name, "sh")), [self.db])


def make_db(directory):
    db = os.path.join(directory, "shop.db")
    for table, key, source in (("Blog", None, "blog.jsonl"),
                               ("Orders", "TenantShard:S,orderedAt:S", "orders.jsonl"),
                               ("Workspaces", "EntityRef:S,Detail:S", "workspaces.jsonl")):
        args = [CLI, "--db", db, "import", "--table", table]
        if key:
            args += ["--key", key]
        r = subprocess.run(args + [os.path.join(SRC, "data", "demo", source)],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
    return db


def zsh_screen(line, home=None):
    """What the terminal shows after LINE and a Tab in an interactive zsh, escapes removed."""
    env = dict(os.environ, LANGUAGE="C", LC_ALL="C.UTF-8", TERM="dumb")
    env.pop("AWS_CONFIG_FILE", None)
    env.pop("AWS_SHARED_CREDENTIALS_FILE", None)
    if home is not None:
        env["HOME"] = home
    r = subprocess.run(["zsh", "-f", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "zsh-complete.zsh"),
                        os.path.join(SRC, "data", "completions"), os.path.dirname(CLI), line],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    screen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|[\r\x08]", " ", r.stdout)
    return screen.split("READY", 1)[1]


@unittest.skipUnless(shutil.which("zsh"), "zsh is not installed")
class ZshCompletion(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.db = make_db(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_command_names(self):
        words = zsh_screen("dynoscope-cli com").split()
        self.assertIn("commit", words)
        self.assertIn("compare", words)
        self.assertNotIn("codegen", words)

    def test_options_of_compare(self):
        words = zsh_screen(f"dynoscope-cli --db {self.db} compare --with-").split()
        for opt in ("--with-db", "--with-endpoint", "--with-export", "--with-table"):
            self.assertIn(opt, words)

    def test_table_from_the_database(self):
        words = zsh_screen(f"dynoscope-cli --db {self.db} keys --table ").split()
        for table in ("Blog", "Orders", "Workspaces"):
            self.assertIn(table, words)
        self.assertIn("--table Workspaces",
                      " ".join(zsh_screen(f"dynoscope-cli --db {self.db} keys --table W")
                               .split()))

    def test_profile_from_the_aws_files(self):
        with tempfile.TemporaryDirectory() as home:
            os.mkdir(os.path.join(home, ".aws"))
            with open(os.path.join(home, ".aws", "config"), "w") as f:
                f.write("[default]\n[profile dev]\n[profile prod-eu]\n")
            with open(os.path.join(home, ".aws", "credentials"), "w") as f:
                f.write("[ci]\n")
            words = zsh_screen("dynoscope-cli --profile ", home=home).split()
            for profile in ("ci", "default", "dev", "prod-eu"):
                self.assertIn(profile, words)


if __name__ == "__main__":
    unittest.main()
