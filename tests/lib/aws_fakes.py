#!/usr/bin/env python3
"""Local fakes of AWS's sign-in services, for testing credential providers without AWS.

Python standard library only; the `openssl` command makes the test CA and the per-host
certificates of the intercepting proxy. Every fake listens on 127.0.0.1 (port 0, so a free port)
and is a ThreadingHTTPServer. What each one implements, and the reference it follows:

SSO portal (`SSOPortal`, IAM Identity Center "portal" API, restJson1; AWS SSO API Reference and
    botocore's data/sso/2019-06-10/service-2.json):
    GET  /federation/credentials?role_name=R&account_id=A   GetRoleCredentials
    GET  /assignment/accounts                               ListAccounts
    GET  /assignment/roles?account_id=A                     ListAccountRoles
    POST /logout                                            Logout
    The access token comes in the `x-amz-sso_bearer_token` header. GetRoleCredentials answers
    {"roleCredentials": {"accessKeyId", "secretAccessKey", "sessionToken", "expiration": epoch ms}}.
    Errors as restJson1 does them: an `x-amzn-ErrorType` header and {"message": ...}: an unknown,
    expired or logged-out token is 401 UnauthorizedException; a role/account that was not granted
    is 403 ForbiddenException "No access" (what the real service answers, though the model does
    not list it); a missing parameter is 400 InvalidRequestException.

SSO OIDC (`SSOOIDC`, restJson1; AWS SSO OIDC API Reference, RFC 8628 device flow, botocore's
    data/sso-oidc/2019-06-10/service-2.json):
    POST /client/register        RegisterClient (clientName, clientType "public", scopes)
    POST /device_authorization   StartDeviceAuthorization (clientId, clientSecret, startUrl)
    POST /token                  CreateToken, grantType urn:ietf:params:oauth:grant-type:device_code
                                 (deviceCode) or refresh_token (refreshToken)
    Errors carry `x-amzn-ErrorType` and {"error": "authorization_pending", "error_description"}:
    AuthorizationPendingException, SlowDownException, ExpiredTokenException, AccessDeniedException,
    InvalidGrantException, UnsupportedGrantTypeException, InvalidRequestException (400) and
    InvalidClientException (401). Refresh tokens are issued only to clients registered with
    scopes (as the real service does: the legacy, scope-less registration gets none).
    The test drives the device flow: approve(user_code) / deny(user_code) (the user in the
    browser), slow_down(n) (the next n polls get slow_down), expire_device_codes(), and
    revoke_refresh_tokens(), expire_access_tokens(); issue_token() mints a token set for a cache
    file without any flow.

STS (`STS`, query protocol with XML answers in https://sts.amazonaws.com/doc/2011-06-15/; AWS STS
    API Reference, botocore's data/sts/2011-06-15/service-2.json):
    AssumeRole (RoleArn, RoleSessionName, ExternalId, DurationSeconds, SerialNumber, TokenCode),
    AssumeRoleWithWebIdentity (unsigned: RoleArn, RoleSessionName, WebIdentityToken,
    DurationSeconds), GetCallerIdentity. Signed calls must carry a real, valid Signature Version 4
    (Authorization header, service "sts", region us-east-1 for the global endpoint or the host's
    region) made with credentials of the ledger; X-Amz-Security-Token must be the session token
    issued with them. Errors are <ErrorResponse><Error><Type>Sender</Type><Code>..</Code>
    <Message>..</Message></Error><RequestId>..</RequestId></ErrorResponse> with AWS's status:
    403 AccessDenied, MissingAuthenticationToken, InvalidClientTokenId, SignatureDoesNotMatch;
    400 ValidationError, InvalidIdentityToken, ExpiredTokenException (web identity token),
    ExpiredToken (session credentials), IncompleteSignature, InvalidAction.
    The test declares the roles (add_role: required ExternalId, MFA serial and its valid code,
    maximum session duration) and the accepted web identity tokens (add_web_identity_token).

IMDSv2 (`IMDS`; EC2 User Guide "Use the Instance Metadata Service", botocore's utils.py
    IMDSFetcher/InstanceMetadataFetcher):
    PUT /latest/api/token with X-aws-ec2-metadata-token-ttl-seconds (1..21600) -> the token
    (400 without a valid TTL, 403 with X-Forwarded-For); every GET needs X-aws-ec2-metadata-token
    (401 otherwise: IMDSv1 is off unless `allow_v1`);
    GET /latest/meta-data/iam/security-credentials/        -> the role name
    GET /latest/meta-data/iam/security-credentials/ROLE    -> {"Code": "Success", "LastUpdated",
        "Type": "AWS-HMAC", "AccessKeyId", "SecretAccessKey", "Token", "Expiration"}
    GET /latest/meta-data/placement/region, .../placement/availability-zone, .../instance-id,
        /latest/dynamic/instance-identity/document.
    Knobs: allow_v1, hang_token_put (the PUT never answers until release_hung(), to test client
    timeouts), token_put_status (e.g. 403/404 as when IMDSv2 is unavailable).

Container credentials (`ContainerCredentials`; AWS SDKs and Tools Reference Guide "Container
    credential provider", botocore's ContainerMetadataFetcher): GET on `path`, with the
    `Authorization` header equal to `auth_token` (401 otherwise) -> {"AccessKeyId",
    "SecretAccessKey", "Token", "Expiration", "RoleArn"}.

Intercepting proxy (`InterceptingProxy`): an HTTP proxy on loopback. `CONNECT host:443` is
    recorded (connects, connect_hosts()), answered 200, and the TLS inside is terminated with a
    certificate for that host minted on the fly (cached) by the test CA (`TestCA`); the requests
    in the tunnel go by host name to portal.sso[-fips].REGION.amazonaws.com -> SSOPortal,
    oidc[-fips].REGION.amazonaws.com -> SSOOIDC, sts.amazonaws.com / sts[-fips].REGION.amazonaws.com
    (and .api.aws dual-stack names) -> STS, dynamodb[-fips].REGION... / streams.dynamodb... -> the
    forward target (World(forward_url=...), e.g. a local `dynoscope-cli serve`) or a recorded 502,
    and anything else -> a recorded 502. Plain-http proxying (an absolute-URI request line) is
    routed the same way.

Ledger (`Ledger`): every credential any fake issues (and test-made static keys) is unique and
    recorded: access key id -> secret, session token, expiration, Arn, account, provider
    ("sso", "assume-role", "web-identity", "imds", "container", "static"). STS and the forwarder
    note in each request's log record which access key signed it (`World.signer_of(record)`).

Request log: every fake keeps `log`, a list of `LogRecord` (method, path, host, via, query,
    headers with secrets replaced by "<redacted sha256:…>" fingerprints (see `fingerprint`),
    params likewise, status, error code, info such as the operation and the signer's key id).

Ways in: each fake's `url` (http://127.0.0.1:PORT) for clients that honour AWS_ENDPOINT_URL_SSO,
    AWS_ENDPOINT_URL_SSO_OIDC, AWS_ENDPOINT_URL_STS, AWS_EC2_METADATA_SERVICE_ENDPOINT and
    AWS_CONTAINER_CREDENTIALS_FULL_URI (`World.env_for_endpoints()`), or the proxy for clients that
    do not (Debian's botocore 1.29 and AWS CLI 2.9): `World.env_for_proxy()` gives HTTPS_PROXY,
    NO_PROXY=127.0.0.1,localhost (IMDS and the container endpoint stay direct) and AWS_CA_BUNDLE.

Files: write_sso_cache() writes ~/.aws/sso/cache/<sha1>.json as botocore/the AWS CLI v2 do
    (json.dumps with default separators, no indent, no trailing newline, opened with
    O_WRONLY|O_CREAT mode 0600 then truncated; key order startUrl, region, accessToken, expiresAt,
    clientId, clientSecret, registrationExpiresAt, refreshToken; dates "YYYY-MM-DDTHH:MM:SSZ";
    the name is the sha1 of the sso-session name, or of the start URL for legacy profiles).
    write_config() / write_credentials() write ~/.aws/config and ~/.aws/credentials.

Command line: `python3 tests/lib/aws_fakes.py --state DIR [--forward URL]` starts a World with
    a few defaults (World.seed_defaults), writes DIR/state.json (mode 0600, with the secrets a
    manual test needs), prints one JSON line without secrets (the URLs, ports, CA path, the
    environments, the control URL) and runs until killed. The control endpoint takes
    POST /approve, /deny, /slow-down, /expire-device-codes, /expire-access-tokens,
    /revoke-refresh-tokens, /imds and GET /state, /log, /ledger, /connects.
"""
import argparse
import base64
import dataclasses
import datetime
import hashlib
import hmac
import http.client
import http.server
import ipaddress
import json
import os
import re
import secrets
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import traceback
import urllib.parse
import uuid
from xml.sax.saxutils import escape as _xml_escape

DEFAULT_ACCOUNT = "111122223333"
DEFAULT_REGION = "us-east-1"
STS_NAMESPACE = "https://sts.amazonaws.com/doc/2011-06-15/"
STS_VERSION = "2011-06-15"
DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
REFRESH_TOKEN_GRANT = "refresh_token"
SSO_CACHE_KEYS = ("startUrl", "region", "accessToken", "expiresAt", "clientId", "clientSecret",
                  "registrationExpiresAt", "refreshToken")
UTC = datetime.timezone.utc


# ---------------------------------------------------------------------------------------------
# Small helpers


def utcnow():
    return datetime.datetime.now(UTC).replace(microsecond=0)


def iso_z(when):
    """AWS's timestamp form "YYYY-MM-DDTHH:MM:SSZ" (STS, IMDS, container, the SSO cache)."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def epoch_ms(when):
    return int(when.timestamp() * 1000)


def fingerprint(value):
    """What the request logs show instead of a secret: "sha256:" and 16 hex digits of it."""
    if value is None:
        return None
    return "sha256:" + hashlib.sha256(str(value).encode()).hexdigest()[:16]


def redacted(value):
    return f"<redacted {fingerprint(value)}>"


_BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def _key_id(prefix):
    return prefix + "".join(secrets.choice(_BASE32) for _ in range(20 - len(prefix)))


def _b64(nbytes):
    """Random base64 text: real secrets and session tokens have '+', '/' and '=' in them."""
    return base64.b64encode(secrets.token_bytes(nbytes)).decode()


# Every secret the fakes hand out holds this mark, so that a test can look for any of them at
# once: in outputs and logs, and in the heap blocks a process frees (tests/auth/wipecheck.c).
SECRET_MARK = "DySeCrEtMaRk7Q2z"


def _secret_key():
    return _b64(18) + SECRET_MARK  # 40 characters, like AWS's


def _session_token():
    return "IQoJb3JpZ2luX2Vj" + SECRET_MARK + _b64(240)


def _user_code():
    letters = "BCDFGHJKLMNPQRSTVWXZ"
    return "-".join("".join(secrets.choice(letters) for _ in range(4)) for _ in range(2))


def wait_until(predicate, timeout=30.0, what="the condition", interval=0.01):
    """Polls predicate() until it returns something true, which is returned; TimeoutError after
    timeout seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)


def sso_cache_key(name):
    """The file name stem of an SSO token cache entry: sha1 of the sso-session name, or of the
    start URL for a legacy profile (botocore's SSOTokenLoader._generate_cache_key)."""
    return hashlib.sha1(name.encode("utf-8")).hexdigest()


def sso_cache_path(home, name):
    return os.path.join(home, ".aws", "sso", "cache", sso_cache_key(name) + ".json")


def _cache_value(value):
    return iso_z(value) if isinstance(value, datetime.datetime) else value


def write_sso_cache(home, key, token, mode=0o600):
    """Writes HOME/.aws/sso/cache/<sha1(key)>.json as botocore and the AWS CLI v2 write it and
    returns its path. key: the sso-session name (sso_session profiles) or the start URL
    (legacy profiles). token: a dict such as SSOOIDC.issue_token() returns; datetimes become
    "YYYY-MM-DDTHH:MM:SSZ"; the keys go in the order the CLI writes them (SSO_CACHE_KEYS, then
    any others). The text is json.dumps() with its default separators (", " and ": "), no
    indent and no trailing newline; a new file gets mode 0600 (minus the umask), an existing one
    keeps its mode and is truncated, as botocore's JSONFileCache does."""
    ordered = {k: _cache_value(token[k]) for k in SSO_CACHE_KEYS if k in token}
    ordered.update({k: _cache_value(v) for k, v in token.items() if k not in ordered})
    path = sso_cache_path(home, key)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT, mode), "w") as f:
        f.truncate()
        f.write(json.dumps(ordered))
    return path


def write_config(home, text):
    """HOME/.aws/config with the dedented text; its path."""
    return _write_aws_file(home, "config", text)


def write_credentials(home, text):
    """HOME/.aws/credentials with the dedented text; its path."""
    return _write_aws_file(home, "credentials", text)


def _write_aws_file(home, name, text):
    path = os.path.join(home, ".aws", name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text).lstrip("\n"))
    os.chmod(path, 0o600)
    return path


def clean_env(home=None, extra=None):
    """os.environ without any AWS_ or proxy variable of the user's, and (with home) HOME,
    AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE pointing into it. IMDS is off
    (AWS_EC2_METADATA_DISABLED=true) unless extra turns it on; the AWS CLI's pager is off."""
    drop = {"http_proxy", "https_proxy", "no_proxy", "all_proxy", "ftp_proxy"}
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("AWS_") and k.lower() not in drop}
    env["AWS_EC2_METADATA_DISABLED"] = "true"
    env["AWS_PAGER"] = ""
    if home is not None:
        env["HOME"] = home
        env["AWS_CONFIG_FILE"] = os.path.join(home, ".aws", "config")
        env["AWS_SHARED_CREDENTIALS_FILE"] = os.path.join(home, ".aws", "credentials")
    env.update(extra or {})
    return env


# ---------------------------------------------------------------------------------------------
# The ledger of issued credentials


@dataclasses.dataclass
class Credential:
    access_key_id: str
    secret_access_key: str
    session_token: str | None  # None for long-term (static) keys
    expiration: datetime.datetime | None  # None for static keys
    arn: str
    account: str
    user_id: str
    provider: str  # "sso", "assume-role", "web-identity", "imds", "container", "static"
    issued_at: datetime.datetime
    details: dict = dataclasses.field(default_factory=dict)
    revoked: bool = False

    @property
    def expired(self):
        return self.expiration is not None and utcnow() >= self.expiration

    def serve_auth(self, with_token=False):
        """For `dynoscope-cli serve --auth`: "KEYID:SECRET" (":TOKEN" added with with_token)."""
        text = f"{self.access_key_id}:{self.secret_access_key}"
        if with_token and self.session_token:
            text += ":" + self.session_token
        return text

    def env(self):
        """AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN)."""
        env = {"AWS_ACCESS_KEY_ID": self.access_key_id,
               "AWS_SECRET_ACCESS_KEY": self.secret_access_key}
        if self.session_token:
            env["AWS_SESSION_TOKEN"] = self.session_token
        return env

    def to_dict(self, with_secrets=False):
        d = {"AccessKeyId": self.access_key_id, "Arn": self.arn, "Account": self.account,
             "UserId": self.user_id, "Provider": self.provider,
             "Expiration": iso_z(self.expiration) if self.expiration else None,
             "IssuedAt": iso_z(self.issued_at), "Revoked": self.revoked,
             "Details": self.details}
        if with_secrets:
            d["SecretAccessKey"] = self.secret_access_key
            d["SessionToken"] = self.session_token
        return d


class Ledger:
    """Every credential the fake world issued, by access key id."""

    def __init__(self):
        self._lock = threading.Lock()
        self._by_key = {}

    def _new_key(self, prefix):
        while True:
            key = _key_id(prefix)
            if key not in self._by_key:
                return key

    def issue(self, provider, arn, account, user_id, ttl, **details):
        """New temporary credentials (ASIA…, with a session token) valid for ttl seconds."""
        now = utcnow()
        with self._lock:
            cred = Credential(self._new_key("ASIA"), _secret_key(), _session_token(),
                              now + datetime.timedelta(seconds=ttl), arn, account, user_id,
                              provider, now, dict(details))
            self._by_key[cred.access_key_id] = cred
        return cred

    def static_keys(self, user="alice", account=DEFAULT_ACCOUNT):
        """Long-term IAM user keys (AKIA…, no session token) that STS accepts."""
        with self._lock:
            cred = Credential(self._new_key("AKIA"), _secret_key(), None, None,
                              f"arn:aws:iam::{account}:user/{user}", account, _key_id("AIDA"),
                              "static", utcnow(), {"user": user})
            self._by_key[cred.access_key_id] = cred
        return cred

    def get(self, access_key_id):
        with self._lock:
            return self._by_key.get(access_key_id)

    def issued(self, provider=None):
        with self._lock:
            return [c for c in self._by_key.values() if provider in (None, c.provider)]

    def provider_of(self, access_key_id):
        cred = self.get(access_key_id)
        return cred.provider if cred else None

    def expire(self, access_key_id):
        """Makes a credential expired from now on."""
        with self._lock:
            self._by_key[access_key_id].expiration = utcnow() - datetime.timedelta(seconds=1)

    def revoke(self, access_key_id):
        """Makes STS answer InvalidClientTokenId for it."""
        with self._lock:
            self._by_key[access_key_id].revoked = True


# ---------------------------------------------------------------------------------------------
# HTTP plumbing shared by the fakes and the proxy


@dataclasses.dataclass
class Request:
    method: str
    path: str  # as received, still percent-encoded, without the query
    raw_query: str
    headers: http.client.HTTPMessage
    body: bytes
    host: str  # the host the client addressed (Host header, CONNECT host or absolute URI)
    port: int | None
    via: str  # "direct", "proxy" (inside a CONNECT tunnel) or "proxy-http" (absolute URI)
    client: tuple
    route: dict = dataclasses.field(default_factory=dict)  # from route_host(): region, fips…
    params: dict = dataclasses.field(default_factory=dict)  # parsed parameters, for the log
    info: dict = dataclasses.field(default_factory=dict)  # operation, signer, … for the log

    @property
    def query(self):
        return dict(_split_query(self.raw_query))

    def header(self, name, default=None):
        return self.headers.get(name, default)

    def json_body(self):
        data = json.loads(self.body.decode("utf-8") or "{}")
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        return data

    def form(self):
        return dict(_split_query(self.body.decode("utf-8"), plus_is_space=True))


def _split_query(text, plus_is_space=False):
    pairs = []
    for part in text.split("&") if text else []:
        key, _, value = part.partition("=")
        unq = urllib.parse.unquote_plus if plus_is_space else urllib.parse.unquote
        pairs.append((unq(key), unq(value)))
    return pairs


@dataclasses.dataclass
class Response:
    status: int
    body: bytes = b""
    content_type: str | None = None
    headers: list = dataclasses.field(default_factory=list)
    error: str | None = None  # the error code, for the log
    close: bool = False


@dataclasses.dataclass
class LogRecord:
    seq: int
    time: float  # time.time()
    monotonic: float  # time.monotonic(), to measure intervals between requests
    service: str
    method: str
    path: str
    host: str
    via: str
    query: dict
    headers: dict  # lower-cased names, secrets redacted
    params: dict  # secrets redacted
    status: int
    error: str | None
    info: dict

    @property
    def operation(self):
        return self.info.get("operation")


_SECRET_HEADERS = {"x-amz-sso_bearer_token", "x-amz-security-token", "x-aws-ec2-metadata-token",
                   "proxy-authorization", "cookie"}
_SECRET_PARAMS = {"clientSecret", "deviceCode", "refreshToken", "accessToken", "code",
                  "codeVerifier", "WebIdentityToken", "SecretAccessKey", "SessionToken"}


def _redact_headers(headers):
    out = {}
    for name, value in headers.items():
        lname = name.lower()
        if lname == "authorization":
            if value.startswith("AWS4-HMAC-SHA256"):
                value = re.sub(r"Signature=[0-9a-fA-F]+", "Signature=<redacted>", value)
            else:
                value = redacted(value)
        elif lname in _SECRET_HEADERS:
            value = redacted(value)
        out[lname] = value
    return out


def _redact_params(params):
    return {k: (redacted(v) if k in _SECRET_PARAMS and v is not None else v)
            for k, v in params.items()}


_HOST_RE = re.compile(
    r"^(?P<svc>portal\.sso|oidc|sts|dynamodb|streams\.dynamodb)(?P<fips>-fips)?"
    r"(?P<dualstack>\.dualstack)?(?:\.(?P<region>[a-z]{2}(?:-[a-z]+)+-\d+))?"
    r"\.(?P<suffix>amazonaws\.com(?:\.cn)?|api\.aws|api\.amazonwebservices\.com\.cn)$")


def route_host(host):
    """What an AWS host name is: {"service": "sso"|"sso-oidc"|"sts"|"dynamodb"|None, "region",
    "fips", "dualstack", "global"}."""
    m = _HOST_RE.match(host or "")
    if not m:
        return {"service": None, "region": None, "fips": False, "dualstack": False,
                "global": False}
    svc = {"portal.sso": "sso", "oidc": "sso-oidc", "sts": "sts", "dynamodb": "dynamodb",
           "streams.dynamodb": "dynamodb"}[m["svc"]]
    if svc != "sts" and m["region"] is None:
        svc = None
    return {"service": svc, "region": m["region"], "fips": bool(m["fips"]),
            "dualstack": bool(m["dualstack"]) or m["suffix"].startswith("api."),
            "global": m["region"] is None}


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(self, handler, router):
        self.router = router  # Request -> Service
        super().__init__(("127.0.0.1", 0), handler)

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        if not isinstance(exc, (ConnectionError, ssl.SSLError, TimeoutError, OSError)):
            super().handle_error(request, client_address)


class _Handler(http.server.BaseHTTPRequestHandler):
    """Parses a request into a Request, lets the server's router pick the service, writes the
    service's Response. HTTP/1.1 with keep-alive."""
    protocol_version = "HTTP/1.1"
    server_version = "aws-fakes/1"
    timeout = 120
    tunnel = None  # (host, port) when inside a CONNECT tunnel

    def log_message(self, *args):
        pass

    def _read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            out = bytearray()
            while True:
                size = int(self.rfile.readline(65537).split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                        pass
                    return bytes(out)
                out += self.rfile.read(size)
                self.rfile.readline(65537)
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _serve(self):
        body = self._read_body()
        target = self.path
        if self.tunnel is not None:
            host, port = self.tunnel
            via = "proxy"
        elif re.match(r"^https?://", target, re.I):
            parts = urllib.parse.urlsplit(target)
            host, port = parts.hostname or "", parts.port
            target = (parts.path or "/") + ("?" + parts.query if parts.query else "")
            via = "proxy-http"
        else:
            hostport = self.headers.get("Host", "")
            parts = urllib.parse.urlsplit("//" + hostport)
            host, port = parts.hostname or "", parts.port
            via = "direct"
        path, _, raw_query = target.partition("?")
        req = Request(self.command, path, raw_query, self.headers, body, host.lower(), port, via,
                      self.client_address, route=route_host(host.lower()))
        service = self.server.router(req)
        self._write(service.dispatch(req))

    def _write(self, resp):
        try:
            self.send_response(resp.status)
            if resp.content_type:
                self.send_header("Content-Type", resp.content_type)
            for name, value in resp.headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(resp.body)))
            if resp.close:
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(resp.body)
        except (ConnectionError, ssl.SSLError, OSError):
            self.close_connection = True

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = _serve


class Service:
    """A fake: handle(Request) -> Response, a request log, and its own direct endpoint."""
    name = "service"

    def __init__(self, world):
        self.world = world
        self.lock = threading.RLock()
        self.log = []
        self._log_cond = threading.Condition()
        self.server = None
        self._thread = None

    # -- its direct endpoint

    def start(self):
        self.server = _Server(_Handler, lambda req: self)
        self._thread = threading.Thread(target=self.server.serve_forever, args=(0.1,),
                                        daemon=True, name=f"aws-fakes-{self.name}")
        self._thread.start()
        return self

    def stop(self):
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    @property
    def port(self):
        return self.server.server_address[1]

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    # -- requests

    def handle(self, req):
        raise NotImplementedError

    def dispatch(self, req):
        try:
            resp = self.handle(req)
        except Exception:  # a bug in the fake: a 500 that says so, and the traceback
            traceback.print_exc()
            resp = Response(500, b"aws_fakes: internal error", "text/plain", error="InternalError")
        resp.headers.append(("x-amzn-RequestId", req.info.setdefault("request_id",
                                                                      str(uuid.uuid4()))))
        self._record(req, resp)
        return resp

    def _record(self, req, resp):
        with self._log_cond:
            rec = LogRecord(len(self.log) + 1, time.time(), time.monotonic(), self.name,
                            req.method, req.path, req.host, req.via, req.query,
                            _redact_headers(req.headers), _redact_params(req.params),
                            resp.status, resp.error, dict(req.info))
            self.log.append(rec)
            self._log_cond.notify_all()

    def requests(self, operation=None, method=None, path=None, status=None):
        """The log records matching every given field."""
        with self._log_cond:
            return [r for r in self.log
                    if operation in (None, r.operation) and method in (None, r.method)
                    and path in (None, r.path) and status in (None, r.status)]

    def wait_for_request(self, predicate=lambda r: True, timeout=30.0, what=None):
        """Waits until a log record satisfies predicate and returns the first that does."""
        deadline = time.monotonic() + timeout
        with self._log_cond:
            while True:
                for rec in self.log:
                    if predicate(rec):
                        return rec
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{self.name}: no request like {what or predicate} "
                                       f"within {timeout}s")
                self._log_cond.wait(left)

    def clear_log(self):
        with self._log_cond:
            self.log.clear()


def _json_response(obj, status=200):
    return Response(status, json.dumps(obj).encode(), "application/json")


def _rest_json_error(status, code, body):
    """restJson1's error: the code in x-amzn-ErrorType, the members in the JSON body."""
    return Response(status, json.dumps(body).encode(), "application/json",
                    [("x-amzn-ErrorType", code)], error=code)


# ---------------------------------------------------------------------------------------------
# SSO OIDC


@dataclasses.dataclass
class OIDCClient:
    client_id: str
    client_secret: str
    name: str
    scopes: list
    issued_at: datetime.datetime
    secret_expires_at: datetime.datetime


@dataclasses.dataclass
class DeviceAuthorization:
    device_code: str
    user_code: str
    client_id: str
    start_url: str
    expires_at: datetime.datetime
    interval: int
    state: str = "pending"  # pending, approved, denied, redeemed
    user: str = "alice"
    polls: list = dataclasses.field(default_factory=list)  # time.monotonic() of each CreateToken


@dataclasses.dataclass
class AccessToken:
    token: str
    client_id: str
    start_url: str
    user: str
    scopes: list
    expires_at: datetime.datetime
    revoked: bool = False

    @property
    def valid(self):
        return not self.revoked and utcnow() < self.expires_at


@dataclasses.dataclass
class RefreshToken:
    token: str
    client_id: str
    start_url: str
    user: str
    scopes: list
    revoked: bool = False


class SSOOIDC(Service):
    """IAM Identity Center OIDC: client registration, the device flow, refresh tokens."""
    name = "sso-oidc"

    def __init__(self, world):
        super().__init__(world)
        self.clients = {}
        self.devices = {}  # device code -> DeviceAuthorization
        self.access_tokens = {}
        self.refresh_tokens = {}
        self.interval = 1  # StartDeviceAuthorization's interval (AWS answers 1)
        self.device_code_ttl = 600
        self.access_token_ttl = 8 * 3600
        self.client_secret_ttl = 90 * 86400
        self.enforce_interval = False  # slow_down when polled sooner than the interval
        self.default_user = "alice"
        self._slow_downs = 0

    # -- test controls

    def approve(self, user_code, user=None):
        """The user signs in in the browser and allows the device: the next poll gets a token."""
        with self.lock:
            dev = self._by_user_code(user_code)
            dev.state = "approved"
            if user:
                dev.user = user

    def deny(self, user_code):
        with self.lock:
            self._by_user_code(user_code).state = "denied"

    def slow_down(self, times=1):
        """The next `times` device-code polls get SlowDownException."""
        with self.lock:
            self._slow_downs = times

    def expire_device_codes(self):
        """Every pending device code is expired from now on (ExpiredTokenException)."""
        with self.lock:
            for dev in self.devices.values():
                dev.expires_at = utcnow() - datetime.timedelta(seconds=1)

    def expire_access_tokens(self):
        with self.lock:
            for tok in self.access_tokens.values():
                tok.expires_at = utcnow() - datetime.timedelta(seconds=1)

    def revoke_refresh_tokens(self):
        with self.lock:
            for tok in self.refresh_tokens.values():
                tok.revoked = True

    def pending(self):
        """The user codes of the device authorizations waiting for the user."""
        with self.lock:
            return [d.user_code for d in self.devices.values() if d.state == "pending"]

    def wait_for_user_code(self, timeout=30.0):
        """The user code of the newest pending device authorization, once there is one."""
        def newest():
            codes = self.pending()
            return codes[-1] if codes else None
        return wait_until(newest, timeout, "a StartDeviceAuthorization")

    def polls(self, user_code):
        """time.monotonic() of each CreateToken poll for that device authorization."""
        with self.lock:
            return list(self._by_user_code(user_code).polls)

    def check_access_token(self, token):
        """The AccessToken when it is valid (known, unexpired, not logged out), else None."""
        with self.lock:
            tok = self.access_tokens.get(token)
            return tok if tok is not None and tok.valid else None

    def register(self, name="aws-fakes-client", scopes=("sso:account:access",), expired=False):
        """A client registration made directly (as RegisterClient would)."""
        now = utcnow()
        ttl = -1 if expired else self.client_secret_ttl
        with self.lock:
            client = OIDCClient(_b64(16).rstrip("=").replace("/", "_").replace("+", "-"),
                                "eyJraWQiOiJrZXktMSIsImFsZyI6IkhTMzg0In0." + SECRET_MARK + _b64(180),
                                name, list(scopes or []), now,
                                now + datetime.timedelta(seconds=ttl))
            self.clients[client.client_id] = client
        return client

    def issue_token(self, start_url, region=None, scopes=("sso:account:access",), user=None,
                    expires_in=None, refresh=True, registration_expired=False):
        """Mints a registration and an access token (and a refresh token when refresh) without
        any flow. Returns the SSO cache entry (the dict write_sso_cache takes) in the CLI's key
        order; expires_in may be negative for an already expired access token."""
        region = region or self.world.region
        client = self.register(scopes=scopes, expired=registration_expired)
        with self.lock:
            access = self._new_access_token(client, start_url, user or self.default_user,
                                            expires_in)
            entry = {"startUrl": start_url, "region": region, "accessToken": access.token,
                     "expiresAt": iso_z(access.expires_at)}
            if refresh:
                rt = self._new_refresh_token(client, start_url, access.user)
                entry.update({"clientId": client.client_id, "clientSecret": client.client_secret,
                              "registrationExpiresAt": iso_z(client.secret_expires_at),
                              "refreshToken": rt.token})
        return entry

    # -- the service

    def _by_user_code(self, user_code):
        for dev in self.devices.values():
            if dev.user_code == user_code:
                return dev
        raise KeyError(f"no device authorization with user code {user_code}")

    def _new_access_token(self, client, start_url, user, expires_in=None):
        ttl = self.access_token_ttl if expires_in is None else expires_in
        tok = AccessToken("aoa" + SECRET_MARK + _b64(120), client.client_id, start_url, user,
                          list(client.scopes), utcnow() + datetime.timedelta(seconds=ttl))
        self.access_tokens[tok.token] = tok
        return tok

    def _new_refresh_token(self, client, start_url, user):
        tok = RefreshToken("aor" + SECRET_MARK + _b64(150), client.client_id, start_url, user,
                           list(client.scopes))
        self.refresh_tokens[tok.token] = tok
        return tok

    def _error(self, code, error, description, status=400):
        return _rest_json_error(status, code, {"error": error, "error_description": description})

    def handle(self, req):
        ops = {"/client/register": ("RegisterClient", self._register_client),
               "/device_authorization": ("StartDeviceAuthorization", self._start_device),
               "/token": ("CreateToken", self._create_token)}
        if req.method != "POST" or req.path not in ops:
            return _rest_json_error(404, "UnknownOperationException",
                                    {"message": f"no operation {req.method} {req.path}"})
        op, func = ops[req.path]
        req.info["operation"] = op
        req.info["region"] = req.route.get("region")
        try:
            params = req.json_body()
        except ValueError:
            return self._error("InvalidRequestException", "invalid_request", "Invalid JSON body")
        req.params = params
        with self.lock:
            return func(req, params)

    def _register_client(self, req, p):
        if not p.get("clientName") or not p.get("clientType"):
            return self._error("InvalidRequestException", "invalid_request",
                               "clientName and clientType are required")
        if p["clientType"] != "public":
            return self._error("InvalidClientMetadataException", "invalid_client_metadata",
                               "Invalid client type")
        client = self.register(p["clientName"], p.get("scopes") or [])
        return _json_response({"clientId": client.client_id,
                               "clientSecret": client.client_secret,
                               "clientIdIssuedAt": int(client.issued_at.timestamp()),
                               "clientSecretExpiresAt": int(client.secret_expires_at.timestamp())})

    def _client(self, p):
        client = self.clients.get(p.get("clientId"))
        if client is None or not hmac.compare_digest(client.client_secret,
                                                     p.get("clientSecret") or ""):
            return None, self._error("InvalidClientException", "invalid_client",
                                     "Invalid client", 401)
        if utcnow() >= client.secret_expires_at:
            return None, self._error("InvalidClientException", "invalid_client",
                                     "Client secret has expired", 401)
        return client, None

    def _start_device(self, req, p):
        client, err = self._client(p)
        if err:
            return err
        if not p.get("startUrl"):
            return self._error("InvalidRequestException", "invalid_request",
                               "startUrl is required")
        dev = DeviceAuthorization(SECRET_MARK + _b64(60), _user_code(), client.client_id, p["startUrl"],
                                  utcnow() + datetime.timedelta(seconds=self.device_code_ttl),
                                  self.interval, user=self.default_user)
        self.devices[dev.device_code] = dev
        req.info["user_code"] = dev.user_code
        region = req.route.get("region") or self.world.region
        uri = f"https://device.sso.{region}.amazonaws.com/"
        return _json_response({"deviceCode": dev.device_code, "userCode": dev.user_code,
                               "verificationUri": uri,
                               "verificationUriComplete": f"{uri}?user_code={dev.user_code}",
                               "expiresIn": self.device_code_ttl, "interval": dev.interval})

    def _create_token(self, req, p):
        client, err = self._client(p)
        if err:
            return err
        grant = p.get("grantType")
        req.info["grant_type"] = grant
        if grant == DEVICE_CODE_GRANT:
            return self._device_grant(req, client, p)
        if grant == REFRESH_TOKEN_GRANT:
            return self._refresh_grant(req, client, p)
        return self._error("UnsupportedGrantTypeException", "unsupported_grant_type",
                           f"Unsupported grant type: {grant}")

    def _token_response(self, client, start_url, user, with_refresh):
        access = self._new_access_token(client, start_url, user)
        body = {"accessToken": access.token, "tokenType": "Bearer",
                "expiresIn": self.access_token_ttl}
        if with_refresh:
            body["refreshToken"] = self._new_refresh_token(client, start_url, user).token
        return _json_response(body)

    def _device_grant(self, req, client, p):
        dev = self.devices.get(p.get("deviceCode"))
        if dev is None or dev.client_id != client.client_id:
            return self._error("InvalidGrantException", "invalid_grant", "Invalid device code")
        req.info["user_code"] = dev.user_code
        now = time.monotonic()
        too_soon = (self.enforce_interval and dev.polls
                    and now - dev.polls[-1] < dev.interval - 0.05)
        dev.polls.append(now)
        if dev.state == "redeemed":
            return self._error("InvalidGrantException", "invalid_grant",
                               "Device code has already been used")
        if utcnow() >= dev.expires_at:
            return self._error("ExpiredTokenException", "expired_token",
                               "Device code has expired")
        if dev.state == "denied":
            return self._error("AccessDeniedException", "access_denied",
                               "The user denied the authorization request")
        if self._slow_downs > 0 or too_soon:
            self._slow_downs = max(0, self._slow_downs - 1)
            return self._error("SlowDownException", "slow_down",
                               "Client is polling too frequently")
        if dev.state != "approved":
            return self._error("AuthorizationPendingException", "authorization_pending",
                               "Authorization is still pending")
        dev.state = "redeemed"
        return self._token_response(client, dev.start_url, dev.user, bool(client.scopes))

    def _refresh_grant(self, req, client, p):
        rt = self.refresh_tokens.get(p.get("refreshToken"))
        req.info["refresh_token"] = fingerprint(p.get("refreshToken"))
        if rt is None or rt.revoked or rt.client_id != client.client_id:
            return self._error("InvalidGrantException", "invalid_grant",
                               "Invalid refresh token provided")
        return self._token_response(client, rt.start_url, rt.user, True)


# ---------------------------------------------------------------------------------------------
# SSO portal


class SSOPortal(Service):
    """IAM Identity Center's portal: role credentials for a signed-in user's access token."""
    name = "sso"

    def __init__(self, world):
        super().__init__(world)
        self.grants = {}  # (account id, role name) -> role id (AWSReservedSSO_… suffix)
        self.accounts = {}  # account id -> {"accountName", "emailAddress"}
        self.credential_ttl = 3600

    def grant(self, account_id, role_name, account_name=None):
        """Lets every signed-in user get credentials for that role in that account."""
        with self.lock:
            self.accounts.setdefault(account_id, {
                "accountName": account_name or f"account-{account_id}",
                "emailAddress": f"aws+{account_id}@example.com"})
            self.grants.setdefault((account_id, role_name), secrets.token_hex(8))

    def role_arn_prefix(self, account_id, role_name):
        """The assumed-role Arn of an SSO session, without the user (its session name)."""
        suffix = self.grants[(account_id, role_name)]
        return f"arn:aws:sts::{account_id}:assumed-role/AWSReservedSSO_{role_name}_{suffix}"

    def handle(self, req):
        ops = {("GET", "/federation/credentials"): ("GetRoleCredentials", self._credentials),
               ("GET", "/assignment/accounts"): ("ListAccounts", self._accounts),
               ("GET", "/assignment/roles"): ("ListAccountRoles", self._roles),
               ("POST", "/logout"): ("Logout", self._logout)}
        if (req.method, req.path) not in ops:
            return _rest_json_error(404, "UnknownOperationException",
                                    {"message": f"no operation {req.method} {req.path}"})
        op, func = ops[(req.method, req.path)]
        req.info["operation"] = op
        req.info["region"] = req.route.get("region")
        req.params = req.query
        token = req.header("x-amz-sso_bearer_token")
        req.info["token"] = fingerprint(token)
        if not token:
            return _rest_json_error(401, "UnauthorizedException",
                                    {"message": "Session token not found or invalid"})
        access = self.world.oidc.check_access_token(token)
        if access is None:
            return _rest_json_error(401, "UnauthorizedException",
                                    {"message": "Session token not found or invalid"})
        with self.lock:
            return func(req, access)

    def _credentials(self, req, access):
        role, account = req.query.get("role_name"), req.query.get("account_id")
        if not role or not account:
            return _rest_json_error(400, "InvalidRequestException",
                                    {"message": "role_name and account_id are required"})
        if (account, role) not in self.grants:
            return _rest_json_error(403, "ForbiddenException", {"message": "No access"})
        arn = f"{self.role_arn_prefix(account, role)}/{access.user}"
        cred = self.world.ledger.issue("sso", arn, account, f"{_key_id('AROA')}:{access.user}",
                                       self.credential_ttl, account_id=account, role_name=role,
                                       user=access.user, start_url=access.start_url)
        req.info["issued"] = cred.access_key_id
        return _json_response({"roleCredentials": {
            "accessKeyId": cred.access_key_id, "secretAccessKey": cred.secret_access_key,
            "sessionToken": cred.session_token, "expiration": epoch_ms(cred.expiration)}})

    def _accounts(self, req, access):
        accounts = sorted({a for a, _ in self.grants})
        return _json_response({"accountList": [dict(accountId=a, **self.accounts[a])
                                               for a in accounts]})

    def _roles(self, req, access):
        account = req.query.get("account_id")
        if not account:
            return _rest_json_error(400, "InvalidRequestException",
                                    {"message": "account_id is required"})
        return _json_response({"roleList": [{"roleName": r, "accountId": a}
                                            for a, r in sorted(self.grants) if a == account]})

    def _logout(self, req, access):
        access.revoked = True
        return Response(200)


# ---------------------------------------------------------------------------------------------
# Signature Version 4 verification


class SigV4Error(Exception):
    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _remove_dot_segments(path):
    if not path:
        return "/"
    out = []
    for seg in path.split("/"):
        if seg in ("", "."):
            continue
        if seg == "..":
            if out:
                out.pop()
        else:
            out.append(seg)
    first = "/" if path.startswith("/") else ""
    last = "/" if path.endswith("/") and out else ""
    return first + "/".join(out) + last


def parse_authorization(value):
    """The parts of an AWS4-HMAC-SHA256 Authorization header: {"access_key_id", "date",
    "region", "service", "terminator", "signed_headers", "signature"}; SigV4Error if malformed."""
    if not value or not value.startswith("AWS4-HMAC-SHA256 "):
        raise SigV4Error(400, "IncompleteSignature",
                         "Authorization header must start with AWS4-HMAC-SHA256")
    fields = {}
    for part in value[len("AWS4-HMAC-SHA256 "):].split(","):
        key, _, val = part.strip().partition("=")
        fields[key] = val
    missing = [k for k in ("Credential", "SignedHeaders", "Signature") if not fields.get(k)]
    if missing:
        raise SigV4Error(400, "IncompleteSignature",
                         f"Authorization header requires '{missing[0]}' parameter. "
                         f"Authorization={value.split(' Signature=')[0]}")
    scope = fields["Credential"].split("/")
    if len(scope) != 5:
        raise SigV4Error(400, "IncompleteSignature",
                         "Credential must have exactly 5 slash-delimited elements, e.g. "
                         "keyid/date/region/service/term")
    return {"access_key_id": scope[0], "date": scope[1], "region": scope[2],
            "service": scope[3], "terminator": scope[4],
            "signed_headers": fields["SignedHeaders"].split(";"),
            "signature": fields["Signature"]}


def signer_key_id(req):
    """The access key id in a request's Authorization header, or None."""
    try:
        return parse_authorization(req.header("Authorization"))["access_key_id"]
    except SigV4Error:
        return None


def canonical_request(req, signed_headers):
    path = urllib.parse.quote(_remove_dot_segments(req.path), safe="/~")
    pairs = sorted((urllib.parse.quote(k, safe="-_.~"), urllib.parse.quote(v, safe="-_.~"))
                   for k, v in _split_query(req.raw_query) if k != "X-Amz-Signature")
    query = "&".join(f"{k}={v}" for k, v in pairs)
    lines = []
    for name in signed_headers:
        values = req.headers.get_all(name) or []
        lines.append(f"{name}:" + ",".join(" ".join(v.split()) for v in values))
    payload = req.header("X-Amz-Content-SHA256") or hashlib.sha256(req.body).hexdigest()
    return "\n".join([req.method, path, query, "\n".join(lines) + "\n",
                      ";".join(signed_headers), payload])


def signing_key(secret, date, region, service):
    key = ("AWS4" + secret).encode()
    for part in (date, region, service, "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    return key


def verify_sigv4(req, ledger, service, region=None, max_skew=900):
    """Checks a request's Signature Version 4 (Authorization header) against the ledger as AWS
    does; returns the signing Credential or raises SigV4Error with AWS's status, code and
    message. region: the region the scope must name (None: any)."""
    auth = req.header("Authorization")
    if not auth:
        raise SigV4Error(403, "MissingAuthenticationToken",
                         "Request is missing Authentication Token")
    a = parse_authorization(auth)
    req.info["access_key_id"] = a["access_key_id"]
    req.info["scope_region"] = a["region"]
    amz_date = req.header("X-Amz-Date")
    if not amz_date:
        raise SigV4Error(400, "IncompleteSignature",
                         "Authorization header requires existence of either a 'X-Amz-Date' or "
                         "a 'Date' header.")
    try:
        when = datetime.datetime.strptime(amz_date, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    except ValueError:
        raise SigV4Error(400, "IncompleteSignature", f"Invalid X-Amz-Date: {amz_date}")
    now = utcnow()
    if abs((now - when).total_seconds()) > max_skew:
        earliest = now - datetime.timedelta(seconds=max_skew)
        raise SigV4Error(403, "SignatureDoesNotMatch",
                         f"Signature expired: {amz_date} is now earlier than "
                         f"{earliest.strftime('%Y%m%dT%H%M%SZ')} "
                         f"({now.strftime('%Y%m%dT%H%M%SZ')} - 15 min.)")
    if a["date"] != amz_date[:8]:
        raise SigV4Error(403, "SignatureDoesNotMatch",
                         f"Date in Credential scope does not match YYYYMMDD from ISO-8601 "
                         f"version of date from HTTP: '{a['date']}' != '{amz_date[:8]}', from "
                         f"ISO-8601 string '{amz_date}'.")
    if a["service"] != service:
        raise SigV4Error(403, "SignatureDoesNotMatch",
                         f"Credential should be scoped to correct service: '{service}'. ")
    if region is not None and a["region"] != region:
        raise SigV4Error(403, "SignatureDoesNotMatch",
                         f"Credential should be scoped to a valid region, not '{a['region']}'. ")
    if a["terminator"] != "aws4_request":
        raise SigV4Error(403, "SignatureDoesNotMatch",
                         f"Credential should be scoped with a valid terminator: 'aws4_request', "
                         f"not '{a['terminator']}'. ")
    if "host" not in a["signed_headers"]:
        raise SigV4Error(400, "IncompleteSignature",
                         "'Host' or ':authority' must be a 'SignedHeader' in the AWS "
                         "Authorization.")
    cred = ledger.get(a["access_key_id"])
    token = req.header("X-Amz-Security-Token")
    if cred is None or cred.revoked or (cred.session_token or None) != (token or None):
        raise SigV4Error(403, "InvalidClientTokenId",
                         "The security token included in the request is invalid.")
    creq = canonical_request(req, a["signed_headers"])
    scope = f"{a['date']}/{a['region']}/{a['service']}/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope,
                         hashlib.sha256(creq.encode()).hexdigest()])
    key = signing_key(cred.secret_access_key, a["date"], a["region"], a["service"])
    expected = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, a["signature"]):
        raise SigV4Error(403, "SignatureDoesNotMatch",
                         "The request signature we calculated does not match the signature you "
                         "provided. Check your AWS Secret Access Key and signing method. Consult "
                         "the service documentation for details.")
    if cred.expired:
        raise SigV4Error(400, "ExpiredToken",
                         "The security token included in the request is expired")
    return cred


# ---------------------------------------------------------------------------------------------
# STS


@dataclasses.dataclass
class Role:
    arn: str
    account: str
    name: str
    role_id: str
    external_id: str | None = None
    mfa_serial: str | None = None
    mfa_code: str | None = None
    max_session_duration: int = 3600
    trusted: list | None = None  # principal Arns allowed to assume it (None: anyone)


@dataclasses.dataclass
class WebIdentityToken:
    token: str
    subject: str
    audience: str
    provider: str
    roles: list | None  # role Arns it may assume (None: any)
    expired: bool = False


_SESSION_NAME_RE = re.compile(r"^[\w+=,.@-]{2,64}$")
_ROLE_ARN_RE = re.compile(r"^arn:aws[\w-]*:iam::(\d{12}):role/(?:[\w+=,.@-]+/)*([\w+=,.@-]+)$")


class STS(Service):
    """AWS Security Token Service: AssumeRole, AssumeRoleWithWebIdentity, GetCallerIdentity."""
    name = "sts"

    def __init__(self, world):
        super().__init__(world)
        self.roles = {}
        self.web_identity_tokens = {}
        self.max_clock_skew = 900

    def add_role(self, role, account=None, external_id=None, mfa_serial=None, mfa_code=None,
                 max_session_duration=3600, trusted=None):
        """Declares a role (an Arn, or a name in account) that AssumeRole and
        AssumeRoleWithWebIdentity accept; external_id, mfa_serial and mfa_code (the one valid
        TokenCode) are then required. Returns its Arn."""
        if not role.startswith("arn:"):
            role = f"arn:aws:iam::{account or self.world.account}:role/{role}"
        m = _ROLE_ARN_RE.match(role)
        if not m:
            raise ValueError(f"not a role Arn: {role}")
        with self.lock:
            self.roles[role] = Role(role, m[1], m[2], _key_id("AROA"), external_id, mfa_serial,
                                    mfa_code, max_session_duration, trusted)
        return role

    def add_web_identity_token(self, token=None, subject="system:serviceaccount:default:dynoscope",
                               audience="sts.amazonaws.com",
                               provider="oidc.eks.us-east-1.amazonaws.com/id/AWSFAKES",
                               roles=None, expired=False):
        """A web identity token (a JWT-looking string unless given) that
        AssumeRoleWithWebIdentity accepts, for the roles listed (None: any). Returns it."""
        if token is None:
            token = ".".join(base64.urlsafe_b64encode(secrets.token_bytes(n)).decode().rstrip("=")
                             for n in (27, 150, 64)) + SECRET_MARK
        with self.lock:
            self.web_identity_tokens[token] = WebIdentityToken(token, subject, audience, provider,
                                                               roles, expired)
        return token

    # -- the service

    def _error(self, status, code, message, type_="Sender"):
        body = (f'<ErrorResponse xmlns="{STS_NAMESPACE}">\n  <Error>\n    <Type>{type_}</Type>\n'
                f"    <Code>{_xml_escape(code)}</Code>\n"
                f"    <Message>{_xml_escape(message)}</Message>\n  </Error>\n"
                f"  <RequestId>{{request_id}}</RequestId>\n</ErrorResponse>\n")
        return Response(status, body.encode(), "text/xml", error=code)

    def _result(self, action, inner):
        body = (f'<{action}Response xmlns="{STS_NAMESPACE}">\n  <{action}Result>\n{inner}'
                f"  </{action}Result>\n  <ResponseMetadata>\n"
                f"    <RequestId>{{request_id}}</RequestId>\n  </ResponseMetadata>\n"
                f"</{action}Response>\n")
        return Response(200, body.encode(), "text/xml")

    def dispatch(self, req):
        req.info.setdefault("request_id", str(uuid.uuid4()))
        resp = super().dispatch(req)
        resp.body = resp.body.replace(b"{request_id}", req.info["request_id"].encode())
        return resp

    def handle(self, req):
        params = req.query
        if req.method == "POST":
            params.update(req.form())
        req.params = params
        action = params.get("Action")
        req.info["operation"] = action
        req.info["region"] = req.route.get("region")
        if not action:
            return self._error(400, "MissingAction", "Missing Action")
        handlers = {"AssumeRole": self._assume_role,
                    "AssumeRoleWithWebIdentity": self._assume_role_with_web_identity,
                    "GetCallerIdentity": self._get_caller_identity}
        if action not in handlers or params.get("Version") != STS_VERSION:
            return self._error(400, "InvalidAction",
                               f"Could not find operation {action} for version "
                               f"{params.get('Version')}")
        caller = None
        if action != "AssumeRoleWithWebIdentity" or req.header("Authorization"):
            expected_region = None
            if req.route.get("service") == "sts":
                expected_region = req.route["region"] or "us-east-1"
            try:
                caller = verify_sigv4(req, self.world.ledger, "sts", expected_region,
                                      self.max_clock_skew)
            except SigV4Error as e:
                return self._error(e.status, e.code, e.message)
            req.info["signer_provider"] = caller.provider
            req.info["signer_arn"] = caller.arn
        with self.lock:
            return handlers[action](req, params, caller)

    def _validate_common(self, p, max_duration):
        if not p.get("RoleArn") or not _ROLE_ARN_RE.match(p["RoleArn"]):
            return self._error(400, "ValidationError",
                               f"{p.get('RoleArn')} is invalid")
        name = p.get("RoleSessionName")
        if not name or not _SESSION_NAME_RE.match(name):
            return self._error(400, "ValidationError",
                               f"1 validation error detected: Value '{name}' at 'roleSessionName'"
                               f" failed to satisfy constraint: Member must satisfy regular "
                               f"expression pattern: [\\w+=,.@-]*")
        duration = p.get("DurationSeconds")
        if duration is not None:
            if not duration.isdigit() or not 900 <= int(duration) <= 43200:
                return self._error(400, "ValidationError",
                                   f"1 validation error detected: Value '{duration}' at "
                                   f"'durationSeconds' failed to satisfy constraint: Member must "
                                   f"have value between 900 and 43200")
            if int(duration) > max_duration:
                return self._error(400, "ValidationError",
                                   "The requested DurationSeconds exceeds the MaxSessionDuration "
                                   "set for this role.")
        return None

    def _credentials_xml(self, cred, role, session):
        return (f"    <AssumedRoleUser>\n      <AssumedRoleId>{role.role_id}:"
                f"{_xml_escape(session)}</AssumedRoleId>\n"
                f"      <Arn>{_xml_escape(cred.arn)}</Arn>\n    </AssumedRoleUser>\n"
                f"    <Credentials>\n      <AccessKeyId>{cred.access_key_id}</AccessKeyId>\n"
                f"      <SecretAccessKey>{_xml_escape(cred.secret_access_key)}</SecretAccessKey>\n"
                f"      <SessionToken>{_xml_escape(cred.session_token)}</SessionToken>\n"
                f"      <Expiration>{iso_z(cred.expiration)}</Expiration>\n    </Credentials>\n")

    def _assume_role(self, req, p, caller):
        role = self.roles.get(p.get("RoleArn"))
        max_duration = role.max_session_duration if role else 43200
        if caller.provider != "static":  # role chaining: one hour at most
            max_duration = min(max_duration, 3600)
        err = self._validate_common(p, 43200)
        if err:
            return err
        denied = self._error(403, "AccessDenied",
                             f"User: {caller.arn} is not authorized to perform: sts:AssumeRole "
                             f"on resource: {p['RoleArn']}")
        if role is None or (role.trusted is not None and caller.arn not in role.trusted):
            return denied
        if role.external_id is not None and p.get("ExternalId") != role.external_id:
            return denied
        if role.mfa_serial is not None:
            if not p.get("SerialNumber") or not p.get("TokenCode"):
                return self._error(403, "AccessDenied",
                                   "MultiFactorAuthentication failed, must provide both MFA "
                                   "serial number and one time pass code.")
            if p["SerialNumber"] != role.mfa_serial or p["TokenCode"] != role.mfa_code:
                return self._error(403, "AccessDenied",
                                   "MultiFactorAuthentication failed with invalid MFA one time "
                                   "pass code. ")
        duration = int(p.get("DurationSeconds") or 3600)
        if duration > max_duration:
            if caller.provider != "static" and duration > 3600:
                return self._error(400, "ValidationError",
                                   "The requested DurationSeconds exceeds the 1 hour session "
                                   "limit for roles assumed by role chaining.")
            return self._error(400, "ValidationError",
                               "The requested DurationSeconds exceeds the MaxSessionDuration set "
                               "for this role.")
        session = p["RoleSessionName"]
        cred = self.world.ledger.issue(
            "assume-role", f"arn:aws:sts::{role.account}:assumed-role/{role.name}/{session}",
            role.account, f"{role.role_id}:{session}", duration, role_arn=role.arn,
            session_name=session, source_access_key_id=caller.access_key_id,
            external_id=p.get("ExternalId"), mfa_serial=p.get("SerialNumber"))
        req.info["issued"] = cred.access_key_id
        return self._result("AssumeRole", self._credentials_xml(cred, role, session))

    def _assume_role_with_web_identity(self, req, p, caller):
        err = self._validate_common(p, 43200)
        if err:
            return err
        tok = self.web_identity_tokens.get(p.get("WebIdentityToken") or "")
        req.info["web_identity_token"] = fingerprint(p.get("WebIdentityToken"))
        if tok is None:
            return self._error(400, "InvalidIdentityToken",
                               "The web identity token that was passed could not be validated "
                               "by AWS. Get a new identity token from the identity provider and "
                               "then retry the request.")
        if tok.expired:
            now = int(time.time())
            return self._error(400, "ExpiredTokenException",
                               f"Token expired: current date/time {now} must be before the "
                               f"expiration date/time{now - 60}")
        role = self.roles.get(p["RoleArn"])
        if role is None or (tok.roles is not None and role.arn not in tok.roles):
            return self._error(403, "AccessDenied",
                               "Not authorized to perform sts:AssumeRoleWithWebIdentity")
        duration = int(p.get("DurationSeconds") or 3600)
        if duration > role.max_session_duration:
            return self._error(400, "ValidationError",
                               "The requested DurationSeconds exceeds the MaxSessionDuration set "
                               "for this role.")
        session = p["RoleSessionName"]
        cred = self.world.ledger.issue(
            "web-identity", f"arn:aws:sts::{role.account}:assumed-role/{role.name}/{session}",
            role.account, f"{role.role_id}:{session}", duration, role_arn=role.arn,
            session_name=session, subject=tok.subject)
        req.info["issued"] = cred.access_key_id
        inner = (f"    <SubjectFromWebIdentityToken>{_xml_escape(tok.subject)}"
                 f"</SubjectFromWebIdentityToken>\n"
                 f"    <Audience>{_xml_escape(tok.audience)}</Audience>\n"
                 + self._credentials_xml(cred, role, session)
                 + f"    <Provider>{_xml_escape(tok.provider)}</Provider>\n")
        return self._result("AssumeRoleWithWebIdentity", inner)

    def _get_caller_identity(self, req, p, caller):
        inner = (f"    <Arn>{_xml_escape(caller.arn)}</Arn>\n"
                 f"    <UserId>{_xml_escape(caller.user_id)}</UserId>\n"
                 f"    <Account>{caller.account}</Account>\n")
        return self._result("GetCallerIdentity", inner)


# ---------------------------------------------------------------------------------------------
# IMDSv2


class IMDS(Service):
    """The EC2 instance metadata service, version 2 (sessions), with one instance role."""
    name = "imds"
    TOKEN_PATH = "/latest/api/token"
    CREDS_PATH = "/latest/meta-data/iam/security-credentials/"

    def __init__(self, world):
        super().__init__(world)
        self.role_name = "dynoscope-instance-role"
        self.region = world.region
        self.instance_id = "i-0" + secrets.token_hex(8)
        self.credential_ttl = 6 * 3600
        self.allow_v1 = False  # False: a GET without a session token is 401
        self.hang_token_put = False  # True: PUT /latest/api/token never answers (until released)
        self.hang_seconds = 300
        self.token_put_status = None  # e.g. 403 or 404: what the PUT answers instead
        self._tokens = {}  # token -> time.monotonic() it expires
        self._cred = None
        self._release = threading.Event()

    @property
    def availability_zone(self):
        return self.region + "a"

    def release_hung(self):
        """Lets hung token PUTs go (they answer 503 and close) and stops hanging new ones."""
        self.hang_token_put = False
        old, self._release = self._release, threading.Event()
        old.set()

    def rotate(self):
        """The next credentials GET issues new credentials."""
        with self.lock:
            self._cred = None

    def credentials(self):
        """The credentials the instance role has now (issuing them if needed)."""
        with self.lock:
            if self._cred is None or self._cred.expired:
                account = self.world.account
                self._cred = self.world.ledger.issue(
                    "imds", f"arn:aws:sts::{account}:assumed-role/{self.role_name}/"
                            f"{self.instance_id}",
                    account, f"{_key_id('AROA')}:{self.instance_id}", self.credential_ttl,
                    role_name=self.role_name, instance_id=self.instance_id)
            return self._cred

    def handle(self, req):
        if req.path == self.TOKEN_PATH:
            req.info["operation"] = "PutToken"
            return self._put_token(req)
        req.info["operation"] = "Get"
        if req.method not in ("GET", "HEAD"):
            return Response(405, b"", "text/plain", [("Allow", "GET, HEAD")], "MethodNotAllowed")
        token = req.header("X-aws-ec2-metadata-token")
        with self.lock:
            expiry = self._tokens.get(token) if token else None
        req.info["imds_version"] = 2 if token else 1
        if token and (expiry is None or time.monotonic() >= expiry):
            return self._unauthorized()
        if not token and not self.allow_v1:
            return self._unauthorized()
        return self._get(req)

    def _unauthorized(self):
        body = (b'<?xml version="1.0" encoding="iso-8859-1"?>\n<html><head><title>401 - '
                b"Unauthorized</title></head><body><h1>401 - Unauthorized</h1></body></html>\n")
        return Response(401, body, "text/html", error="Unauthorized")

    def _put_token(self, req):
        if req.method != "PUT":
            return Response(405, b"", "text/plain", [("Allow", "PUT")], "MethodNotAllowed")
        if self.hang_token_put:
            req.info["hung"] = True
            self._release.wait(self.hang_seconds)
            return Response(503, b"", "text/plain", error="Hung", close=True)
        if self.token_put_status:
            return Response(self.token_put_status, b"", "text/plain", error="TokenPutRefused")
        if req.header("X-Forwarded-For"):
            return Response(403, b"", "text/plain", error="Forbidden")
        ttl = req.header("X-aws-ec2-metadata-token-ttl-seconds")
        req.params = {"ttl": ttl}
        if not ttl or not ttl.isdigit() or not 1 <= int(ttl) <= 21600:
            return Response(400, b"", "text/plain", error="BadRequest")
        token = "AQAEA" + SECRET_MARK + _b64(40)
        with self.lock:
            self._tokens[token] = time.monotonic() + int(ttl)
        return Response(200, token.encode(), "text/plain",
                        [("X-aws-ec2-metadata-token-ttl-seconds", ttl)])

    def _text(self, text):
        return Response(200, text.encode(), "text/plain")

    def _get(self, req):
        path = req.path
        if path == self.CREDS_PATH:
            req.info["operation"] = "GetRoleName"
            if not self.role_name:
                return Response(404, b"", "text/html", error="NotFound")
            return self._text(self.role_name)
        if path.startswith(self.CREDS_PATH) and self.role_name \
                and path[len(self.CREDS_PATH):].rstrip("/") == self.role_name:
            req.info["operation"] = "GetCredentials"
            cred = self.credentials()
            req.info["issued"] = cred.access_key_id
            body = {"Code": "Success", "LastUpdated": iso_z(cred.issued_at), "Type": "AWS-HMAC",
                    "AccessKeyId": cred.access_key_id, "SecretAccessKey": cred.secret_access_key,
                    "Token": cred.session_token, "Expiration": iso_z(cred.expiration)}
            return Response(200, json.dumps(body, indent=2).encode(), "text/plain")
        simple = {"/latest/meta-data/placement/region": self.region,
                  "/latest/meta-data/placement/availability-zone": self.availability_zone,
                  "/latest/meta-data/instance-id": self.instance_id,
                  "/latest/meta-data/": "iam/\ninstance-id\nplacement/"}
        if path.rstrip("/") in simple or path in simple:
            req.info["operation"] = "Get" + path.rstrip("/").rsplit("/", 1)[-1]
            return self._text(simple.get(path) or simple[path.rstrip("/")])
        if path == "/latest/dynamic/instance-identity/document":
            doc = {"accountId": self.world.account, "availabilityZone": self.availability_zone,
                   "instanceId": self.instance_id, "region": self.region,
                   "architecture": "x86_64", "instanceType": "t3.micro"}
            return Response(200, json.dumps(doc, indent=2).encode(), "text/plain")
        return Response(404, b"", "text/html", error="NotFound")


# ---------------------------------------------------------------------------------------------
# Container credentials


class ContainerCredentials(Service):
    """The ECS/EKS container credentials endpoint (AWS_CONTAINER_CREDENTIALS_FULL_URI)."""
    name = "container"

    def __init__(self, world):
        super().__init__(world)
        self.path = "/v2/credentials/" + str(uuid.uuid4())
        self.auth_token = "aws-fakes-container-" + SECRET_MARK + secrets.token_urlsafe(24)  # None: no check
        self.role_name = "dynoscope-task-role"
        self.task_id = secrets.token_hex(16)
        self.credential_ttl = 6 * 3600
        self._cred = None

    @property
    def full_uri(self):
        return self.url + self.path

    @property
    def role_arn(self):
        return f"arn:aws:iam::{self.world.account}:role/{self.role_name}"

    def rotate(self):
        with self.lock:
            self._cred = None

    def credentials(self):
        with self.lock:
            if self._cred is None or self._cred.expired:
                account = self.world.account
                self._cred = self.world.ledger.issue(
                    "container", f"arn:aws:sts::{account}:assumed-role/{self.role_name}/"
                                 f"{self.task_id}",
                    account, f"{_key_id('AROA')}:{self.task_id}", self.credential_ttl,
                    role_arn=self.role_arn)
            return self._cred

    def handle(self, req):
        req.info["operation"] = "GetCredentials"
        if req.method != "GET" or req.path != self.path:
            return _json_response({"code": "NotFound", "message": "Not found"}, 404)
        if self.auth_token is not None and req.header("Authorization") != self.auth_token:
            resp = _json_response({"code": "AccessDenied",
                                   "message": "Unable to authorize the request"}, 401)
            resp.error = "AccessDenied"
            return resp
        cred = self.credentials()
        req.info["issued"] = cred.access_key_id
        return _json_response({"AccessKeyId": cred.access_key_id,
                               "SecretAccessKey": cred.secret_access_key,
                               "Token": cred.session_token,
                               "Expiration": iso_z(cred.expiration),
                               "RoleArn": self.role_arn})


# ---------------------------------------------------------------------------------------------
# Forwarding (DynamoDB hosts) and everything else the proxy sees


_HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "proxy-authorization",
               "proxy-authenticate", "te", "trailer", "trailers", "transfer-encoding", "upgrade",
               "content-length"}


class Forwarder(Service):
    """What the proxy does with hosts that are no fake: DynamoDB hosts go to `target`
    (an http:// URL, e.g. a local `dynoscope-cli serve`) with the request unchanged (Host header
    included, so the signature still holds), anything else gets a 502. Each request's log
    record notes the signer's access key id, its provider in the ledger and whether the
    signature verifies ("valid" or the SigV4 error code)."""
    name = "forward"

    def __init__(self, world, target=None):
        super().__init__(world)
        self.target = target

    def handle(self, req):
        req.info["operation"] = req.header("X-Amz-Target") or f"{req.method} {req.path}"
        key = signer_key_id(req)
        if key:
            req.info["access_key_id"] = key
            req.info["signer_provider"] = self.world.ledger.provider_of(key)
            try:
                scope_service = parse_authorization(req.header("Authorization"))["service"]
                verify_sigv4(req, self.world.ledger, scope_service)
                req.info["sigv4"] = "valid"
            except SigV4Error as e:
                req.info["sigv4"] = e.code
        if req.route.get("service") != "dynamodb" or not self.target:
            msg = f"aws_fakes: nothing answers for {req.host}"
            return Response(502, json.dumps({"message": msg}).encode(), "application/json",
                            error="BadGateway")
        return self._forward(req)

    def _forward(self, req):
        parts = urllib.parse.urlsplit(self.target)
        conn = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=120)
        try:
            headers = [(k, v) for k, v in req.headers.items() if k.lower() not in _HOP_BY_HOP]
            headers.append(("Content-Length", str(len(req.body))))
            conn.putrequest(req.method, req.path + ("?" + req.raw_query if req.raw_query else ""),
                            skip_host=True, skip_accept_encoding=True)
            for k, v in headers:
                conn.putheader(k, v)
            conn.endheaders(req.body)
            up = conn.getresponse()
            body = up.read()
            out = [(k, v) for k, v in up.getheaders()
                   if k.lower() not in _HOP_BY_HOP | {"date", "server"}]
            ctype = up.getheader("Content-Type")
            out = [(k, v) for k, v in out if k.lower() != "content-type"]
            return Response(up.status, body, ctype, out)
        except OSError as e:
            return Response(502, json.dumps({"message": f"aws_fakes: {e}"}).encode(),
                            "application/json", error="BadGateway")
        finally:
            conn.close()


# ---------------------------------------------------------------------------------------------
# The test CA and the intercepting proxy


class TestCA:
    """A CA made with the openssl command in a directory, and server certificates it signs for
    any host name (or IP address), minted on first use and cached."""

    def __init__(self, directory):
        self.dir = directory
        self.pem = os.path.join(directory, "ca.pem")
        self.key = os.path.join(directory, "ca.key")
        self.leaf_key = os.path.join(directory, "leaf.key")
        self._lock = threading.Lock()
        self._contexts = {}

    def _openssl(self, *args):
        r = subprocess.run(["openssl", *args], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise RuntimeError(f"openssl {args[0]} failed: {r.stderr[-1000:]}")

    def create(self):
        os.makedirs(self.dir, exist_ok=True)
        self._openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", self.key,
                      "-out", self.pem, "-days", "3", "-sha256",
                      "-subj", "/O=Dynoscope tests/CN=aws_fakes test CA",
                      "-addext", "basicConstraints=critical,CA:TRUE",
                      "-addext", "keyUsage=critical,keyCertSign,cRLSign")
        self._openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048",
                      "-out", self.leaf_key)
        return self

    def cert_for(self, host):
        """Path of a certificate for host (signed by this CA, key leaf.key)."""
        safe = re.sub(r"[^A-Za-z0-9.-]", "_", host)
        cert = os.path.join(self.dir, f"host-{safe}.pem")
        if os.path.exists(cert):
            return cert
        try:
            ipaddress.ip_address(host)
            san = f"IP:{host}"
        except ValueError:
            san = f"DNS:{host}"
        csr = os.path.join(self.dir, f"host-{safe}.csr")
        ext = os.path.join(self.dir, f"host-{safe}.ext")
        with open(ext, "w") as f:
            f.write("basicConstraints=critical,CA:FALSE\n"
                    "keyUsage=critical,digitalSignature,keyEncipherment\n"
                    "extendedKeyUsage=serverAuth\n"
                    f"subjectAltName={san}\n"
                    "subjectKeyIdentifier=hash\n"
                    "authorityKeyIdentifier=keyid,issuer\n")
        self._openssl("req", "-new", "-key", self.leaf_key, "-subj", f"/CN={host[:64]}",
                      "-out", csr)
        self._openssl("x509", "-req", "-in", csr, "-CA", self.pem, "-CAkey", self.key,
                      "-set_serial", "0x" + secrets.token_hex(16), "-days", "2", "-sha256",
                      "-extfile", ext, "-out", cert + ".tmp")
        os.replace(cert + ".tmp", cert)
        return cert

    def context_for(self, host):
        """A server-side SSLContext presenting a certificate for host."""
        with self._lock:
            ctx = self._contexts.get(host)
            if ctx is None:
                ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
                ctx.load_cert_chain(self.cert_for(host), self.leaf_key)
                self._contexts[host] = ctx
            return ctx


@dataclasses.dataclass
class ConnectRecord:
    host: str
    port: int
    time: float
    tls: str = "pending"  # "ok", or why the handshake failed


class _TunnelHandler(_Handler):
    def __init__(self, sock, client_address, server, tunnel):
        self.tunnel = tunnel
        super().__init__(sock, client_address, server)


class _ProxyHandler(_Handler):
    def do_CONNECT(self):
        host, _, port = self.path.rpartition(":")
        host = host.strip("[]").lower()
        port = int(port) if port.isdigit() else 443
        proxy = self.server.proxy
        rec = proxy._record_connect(host, port)
        self.send_response(200, "Connection established")
        self.end_headers()
        try:
            tls = proxy.ca.context_for(host).wrap_socket(self.connection, server_side=True)
        except (ssl.SSLError, OSError, RuntimeError) as e:
            rec.tls = f"failed: {e}"
            self.close_connection = True
            return
        rec.tls = "ok"
        try:
            _TunnelHandler(tls, self.client_address, self.server, (host, port))
        finally:
            self.close_connection = True
            try:
                tls.close()
            except OSError:
                pass


class InterceptingProxy:
    """An HTTP proxy on loopback that terminates CONNECT tunnels with certificates of the
    test CA and hands the requests inside to the fakes by host name."""

    def __init__(self, world, ca):
        self.world = world
        self.ca = ca
        self.connects = []
        self._cond = threading.Condition()
        self.server = None

    def start(self):
        self.server = _Server(_ProxyHandler, self.world.service_for)
        self.server.proxy = self
        threading.Thread(target=self.server.serve_forever, args=(0.1,), daemon=True,
                         name="aws-fakes-proxy").start()
        return self

    def stop(self):
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    @property
    def port(self):
        return self.server.server_address[1]

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def _record_connect(self, host, port):
        rec = ConnectRecord(host, port, time.time())
        with self._cond:
            self.connects.append(rec)
            self._cond.notify_all()
        return rec

    def connect_hosts(self):
        """The host names of every CONNECT so far, in order."""
        with self._cond:
            return [c.host for c in self.connects]

    def wait_for_connect(self, host, timeout=30.0):
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for rec in self.connects:
                    if rec.host == host:
                        return rec
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no CONNECT {host} within {timeout}s")
                self._cond.wait(left)


# ---------------------------------------------------------------------------------------------
# The world


class World:
    """Starts every fake, the proxy and the ledger; a context manager.

        with World() as w:
            w.portal.grant("111122223333", "ReadOnly")
            cache = w.oidc.issue_token("https://d-123.awsapps.com/start", "eu-west-1")
            write_sso_cache(home, "corp", cache)
            env = clean_env(home, w.env_for_proxy())
    """

    def __init__(self, directory=None, region=DEFAULT_REGION, account=DEFAULT_ACCOUNT,
                 forward_url=None, control=False):
        self._own_dir = directory is None
        self.dir = directory or tempfile.mkdtemp(prefix="aws-fakes-")
        self.region = region
        self.account = account
        self.ledger = Ledger()
        self.oidc = SSOOIDC(self)
        self.portal = SSOPortal(self)
        self.sts = STS(self)
        self.imds = IMDS(self)
        self.container = ContainerCredentials(self)
        self.forward = Forwarder(self, forward_url)
        self.ca = TestCA(os.path.join(self.dir, "ca"))
        self.proxy = InterceptingProxy(self, self.ca)
        self.control = Control(self) if control else None
        self.services = [self.oidc, self.portal, self.sts, self.imds, self.container,
                         self.forward] + ([self.control] if control else [])
        self._started = False

    def start(self):
        try:
            self.ca.create()
            for svc in self.services:
                svc.start()
            self.proxy.start()
        except BaseException:
            self.stop()
            raise
        self._started = True
        return self

    def stop(self):
        """Stops every server (at once: each takes up to its poll interval) and, when the World
        made its directory, removes it."""
        self.imds.release_hung()
        stoppers = [threading.Thread(target=s.stop) for s in [self.proxy, *self.services]]
        for t in stoppers:
            t.start()
        for t in stoppers:
            t.join()
        if self._own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)
        self._started = False

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- routing (the proxy's router)

    def service_for(self, req):
        """The fake that answers a request the proxy received, by the host it addressed."""
        svc = {"sso": self.portal, "sso-oidc": self.oidc, "sts": self.sts}.get(
            req.route.get("service"))
        if svc is not None:
            return svc
        if req.host in ("127.0.0.1", "localhost"):
            for s in self.services:
                if s.server is not None and s.port == req.port:
                    return s
        return self.forward

    # -- environments

    def env_for_endpoints(self, container=True):
        """AWS's documented endpoint variables pointing at the fakes directly. With container,
        AWS_CONTAINER_CREDENTIALS_FULL_URI and AWS_CONTAINER_AUTHORIZATION_TOKEN too (their
        presence puts the container provider ahead of IMDS in the default chain)."""
        env = {"AWS_ENDPOINT_URL_SSO": self.portal.url,
               "AWS_ENDPOINT_URL_SSO_OIDC": self.oidc.url,
               "AWS_ENDPOINT_URL_STS": self.sts.url,
               "AWS_EC2_METADATA_SERVICE_ENDPOINT": self.imds.url,
               "AWS_EC2_METADATA_DISABLED": "false"}
        if container:
            env.update(self.env_for_container())
        return env

    def env_for_imds(self):
        return {"AWS_EC2_METADATA_SERVICE_ENDPOINT": self.imds.url,
                "AWS_EC2_METADATA_DISABLED": "false"}

    def env_for_container(self):
        env = {"AWS_CONTAINER_CREDENTIALS_FULL_URI": self.container.full_uri}
        if self.container.auth_token is not None:
            env["AWS_CONTAINER_AUTHORIZATION_TOKEN"] = self.container.auth_token
        return env

    def env_for_proxy(self, http=False):
        """HTTPS_PROXY (and https_proxy) to the intercepting proxy, NO_PROXY=127.0.0.1,localhost
        so that IMDS and the container endpoint stay direct, AWS_CA_BUNDLE = the test CA.
        With http, HTTP_PROXY/http_proxy too."""
        env = {"HTTPS_PROXY": self.proxy.url, "https_proxy": self.proxy.url,
               "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
               "AWS_CA_BUNDLE": self.ca.pem}
        if http:
            env.update({"HTTP_PROXY": self.proxy.url, "http_proxy": self.proxy.url})
        return env

    # -- conveniences

    def sso_login(self, home, start_url, sso_region, session_name=None, **token_args):
        """What `aws sso login` leaves behind, without the flow: a token (SSOOIDC.issue_token
        arguments) written to HOME's SSO cache under the session name, or the start URL when
        there is none. Returns the cache entry."""
        entry = self.oidc.issue_token(start_url, sso_region, **token_args)
        write_sso_cache(home, session_name or start_url, entry)
        return entry

    def signer_of(self, record):
        """The ledger's Credential that signed a logged request (None: unsigned or unknown)."""
        key = record.info.get("access_key_id")
        return self.ledger.get(key) if key else None

    def all_requests(self):
        return sorted((r for s in self.services for r in s.log), key=lambda r: r.time)

    def describe(self):
        """URLs and ports (no secrets)."""
        return {"proxy": self.proxy.url, "ca_pem": self.ca.pem, "sso": self.portal.url,
                "sso_oidc": self.oidc.url, "sts": self.sts.url, "imds": self.imds.url,
                "container_full_uri": self.container.full_uri, "forward": self.forward.target,
                "control": self.control.url if self.control else None,
                "ports": {s.name: s.port for s in self.services} | {"proxy": self.proxy.port},
                "region": self.region, "account": self.account}

    def seed_defaults(self):
        """A small world for manual tests: an SSO start URL with two granted roles, static keys
        for alice, a role needing an external id and MFA (code 123456), a plain role, a
        web identity role and token. Returns what was made (with secrets)."""
        start_url = "https://d-9067c2f4a1.awsapps.com/start"
        self.portal.grant(self.account, "ReadOnly", "dynoscope-dev")
        self.portal.grant(self.account, "Admin", "dynoscope-dev")
        alice = self.ledger.static_keys("alice", self.account)
        mfa = f"arn:aws:iam::{self.account}:mfa/alice"
        admin = self.sts.add_role("DynoscopeAdmin", external_id="dynoscope-ext-42",
                                  mfa_serial=mfa, mfa_code="123456")
        reader = self.sts.add_role("DynoscopeReader")
        web_role = self.sts.add_role("DynoscopeWebIdentity")
        web_token = self.sts.add_web_identity_token(roles=[web_role])
        return {"sso_start_url": start_url, "sso_region": self.region,
                "sso_account_id": self.account, "sso_roles": ["ReadOnly", "Admin"],
                "static_keys": alice.to_dict(with_secrets=True),
                "admin_role": {"role_arn": admin, "external_id": "dynoscope-ext-42",
                               "mfa_serial": mfa, "mfa_code": "123456"},
                "reader_role": reader, "web_identity_role": web_role,
                "web_identity_token": web_token,
                "container_auth_token": self.container.auth_token}


class Control(Service):
    """Test controls over HTTP, for a World run from the command line."""
    name = "control"

    def handle(self, req):
        w = self.world
        req.info["operation"] = req.path
        try:
            args = req.json_body() if req.body else {}
        except ValueError:
            return _json_response({"message": "bad JSON"}, 400)
        req.params = args
        if req.method == "GET":
            if req.path == "/state":
                return _json_response(w.describe())
            if req.path == "/ledger":
                return _json_response([c.to_dict(True) for c in w.ledger.issued()])
            if req.path == "/connects":
                return _json_response([dataclasses.asdict(c) for c in w.proxy.connects])
            if req.path == "/log":
                name = req.query.get("service")
                return _json_response([dataclasses.asdict(r) for s in w.services
                                       if name in (None, s.name) for r in s.log])
        elif req.method == "POST":
            if req.path in ("/approve", "/deny"):
                codes = [args["user_code"]] if args.get("user_code") else w.oidc.pending()
                for code in codes:
                    (w.oidc.approve if req.path == "/approve" else w.oidc.deny)(code)
                return _json_response({"user_codes": codes})
            actions = {"/expire-device-codes": w.oidc.expire_device_codes,
                       "/expire-access-tokens": w.oidc.expire_access_tokens,
                       "/revoke-refresh-tokens": w.oidc.revoke_refresh_tokens}
            if req.path in actions:
                actions[req.path]()
                return _json_response({})
            if req.path == "/slow-down":
                w.oidc.slow_down(int(args.get("times", 1)))
                return _json_response({})
            if req.path == "/imds":
                for knob in ("allow_v1", "hang_token_put", "token_put_status", "role_name"):
                    if knob in args:
                        setattr(w.imds, knob, args[knob])
                if args.get("release_hung"):
                    w.imds.release_hung()
                return _json_response({})
        return _json_response({"message": f"no control {req.method} {req.path}"}, 404)


# ---------------------------------------------------------------------------------------------
# Command line


def main(argv=None):
    ap = argparse.ArgumentParser(description="Run the AWS sign-in fakes until killed.")
    ap.add_argument("--state", required=True, help="directory for the CA, state.json, …")
    ap.add_argument("--forward", help="http:// URL the proxy forwards DynamoDB hosts to")
    ap.add_argument("--region", default=DEFAULT_REGION)
    args = ap.parse_args(argv)
    os.makedirs(args.state, exist_ok=True)
    # The handler only sets a flag: anything taking a lock (Event.set) could deadlock with the
    # main thread, and it is in place before the line that tells the caller we are up.
    stopping = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stopping.append(True))
    world = World(os.path.abspath(args.state), args.region, forward_url=args.forward,
                  control=True)
    world.start()
    seed = world.seed_defaults()
    state = world.describe() | {"pid": os.getpid(), "env_proxy": world.env_for_proxy(),
                                "env_endpoints": world.env_for_endpoints(container=False)}
    state_file = os.path.join(world.dir, "state.json")
    with os.fdopen(os.open(state_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
        json.dump(state | {"seed": seed, "container_auth_token": world.container.auth_token},
                  f, indent=2)
    print(json.dumps(state | {"state_file": state_file}), flush=True)
    while not stopping:
        time.sleep(0.2)
    world.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
