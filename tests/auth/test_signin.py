#!/usr/bin/env python3
"""Signing in as a user meets it: `dynoscope-cli whoami`, `call` and `sso login` against the fakes
of tests/lib/aws_fakes.py (SSO portal, SSO-OIDC, STS, IMDSv2, the container endpoint), moved
there by AWS's documented endpoint variables (AWS_ENDPOINT_URL_SSO, _SSO_OIDC, _STS,
AWS_EC2_METADATA_SERVICE_ENDPOINT, AWS_CONTAINER_CREDENTIALS_FULL_URI), and DynamoDB served by
`dynoscope-cli serve --auth`, which takes exactly the credentials the fakes handed out.

For each provider and for the precedence between them, the same configuration is resolved by
Debian's botocore (through the fakes' intercepting proxy, since botocore 1.29 predates the
endpoint variables) and by Dynoscope: both must pick the same provider and the same identity.
The SSO token refresh must leave a cache file the AWS CLI v2 then uses as it is; the device
flow runs end to end; MFA is typed at a pseudo-terminal.

Run: /usr/bin/python3 tests/auth/test_signin.py path/to/dynoscope-cli
Exit status 77 (skip) when botocore or the AWS CLI v2 is missing.
"""
import datetime
import json
import os
import pty
import select
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import aws_fakes as af  # noqa: E402
import dynoscope_testlib as lib  # noqa: E402

PYTHON = "/usr/bin/python3"
AWS = "/usr/bin/aws"
CLI = None  # set from argv

if __name__ == "__main__" and os.path.exists(PYTHON) and not os.environ.get(
        "DYNOSCOPE_TEST_REEXEC") and os.path.realpath(sys.executable) != os.path.realpath(PYTHON):
    os.environ["DYNOSCOPE_TEST_REEXEC"] = "1"
    os.execv(PYTHON, [PYTHON, *sys.argv])


def _missing():
    try:
        import botocore  # noqa: F401
    except ImportError:
        return "botocore is not installed (python3-botocore)"
    if lib.find_aws_cli_v2() != AWS:
        return f"the AWS CLI v2 is not {AWS} (Debian's awscli)"
    return None


ACCOUNT = "111122223333"
ROLE_ACCOUNT = "444455556666"
SSO_ROLE = "ReadOnly"
SSO_REGION = "eu-west-1"
START_URL = "https://d-9067c2f4a1.awsapps.com/start"
LEGACY_URL = "https://d-90670legacy.awsapps.com/start"
EXTERNAL_ID = "dynoscope-ext-7"
MFA_SERIAL = f"arn:aws:iam::{ACCOUNT}:mfa/alice"
MFA_CODE = "135790"
TIMEOUT = 180  # seconds for one subprocess: 3x a slow run under the sanitizers
# tests/auth/wipecheck.c (meson gives it outside the sanitizer builds): each Dynoscope process
# runs with it, and must free no heap block that still holds a secret the fakes handed out.
WIPECHECK = os.environ.get("WIPECHECK_LIB")

# botocore in a fresh process (it fixes ~/.aws/sso/cache at import): the provider it resolves
# and GetCallerIdentity with its credentials.
DRIVER = r"""
import json, sys
args = json.loads(sys.argv[1])
import botocore.session
session = botocore.session.Session(profile=args.get("profile"))
if args.get("mfa_code") is not None:
    provider = session.get_component("credential_provider").get_provider("assume-role")
    provider._prompter = lambda prompt: args["mfa_code"]
out = {}
try:
    creds = session.get_credentials()
    out["method"] = creds.method
    out["access_key"] = creds.get_frozen_credentials().access_key
    sts = session.create_client("sts", region_name="us-east-1")
    out["identity"] = sts.get_caller_identity()["Arn"]
except Exception as e:
    out["error"] = "%s: %s" % (type(e).__name__, e)
print(json.dumps(out))
"""


class Ledger(af.Ledger):
    """The fakes' ledger, except that temporary credentials for one identity are handed out
    again while they are valid (AWS would mint new ones each time): `serve --auth` can then be
    given the very credentials a later process of Dynoscope will fetch."""

    def issue(self, provider, arn, account, user_id, ttl, **details):
        for cred in self.issued(provider):
            if cred.arn == arn and not cred.expired and not cred.revoked:
                return cred
        return super().issue(provider, arn, account, user_id, ttl, **details)


class SignIn(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.world = w = af.World()
        w.ledger = Ledger()  # the fakes issue through world.ledger
        w.start()
        w.portal.grant(ACCOUNT, SSO_ROLE, "dynoscope-dev")
        cls.alice = w.ledger.static_keys("alice", ACCOUNT)
        cls.bob = w.ledger.static_keys("bob", ACCOUNT)
        cls.plain_role = w.sts.add_role(f"arn:aws:iam::{ROLE_ACCOUNT}:role/Reader")
        cls.ext_role = w.sts.add_role(f"arn:aws:iam::{ROLE_ACCOUNT}:role/Partner",
                                      external_id=EXTERNAL_ID)
        cls.mfa_role = w.sts.add_role(f"arn:aws:iam::{ROLE_ACCOUNT}:role/Admin",
                                      mfa_serial=MFA_SERIAL, mfa_code=MFA_CODE)
        cls.web_role = w.sts.add_role("WebIdentity")
        cls.web_token = w.sts.add_web_identity_token(roles=[cls.web_role])

    @classmethod
    def tearDownClass(cls):
        cls.world.stop()

    # ---- helpers

    def home(self):
        home = tempfile.mkdtemp(prefix="home-", dir=self.world.dir)
        with open(os.path.join(home, "web-token"), "w") as f:
            f.write(self.web_token)
        return home

    def env(self, home, extra=None, proxy=False, container=False, imds=False):
        """The environment a user's shell would have: HOME, the fakes' endpoints (or the
        proxy), nothing else of this machine's AWS settings."""
        env = af.clean_env(home)
        if proxy:
            env.update(self.world.env_for_proxy())
        else:
            env.update(self.world.env_for_endpoints(container=False))
        env["AWS_EC2_METADATA_DISABLED"] = "true"
        if imds:
            env.update(self.world.env_for_imds())
            env["AWS_EC2_METADATA_DISABLED"] = "false"
        if container:
            env.update(self.world.env_for_container())
        env.update(extra or {})
        return env

    def dynoscope(self, home, *args, env=None, **kw):
        env = self.wipecheck(env or self.env(home))
        r = subprocess.run([CLI, *args], env=env, capture_output=True, text=True,
                           timeout=TIMEOUT, **kw)
        self.assert_wiped(env)
        return r

    def wipecheck(self, env):
        """ENV with wipecheck preloaded, its log a new file (assert_wiped reads it)."""
        if not WIPECHECK:
            return env
        fd, log = tempfile.mkstemp(prefix="wipecheck-", suffix=".log", dir=self.world.dir)
        os.close(fd)
        marks = os.path.join(self.world.dir, "wipecheck-secrets")
        if not os.path.exists(marks):
            with open(marks, "w") as f:
                f.write(af.SECRET_MARK + "\n")
        return dict(env, LD_PRELOAD=WIPECHECK, WIPECHECK_SECRETS=marks, WIPECHECK_LOG=log)

    def assert_wiped(self, env):
        """The process run with ENV freed no block holding a secret."""
        if "WIPECHECK_LOG" not in env:
            return
        with open(env["WIPECHECK_LOG"]) as f:
            found = f.read()
        os.unlink(env["WIPECHECK_LOG"])
        self.assertEqual(found, "", "blocks freed holding a secret:\n" + found[:6000])

    def sso_login(self, env, *args, before_approval=None):
        """`sso login` on profile sso with ENV, approved at the fake portal once it asked for a
        user code (and BEFORE_APPROVAL(code) returned): it succeeds, prints no secret and frees
        none unwiped. Returns the user code and its output."""
        proc = subprocess.Popen([CLI, "--profile", "sso", "sso", "login", *args], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            code = self.world.oidc.wait_for_user_code(timeout=TIMEOUT)
            if before_approval:
                before_approval(code)
            self.world.oidc.approve(code)
            out, err = proc.communicate(timeout=TIMEOUT)
        finally:
            if proc.poll() is None:
                proc.kill()
        self.assertEqual(proc.returncode, 0, err)
        self.assert_no_secret(out + err)
        self.assert_wiped(env)
        return code, out

    def whoami(self, home, profile=None, env=None):
        args = (["--profile", profile] if profile else []) + ["whoami", "--json"]
        r = self.dynoscope(home, *args, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assert_no_secret(r.stdout + r.stderr)
        return json.loads(r.stdout)

    def botocore(self, home, profile=None, env=None, mfa_code=None):
        full = env or self.env(home, proxy=True)
        r = subprocess.run([PYTHON, "-c", DRIVER, json.dumps({"profile": profile,
                                                              "mfa_code": mfa_code})],
                           env=full, capture_output=True, text=True, timeout=TIMEOUT)
        self.assertEqual(r.returncode, 0, r.stderr[-3000:])
        return json.loads(r.stdout.strip().splitlines()[-1])

    def assert_no_secret(self, text):
        self.assertNotIn(af.SECRET_MARK, text)
        for cred in self.world.ledger.issued():
            self.assertNotIn(cred.secret_access_key, text)
            if cred.session_token:
                self.assertNotIn(cred.session_token, text)

    def same_choice(self, home, profile, provider, method, dyn_env=None, boto_env=None,
                    mfa_code=None):
        """Dynoscope and botocore resolve PROFILE to credentials from the same provider of the
        fake world, with the same identity. Returns Dynoscope's `whoami`."""
        ours = self.whoami(home, profile, env=dyn_env)
        theirs = self.botocore(home, profile, env=boto_env, mfa_code=mfa_code)
        self.assertNotIn("error", theirs, theirs)
        self.assertEqual(theirs["method"], method)
        self.assertEqual(ours["Provider"], method)
        cred = self.world.ledger.get(theirs["access_key"])
        self.assertIsNotNone(cred)
        self.assertEqual(cred.provider, provider)
        # The same identity; an assumed role's session is named by each tool for itself
        # (botocore-session-…, dynoscope-session-…) unless role_session_name names it.
        self.assertEqual(ours["Arn"].rsplit("/", 1)[0], theirs["identity"].rsplit("/", 1)[0])
        self.assertEqual(ours["Arn"].rsplit("/", 1)[0], cred.arn.rsplit("/", 1)[0])
        return ours

    def config(self, home, text, credentials=""):
        af.write_config(home, text)
        af.write_credentials(home, credentials)

    def static(self, name, cred):
        return (f"[{name}]\naws_access_key_id = {cred.access_key_id}\n"
                f"aws_secret_access_key = {cred.secret_access_key}\n")

    # ---- providers, each as botocore chooses

    def test_static_and_environment(self):
        home = self.home()
        self.config(home, "[default]\nregion = us-east-1\n", self.static("default", self.alice))
        out = self.same_choice(home, None, "static", "shared-credentials-file")
        self.assertIsNone(out["Expiration"])
        # aws-vault / granted: the environment's keys win over the default profile...
        env = self.env(home, self.bob.env())
        boto_env = self.env(home, self.bob.env(), proxy=True)
        self.same_choice(home, None, "static", "env", dyn_env=env, boto_env=boto_env)
        self.assertIn("user/bob", self.whoami(home, env=env)["Arn"])
        # ... but not over --profile (botocore: an explicit profile drops the environment).
        self.assertIn("user/alice", self.whoami(home, "default", env=env)["Arn"])

    def sso_config(self, home):
        self.config(home, f"""
            [profile sso]
            sso_session = corp
            sso_account_id = {ACCOUNT}
            sso_role_name = {SSO_ROLE}
            region = us-east-1

            [sso-session corp]
            sso_start_url = {START_URL}
            sso_region = {SSO_REGION}
            sso_registration_scopes = sso:account:access

            [profile legacy]
            sso_start_url = {LEGACY_URL}
            sso_region = {SSO_REGION}
            sso_account_id = {ACCOUNT}
            sso_role_name = {SSO_ROLE}
            region = us-east-1

            [profile sso-admin]
            role_arn = {self.plain_role}
            source_profile = sso
            region = us-east-1
            """)

    def test_sso_profiles(self):
        home = self.home()
        self.sso_config(home)
        self.world.sso_login(home, START_URL, SSO_REGION, session_name="corp")
        self.world.sso_login(home, LEGACY_URL, SSO_REGION)
        out = self.same_choice(home, "sso", "sso", "sso")
        self.assertIsNotNone(out["Expiration"])
        self.same_choice(home, "legacy", "sso", "sso")
        # A role whose source profile signs in through SSO. (Debian's botocore 1.29 cannot:
        # it passes no token provider to an sso_session source profile; newer ones can.)
        out = self.whoami(home, "sso-admin")
        self.assertEqual(out["Provider"], "assume-role")
        self.assertIn(f":{ROLE_ACCOUNT}:assumed-role/Reader/", out["Arn"])
        source = self.world.sts.requests("AssumeRole", status=200)[-1]
        self.assertEqual(source.info.get("signer_provider"), "sso")

    def test_sso_refresh_shared_with_the_aws_cli(self):
        home = self.home()
        self.sso_config(home)
        entry = self.world.sso_login(home, START_URL, SSO_REGION, session_name="corp")
        path = af.sso_cache_path(home, "corp")
        # The access token expired; the refresh token is good.
        self.world.oidc.expire_access_tokens()
        with open(path) as f:
            cached = json.load(f)
        cached["expiresAt"] = af.iso_z(af.utcnow() - datetime.timedelta(minutes=5))
        with open(path, "w") as f:
            json.dump(cached, f)
        before = len(self.world.oidc.requests("CreateToken"))
        self.whoami(home, "sso")
        self.assertEqual(len(self.world.oidc.requests("CreateToken")), before + 1)
        # Rewritten as the CLI writes it: same name, same keys in its order, mode 0600.
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o600)
        with open(path) as f:
            text = f.read()
        rewritten = json.loads(text)
        self.assertEqual(list(rewritten), ["startUrl", "region", "accessToken", "expiresAt",
                                           "clientId", "clientSecret", "registrationExpiresAt",
                                           "refreshToken"])
        self.assertEqual(text, json.dumps(rewritten))
        self.assertNotEqual(rewritten["accessToken"], entry["accessToken"])
        self.assertTrue(self.world.oidc.check_access_token(rewritten["accessToken"]))
        self.assertEqual([n for n in os.listdir(os.path.dirname(path)) if n.startswith(".")], [])
        # The AWS CLI v2 takes the token Dynoscope refreshed, with no refresh of its own.
        r = subprocess.run([AWS, "--profile", "sso", "sts", "get-caller-identity"],
                           env=self.env(home, proxy=True), capture_output=True, text=True,
                           timeout=TIMEOUT)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f":assumed-role/AWSReservedSSO_{SSO_ROLE}_", json.loads(r.stdout)["Arn"])
        self.assertEqual(len(self.world.oidc.requests("CreateToken")), before + 1)
        # Expired beyond refresh: a clear error naming the profile and the command.
        self.world.oidc.expire_access_tokens()
        self.world.oidc.revoke_refresh_tokens()
        with open(path) as f:
            cached = json.load(f)
        cached["expiresAt"] = af.iso_z(af.utcnow() - datetime.timedelta(minutes=1))
        with open(path, "w") as f:
            json.dump(cached, f)
        r = self.dynoscope(home, "--profile", "sso", "whoami")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("aws sso login --profile sso", r.stderr)
        self.assert_no_secret(r.stderr)

    def test_sso_device_flow(self):
        home = self.home()
        self.sso_config(home)
        env = self.wipecheck(self.env(home))

        def slow_down(code):
            self.world.oidc.slow_down(1)
            af.wait_until(lambda: len(self.world.oidc.polls(code)) >= 2, timeout=TIMEOUT,
                          what="a poll after the slow-down")

        code, out = self.sso_login(env, "--no-browser", before_approval=slow_down)
        self.assertIn(code, out)
        polls = self.world.oidc.polls(code)
        # After the slow-down the interval grew by 5 s.
        self.assertGreaterEqual(polls[-1] - polls[-2], 5.5)
        path = af.sso_cache_path(home, "corp")
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o600)
        # The token serves Dynoscope and botocore alike.
        self.same_choice(home, "sso", "sso", "sso")

    def test_secrets_in_the_environment_not_copied(self):
        """Keys in the environment (aws-vault, granted) while sso login opens the desktop's
        browser (GIO copies the environment to launch it) and while a credential_process runs
        (GSubprocess copies it for the child): no copy freed holding a secret, and the child
        still sees the environment whole, as the AWS CLI's does."""
        home = self.home()
        self.sso_config(home)
        keys = dict(self.bob.env(), AWS_SESSION_TOKEN="FwoGZXIvYXdzE" + af.SECRET_MARK + "x" * 40)
        # The desktop's https handler: a fake browser that notes the page it was asked to open.
        opened = os.path.join(home, "opened")
        browser = os.path.join(home, "fake-browser")
        with open(browser, "w") as f:
            f.write(f"#!/bin/sh\nprintf '%s' \"$1\" > {opened}.part && mv {opened}.part {opened}\n")
        os.chmod(browser, 0o755)
        apps = os.path.join(home, ".local", "share", "applications")
        os.makedirs(apps)
        with open(os.path.join(apps, "fake-browser.desktop"), "w") as f:
            f.write("[Desktop Entry]\nType=Application\nName=Fake Browser\n"
                    f"Exec={browser} %u\nMimeType=x-scheme-handler/https;\n")
        os.makedirs(os.path.join(home, ".config"))
        with open(os.path.join(home, ".config", "mimeapps.list"), "w") as f:
            f.write("[Default Applications]\nx-scheme-handler/https=fake-browser.desktop\n")
        env = self.env(home, keys)
        for name in ("BROWSER", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CONFIG_DIRS",
                     "XDG_DATA_DIRS"):
            env.pop(name, None)
        env["XDG_DATA_DIRS"] = "/nonexistent"  # only the home's handler
        code, _ = self.sso_login(self.wipecheck(env), before_approval=lambda code: af.wait_until(
            lambda: os.path.exists(opened), timeout=TIMEOUT, what="the fake browser opened"))
        with open(opened) as f:
            self.assertIn(code, f.read())

        # A credential_process: it sees the keys of the environment; its own keys are used.
        seen = os.path.join(home, "seen")
        helper = os.path.join(home, "creds-helper")
        with open(helper, "w") as f:
            f.write(f"""#!{PYTHON}
import json, os
with open({seen!r}, "w") as f:
    json.dump({{k: os.environ.get(k) for k in ("AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN")}}, f)
print(json.dumps({{"Version": 1, "AccessKeyId": {self.alice.access_key_id!r},
                  "SecretAccessKey": {self.alice.secret_access_key!r}}}))
""")
        os.chmod(helper, 0o755)
        # (The helper is not ours to check: wipecheck is not preloaded into it.)
        self.config(home, f"[profile cp]\ncredential_process = /usr/bin/env -u LD_PRELOAD "
                          f"{helper}\nregion = us-east-1\n")
        out = self.whoami(home, "cp", env=self.env(home, keys))
        self.assertEqual(out["Provider"], "custom-process")
        self.assertIn("user/alice", out["Arn"])
        with open(seen) as f:
            self.assertEqual(json.load(f), {"AWS_SECRET_ACCESS_KEY": keys["AWS_SECRET_ACCESS_KEY"],
                                            "AWS_SESSION_TOKEN": keys["AWS_SESSION_TOKEN"]})

    def test_roles(self):
        home = self.home()
        self.config(home, f"""
            [profile reader]
            role_arn = {self.plain_role}
            source_profile = base
            region = us-east-1

            [profile partner]
            role_arn = {self.ext_role}
            source_profile = base
            external_id = {EXTERNAL_ID}
            duration_seconds = 1800
            role_session_name = dyno-partner
            region = us-east-1

            [profile chained]
            role_arn = {self.ext_role}
            external_id = {EXTERNAL_ID}
            source_profile = reader
            region = us-east-1

            [profile web]
            role_arn = {self.web_role}
            web_identity_token_file = {home}/web-token
            region = us-east-1
            """, self.static("base", self.alice))
        self.same_choice(home, "reader", "assume-role", "assume-role")
        out = self.same_choice(home, "partner", "assume-role", "assume-role")
        self.assertIn("/dyno-partner", out["Arn"])
        call = [r for r in self.world.sts.requests("AssumeRole", status=200)
                if r.params.get("RoleSessionName") == "dyno-partner"][-1]
        self.assertEqual(call.params.get("ExternalId"), EXTERNAL_ID)
        self.assertEqual(call.params.get("DurationSeconds"), "1800")
        self.same_choice(home, "chained", "assume-role", "assume-role")
        self.same_choice(home, "web", "web-identity", "assume-role-with-web-identity")
        # Web identity from the environment, as on EKS.
        env = {"AWS_WEB_IDENTITY_TOKEN_FILE": f"{home}/web-token", "AWS_ROLE_ARN": self.web_role}
        self.same_choice(home, None, "web-identity", "assume-role-with-web-identity",
                         dyn_env=self.env(home, env), boto_env=self.env(home, env, proxy=True))

    def test_mfa_at_a_terminal(self):
        home = self.home()
        self.config(home, f"""
            [profile admin]
            role_arn = {self.mfa_role}
            source_profile = base
            mfa_serial = {MFA_SERIAL}
            region = us-east-1
            """, self.static("base", self.alice))
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(CLI, [CLI, "--profile", "admin", "whoami", "--json"], self.env(home))
        output = b""
        deadline = time.monotonic() + TIMEOUT
        try:
            while b"Enter MFA code for " + MFA_SERIAL.encode() not in output:
                self.assertLess(time.monotonic(), deadline, output)
                if select.select([fd], [], [], 1)[0]:
                    output += os.read(fd, 4096)
            os.write(fd, MFA_CODE.encode() + b"\n")
            while True:
                if not select.select([fd], [], [], 1)[0]:
                    self.assertLess(time.monotonic(), deadline, output)
                    continue
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                output += chunk
        finally:
            _, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0, output)
        self.assertNotIn(MFA_CODE.encode(), output)  # not echoed
        text = output.decode()
        self.assertIn("assumed-role/Admin", text)
        call = self.world.sts.requests("AssumeRole", status=200)[-1]
        self.assertEqual(call.params.get("SerialNumber"), MFA_SERIAL)
        # The AWS CLI's role cache now holds them: no second prompt, neither for Dynoscope
        # (no terminal at all now) nor for the AWS CLI v2, which reads the same file.
        calls = len(self.world.sts.requests("AssumeRole"))
        again = self.whoami(home, "admin")
        self.assertIn("assumed-role/Admin", again["Arn"])
        r = subprocess.run([AWS, "--profile", "admin", "sts", "get-caller-identity"],
                           env=self.env(home, proxy=True), stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=TIMEOUT)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["Arn"], again["Arn"])
        self.assertEqual(len(self.world.sts.requests("AssumeRole")), calls)

    def test_containers_and_instances(self):
        home = self.home()
        self.config(home, f"""
            [profile ec2-role]
            role_arn = {self.plain_role}
            credential_source = Ec2InstanceMetadata
            region = us-east-1

            [profile ecs-role]
            role_arn = {self.plain_role}
            credential_source = EcsContainer
            region = us-east-1
            """)
        # Nothing configured but the instance's role.
        self.same_choice(home, None, "imds", "iam-role",
                         dyn_env=self.env(home, imds=True, extra={"AWS_REGION": "us-east-1"}),
                         boto_env=self.env(home, proxy=True, imds=True,
                                           extra={"AWS_REGION": "us-east-1"}))
        # Inside a container, the container's credentials come before the instance's.
        self.same_choice(home, None, "container", "container-role",
                         dyn_env=self.env(home, imds=True, container=True,
                                          extra={"AWS_REGION": "us-east-1"}),
                         boto_env=self.env(home, proxy=True, imds=True, container=True,
                                           extra={"AWS_REGION": "us-east-1"}))
        self.same_choice(home, "ec2-role", "assume-role", "assume-role",
                         dyn_env=self.env(home, imds=True),
                         boto_env=self.env(home, proxy=True, imds=True))
        self.same_choice(home, "ecs-role", "assume-role", "assume-role",
                         dyn_env=self.env(home, container=True),
                         boto_env=self.env(home, proxy=True, container=True))
        # The region comes from the instance when nothing else names one.
        out = self.whoami(home, env=self.env(home, imds=True))
        self.assertEqual(out["Region"], self.world.imds.region)

    def test_precedence(self):
        home = self.home()
        # One profile with several providers configured: botocore's order decides.
        self.config(home, f"""
            [profile web-and-keys]
            role_arn = {self.web_role}
            web_identity_token_file = {home}/web-token
            aws_access_key_id = {self.bob.access_key_id}
            aws_secret_access_key = {self.bob.secret_access_key}
            region = us-east-1

            [profile role-and-keys]
            role_arn = {self.plain_role}
            source_profile = base
            region = us-east-1

            [profile keys-over-config]
            aws_access_key_id = {self.bob.access_key_id}
            aws_secret_access_key = {self.bob.secret_access_key}
            region = us-east-1
            """, self.static("base", self.alice) + self.static("role-and-keys", self.bob)
                 + self.static("keys-over-config", self.alice))
        self.same_choice(home, "web-and-keys", "web-identity", "assume-role-with-web-identity")
        self.same_choice(home, "role-and-keys", "assume-role", "assume-role")
        out = self.same_choice(home, "keys-over-config", "static", "shared-credentials-file")
        self.assertIn("user/alice", out["Arn"])
        # AWS_PROFILE chooses the profile, yet the environment's keys still come first.
        env = dict(self.bob.env(), AWS_PROFILE="role-and-keys")
        self.same_choice(home, None, "static", "env", dyn_env=self.env(home, env),
                         boto_env=self.env(home, env, proxy=True))

    # ---- DynamoDB with the credentials the fakes handed out

    def start_serve(self, creds):
        auth = "\n".join(c.serve_auth(with_token=True) for c in creds)
        args = [CLI, "--db", ":memory:", "serve", "--port", str(lib.free_port())]
        env = self.wipecheck(dict(af.clean_env(), DYNOSCOPE_SERVE_AUTH=auth))
        proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True)
        self.addCleanup(self.assert_wiped, env)  # once it has stopped
        self.addCleanup(proc.wait, TIMEOUT)
        self.addCleanup(proc.send_signal, signal.SIGTERM)
        line = ""
        deadline = time.monotonic() + TIMEOUT
        while "http://" not in line:
            self.assertLess(time.monotonic(), deadline)
            line = proc.stdout.readline()
            self.assertNotEqual(line, "", "serve exited")
        url = line[line.index("http://"):].split()[0].rstrip(".,")
        return url

    def test_dynamodb_through_serve_auth(self):
        home = self.home()
        self.sso_config(home)
        self.world.sso_login(home, START_URL, SSO_REGION, session_name="corp")
        ours = self.whoami(home, "sso")
        cred = [c for c in self.world.ledger.issued("sso") if c.arn == ours["Arn"]][-1]
        url = self.start_serve([cred])
        env = self.env(home, {"AWS_ENDPOINT_URL_DYNAMODB": url})
        r = self.dynoscope(home, "--profile", "sso", "call", "ListTables", "{}", env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["TableNames"], [])
        # Other credentials (alice's keys) are refused by the same endpoint.
        af.write_credentials(home, self.static("keys", self.alice))
        r = self.dynoscope(home, "--profile", "keys", "--region", "us-east-1", "call",
                           "ListTables", "{}", env=env)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("UnrecognizedClientException", r.stderr)


def main():
    global CLI
    missing = _missing()
    if missing:
        print(f"# skipped: {missing}")
        return lib.SKIP
    if len(sys.argv) < 2:
        print("usage: test_signin.py DYNOSCOPE_CLI [unittest args]", file=sys.stderr)
        return 2
    CLI = os.path.abspath(sys.argv.pop(1))
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(af.clean_env(extra={"AWS_CONFIG_FILE": os.devnull,
                                          "AWS_SHARED_CREDENTIALS_FILE": os.devnull}))
    try:
        result = unittest.main(exit=False, verbosity=2).result
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
