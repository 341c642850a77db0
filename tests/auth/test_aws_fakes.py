#!/usr/bin/env python3
"""Self-test of tests/lib/aws_fakes.py: real botocore (Debian's python3-botocore 1.29) and the
real AWS CLI v2 (Debian's awscli 2.9, /usr/bin/aws) accept the fakes, directly and through the
intercepting proxy, and every chain ends with STS GetCallerIdentity returning the identity the
fake world issued.

Run: /usr/bin/python3 tests/auth/test_aws_fakes.py     (or /usr/bin/python3 -m pytest FILE)
Exit status 77 (skip) when botocore or the AWS CLI v2 is missing.

What botocore 1.29.27 / AWS CLI 2.9.19 were seen to do (asserted below; the project's C code
must read and write the same files):

* SSO token cache, ~/.aws/sso/cache/<sha1>.json, sha1 (hex) of the sso-session name (or of the
  start URL for a legacy profile). On a refresh (access token within 15 minutes of expiry, a
  refreshToken/clientId/clientSecret/registrationExpiresAt present and the registration
  unexpired) botocore calls CreateToken(grantType=refresh_token) and rewrites the same file:
  json.dumps() with the default separators (", ", ": "), no indent, no trailing newline, keys in
  the order startUrl, region, accessToken, expiresAt, clientId, clientSecret,
  registrationExpiresAt, refreshToken (the last only when CreateToken returned one);
  expiresAt = now + expiresIn as "YYYY-MM-DDTHH:MM:SSZ"; registrationExpiresAt copied as it
  was. The file is opened O_WRONLY|O_CREAT with mode 0600 and truncated, so a new file is 0600
  (minus umask) and an existing one keeps its mode; ~/.aws/sso/cache is made with the default
  mode (0755 under umask 022).
* `aws sso login` (sso-session profile) also writes the client registration there:
  <sha1 of json.dumps({"region", "scopes", "session_name", "startUrl", "tool": "botocore"},
  sort_keys=True)>.json = {"clientId", "clientSecret", "expiresAt", "scopes"}, and registers as
  clientName "botocore-client-<session name>", clientType "public" with the configured scopes.
  It calls CreateToken twice at once (before and after showing the code), then once every
  `interval` seconds.
* The AWS CLI caches role credentials in ~/.aws/cli/cache/<sha1>.json (mode 0600):
  - assume-role: sha1 of json.dumps(AssumeRole arguments, sort_keys=True) (default separators;
    RoleArn, RoleSessionName when configured, ExternalId, SerialNumber, DurationSeconds as an
    int; no TokenCode), content = the whole AssumeRole response (Credentials with Expiration
    "YYYY-MM-DDTHH:MM:SS+00:00", AssumedRoleUser, ResponseMetadata);
  - SSO: sha1 of json.dumps({"accountId", "roleName", "sessionName" (or "startUrl")},
    sort_keys=True, separators=(",", ":")), content {"ProviderType": "sso", "Credentials":
    {"AccessKeyId", "SecretAccessKey", "SessionToken", "Expiration": "…Z"}}.
  Plain botocore keeps these in memory only.
* Endpoints: botocore 1.29 calls STS at sts.amazonaws.com (legacy global) for us-east-1, the
  CLI v2 at sts.us-east-1.amazonaws.com; SSO at portal.sso.REGION.amazonaws.com, OIDC at
  oidc.REGION.amazonaws.com; FIPS/dual-stack: sts-fips.REGION.amazonaws.com,
  sts.REGION.api.aws, sts-fips.REGION.api.aws. Neither honours AWS_ENDPOINT_URL_<SERVICE>.
* IMDS: PUT /latest/api/token with "x-aws-ec2-metadata-token-ttl-seconds: 21600", then GETs
  with the token; when the PUT times out botocore falls back to IMDSv1 (GETs without a token).
  botocore's region lookup (when it does one) reads placement/availability-zone/, not
  placement/region.
"""
import datetime
import hashlib
import json
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import aws_fakes as af  # noqa: E402
import dynoscope_testlib as lib  # noqa: E402

PYTHON = "/usr/bin/python3"
AWS = "/usr/bin/aws"


# Debian's botocore is the one under test: run under /usr/bin/python3 whatever started us.
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


MISSING = _missing()
if MISSING:
    if __name__ == "__main__":
        print(f"# skipped: {MISSING}")
        sys.exit(lib.SKIP)
    raise unittest.SkipTest(MISSING)

import botocore  # noqa: E402
import botocore.session  # noqa: E402
from botocore.config import Config  # noqa: E402
from botocore.exceptions import ClientError  # noqa: E402
from botocore.utils import InstanceMetadataFetcher  # noqa: E402

SSO_ACCOUNT = "111122223333"
SSO_ROLE = "ReadOnly"
SSO_REGION = "eu-west-1"
START_URL = "https://d-9067c2f4a1.awsapps.com/start"
LEGACY_START_URL = "https://d-90670legacy.awsapps.com/start"
ROLE_ACCOUNT = "444455556666"
EXTERNAL_ID = "dynoscope-ext-42"
MFA_SERIAL = f"arn:aws:iam::{SSO_ACCOUNT}:mfa/alice"
MFA_CODE = "246810"
UNSIGNED = Config(signature_version=botocore.UNSIGNED)
ISO_Z = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

# Runs in a fresh /usr/bin/python3 (botocore fixes ~/.aws/sso/cache when it is imported, so
# each HOME needs its own process): resolves the profile's credentials, then GetCallerIdentity.
DRIVER = r"""
import json, sys
args = json.loads(sys.argv[1])
import botocore.session
session = botocore.session.Session(profile=args.get("profile"))
if args.get("mfa_code") is not None:
    # AssumeRoleProvider's prompter (getpass.getpass by default) is the MFA hook.
    provider = session.get_component("credential_provider").get_provider("assume-role")
    provider._prompter = lambda prompt: args["mfa_code"]
out = {}
try:
    creds = session.get_credentials()
    out["method"] = creds.method
    out["access_key"] = creds.get_frozen_credentials().access_key
    sts = session.create_client("sts", region_name=args.get("region"))
    answer = sts.get_caller_identity()
    out["identity"] = {k: answer[k] for k in ("Arn", "Account", "UserId")}
except botocore.exceptions.ClientError as e:
    out["error"] = {"code": e.response["Error"]["Code"], "message": e.response["Error"]["Message"],
                    "status": e.response["ResponseMetadata"]["HTTPStatusCode"]}
except Exception as e:
    out["error"] = {"code": type(e).__name__, "message": str(e)}
print(json.dumps(out))
"""


_saved_environ = None


def setUpModule():
    # This process's own botocore clients must not see the user's AWS configuration or proxies.
    global _saved_environ
    _saved_environ = dict(os.environ)
    os.environ.clear()
    os.environ.update(af.clean_env(extra={"AWS_CONFIG_FILE": os.devnull,
                                          "AWS_SHARED_CREDENTIALS_FILE": os.devnull}))


def tearDownModule():
    os.environ.clear()
    os.environ.update(_saved_environ)


class AwsFakes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.world = w = af.World().start()
        w.portal.grant(SSO_ACCOUNT, SSO_ROLE, "dynoscope-dev")
        cls.alice = w.ledger.static_keys("alice", SSO_ACCOUNT)
        cls.admin_role = w.sts.add_role(f"arn:aws:iam::{ROLE_ACCOUNT}:role/DynoscopeAdmin",
                                        external_id=EXTERNAL_ID, mfa_serial=MFA_SERIAL,
                                        mfa_code=MFA_CODE)
        cls.web_role = w.sts.add_role("DynoscopeWebIdentity")
        cls.web_token = w.sts.add_web_identity_token(roles=[cls.web_role])
        cls.session = botocore.session.Session()

    @classmethod
    def tearDownClass(cls):
        cls.world.stop()

    # -- helpers

    def home(self):
        return tempfile.mkdtemp(prefix="home-", dir=self.world.dir)

    def new_client(self, service, **kw):
        """A botocore client of this process, closed when the test ends."""
        client = self.session.create_client(service, **kw)
        self.addCleanup(client.close)
        return client

    def client(self, service, url, region=SSO_REGION, config=UNSIGNED, **kw):
        return self.new_client(service, region_name=region, endpoint_url=url, config=config,
                               **kw)

    def sts_client(self, cred, url=None, region="us-east-1", **kw):
        return self.new_client(
            "sts", region_name=region, endpoint_url=url or self.world.sts.url,
            aws_access_key_id=cred.access_key_id, aws_secret_access_key=cred.secret_access_key,
            aws_session_token=cred.session_token, **kw)

    def error(self, call, *args, **kw):
        with self.assertRaises(ClientError) as cm:
            call(*args, **kw)
        r = cm.exception.response
        return r["Error"]["Code"], r["ResponseMetadata"]["HTTPStatusCode"], r

    def botocore(self, home, env=None, **args):
        """The driver's JSON answer, botocore running with HOME and env (plus the proxy)."""
        full = af.clean_env(home, self.world.env_for_proxy())
        full.update(env or {})
        r = subprocess.run([PYTHON, "-c", DRIVER, json.dumps(args)], env=full,
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr[-3000:])
        return json.loads(r.stdout.strip().splitlines()[-1])

    def aws(self, home, *args, stdin=None):
        env = af.clean_env(home, self.world.env_for_proxy())
        return subprocess.run([AWS, *args], env=env, input=stdin, capture_output=True, text=True,
                              timeout=120, start_new_session=True)

    def assert_identity(self, out, provider):
        """The driver ended with GetCallerIdentity signed by credentials `provider` issued, and
        STS answered that credential's identity. Returns the Credential."""
        self.assertNotIn("error", out, out)
        cred = self.world.ledger.get(out["access_key"])
        self.assertIsNotNone(cred, "credentials the fakes did not issue")
        self.assertEqual(cred.provider, provider)
        self.assertEqual(out["identity"]["Arn"], cred.arn)
        self.assertEqual(out["identity"]["Account"], cred.account)
        rec = [r for r in self.world.sts.requests("GetCallerIdentity", status=200)
               if r.info.get("access_key_id") == cred.access_key_id]
        self.assertTrue(rec, "no GetCallerIdentity signed with them")
        self.assertEqual(self.world.signer_of(rec[-1]), cred)
        self.assertEqual(rec[-1].via, "proxy")
        return cred

    def write_sso_config(self, home):
        af.write_config(home, f"""
            [profile sso-new]
            sso_session = corp
            sso_account_id = {SSO_ACCOUNT}
            sso_role_name = {SSO_ROLE}
            region = us-east-1

            [sso-session corp]
            sso_start_url = {START_URL}
            sso_region = {SSO_REGION}
            sso_registration_scopes = sso:account:access

            [profile sso-legacy]
            sso_start_url = {LEGACY_START_URL}
            sso_region = {SSO_REGION}
            sso_account_id = {SSO_ACCOUNT}
            sso_role_name = {SSO_ROLE}
            region = us-east-1
            """)

    def write_role_config(self, home):
        af.write_credentials(home, f"""
            [base]
            aws_access_key_id = {self.alice.access_key_id}
            aws_secret_access_key = {self.alice.secret_access_key}
            """)
        af.write_config(home, f"""
            [profile admin]
            role_arn = {self.admin_role}
            source_profile = base
            external_id = {EXTERNAL_ID}
            mfa_serial = {MFA_SERIAL}
            role_session_name = dynoscope-test
            duration_seconds = 1800
            region = us-east-1
            """)

    # -- the wire formats, with botocore's own clients straight at each fake

    def test_oidc_device_flow(self):
        w = self.world
        oidc = self.client("sso-oidc", w.oidc.url)
        reg = oidc.register_client(clientName="dynoscope", clientType="public",
                                   scopes=["sso:account:access"])
        self.assertGreater(reg["clientSecretExpiresAt"], time.time())
        client = {"clientId": reg["clientId"], "clientSecret": reg["clientSecret"]}
        dev = oidc.start_device_authorization(startUrl=START_URL, **client)
        self.assertEqual(dev["interval"], 1)
        self.assertEqual(dev["verificationUriComplete"],
                         f"{dev['verificationUri']}?user_code={dev['userCode']}")
        poll = dict(grantType=af.DEVICE_CODE_GRANT, deviceCode=dev["deviceCode"], **client)
        code, status, r = self.error(oidc.create_token, **poll)
        self.assertEqual((code, status, r["error"]), ("AuthorizationPendingException", 400,
                                                     "authorization_pending"))
        w.oidc.slow_down(2)
        for _ in range(2):
            with self.assertRaises(oidc.exceptions.SlowDownException):
                oidc.create_token(**poll)
        w.oidc.approve(dev["userCode"])
        tok = oidc.create_token(**poll)
        self.assertEqual(tok["tokenType"], "Bearer")
        self.assertIsNotNone(w.oidc.check_access_token(tok["accessToken"]))
        self.assertEqual(len(w.oidc.polls(dev["userCode"])), 4)
        with self.assertRaises(oidc.exceptions.InvalidGrantException):
            oidc.create_token(**poll)  # a device code is good for one token
        # refresh, then revoked refresh tokens
        refreshed = oidc.create_token(grantType="refresh_token",
                                      refreshToken=tok["refreshToken"], **client)
        self.assertNotEqual(refreshed["accessToken"], tok["accessToken"])
        w.oidc.revoke_refresh_tokens()
        with self.assertRaises(oidc.exceptions.InvalidGrantException):
            oidc.create_token(grantType="refresh_token", refreshToken=refreshed["refreshToken"],
                              **client)
        # an expired device code, a denied one, a wrong secret, an unknown grant type
        dev2 = oidc.start_device_authorization(startUrl=START_URL, **client)
        w.oidc.expire_device_codes()
        with self.assertRaises(oidc.exceptions.ExpiredTokenException):
            oidc.create_token(grantType=af.DEVICE_CODE_GRANT, deviceCode=dev2["deviceCode"],
                              **client)
        dev3 = oidc.start_device_authorization(startUrl=START_URL, **client)
        w.oidc.deny(dev3["userCode"])
        with self.assertRaises(oidc.exceptions.AccessDeniedException):
            oidc.create_token(grantType=af.DEVICE_CODE_GRANT, deviceCode=dev3["deviceCode"],
                              **client)
        code, status, _ = self.error(oidc.create_token, grantType=af.DEVICE_CODE_GRANT,
                                     deviceCode="x", clientId=reg["clientId"],
                                     clientSecret="wrong")
        self.assertEqual((code, status), ("InvalidClientException", 401))
        with self.assertRaises(oidc.exceptions.UnsupportedGrantTypeException):
            oidc.create_token(grantType="password", **client)
        # the log keeps no secret
        for rec in w.oidc.log:
            self.assertNotIn(reg["clientSecret"], json.dumps(rec.params))
        # a scope-less (legacy) registration gets no refresh token
        legacy = oidc.register_client(clientName="legacy", clientType="public")
        lc = {"clientId": legacy["clientId"], "clientSecret": legacy["clientSecret"]}
        dev4 = oidc.start_device_authorization(startUrl=START_URL, **lc)
        w.oidc.approve(dev4["userCode"])
        tok4 = oidc.create_token(grantType=af.DEVICE_CODE_GRANT, deviceCode=dev4["deviceCode"],
                                 **lc)
        self.assertNotIn("refreshToken", tok4)

    def test_portal(self):
        w = self.world
        sso = self.client("sso", w.portal.url)
        entry = w.oidc.issue_token(START_URL, SSO_REGION)
        rc = sso.get_role_credentials(roleName=SSO_ROLE, accountId=SSO_ACCOUNT,
                                      accessToken=entry["accessToken"])["roleCredentials"]
        cred = w.ledger.get(rc["accessKeyId"])
        self.assertEqual((cred.provider, cred.session_token), ("sso", rc["sessionToken"]))
        self.assertEqual(rc["expiration"], af.epoch_ms(cred.expiration))
        self.assertEqual(self.sts_client(cred).get_caller_identity()["Arn"], cred.arn)
        self.assertEqual(sso.list_accounts(accessToken=entry["accessToken"])["accountList"][0]
                         ["accountId"], SSO_ACCOUNT)
        roles = sso.list_account_roles(accessToken=entry["accessToken"], accountId=SSO_ACCOUNT)
        self.assertEqual(roles["roleList"], [{"roleName": SSO_ROLE, "accountId": SSO_ACCOUNT}])
        code, status, _ = self.error(sso.get_role_credentials, roleName="Admin",
                                     accountId=SSO_ACCOUNT, accessToken=entry["accessToken"])
        self.assertEqual((code, status), ("ForbiddenException", 403))
        with self.assertRaises(sso.exceptions.UnauthorizedException):
            sso.get_role_credentials(roleName=SSO_ROLE, accountId=SSO_ACCOUNT,
                                     accessToken="aoa-not-issued")
        expired = w.oidc.issue_token(START_URL, SSO_REGION, expires_in=-5)
        code, status, r = self.error(sso.get_role_credentials, roleName=SSO_ROLE,
                                     accountId=SSO_ACCOUNT, accessToken=expired["accessToken"])
        self.assertEqual((code, status), ("UnauthorizedException", 401))
        self.assertEqual(r["ResponseMetadata"]["HTTPHeaders"]["x-amzn-errortype"],
                         "UnauthorizedException")
        rec = [r for r in w.portal.requests("GetRoleCredentials")
               if r.info["token"] == af.fingerprint(entry["accessToken"])][0]
        self.assertEqual(rec.query, {"role_name": SSO_ROLE, "account_id": SSO_ACCOUNT})
        self.assertEqual(rec.headers["x-amz-sso_bearer_token"],
                         af.redacted(entry["accessToken"]))
        self.assertEqual(rec.info["token"], af.fingerprint(entry["accessToken"]))

    def test_sts_signatures_and_errors(self):
        w = self.world
        sts = self.sts_client(self.alice)
        self.assertEqual(sts.get_caller_identity()["Arn"],
                         f"arn:aws:iam::{SSO_ACCOUNT}:user/alice")
        forged = af.Credential(self.alice.access_key_id, "not-the-secret", None, None, "", "",
                               "", "static", af.utcnow())
        self.assertEqual(self.error(self.sts_client(forged).get_caller_identity)[:2],
                         ("SignatureDoesNotMatch", 403))
        unknown = af.Credential("AKIAUNKNOWNUNKNOWN00", "x", None, None, "", "", "", "static",
                                af.utcnow())
        self.assertEqual(self.error(self.sts_client(unknown).get_caller_identity)[:2],
                         ("InvalidClientTokenId", 403))
        unsigned = self.client("sts", w.sts.url, region="us-east-1")
        self.assertEqual(self.error(unsigned.get_caller_identity)[:2],
                         ("MissingAuthenticationToken", 403))
        # AssumeRole: the role's conditions, then its credentials, then without the token
        args = dict(RoleArn=self.admin_role, RoleSessionName="s1", ExternalId=EXTERNAL_ID,
                    SerialNumber=MFA_SERIAL, TokenCode=MFA_CODE)
        code, status, r = self.error(sts.assume_role, **{**args, "TokenCode": "000000"})
        self.assertEqual((code, status, r["Error"]["Type"]), ("AccessDenied", 403, "Sender"))
        self.assertEqual(self.error(sts.assume_role, **{**args, "ExternalId": "other"})[:2],
                         ("AccessDenied", 403))
        self.assertEqual(self.error(sts.assume_role, RoleArn=self.admin_role,
                                    RoleSessionName="s1", ExternalId=EXTERNAL_ID)[:2],
                         ("AccessDenied", 403))
        self.assertEqual(self.error(sts.assume_role, **args, DurationSeconds=7200)[:2],
                         ("ValidationError", 400))
        self.assertEqual(self.error(sts.assume_role, RoleArn=f"arn:aws:iam::{ROLE_ACCOUNT}:role/"
                                    "Nope", RoleSessionName="s1")[:2], ("AccessDenied", 403))
        res = sts.assume_role(**args)
        cred = w.ledger.get(res["Credentials"]["AccessKeyId"])
        self.assertEqual(cred.provider, "assume-role")
        self.assertEqual(res["AssumedRoleUser"]["Arn"],
                         f"arn:aws:sts::{ROLE_ACCOUNT}:assumed-role/DynoscopeAdmin/s1")
        self.assertEqual(cred.details["source_access_key_id"], self.alice.access_key_id)
        self.assertEqual(self.sts_client(cred).get_caller_identity()["Arn"], cred.arn)
        tokenless = af.Credential(cred.access_key_id, cred.secret_access_key, None, None, "",
                                  "", "", "", af.utcnow())
        self.assertEqual(self.error(self.sts_client(tokenless).get_caller_identity)[:2],
                         ("InvalidClientTokenId", 403))
        # role chaining is limited to an hour
        self.assertEqual(self.error(self.sts_client(cred).assume_role, **args,
                                    DurationSeconds=3700)[:2], ("ValidationError", 400))
        w.ledger.expire(cred.access_key_id)
        self.assertEqual(self.error(self.sts_client(cred).get_caller_identity)[:2],
                         ("ExpiredToken", 400))
        # a scope for another region than the regional endpoint's is refused
        wrong_region = self.sts_client(self.alice, url=None, region="eu-west-1")
        wrong_region.meta.events.register(
            "before-sign.sts.*", lambda request, **kw: request.headers.__setitem__(
                "Host", "sts.us-west-2.amazonaws.com"))
        # (no proxy here: the Host header alone says which endpoint was meant)
        self.assertEqual(self.error(wrong_region.get_caller_identity)[:2],
                         ("SignatureDoesNotMatch", 403))

    def test_sts_web_identity(self):
        w = self.world
        sts = self.client("sts", w.sts.url, region="us-east-1")
        res = sts.assume_role_with_web_identity(RoleArn=self.web_role, RoleSessionName="web",
                                                WebIdentityToken=self.web_token)
        self.assertEqual(res["SubjectFromWebIdentityToken"],
                         "system:serviceaccount:default:dynoscope")
        self.assertEqual(w.ledger.get(res["Credentials"]["AccessKeyId"]).provider,
                         "web-identity")
        with self.assertRaises(sts.exceptions.InvalidIdentityTokenException):
            sts.assume_role_with_web_identity(RoleArn=self.web_role, RoleSessionName="web",
                                              WebIdentityToken="not-a-token")
        old = w.sts.add_web_identity_token(expired=True)
        with self.assertRaises(sts.exceptions.ExpiredTokenException):
            sts.assume_role_with_web_identity(RoleArn=self.web_role, RoleSessionName="web",
                                              WebIdentityToken=old)
        code, status, _ = self.error(sts.assume_role_with_web_identity, RoleArn=self.admin_role,
                                     RoleSessionName="web", WebIdentityToken=self.web_token)
        self.assertEqual((code, status), ("AccessDenied", 403))
        rec = w.sts.requests("AssumeRoleWithWebIdentity")[0]
        self.assertNotIn("authorization", rec.headers)
        self.assertEqual(rec.params["WebIdentityToken"], af.redacted(self.web_token))

    def test_imds_wire(self):
        w = self.world
        base = w.imds.url

        def call(method, path, headers=None):
            req = urllib.request.Request(base + path, method=method, headers=headers or {})
            try:
                with urllib.request.urlopen(req, timeout=30) as resp:
                    return resp.status, resp.read().decode(), dict(resp.headers)
            except urllib.error.HTTPError as e:
                with e:
                    return e.code, e.read().decode(), dict(e.headers)

        self.assertEqual(call("GET", "/latest/meta-data/placement/region")[0], 401)  # no v1
        self.assertEqual(call("PUT", "/latest/api/token")[0], 400)  # no TTL
        self.assertEqual(call("PUT", "/latest/api/token",
                              {"X-aws-ec2-metadata-token-ttl-seconds": "60",
                               "X-Forwarded-For": "10.0.0.1"})[0], 403)
        status, token, headers = call("PUT", "/latest/api/token",
                                      {"X-aws-ec2-metadata-token-ttl-seconds": "60"})
        self.assertEqual((status, headers["X-aws-ec2-metadata-token-ttl-seconds"]), (200, "60"))
        h = {"X-aws-ec2-metadata-token": token}
        self.assertEqual(call("GET", "/latest/meta-data/placement/region", h)[1], w.imds.region)
        self.assertEqual(call("GET", "/latest/meta-data/iam/security-credentials/", h)[1],
                         w.imds.role_name)
        status, body, _ = call("GET", "/latest/meta-data/iam/security-credentials/"
                               + w.imds.role_name, h)
        doc = json.loads(body)
        self.assertEqual((doc["Code"], doc["Type"]), ("Success", "AWS-HMAC"))
        self.assertTrue(ISO_Z.match(doc["Expiration"]))
        self.assertEqual(w.ledger.get(doc["AccessKeyId"]).provider, "imds")
        self.assertEqual(call("GET", "/latest/meta-data/placement/region",
                              {"X-aws-ec2-metadata-token": "forged"})[0], 401)

    def test_imds_hung_token_put(self):
        """botocore gives up on a PUT that never answers after its timeout, then tries IMDSv1,
        which the fake refuses (401)."""
        w = self.world
        w.imds.hang_token_put = True
        before = len(w.imds.log)
        try:
            fetcher = InstanceMetadataFetcher(timeout=1, num_attempts=1, env={},
                                              config={"ec2_metadata_service_endpoint":
                                                      w.imds.url})
            self.addCleanup(fetcher._session.close)  # its urllib3 pool
            self.assertEqual(fetcher.retrieve_iam_role_credentials(), {})
            rec = w.imds.wait_for_request(lambda r: r.seq > before and r.method == "GET")
            self.assertEqual((rec.status, rec.info["imds_version"]), (401, 1))
        finally:
            w.imds.release_hung()
        hung = w.imds.wait_for_request(lambda r: r.seq > before and r.info.get("hung"))
        self.assertEqual(hung.headers["x-aws-ec2-metadata-token-ttl-seconds"], "21600")

    def test_container_wire(self):
        w = self.world
        req = urllib.request.Request(w.container.full_uri, headers={"Authorization": "wrong"})
        with self.assertRaises(urllib.error.HTTPError) as cm:
            urllib.request.urlopen(req, timeout=30)
        cm.exception.close()
        self.assertEqual(cm.exception.code, 401)
        req = urllib.request.Request(w.container.full_uri,
                                     headers={"Authorization": w.container.auth_token})
        with urllib.request.urlopen(req, timeout=30) as resp:
            doc = json.loads(resp.read())
        self.assertEqual(set(doc), {"AccessKeyId", "SecretAccessKey", "Token", "Expiration",
                                    "RoleArn"})
        self.assertEqual(w.ledger.get(doc["AccessKeyId"]).provider, "container")

    # -- the proxy

    def test_proxy_hosts_tls_and_forwarding(self):
        w = self.world
        proxied = Config(proxies={"https": w.proxy.url, "http": w.proxy.url})
        for region, cfg, host in [
                ("us-east-1", dict(use_fips_endpoint=True), "sts-fips.us-east-1.amazonaws.com"),
                ("us-west-2", dict(use_dualstack_endpoint=True), "sts.us-west-2.api.aws"),
                ("eu-south-1", {}, "sts.eu-south-1.amazonaws.com")]:
            sts = self.new_client(
                "sts", region_name=region, verify=w.ca.pem, config=proxied.merge(Config(**cfg)),
                aws_access_key_id=self.alice.access_key_id,
                aws_secret_access_key=self.alice.secret_access_key)
            self.assertEqual(sts.get_caller_identity()["Arn"], self.alice.arn)
            self.assertEqual(w.proxy.connect_hosts()[-1], host)
            self.assertEqual(w.sts.log[-1].info["scope_region"], region)
            self.assertEqual((w.sts.log[-1].host, w.sts.log[-1].via), (host, "proxy"))
        # a client that does not trust the test CA fails the handshake, and it is recorded
        sts = self.new_client("sts", region_name="us-east-1", verify=True,
                              config=proxied.merge(Config(retries={"max_attempts": 0})),
                              aws_access_key_id="AKIAX", aws_secret_access_key="x")
        with self.assertRaises(botocore.exceptions.SSLError):
            sts.get_caller_identity()
        af.wait_until(lambda: w.proxy.connects[-1].tls.startswith("failed"), 30,
                      "the proxy to record the failed handshake")
        # DynamoDB: a recorded 502 without a forward target, forwarded unchanged with one
        fault = lib.FaultServer().start()
        try:
            ddb = self.new_client(
                "dynamodb", region_name="eu-west-1", verify=w.ca.pem, config=proxied.merge(
                    Config(retries={"max_attempts": 0})),
                aws_access_key_id=self.alice.access_key_id,
                aws_secret_access_key=self.alice.secret_access_key)
            code, status, _ = self.error(ddb.list_tables)
            self.assertEqual(status, 502)
            w.forward.target = fault.url
            self.assertEqual(ddb.list_tables()["TableNames"], [])
            rec = w.forward.log[-1]
            self.assertEqual((rec.host, rec.status, rec.info["sigv4"]),
                             ("dynamodb.eu-west-1.amazonaws.com", 200, "valid"))
            self.assertEqual(w.signer_of(rec), self.alice)
            self.assertEqual(fault.last_headers["host"], "dynamodb.eu-west-1.amazonaws.com")
        finally:
            w.forward.target = None
            fault.stop()
        # plain-http proxying (absolute URI) goes by host name too
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({"http": w.proxy.url}))
        with self.assertRaises(urllib.error.HTTPError) as cm:
            opener.open("http://portal.sso.eu-west-1.amazonaws.com/federation/credentials"
                        "?role_name=R&account_id=1", timeout=30)
        cm.exception.close()
        self.assertEqual((cm.exception.code, cm.exception.headers["x-amzn-ErrorType"]),
                         (401, "UnauthorizedException"))
        self.assertEqual(w.portal.log[-1].via, "proxy-http")

    def test_env_helpers(self):
        w = self.world
        env = w.env_for_endpoints()
        self.assertEqual(env["AWS_ENDPOINT_URL_STS"], w.sts.url)
        self.assertEqual(env["AWS_CONTAINER_CREDENTIALS_FULL_URI"], w.container.full_uri)
        self.assertEqual(w.env_for_proxy()["NO_PROXY"], "127.0.0.1,localhost")
        with open(w.ca.pem) as f:
            self.assertIn("BEGIN CERTIFICATE", f.read())

    # -- real botocore resolving profiles through the proxy

    def test_botocore_sso_session(self):
        home = self.home()
        self.write_sso_config(home)
        self.world.sso_login(home, START_URL, SSO_REGION, "corp")
        out = self.botocore(home, profile="sso-new")
        self.assertEqual(out["method"], "sso")
        cred = self.assert_identity(out, "sso")
        self.assertTrue(cred.arn.startswith(self.world.portal.role_arn_prefix(SSO_ACCOUNT,
                                                                              SSO_ROLE)))
        rec = [r for r in self.world.portal.requests("GetRoleCredentials", status=200)
               if r.info["issued"] == cred.access_key_id][0]
        self.assertEqual((rec.host, rec.via), ("portal.sso.eu-west-1.amazonaws.com", "proxy"))
        self.assertLessEqual({"portal.sso.eu-west-1.amazonaws.com", "sts.amazonaws.com"},
                             set(self.world.proxy.connect_hosts()))

    def test_botocore_legacy_sso(self):
        home = self.home()
        self.write_sso_config(home)
        entry = self.world.sso_login(home, LEGACY_START_URL, SSO_REGION, refresh=False)
        self.assertTrue(os.path.exists(os.path.join(
            home, ".aws", "sso", "cache",
            hashlib.sha1(LEGACY_START_URL.encode()).hexdigest() + ".json")))
        out = self.botocore(home, profile="sso-legacy")
        self.assert_identity(out, "sso")
        rec = [r for r in self.world.portal.requests("GetRoleCredentials", status=200)
               if r.info["token"] == af.fingerprint(entry["accessToken"])]
        self.assertEqual(len(rec), 1)

    def test_botocore_sso_refresh_rewrites_cache(self):
        w = self.world
        home = self.home()
        self.write_sso_config(home)
        old = w.sso_login(home, START_URL, SSO_REGION, "corp", expires_in=-60)
        path = af.sso_cache_path(home, "corp")
        self.assertEqual(os.path.basename(path),
                         hashlib.sha1(b"corp").hexdigest() + ".json")
        out = self.botocore(home, profile="sso-new")
        self.assert_identity(out, "sso")
        with open(path) as f:
            text = f.read()
        new = json.loads(text)
        # exactly what botocore wrote
        self.assertEqual(list(new), list(af.SSO_CACHE_KEYS))
        self.assertEqual(text, json.dumps(new))  # ", " and ": ", no indent, no newline
        self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o600)
        self.assertEqual(os.listdir(os.path.dirname(path)), [os.path.basename(path)])
        self.assertTrue(ISO_Z.match(new["expiresAt"]))
        expires = datetime.datetime.strptime(new["expiresAt"], "%Y-%m-%dT%H:%M:%SZ").replace(
            tzinfo=af.UTC)
        self.assertLess(abs((expires - af.utcnow()).total_seconds() - w.oidc.access_token_ttl),
                        120)
        for key in ("startUrl", "region", "clientId", "clientSecret", "registrationExpiresAt"):
            self.assertEqual(new[key], old[key])
        self.assertNotEqual(new["accessToken"], old["accessToken"])
        self.assertNotEqual(new["refreshToken"], old["refreshToken"])
        # it refreshed with the old refresh token, then used the new access token
        refresh = w.oidc.requests("CreateToken", status=200)[-1]
        self.assertEqual(refresh.info["refresh_token"], af.fingerprint(old["refreshToken"]))
        self.assertEqual(refresh.host, "oidc.eu-west-1.amazonaws.com")
        self.assertEqual(w.portal.requests("GetRoleCredentials", status=200)[-1].info["token"],
                         af.fingerprint(new["accessToken"]))

    def test_botocore_sso_refresh_revoked(self):
        """A revoked refresh token and an expired access token: botocore gives up."""
        w = self.world
        home = self.home()
        self.write_sso_config(home)
        old = w.sso_login(home, START_URL, SSO_REGION, "corp", expires_in=-60)
        w.oidc.refresh_tokens[old["refreshToken"]].revoked = True
        out = self.botocore(home, profile="sso-new")
        self.assertEqual(out["error"]["code"], "TokenRetrievalError", out)
        with open(af.sso_cache_path(home, "corp")) as f:
            self.assertEqual(json.load(f)["accessToken"], old["accessToken"])

    def test_botocore_assume_role_mfa_external_id(self):
        w = self.world
        home = self.home()
        self.write_role_config(home)
        out = self.botocore(home, profile="admin", mfa_code=MFA_CODE)
        self.assertEqual(out["method"], "assume-role")
        cred = self.assert_identity(out, "assume-role")
        self.assertEqual(cred.arn,
                         f"arn:aws:sts::{ROLE_ACCOUNT}:assumed-role/DynoscopeAdmin/dynoscope-test")
        rec = [r for r in w.sts.requests("AssumeRole", status=200)
               if r.info["issued"] == cred.access_key_id][0]
        self.assertEqual({k: rec.params[k] for k in ("RoleArn", "RoleSessionName", "ExternalId",
                                                     "SerialNumber", "TokenCode",
                                                     "DurationSeconds")},
                         {"RoleArn": self.admin_role, "RoleSessionName": "dynoscope-test",
                          "ExternalId": EXTERNAL_ID, "SerialNumber": MFA_SERIAL,
                          "TokenCode": MFA_CODE, "DurationSeconds": "1800"})
        self.assertEqual(w.signer_of(rec), self.alice)
        self.assertEqual(rec.host, "sts.amazonaws.com")
        wrong = self.botocore(home, profile="admin", mfa_code="999999")
        self.assertEqual(wrong["error"], {
            "code": "AccessDenied", "status": 403,
            "message": "MultiFactorAuthentication failed with invalid MFA one time pass code. "})

    def test_botocore_web_identity(self):
        home = self.home()
        token_file = os.path.join(home, "web-identity-token")
        with open(token_file, "w") as f:
            f.write(self.web_token)
        af.write_config(home, f"""
            [profile web]
            role_arn = {self.web_role}
            web_identity_token_file = {token_file}
            role_session_name = dynoscope-web
            region = us-east-1
            """)
        out = self.botocore(home, profile="web")
        self.assertEqual(out["method"], "assume-role-with-web-identity")
        cred = self.assert_identity(out, "web-identity")
        rec = [r for r in self.world.sts.requests("AssumeRoleWithWebIdentity", status=200)
               if r.info["issued"] == cred.access_key_id][0]
        self.assertNotIn("authorization", rec.headers)
        self.assertEqual(rec.params["RoleSessionName"], "dynoscope-web")

    def test_botocore_imds(self):
        w = self.world
        w.imds.rotate()
        before = len(w.imds.log)
        out = self.botocore(self.home(), env=w.env_for_imds(), region="us-east-1")
        self.assertEqual(out["method"], "iam-role")
        self.assert_identity(out, "imds")
        recs = [r for r in w.imds.log if r.seq > before]
        self.assertEqual([r.operation for r in recs],
                         ["PutToken", "GetRoleName", "GetCredentials"])
        self.assertEqual(recs[0].params, {"ttl": "21600"})
        self.assertEqual([r.info.get("imds_version") for r in recs[1:]], [2, 2])
        self.assertEqual({r.via for r in recs}, {"direct"})

    def test_botocore_container(self):
        w = self.world
        out = self.botocore(self.home(), env=w.env_for_container(), region="us-east-1")
        self.assertEqual(out["method"], "container-role")
        self.assert_identity(out, "container")
        rec = w.container.requests(status=200)[-1]
        self.assertEqual(rec.headers["authorization"], af.redacted(w.container.auth_token))

    # -- the real AWS CLI v2

    def cli_identity(self, r, provider):
        self.assertEqual(r.returncode, 0, r.stderr[-3000:])
        ident = json.loads(r.stdout)
        rec = [x for x in self.world.sts.requests("GetCallerIdentity", status=200)
               if x.info.get("signer_arn") == ident["Arn"]][-1]
        self.assertEqual(self.world.signer_of(rec).provider, provider)
        self.assertEqual(rec.host, "sts.us-east-1.amazonaws.com")  # the CLI goes regional
        return ident

    def test_cli_sso_profile(self):
        home = self.home()
        self.write_sso_config(home)
        self.world.sso_login(home, START_URL, SSO_REGION, "corp")
        r = self.aws(home, "sts", "get-caller-identity", "--profile", "sso-new", "--output",
                     "json")
        ident = self.cli_identity(r, "sso")
        key = json.dumps({"accountId": SSO_ACCOUNT, "roleName": SSO_ROLE, "sessionName": "corp"},
                         sort_keys=True, separators=(",", ":"))
        cache = os.path.join(home, ".aws", "cli", "cache",
                             hashlib.sha1(key.encode()).hexdigest() + ".json")
        with open(cache) as f:
            cached = json.load(f)
        self.assertEqual(cached["ProviderType"], "sso")
        self.assertEqual(self.world.ledger.get(cached["Credentials"]["AccessKeyId"]).arn,
                         ident["Arn"])
        self.assertTrue(ISO_Z.match(cached["Credentials"]["Expiration"]))

    def test_cli_assume_role_profile(self):
        home = self.home()
        self.write_role_config(home)
        # no terminal: getpass reads the MFA code from stdin
        r = self.aws(home, "sts", "get-caller-identity", "--profile", "admin", "--output",
                     "json", stdin=MFA_CODE + "\n")
        ident = self.cli_identity(r, "assume-role")
        self.assertEqual(ident["Arn"],
                         f"arn:aws:sts::{ROLE_ACCOUNT}:assumed-role/DynoscopeAdmin/dynoscope-test")
        self.assertIn(f"Enter MFA code for {MFA_SERIAL}", r.stderr)
        args = {"RoleArn": self.admin_role, "RoleSessionName": "dynoscope-test",
                "ExternalId": EXTERNAL_ID, "SerialNumber": MFA_SERIAL, "DurationSeconds": 1800}
        cache = os.path.join(home, ".aws", "cli", "cache", hashlib.sha1(
            json.dumps(args, sort_keys=True).encode()).hexdigest() + ".json")
        self.assertEqual(stat.S_IMODE(os.stat(cache).st_mode), 0o600)
        with open(cache) as f:
            cached = json.load(f)
        self.assertEqual(cached["AssumedRoleUser"]["Arn"], ident["Arn"])
        self.assertRegex(cached["Credentials"]["Expiration"],
                         r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$")

    def test_cli_sso_login_device_flow(self):
        w = self.world
        home = self.home()
        self.write_sso_config(home)
        env = af.clean_env(home, w.env_for_proxy())
        proc = subprocess.Popen([AWS, "sso", "login", "--profile", "sso-new", "--no-browser"],
                                env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            code = w.oidc.wait_for_user_code(timeout=60)
            af.wait_until(lambda: len(w.oidc.polls(code)) >= 2, 60, "two CreateToken polls")
            w.oidc.approve(code)
            out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, 9)
                proc.wait()
        self.assertEqual(proc.returncode, 0, err)
        self.assertIn(code, out)
        polls = w.oidc.polls(code)
        self.assertGreaterEqual(len(polls), 3)
        # one attempt at once, then one per interval (1 s)
        self.assertTrue(all(b - a >= 0.9 for a, b in zip(polls[1:], polls[2:])), polls)
        reg = [r for r in w.oidc.requests("RegisterClient")
               if r.params.get("clientName") == "botocore-client-corp"][-1]
        self.assertEqual(reg.params["scopes"], ["sso:account:access"])
        token_path = af.sso_cache_path(home, "corp")
        with open(token_path) as f:
            text = f.read()
        token = json.loads(text)
        self.assertEqual(list(token), list(af.SSO_CACHE_KEYS))
        self.assertEqual(text, json.dumps(token))
        self.assertEqual(stat.S_IMODE(os.stat(token_path).st_mode), 0o600)
        self.assertIsNotNone(w.oidc.check_access_token(token["accessToken"]))
        reg_key = json.dumps({"tool": "botocore", "startUrl": START_URL, "region": SSO_REGION,
                              "scopes": ["sso:account:access"], "session_name": "corp"},
                             sort_keys=True)
        reg_path = os.path.join(os.path.dirname(token_path),
                                hashlib.sha1(reg_key.encode()).hexdigest() + ".json")
        with open(reg_path) as f:
            registration = json.load(f)
        self.assertEqual(list(registration), ["clientId", "clientSecret", "expiresAt", "scopes"])
        self.assertEqual(registration["clientId"], token["clientId"])
        # and the token it wrote works for the CLI
        self.cli_identity(self.aws(home, "sts", "get-caller-identity", "--profile", "sso-new",
                                   "--output", "json"), "sso")


class StateCommand(unittest.TestCase):
    """`python3 tests/lib/aws_fakes.py --state DIR` prints its URLs and runs until killed."""

    def test_state_command(self):
        state = tempfile.mkdtemp(prefix="aws-fakes-state-")
        proc = subprocess.Popen([PYTHON, os.path.join(HERE, "..", "lib", "aws_fakes.py"),
                                 "--state", state], stdout=subprocess.PIPE, text=True,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            line = proc.stdout.readline()
            info = json.loads(line)
            self.assertNotIn("container_auth_token", info)
            with urllib.request.urlopen(info["control"] + "/state", timeout=30) as resp:
                self.assertEqual(json.loads(resp.read())["proxy"], info["proxy"])
            with open(info["state_file"]) as f:
                self.assertIn("static_keys", json.load(f)["seed"])
            self.assertEqual(stat.S_IMODE(os.stat(info["state_file"]).st_mode), 0o600)
            with socket.create_connection(("127.0.0.1", info["ports"]["proxy"]), timeout=30):
                pass
        finally:
            proc.terminate()
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()
            proc.stdout.close()
            shutil.rmtree(state, ignore_errors=True)
        self.assertEqual(proc.returncode, 0, "it did not stop on SIGTERM")


if __name__ == "__main__":
    unittest.main(verbosity=2)
