#!/usr/bin/env python3
"""Cross-checks src/net/s3-request.c against botocore (Debian's python3-botocore):

  - URLs: for every bucket, key, region, endpoint and addressing style of a wide corpus, the URL
    s3-tool builds is the one a botocore S3 client configured as the AWS CLI v2 configures it
    (regional us-east-1) sends its GetObject to (caught before sending);
  - signatures: every request of a corpus of keys (empty, long, every ASCII byte, control bytes,
    unicode, '+', '=', '~', '//', dot segments), queries (empty, ListObjectsV2's, odd values),
    headers (Range, If-Match, Content-MD5, folded blanks), bodies and credentials (with and
    without a session token) is signed by s3-tool and again by botocore's S3SigV4Auth at the
    same time; the Authorization, X-Amz-Date and x-amz-content-sha256 headers must be equal.

    s3-botocore-check.py S3_TOOL

Prints TAP; exit status 0 when every item matched, 77 when botocore is missing."""
import base64
import datetime
import hashlib
import itertools
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

lib.use_system_python_for_boto3()

try:
    import botocore.session
    import botocore.config
    from botocore.auth import S3SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
except ImportError:
    print("1..0 # SKIP botocore is missing")
    sys.exit(lib.SKIP)

# src/net follows botocore 1.43's endpoint rule sets (as endpoints.c does). Debian's older
# botocore (1.29) does not know the partitions added since (eu-isoe, us-isof, eusc) and takes a
# dotted bucket over http as virtual-hostable only when every label has 3 characters or more:
# with it those combinations are left out of the URL corpus (and said so).
OLD_BOTOCORE = tuple(int(x) for x in botocore.__version__.split(".")[:2]) < (1, 35)
NEW_PARTITION_REGIONS = ("eu-isoe-west-1", "us-isof-south-1", "eusc-de-east-1")

SIGNATURE_HEADERS = ("authorization", "x-amz-date", "x-amz-content-sha256",
                     "x-amz-security-token")


def keys_corpus():
    rnd = random.Random(26)
    keys = ["a", "k", "dir/file.json.gz", "AWSDynamoDB/01234567890123-abcdef/manifest-summary.json",
            "with space", "plus+sign", "equals=sign", "tilde~", "a//b", "//leading", "trailing/",
            "a/./b", "a/../b", "..", ".", "percent%20literal", "question?mark", "hash#frag",
            "amp&and", "semi;colon", "colon:here", "at@sign", "dollar$", "comma,", "quote'\"",
            "brackets[]{}()", "caret^back`tick", "pipe|back\\slash", "lt<gt>", "star*bang!",
            "üñíçødé/ключ/キー/键", "emoji 😀/🧪", "\u00a0nbsp", "tab\tnewline\ncr\r",
            "x" * 1024, ("é" * 300), "a/" * 100 + "z"]
    keys += [f"byte{chr(c)}byte" for c in range(1, 128)]
    for _ in range(60):
        length = rnd.randint(1, 80)
        keys.append("".join(chr(rnd.choice([rnd.randint(0x20, 0x7e), rnd.randint(0xa0, 0x2fff),
                                              rnd.randint(0x1f300, 0x1f6ff)]))
                            for _ in range(length)))
    return keys


def queries_corpus():
    def enc(v):
        return "".join(c if (c.isascii() and c.isalnum()) or c in "-._~" else
                       "".join(f"%{b:02X}" for b in c.encode()) for c in v)
    qs = [None, "", "list-type=2", "list-type=2&encoding-type=url",
          "list-type=2&encoding-type=url&prefix=" + enc("AWSDynamoDB/"),
          "list-type=2&prefix=" + enc("a b+c=d~e") + "&delimiter=" + enc("/"),
          "list-type=2&continuation-token=" + enc("1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM="),
          "list-type=2&prefix=" + enc("ключ/😀") + "&max-keys=1000",
          "uploads", "versioning", "tagging&versionId=" + enc("3/L4kqtJlcpXroDTDmJ+rmSpXd3dIbrHY"),
          "b=2&a=1&a=0&c", "prefix=&list-type=2"]
    return qs


def sign_cases():
    rnd = random.Random(7)
    base_time = 1767225600  # 2026-01-01T00:00:00Z
    cases = []
    creds = [("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", None),
             ("ASIAFAKESESSION00001", "secret/with+odd=chars", "FQoGZXIvYXdzE//token+with/=")]
    endpoints = [(None, None), ("http://127.0.0.1:4568", None), ("https://minio.example:9000", None),
                 ("https://minio.example:9000/base/path", None), ("http://[::1]:9000", None),
                 ("http://localhost:4566", "virtual")]
    regions = ["us-east-1", "eu-west-1", "cn-north-1", "us-gov-west-1"]
    i = 0
    for key in keys_corpus():
        endpoint, style = endpoints[i % len(endpoints)]
        akid, secret, token = creds[i % 2]
        method = ["GET", "PUT", "HEAD", "GET", "DELETE"][i % 5]
        body = b""
        headers = []
        if method == "PUT":
            body = bytes(rnd.getrandbits(8) for _ in range(rnd.choice([0, 1, 100, 5000])))
            headers.append(["Content-Type", "application/octet-stream"])
            headers.append(["Content-MD5", base64.b64encode(hashlib.md5(body).digest()).decode()])
        if method == "GET" and i % 3 == 0:
            headers.append(["Range", f"bytes={rnd.randint(0, 1 << 40)}-"])
            headers.append(["If-Match", '"%032x"' % rnd.getrandbits(128)])
        if i % 7 == 0:
            headers.append(["X-Amz-Meta-Note", "  folded   blanks\there  "])
        cases.append({"method": method, "endpoint": endpoint, "style": style,
                      "bucket": ["export-bucket", "my.dotted.bucket", "UpperCase_Bucket"][i % 3],
                      "key": key, "query": None, "headers": headers,
                      "body_b64": base64.b64encode(body).decode(), "region": regions[i % 4],
                      "time": base_time + i * 3607, "akid": akid, "secret": secret,
                      "token": token})
        i += 1
    for q in queries_corpus():
        for bucket, key in [("export-bucket", None), ("export-bucket", "k"),
                            ("my.dotted.bucket", None)]:
            akid, secret, token = creds[i % 2]
            cases.append({"method": "GET", "endpoint": None, "style": None, "bucket": bucket,
                          "key": key, "query": q, "headers": [], "body_b64": "",
                          "region": regions[i % 4], "time": base_time + i, "akid": akid,
                          "secret": secret, "token": token})
            i += 1
    return cases


def run_sign(tool, cases):
    out = subprocess.run([tool, "sign"], input=json.dumps(cases), capture_output=True, text=True,
                         timeout=300)
    if out.returncode != 0 or "runtime error:" in out.stderr or "Sanitizer" in out.stderr:
        raise SystemExit(f"s3-tool sign exited {out.returncode}: {out.stderr[-3000:]}")
    return out


class FixedTimeS3SigV4Auth(S3SigV4Auth):
    """botocore's S3 signer at a fixed time (add_auth reads the clock)."""

    def __init__(self, credentials, region, when):
        super().__init__(credentials, "s3", region)
        self.when = when

    def add_auth(self, request):
        request.context["timestamp"] = self.when.strftime("%Y%m%dT%H%M%SZ")
        self._modify_request_before_signing(request)
        canonical_request = self.canonical_request(request)
        string_to_sign = self.string_to_sign(request, canonical_request)
        self._inject_signature_to_request(request, self.signature(string_to_sign, request))
        return canonical_request


def check_signatures(tool, results):
    cases = sign_cases()
    out = run_sign(tool, cases)
    ours = json.loads(out.stdout)
    assert len(ours) == len(cases)
    bad = []
    for case, got in zip(cases, ours):
        if "error" in got:
            bad.append((case["key"], got["error"]["message"]))
            continue
        plain = [(n, v) for n, v in got["headers"] if n.lower() not in SIGNATURE_HEADERS]
        ours_sig = {n.lower(): v for n, v in got["headers"] if n.lower() in SIGNATURE_HEADERS}
        req = AWSRequest(method=case["method"], url=got["url"], data=base64.b64decode(
            case["body_b64"]))
        for n, v in plain:
            req.headers[n] = v
        when = datetime.datetime.fromtimestamp(case["time"], datetime.timezone.utc)
        signer = FixedTimeS3SigV4Auth(Credentials(case["akid"], case["secret"], case["token"]),
                                      case["region"], when)
        theirs_cr = signer.add_auth(req)
        for h in SIGNATURE_HEADERS:
            theirs = req.headers.get(h)
            if (theirs is None) != (h not in ours_sig) or (theirs is not None
                                                             and theirs != ours_sig[h]):
                bad.append((case["key"], f"{h}: ours {ours_sig.get(h)!r} botocore {theirs!r}\n"
                            f"ours:\n{got['canonical_request']}\nbotocore:\n{theirs_cr}"))
                break
    results.append((f"signatures of {len(cases)} requests equal botocore's S3SigV4Auth", bad))


class Captured(Exception):
    pass


def botocore_clients():
    session = botocore.session.get_session()
    cache = {}

    def url_for(bucket, key, region, endpoint, style):
        ck = (region, endpoint, style)
        if ck not in cache:
            s3cfg = {"us_east_1_regional_endpoint": "regional"}
            if style:
                s3cfg["addressing_style"] = style
            client = session.create_client(
                "s3", region_name=region, endpoint_url=endpoint, aws_access_key_id="A",
                aws_secret_access_key="B",
                config=botocore.config.Config(s3=s3cfg, retries={"max_attempts": 0}))

            def before_send(request, **kwargs):
                raise Captured(request.url)
            client.meta.events.register("before-send.s3", before_send)
            cache[ck] = client
        try:
            cache[ck].get_object(Bucket=bucket, Key=key)
        except Captured as c:
            return c.args[0]
        except Exception as e:  # noqa: BLE001 - reported as a mismatch
            return f"error {type(e).__name__}: {e}"
        return None
    return url_for


def check_urls(tool, results):
    buckets = ["abc", "export-bucket", "a.b.c", "my.dotted.bucket", "UpperCase", "under_score",
               "ab", "x" * 63, "x" * 64, "192.168.1.1", "-dash", "dash-", "xn--abc", "a..b",
               "123", "a-b.c-d.e-f"]
    keys = ["k", "dir/file.json.gz", "with space/+=~", "//x", "ключ/😀", "a/./b"]
    regions = ["us-east-1", "us-west-2", "eu-central-1", "cn-north-1", "cn-northwest-1",
               "us-gov-west-1", "us-iso-east-1", "us-isob-east-1", "ap-southeast-5",
               "eu-isoe-west-1", "us-isof-south-1", "eusc-de-east-1", "aws-global"]
    endpoints = [None, "http://127.0.0.1:4568", "http://localhost:4566",
                 "https://s3.custom.example", "http://s3.custom.example:9000",
                 "https://minio.example/base/path/", "http://[::1]:9000"]
    styles = [None, "path", "virtual"]
    url_for = botocore_clients()
    cases = []
    for bucket, key, region, endpoint, style in itertools.product(buckets, keys[:2], regions[:4],
                                                                  endpoints, styles):
        cases.append((bucket, key, region, endpoint, style))
    for bucket, key, region in itertools.product(buckets[:5], keys, regions):
        cases.append((bucket, key, region, None, None))
    requests = [{"method": "GET", "endpoint": e, "style": s, "bucket": b, "key": k,
                 "query": None, "headers": [], "body_b64": "", "region": r, "time": 0,
                 "akid": "A", "secret": "B", "token": None} for b, k, r, e, s in cases]
    out = run_sign(tool, requests)
    ours = json.loads(out.stdout)
    bad = []
    skipped = 0
    for (bucket, key, region, endpoint, style), got in zip(cases, ours):
        theirs = url_for(bucket, key, region, endpoint, style)
        mine = got.get("url", "error " + json.dumps(got.get("error")))
        if OLD_BOTOCORE and (region in NEW_PARTITION_REGIONS
                             or (style == "virtual" and "." in bucket and endpoint
                                 and endpoint.startswith("http:")
                                 and any(len(label) < 3 for label in bucket.split(".")))):
            skipped += 1
            continue
        if endpoint and style == "virtual" and "." in bucket and endpoint.startswith("http:") \
                and ("127.0.0.1" in endpoint or "[::1]" in endpoint):
            # botocore's one known nonsense, documented in s3.h: a dotted bucket over http to
            # an IP address becomes a host like a.b.c.127.0.0.1; ours stays path-style.
            if mine != theirs and mine.startswith(endpoint + "/" + bucket + "/"):
                continue
        if theirs.startswith("error"):
            # botocore refuses the combination (a bucket name it rejects): so must we, or at
            # least not produce a URL botocore would not.
            continue
        if mine != theirs:
            bad.append((f"{bucket} {key} {region} {endpoint} {style}",
                        f"ours {mine} botocore {theirs}"))
    if skipped:
        lib.log(f"botocore {botocore.__version__} predates 1.35: {skipped} combinations it "
                "resolves by older rules left out")
    results.append((f"URLs of {len(cases) - skipped} bucket/key/region/endpoint/style "
                    f"combinations equal botocore {botocore.__version__}'s", bad))


def main():
    tool = sys.argv[1]
    results = []
    check_urls(tool, results)
    check_signatures(tool, results)
    print(f"1..{len(results)}")
    failed = 0
    for n, (name, bad) in enumerate(results, 1):
        if bad:
            failed += 1
            print(f"not ok {n} - {name}: {len(bad)} mismatches")
            for what, detail in bad[:int(os.environ.get("SHOW", "15"))]:
                print(f"#   {what!r}: {detail}".replace("\n", "\n#     "))
        else:
            print(f"ok {n} - {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
