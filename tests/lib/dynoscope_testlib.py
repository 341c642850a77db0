"""Servers the tests talk to: a fault-injecting DynamoDB stand-in (plain or TLS, with a
self-signed certificate), dynalite and AWS's DynamoDB Local (the one launcher, also used by
tests/diff/run-diff.py). Only the Python standard library (and the openssl command for the TLS
certificate) is used."""
import base64
import datetime
import hashlib
import hmac
import http.server
import json
import os
import shutil
import signal
import socket
import socketserver
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.environ.get("DYNOSCOPE_SOURCE_DIR", os.path.normpath(os.path.join(HERE, "..", "..")))
SKIP = 77
DYNALITE_PACKAGE = "dynalite@4"
DDBLOCAL_PACKAGE = "amplify-dynamodb-simulator@2.9.30"
DDBLOCAL_EMULATOR = os.path.join("node_modules", "amplify-dynamodb-simulator", "emulator")
DDBLOCAL_REGION = "us-east-1"
DDBLOCAL_KEY_ID = "AKIAFAKEDIFFTESTS000"
DDBLOCAL_SECRET = "fake/secret/used/only/for/dynamodb/local"


def has_boto3():
    try:
        import boto3  # noqa: F401
        return True
    except ImportError:
        return False


def use_system_python_for_boto3():
    """boto3 comes from Debian (python3-boto3) for the system python; a python3 earlier on PATH
    (pyenv) may lack it, so the calling script runs itself again with the system one."""
    if not has_boto3() and os.path.exists("/usr/bin/python3") \
            and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") \
            and not os.environ.get("DYNOSCOPE_TEST_REEXEC"):
        os.environ["DYNOSCOPE_TEST_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])


def find_aws_cli_v2():
    """Debian's AWS CLI v2 (an earlier `aws` on PATH may be v1), or None."""
    for path in ["/usr/bin/aws", shutil.which("aws")]:
        if not path:
            continue
        try:
            out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out.returncode == 0 and (out.stdout + out.stderr).startswith("aws-cli/2"):
            return path
    return None


def log(*args):
    print("#", *args, flush=True)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cache_dir(name):
    """Where a server fetched with npm is kept: $XDG_CACHE_HOME/dynoscope/NAME."""
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(xdg, "dynoscope", name)


def npm_install(target, package):
    """npm install PACKAGE under TARGET; whether it worked (its output logged when not)."""
    os.makedirs(target, exist_ok=True)
    log(f"installing {package} into {target} (once)")
    r = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--no-save", "--prefix",
                        target, package],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    if r.returncode != 0:
        log(r.stdout[-3000:])
    return r.returncode == 0


def die_with_parent():
    """preexec_fn for a server started in a session of its own: it gets SIGKILL when the test
    that started it dies (killed by meson's timeout, say), instead of living on as an orphan."""
    import ctypes
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def stop_process_group(proc):
    """Ends a server started with start_new_session=True, and whatever it started."""
    if proc is not None and proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


# ---------------------------------------------------------------------------------------------
# The fault-injecting server

ERRORS = {
    # name: (status, __type, message)
    "500": (500, "com.amazonaws.dynamodb.v20120810#InternalServerError", "Internal server error"),
    "throttle": (400, "com.amazon.coral.availability#ThrottlingException", "Rate exceeded"),
    "pte": (400, "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
            "The level of configured provisioned throughput for the table was exceeded. Consider "
            "increasing your provisioning level with the UpdateTable API."),
    "rle": (400, "com.amazonaws.dynamodb.v20120810#RequestLimitExceeded",
            "Throughput exceeds the current throughput limit for your account."),
    "validation": (400, "com.amazon.coral.validate#ValidationException",
                   "1 validation error detected: Value null at 'tableName' failed to satisfy "
                   "constraint: Member must not be null"),
    "access": (400, "com.amazon.coral.service#AccessDeniedException",
               "User: arn:aws:iam::123456789012:user/x is not authorized to perform: "
               "dynamodb:ListTables"),
    "notfound": (400, "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                 "Requested resource not found"),
}


class FaultHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # An answer's headers and body go in two writes: without TCP_NODELAY the body waits for the
    # client's delayed ACK, 40 ms a request on a kept-alive connection.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def reply(self, status, body, crc=None, ctype="application/x-amz-json-1.0", extra=None):
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(raw)))
        if crc is not False:
            value = zlib.crc32(raw) if crc is None else crc
            self.send_header("x-amz-crc32", str(value))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(raw)

    def misbehave(self, step, raw):
        """Answers badly: "truncated" closes after half of the body its Content-Length
        announced, "reset" sends half of it and resets the connection (RST), "trickle" sends
        one byte of it a second, "silent" reads the request and never answers (until the
        client goes)."""
        self.close_connection = True
        head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\n"
                f"Content-Length: {len(raw)}\r\nx-amz-crc32: {zlib.crc32(raw)}\r\n\r\n")
        try:
            if step == "silent":
                while self.connection.recv(4096):
                    pass
                return
            self.wfile.write(head.encode())
            self.wfile.flush()
            if step == "trickle":
                for byte in raw:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(1)
                return
            self.wfile.write(raw[:len(raw) // 2])
            self.wfile.flush()
            if step == "reset":
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                           struct.pack("ii", 1, 0))
                self.connection.close()
            else:
                self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # the client went first

    def do_GET(self):
        if self.path == "/__stats":
            with self.server.lock:
                stats = {"requests": self.server.requests,
                         "open": self.server.open,
                         "connections": len(self.server.connections),
                         "last_headers": self.server.last_headers,
                         "last_bodies": getattr(self.server, "last_bodies", {})}
            self.reply(200, stats, crc=False, ctype="application/json")
        else:
            self.reply(200, b"healthy: dynamodb.us-east-1.amazonaws.com", crc=False,
                       ctype="text/plain")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/__stats":
            self.do_GET()
            return
        if self.path == "/__script":
            with self.server.lock:
                cfg = json.loads(body)
                self.server.script = list(cfg.get("script", []))
                self.server.requests = 0
                self.server.connections = set()
                self.server.last_headers = {}
                self.server.answer = cfg.get("answer", {"TableNames": []})
                # "answers": {"Scan": {...}, ...}: the answer per operation (X-Amz-Target),
                # "answer" for the others; "last_bodies" in the stats: each one's last request
                self.server.answers = cfg.get("answers", {})
                self.server.last_bodies = {}
            self.reply(200, {}, crc=False, ctype="application/json")
            return
        with self.server.lock:
            self.server.open += 1
        try:
            self.answer_operation(body)
        finally:
            with self.server.lock:
                self.server.open -= 1

    def answer_operation(self, body):
        operation = self.headers.get("X-Amz-Target", "").rpartition(".")[2]
        with self.server.lock:
            self.server.requests += 1
            self.server.connections.add(id(self.connection))
            self.server.last_headers = {k.lower(): v for k, v in self.headers.items()}
            step = self.server.script.pop(0) if self.server.script else "ok"
            answer = getattr(self.server, "answers", {}).get(operation, self.server.answer)
            if hasattr(self.server, "last_bodies"):
                self.server.last_bodies[operation] = body.decode(errors="replace")
        if step.startswith("slow:"):
            time.sleep(float(step.split(":", 1)[1]))
            step = "ok"
        if step == "ok":
            self.reply(200, answer)
        elif step == "empty":
            self.reply(200, b"")  # TagResource's answer: no body at all
        elif step == "badcrc":
            raw = json.dumps(answer).encode()
            self.reply(200, raw, crc=(zlib.crc32(raw) + 1) & 0xFFFFFFFF)
        elif step == "drop":
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
        elif step in ("truncated", "reset", "trickle", "silent"):
            self.misbehave(step, json.dumps(answer).encode())
        elif step == "503-html":
            self.reply(503, b"<html><body>Service Unavailable</body></html>", crc=False,
                       ctype="text/html")
        elif step == "canceled":
            self.reply(400, {"__type": "com.amazonaws.dynamodb.v20120810#"
                                       "TransactionCanceledException",
                             "Message": "Transaction cancelled, please refer cancellation "
                                        "reasons for specific reasons [None, "
                                        "ConditionalCheckFailed]",
                             "CancellationReasons": [{"Code": "None"},
                                                     {"Code": "ConditionalCheckFailed",
                                                      "Message": "The conditional request "
                                                                 "failed"}]})
        else:
            status, type_, message = ERRORS[step]
            self.reply(status, {"__type": type_, "message": message})


class FaultServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, tls_context=None):
        super().__init__(("127.0.0.1", 0), FaultHandler)
        self.lock = threading.Lock()
        self.script = []
        self.requests = 0
        # the DynamoDB requests being answered now (a silent one until the client goes)
        self.open = 0
        self.connections = set()  # the connections that carried DynamoDB requests
        self.last_headers = {}
        self.answer = {"TableNames": []}
        self.scheme = "http"
        if tls_context is not None:
            self.socket = tls_context.wrap_socket(self.socket, server_side=True)
            self.scheme = "https"
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def url(self):
        # The TLS certificate names localhost only, so that 127.0.0.1 is a name mismatch.
        host = "localhost" if self.scheme == "https" else "127.0.0.1"
        return f"{self.scheme}://{host}:{self.server_address[1]}"

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.shutdown()
        self.server_close()


def make_self_signed_cert(directory):
    """A self-signed certificate (its own CA) for localhost: (cert, key) paths,
    or None when openssl is missing."""
    if shutil.which("openssl") is None:
        return None
    cert = os.path.join(directory, "cert.pem")
    key = os.path.join(directory, "key.pem")
    r = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                        "-out", cert, "-days", "2", "-subj", "/CN=dynoscope-test",
                        "-addext", "subjectAltName=DNS:localhost",
                        "-addext", "basicConstraints=critical,CA:TRUE"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        log("openssl failed:", r.stderr[-500:])
        return None
    return cert, key


def start_tls_fault_server(directory):
    pair = make_self_signed_cert(directory)
    if pair is None:
        return None, None
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(*pair)
    return FaultServer(ctx).start(), pair[0]


# ---------------------------------------------------------------------------------------------
# dynalite


def dynalite_dirs():
    dirs = []
    if os.environ.get("DYNOSCOPE_DYNALITE_DIR"):
        dirs.append(os.environ["DYNOSCOPE_DYNALITE_DIR"])
    dirs.append(cache_dir("dynalite"))
    return dirs


def find_dynalite():
    for d in dynalite_dirs():
        cli = os.path.join(d, "node_modules", "dynalite", "cli.js")
        if os.path.isfile(cli):
            return cli
    return None


def install_dynalite():
    if shutil.which("npm") is None or not npm_install(dynalite_dirs()[0], DYNALITE_PACKAGE):
        return None
    return find_dynalite()


def wait_http(url, proc, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(url, timeout=2):
                return True
        except urllib.error.HTTPError:
            return True
        except OSError:
            time.sleep(0.1)
    return False


class Dynalite:
    """dynalite in memory on a loopback port; tables become ACTIVE at once."""

    def __init__(self, cli):
        self.cli = cli
        self.proc = None
        self.port = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        self.port = free_port()
        self.logfile = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(["node", self.cli, "--host", "127.0.0.1", "--port",
                                      str(self.port), "--createTableMs", "0", "--deleteTableMs",
                                      "0", "--updateTableMs", "0"],
                                     stdout=self.logfile, stderr=subprocess.STDOUT,
                                     start_new_session=True, preexec_fn=die_with_parent)
        if wait_http(self.url, self.proc, 30):
            return True
        self.logfile.seek(0)
        log("dynalite did not start:", self.logfile.read()[-2000:])
        self.stop()
        return False

    def stop(self):
        stop_process_group(self.proc)
        self.proc = None


# ---------------------------------------------------------------------------------------------
# DynamoDB Local (npm package amplify-dynamodb-simulator), in memory on a loopback port


def ddblocal_dirs():
    dirs = []
    if os.environ.get("DYNOSCOPE_DDBLOCAL_DIR"):
        dirs.append(os.environ["DYNOSCOPE_DDBLOCAL_DIR"])
    dirs.append(cache_dir("ddblocal"))
    dirs.append(os.path.join(SRC, "build-aux", ".cache", "ddblocal"))
    return dirs


def find_emulator():
    for d in ddblocal_dirs():
        for cand in (os.path.join(d, DDBLOCAL_EMULATOR), d):
            if os.path.isfile(os.path.join(cand, "DynamoDBLocal.jar")):
                return cand
    return None


def install_emulator():
    if not npm_install(ddblocal_dirs()[0], DDBLOCAL_PACKAGE):
        return None
    return find_emulator()


class DynamoDBLocal:
    def __init__(self, emulator):
        self.emulator = emulator
        self.proc = None
        self.port = None
        self.logfile = None

    def start(self):
        launcher = os.path.join(SRC, "tests", "diff", "LoopbackDynamoDBLocal.java")
        base = ["java", "-Xms64m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Djava.library.path=./DynamoDBLocal_lib"]
        opts = ["-inMemory", "-sharedDb", "-disableTelemetry"]
        # The launcher binds to 127.0.0.1 (DynamoDB Local itself has no host option); it needs
        # Java's source launcher. The plain jar is the fallback.
        attempts = [base + ["-cp", "DynamoDBLocal.jar:DynamoDBLocal_lib/*", launcher] + opts,
                    base + ["-jar", "DynamoDBLocal.jar"] + opts]
        for i, cmd in enumerate(attempts):
            self.port = free_port()
            self.logfile = tempfile.TemporaryFile(mode="w+")
            self.proc = subprocess.Popen(cmd + ["-port", str(self.port)], cwd=self.emulator,
                                         stdout=self.logfile, stderr=subprocess.STDOUT,
                                         start_new_session=True, preexec_fn=die_with_parent)
            if self.wait_ready(90):
                if i > 0:
                    log("warning: DynamoDB Local started without the loopback launcher: it "
                        "listens on every interface")
                return True
            self.logfile.seek(0)
            log("DynamoDB Local did not start:", " ".join(cmd))
            log("  " + self.logfile.read()[-2000:].replace("\n", "\n#   "))
            self.stop()
        return False

    def wait_ready(self, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                status, _ = self.call("ListTables", {}, timeout=2)
                if status == 200:
                    return True
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.25)
        return False

    def stop(self):
        stop_process_group(self.proc)
        self.proc = None

    def call(self, op, request, timeout=30):
        body = json.dumps(request).encode()
        host = f"127.0.0.1:{self.port}"
        target = f"DynamoDB_20120810.{op}"
        headers = sign_v4(host, target, body)
        req = urllib.request.Request(f"http://{host}/", data=body, method="POST", headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return resp.status, resp.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def answer(self, op, request):
        status, raw = self.call(op, request)
        try:
            body = json.loads(raw) if raw.strip() else {}
        except ValueError:
            return {"error": {"__type": f"HTTP{status}", "message": raw.decode("utf-8", "replace")}}
        if status == 200:
            return {"response": body}
        err = {k: v for k, v in body.items() if k not in ("__type", "message", "Message")}
        err["__type"] = body.get("__type", f"HTTP{status}").rsplit("#", 1)[-1]
        err["message"] = body.get("message", body.get("Message"))
        return {"error": err}

    def wait_active(self, table, seconds=30):
        deadline = time.time() + seconds
        while time.time() < deadline:
            d = self.answer("DescribeTable", {"TableName": table})
            if "response" not in d:
                return
            t = d["response"].get("Table", {})
            statuses = [t.get("TableStatus")] + [g.get("IndexStatus") for g in
                                                  t.get("GlobalSecondaryIndexes", [])]
            if all(x == "ACTIVE" for x in statuses):
                return
            time.sleep(0.2)

    def reset(self):
        """Deletes every table, so each case starts empty."""
        start = None
        names = []
        while True:
            req = {"ExclusiveStartTableName": start} if start else {}
            _, raw = self.call("ListTables", req)
            page = json.loads(raw)
            names += page.get("TableNames", [])
            start = page.get("LastEvaluatedTableName")
            if not start:
                break
        for name in names:
            self.call("DeleteTable", {"TableName": name})


def sign_v4(host, target, body):
    """A SigV4 signature made with fake credentials: DynamoDB Local checks the header's shape."""
    now = datetime.datetime.now(datetime.timezone.utc)
    amz_date = now.strftime("%Y%m%dT%H%M%SZ")
    day = amz_date[:8]
    ctype = "application/x-amz-json-1.0"
    signed = "content-type;host;x-amz-date;x-amz-target"
    canonical = "\n".join(["POST", "/", "", f"content-type:{ctype}", f"host:{host}",
                           f"x-amz-date:{amz_date}", f"x-amz-target:{target}", "", signed,
                           hashlib.sha256(body).hexdigest()])
    scope = f"{day}/{DDBLOCAL_REGION}/dynamodb/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope,
                         hashlib.sha256(canonical.encode()).hexdigest()])
    key = ("AWS4" + DDBLOCAL_SECRET).encode()
    for part in (day, DDBLOCAL_REGION, "dynamodb", "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    sig = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    return {
        "Content-Type": ctype,
        "X-Amz-Target": target,
        "X-Amz-Date": amz_date,
        "Authorization": f"AWS4-HMAC-SHA256 Credential={DDBLOCAL_KEY_ID}/{scope}, "
                         f"SignedHeaders={signed}, Signature={sig}",
    }


def start_dynamodb_local():
    """A started DynamoDBLocal (with .port and .stop()), or None (java or npm missing, or it
    would not start)."""
    if shutil.which("java") is None:
        return None
    emulator = find_emulator()
    if emulator is None and shutil.which("npm") is not None:
        emulator = install_emulator()
    if emulator is None:
        return None
    ddbl = DynamoDBLocal(emulator)
    if not ddbl.start():
        return None
    return ddbl


def client_env(extra=None):
    """An environment with fake credentials and no AWS configuration of the user's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({
        "AWS_ACCESS_KEY_ID": "AKIAFAKECLIENTTESTS0",
        "AWS_SECRET_ACCESS_KEY": "fake/secret/for/client/tests",
        "AWS_CONFIG_FILE": os.devnull,
        "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
    })
    env.update(extra or {})
    return env


def canon(v):
    """A DynamoDB JSON value as comparable Python values: numbers by value (Decimal), sets as
    sets, binary as bytes (given as base64 text, or as bytes as boto3's low-level client
    returns it)."""
    from decimal import Decimal

    def blob(x):
        return base64.b64decode(x) if isinstance(x, str) else bytes(x)
    (t, x), = v.items()
    if t == "N":
        return ("N", Decimal(x))
    if t == "NS":
        return ("NS", frozenset(Decimal(n) for n in x))
    if t == "SS":
        return ("SS", frozenset(x))
    if t == "B":
        return ("B", blob(x))
    if t == "BS":
        return ("BS", frozenset(blob(b) for b in x))
    if t == "M":
        return ("M", tuple(sorted((k, canon(e)) for k, e in x.items())))
    if t == "L":
        return ("L", tuple(canon(e) for e in x))
    return (t, x)


def canon_item(item):
    """An item (attribute name -> DynamoDB JSON value) made comparable; None stays None."""
    return None if item is None else tuple(sorted((k, canon(v)) for k, v in item.items()))
