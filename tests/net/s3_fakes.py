"""Stand-ins for S3 that run-s3-tests.py points s3-tool at, on loopback ports:

  FakeS3      an S3 on http.server that checks every request's SigV4 signature with botocore's
              S3SigV4Auth (region included), keeps a log of what came, and answers per bucket and
              key: region redirects (301 with or without x-amz-bucket-region, 400
              AuthorizationHeaderMalformed with <Region>), throttling and 5xx that clear after a
              few tries, bodies cut or stalled mid-way (then honouring Range and If-Match, or
              ignoring Range, or changing the object), S3's error bodies.
  CuttingProxy  a TCP proxy that cuts its first connection after a number of response bytes (a
              real broken download in front of s3rver)."""
import base64
import datetime
import hashlib
import http.server
import random
import re
import socket
import socketserver
import threading

from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

KEY_ID = "AKIAFAKES3TESTS00001"
SECRET = "fake/secret/for/s3/tests"

# bucket -> the region it is in, and how a request signed for another region is answered
REGIONS = {
    "moved": ("eu-west-2", "header"),        # 301 PermanentRedirect + x-amz-bucket-region
    "hidden": ("ap-southeast-2", "headbucket"),  # 301 with no region: only HeadBucket says
    "malformed": ("eu-central-1", "malformed"),  # 400 AuthorizationHeaderMalformed <Region>
    "home": ("us-east-1", None),
}

CREDENTIAL_RE = re.compile(r"Credential=([^/]+)/(\d{8})/([^/]+)/s3/aws4_request")


def error_xml(code, message, extra=""):
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{code}</Code>'
            f"<Message>{message}</Message>{extra}<RequestId>R</RequestId></Error>").encode()


class Obj:
    def __init__(self, data, etag=None):
        self.data = data
        self.etag = etag or '"%s"' % hashlib.md5(data).hexdigest()


class FakeS3Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    # ---- plumbing ----

    def reply(self, status, body=b"", headers=None, length=None):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        if self.command != "HEAD" and body:
            self.wfile.write(body)

    def signature_ok(self, body):
        auth = self.headers.get("Authorization", "")
        m = CREDENTIAL_RE.search(auth)
        if not m or m.group(1) != KEY_ID:
            return None
        signed = re.search(r"SignedHeaders=([^,]+)", auth).group(1).split(";")
        req = AWSRequest(method=self.command, url=f"http://{self.headers['Host']}{self.path}",
                         data=body)
        for name in signed:
            if name not in ("authorization", "x-amz-date", "x-amz-content-sha256",
                            "x-amz-security-token"):
                req.headers[name] = self.headers.get(name, "")
        when = datetime.datetime.strptime(self.headers["X-Amz-Date"], "%Y%m%dT%H%M%SZ")
        signer = S3SigV4Auth(Credentials(KEY_ID, SECRET), "s3", m.group(3))
        req.context["timestamp"] = when.strftime("%Y%m%dT%H%M%SZ")
        signer._modify_request_before_signing(req)
        cr = signer.canonical_request(req)
        signer._inject_signature_to_request(
            req, signer.signature(signer.string_to_sign(req, cr), req))
        if req.headers["Authorization"] != auth:
            return None
        if self.headers.get("x-amz-content-sha256") != hashlib.sha256(body).hexdigest():
            return None
        return m.group(3)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        server = self.server
        path = self.path.split("?", 1)[0]
        parts = path.lstrip("/").split("/", 1)
        bucket = parts[0]
        key = None
        if len(parts) > 1:
            from urllib.parse import unquote
            key = unquote(parts[1])
        region = self.signature_ok(body)
        with server.lock:
            server.log.append({"method": self.command, "bucket": bucket, "key": key,
                               "region": region, "range": self.headers.get("Range"),
                               "if_match": self.headers.get("If-Match")})
        if region is None:
            return self.reply(403, error_xml("SignatureDoesNotMatch", "The request signature "
                                             "we calculated does not match"))
        if bucket not in REGIONS:
            return self.reply(404, error_xml("NoSuchBucket", "The specified bucket does not "
                                             "exist", f"<BucketName>{bucket}</BucketName>"))
        home, how = REGIONS[bucket]
        if region != home:
            if how == "header":
                return self.reply(301, error_xml("PermanentRedirect", "The bucket you are "
                                                 "attempting to access must be addressed using "
                                                 "the specified endpoint."),
                                  {"x-amz-bucket-region": home})
            if how == "headbucket":
                if key is None and self.command == "HEAD":
                    return self.reply(301, headers={"x-amz-bucket-region": home})
                return self.reply(301, error_xml("PermanentRedirect", "Use the right endpoint."))
            if how == "malformed":
                if key is None and self.command == "HEAD":
                    # S3 names the bucket's region in every answer to HeadBucket.
                    return self.reply(400, headers={"x-amz-bucket-region": home})
                return self.reply(400, error_xml("AuthorizationHeaderMalformed",
                                                 f"the region '{region}' is wrong; expecting "
                                                 f"'{home}'", f"<Region>{home}</Region>"))
        if key is None:
            return self.reply(200, headers={"x-amz-bucket-region": home})
        return self.object_request(bucket, key, body)

    do_GET = do_PUT = do_HEAD = do_DELETE = handle_any

    # ---- objects ----

    def object_request(self, bucket, key, body):
        server = self.server
        with server.lock:
            count = server.counts.get((bucket, key), 0) + 1
            server.counts[(bucket, key)] = count
        m = re.match(r"(slowdown|internal|throttle)-(\d+)$", key)
        if m and count <= int(m.group(2)):
            if m.group(1) == "slowdown":
                return self.reply(503, error_xml("SlowDown", "Please reduce your request rate."))
            if m.group(1) == "throttle":
                return self.reply(400, error_xml("Throttling", "Rate exceeded"))
            return self.reply(500, error_xml("InternalError", "We encountered an internal "
                                             "error. Please try again."))
        if key == "forbidden":
            return self.reply(403, error_xml("AccessDenied", "Access Denied"))
        if self.command == "PUT":
            md5 = base64.b64encode(hashlib.md5(body).digest()).decode()
            if self.headers.get("Content-MD5") != md5:
                return self.reply(400, error_xml("BadDigest", "The Content-MD5 you specified "
                                                 "did not match what we received."))
            obj = Obj(body)
            with server.lock:
                server.objects[(bucket, key)] = obj
            return self.reply(200, headers={"ETag": obj.etag})
        with server.lock:
            obj = server.objects.get((bucket, key))
        if obj is None:
            return self.reply(404, error_xml("NoSuchKey", "The specified key does not exist.",
                                             f"<Key>{key}</Key>"))
        return self.serve(bucket, key, obj, count)

    def serve(self, bucket, key, obj, count):
        data = obj.data
        etag = obj.etag
        if key.startswith("changed") and count > 1:
            etag = '"0123456789abcdef0123456789abcdef"'
        if_match = self.headers.get("If-Match")
        if if_match is not None and if_match != etag:
            return self.reply(412, error_xml("PreconditionFailed", "At least one of the "
                                             "pre-conditions you specified did not hold",
                                             "<Condition>If-Match</Condition>"))
        start = 0
        rng = self.headers.get("Range")
        if rng and not key.startswith("ignore-range"):
            start = int(re.match(r"bytes=(\d+)-$", rng).group(1))
            if start >= len(data):
                return self.reply(416, error_xml("InvalidRange", "The requested range is not "
                                                 "satisfiable"))
        headers = {"ETag": etag, "Content-Type": "application/octet-stream",
                   "Last-Modified": "Wed, 12 Oct 2009 17:50:00 GMT", "Accept-Ranges": "bytes"}
        status = 200
        if start > 0:
            status = 206
            headers["Content-Range"] = f"bytes {start}-{len(data) - 1}/{len(data)}"
        payload = data[start:]
        # cut-N / stall / changed / ignore-range: the first N answers break mid-body
        cuts = 1
        m = re.match(r"cut-(\d+)", key)
        if m:
            cuts = int(m.group(1))
        breaking = (key.startswith(("cut", "changed", "ignore-range", "stall"))
                    and count <= cuts and len(payload) > 10)
        if self.command == "HEAD" or not breaking:
            return self.reply(status, payload, headers)
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        part = len(payload) // 3 + count * 7
        self.wfile.write(payload[:part])
        self.wfile.flush()
        if key.startswith("stall"):
            # No more bytes, the connection open: the client's idle timeout must fire.
            self.server.release.wait(60)
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class FakeS3(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), FakeS3Handler)
        self.lock = threading.Lock()
        self.log = []
        self.counts = {}
        self.objects = {}
        self.release = threading.Event()
        rnd = random.Random(26)
        for bucket in REGIONS:
            for key in ["obj", "cut", "cut-3", "changed", "ignore-range", "stall", "slowdown-2",
                        "internal-2", "throttle-2", "slowdown-99"]:
                self.objects[(bucket, key)] = Obj(rnd.randbytes(300_000))
        self.objects[("home", "empty")] = Obj(b"")
        self.thread = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}"

    def start(self):
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        self.release.set()
        self.shutdown()
        self.server_close()

    def take_log(self):
        with self.lock:
            log, self.log = self.log, []
        return log


class CuttingProxy:
    """Forwards loopback connections to TARGET_PORT; the first connection is cut (both ways
    closed) once CUT_AFTER bytes of response went back through it."""

    def __init__(self, target_port, cut_after):
        self.target_port = target_port
        self.cut_after = cut_after
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.connections = 0
        self.cuts = 0
        self.stopping = False
        threading.Thread(target=self.accept_loop, daemon=True).start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def accept_loop(self):
        while not self.stopping:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            cut = self.cut_after if self.connections == 1 else None
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            threading.Thread(target=self.pump, args=(client, upstream, None), daemon=True).start()
            threading.Thread(target=self.pump, args=(upstream, client, cut), daemon=True).start()

    def pump(self, src, dst, cut):
        sent = 0
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if cut is not None and sent + len(data) >= cut:
                    dst.sendall(data[:cut - sent])
                    self.cuts += 1
                    break
                dst.sendall(data)
                sent += len(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def stop(self):
        self.stopping = True
        self.listener.close()


def random_bytes(n, seed):
    return random.Random(seed).randbytes(n) if n else b""

