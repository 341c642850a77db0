#!/usr/bin/env python3
"""Writes fuzz/corpus/sigv4/: seeds for fuzz-sigv4, raw HTTP/1.1 requests (see the top of
fuzz/fuzz-sigv4.c).

The requests come from what others wrote:
- AWS's SigV4 test suite (tests/net/sigv4-suite/v4, Apache-2.0, its LICENSE and NOTICE there):
  each case's request as signed in an Authorization header ("suite-CASE"), a few as presigned
  URLs ("suite-CASE-presigned"): they verify for the service "service" at the suite's time;
- DynamoDB requests as botocore signs them (the AWS CLI's engine; Debian's python3-botocore):
  GetItem as the AWS CLI sends it, PutItem with a session token, ListTables, a Streams call,
  and requests with odd paths, queries and headers botocore signs as they are ("botocore-*");
- DynamoDB requests presigned by botocore's SigV4QueryAuth (the body kept, its hash signed; with
  a session token, queries of their own, a week's lifetime: "presigned-*");
- refusals of serve --auth's tests (tests/net/test-sigv4-verify.c and
  test-sigv4-presign.c): malformed Authorization headers, and
  hostile presigned queries (parameters missing, empty, given twice, encoded otherwise, bytes
  that are not UTF-8, X-Amz-Expires out of range, both kinds of signature: "query-*").

    fuzz/make-sigv4-seeds.py [OUT_DIR]
"""
import datetime
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus", "sigv4")
SUITE = os.path.join(TOP, "tests", "net", "sigv4-suite", "v4")

AKID = "AKIDEXAMPLE"
SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
TOKEN = "FQoGZXIvYXdzEXAMPLETOKEN"
WHEN = datetime.datetime(2015, 8, 30, 12, 36, 0)
GETITEM = (b'{"TableName":"Music","Key":{"Artist":{"S":"No One You Know"},'
           b'"SongTitle":{"S":"Call Me Today"}}}')
PRESIGNED = ("get-vanilla-query-order-key-case", "get-vanilla-with-session-token",
             "post-x-www-form-urlencoded-parameters", "get-utf8", "get-slash-dot-slash-normalized")


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def suite_seeds():
    for case in sorted(os.listdir(SUITE)):
        path = os.path.join(SUITE, case, "header-signed-request.txt")
        if os.path.isfile(path):
            with open(path, "rb") as f:
                write("suite-" + case, f.read())
        if case in PRESIGNED:
            with open(os.path.join(SUITE, case, "query-signed-request.txt"), "rb") as f:
                write("suite-" + case + "-presigned", f.read())


def botocore_request(method, url, headers, body, token=None, service="dynamodb"):
    """The request botocore sends, signed at WHEN, as raw HTTP/1.1."""
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials

    req = AWSRequest(method=method, url=url, data=body, headers=headers)
    auth = SigV4Auth(Credentials(AKID, SECRET, token), service, "us-east-1")
    req.context["timestamp"] = WHEN.strftime("%Y%m%dT%H%M%SZ")
    auth._modify_request_before_signing(req)
    canonical = auth.canonical_request(req)
    auth._inject_signature_to_request(req, auth.signature(auth.string_to_sign(req, canonical),
                                                          req))
    split = url.split("/", 3)
    target = "/" + (split[3] if len(split) > 3 else "")
    lines = [f"{method} {target} HTTP/1.1"]
    if "host" not in {k.lower() for k in req.headers}:
        lines.append("Host:" + split[2])
    lines += [f"{k}:{v}" for k, v in req.headers.items()]
    return "\n".join(lines).encode() + b"\n\n" + (body or b"")


def botocore_seeds():
    try:
        import botocore  # noqa: F401
    except ImportError:
        print("botocore missing: no botocore-* seeds", file=sys.stderr)
        return
    json_headers = {"Content-Type": "application/x-amz-json-1.0",
                    "User-Agent": "aws-cli/2.15.0 Python/3.11.2 Linux/6.1 botocore/1.43.11",
                    "Accept-Encoding": "identity"}
    write("botocore-getitem", botocore_request(
        "POST", "http://localhost:8000/",
        dict(json_headers, **{"X-Amz-Target": "DynamoDB_20120810.GetItem"}), GETITEM))
    write("botocore-putitem-token", botocore_request(
        "POST", "https://dynamodb.us-east-1.amazonaws.com/",
        dict(json_headers, **{"X-Amz-Target": "DynamoDB_20120810.PutItem"}),
        b'{"TableName":"Music","Item":{"Artist":{"S":"Acme Band"},"Year":{"N":"2015"}}}',
        token=TOKEN))
    write("botocore-listtables", botocore_request(
        "POST", "http://127.0.0.1:8000/",
        dict(json_headers, **{"X-Amz-Target": "DynamoDB_20120810.ListTables"}), b"{}"))
    write("botocore-streams", botocore_request(
        "POST", "https://streams.dynamodb.us-east-1.amazonaws.com/",
        dict(json_headers, **{"X-Amz-Target": "DynamoDBStreams_20120810.ListStreams"}),
        b'{"TableName":"Music"}'))
    # Paths, queries and headers that the canonical request encodes, sorts and trims.
    write("botocore-odd-path", botocore_request(
        "GET", "http://localhost:8000/a/./b/../c//d%20e/%7Efoo/", {}, None))
    write("botocore-odd-query", botocore_request(
        "GET", "http://localhost:8000/?b=2&a=&a=1&c&sp%20ace=%2F&~t=-._&b=1", {}, None))
    write("botocore-odd-headers", botocore_request(
        "POST", "http://localhost:8000/",
        {"X-Amz-Target": "DynamoDB_20120810.Scan", "My-Header": "  a   b\t c  ",
         "Content-Type": "application/json", "X-Empty": "", "x-amz-meta-dup": "one"},
        b'{"TableName":"T"}'))


def body_keeping_query_auth(creds, expires):
    """botocore's SigV4QueryAuth with the body kept as the body (it moves a body to the query)."""
    from botocore.auth import SigV4QueryAuth

    class Auth(SigV4QueryAuth):
        def _modify_request_before_signing(self, request):
            data, request.data = request.data, b""
            try:
                super()._modify_request_before_signing(request)
            finally:
                request.data = data

    return Auth(creds, "dynamodb", "us-east-1", expires=expires)


def presigned_request(url, target, body, token=None, expires=3600):
    """A POST presigned by botocore at WHEN, as raw HTTP/1.1."""
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials

    headers = {"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": target}
    req = AWSRequest(method="POST", url=url, data=body, headers=headers)
    auth = body_keeping_query_auth(Credentials(AKID, SECRET, token), expires)
    req.context["timestamp"] = WHEN.strftime("%Y%m%dT%H%M%SZ")
    auth._modify_request_before_signing(req)
    canonical = auth.canonical_request(req)
    auth._inject_signature_to_request(req, auth.signature(auth.string_to_sign(req, canonical),
                                                          req))
    split = req.url.split("/", 3)
    lines = [f"POST /{split[3]} HTTP/1.1", "Host:" + split[2]]
    lines += [f"{k}:{v}" for k, v in req.headers.items()]
    return "\n".join(lines).encode() + b"\n\n" + body


def presigned_seeds():
    try:
        import botocore  # noqa: F401
    except ImportError:
        print("botocore missing: no presigned-* seeds", file=sys.stderr)
        return
    write("presigned-getitem", presigned_request(
        "http://localhost:8000/", "DynamoDB_20120810.GetItem", GETITEM))
    write("presigned-putitem-token", presigned_request(
        "http://127.0.0.1:8000/", "DynamoDB_20120810.PutItem",
        b'{"TableName":"Music","Item":{"Artist":{"S":"Acme Band"},"Year":{"N":"2015"}}}',
        token=TOKEN, expires=604800))
    write("presigned-listtables-query", presigned_request(
        "http://localhost:8000/?b=2&a=&a=1&c&sp%20ace=%2F&~t=-._", "DynamoDB_20120810.ListTables",
        b"{}", expires=1))


# The suite's get-vanilla, presigned (tests/net/sigv4-suite: query-signed-request.txt, with
# X-Amz-Expires added), its signature left as it is: each seed a hostile variant of its query.
PRESIGNED_QUERY = ("X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F20150830%2F"
                   "us-east-1%2Fservice%2Faws4_request&X-Amz-Date=20150830T123600Z&X-Amz-Expires="
                   "86400&X-Amz-SignedHeaders=host&X-Amz-Signature="
                   "00000000000000000000000000000000000000000000000000000000000000aa")
HOSTILE_QUERIES = [
    "X-Amz-Algorithm",
    "X-Amz-Algorithm=&X-Amz-Credential=&X-Amz-Date=&X-Amz-Expires=&X-Amz-SignedHeaders=&"
    "X-Amz-Signature=&X-Amz-Security-Token=",
    PRESIGNED_QUERY + "&X-Amz-Date=20150830T123600Z&X-Amz-Signature=00",
    PRESIGNED_QUERY + "&X-Amz-Security-Token=a&X-Amz-Security-Token=b",
    PRESIGNED_QUERY.replace("X-Amz-Date=", "X-Amz-%44ate=").replace("Algorithm", "%41lgorithm"),
    PRESIGNED_QUERY.replace("%2F", "/"),
    PRESIGNED_QUERY.replace("86400", "0"),
    PRESIGNED_QUERY.replace("86400", "-1"),
    PRESIGNED_QUERY.replace("86400", "604801"),
    PRESIGNED_QUERY.replace("86400", "99999999999999999999999999"),
    PRESIGNED_QUERY.replace("86400", "1e3"),
    PRESIGNED_QUERY.replace("86400", "%2086400"),
    PRESIGNED_QUERY.replace("X-Amz-Date=20150830T123600Z", "X-Amz-Date=20150830T123600Z%00x"),
    PRESIGNED_QUERY.replace("AKIDEXAMPLE", "AKID%FF%FE%2F%ZZ%2%"),
    PRESIGNED_QUERY.replace("SignedHeaders=host", "SignedHeaders=HOST%3Bhost%3B%3Bx-amz-date"),
    PRESIGNED_QUERY.replace("AWS4-HMAC-SHA256", "AWS4-HMAC-SHA1"),
    PRESIGNED_QUERY.replace("%2Faws4_request", "%2Faws4_request%2F%2F"),
    "&&" + PRESIGNED_QUERY + "&&a&=b&%3D=%26",
    # What fuzz-sigv4 found (in its own expectations): only a token, given twice.
    "X-A%FF=&X-Amz-Security-Token=&X-Amz-Security-Token=%20",
]


def hostile_query_seeds():
    for i, query in enumerate(HOSTILE_QUERIES):
        write(f"query-{i}", f"GET /?{query} HTTP/1.1\nHost:example.amazonaws.com\n\n")
    write("query-both",
          f"GET /?{PRESIGNED_QUERY} HTTP/1.1\nHost:example.amazonaws.com\n"
          "X-Amz-Date:20150830T123600Z\nAuthorization:AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"
          "20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, "
          "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31\n\n")
    write("query-many",
          "GET /?" + "&".join(f"p{i % 97}={i}" for i in range(2000)) + "&" + PRESIGNED_QUERY
          + " HTTP/1.1\nHost:example.amazonaws.com\n\n")


MALFORMED = [
    # serve --auth's refusals (tests/net/test-sigv4-verify.c), on the suite's get-vanilla.
    "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request",
    "AWS4-HMAC-SHA256",
    "AWS4-HMAC-SHA256 Signature=b,    Credential,    SignedHeaders",
    "AWS4-HMAC-SHA1 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
    "SignedHeaders=x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
    "AWS4-HMAC-SHA256 Credential=a/b/c/d, SignedHeaders=host;x-amz-date, Signature=00",
    "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request//, "
    "SignedHeaders=host;;HOST; x-amz-date ;, Signature=,Signature=1,Credential=",
    "Bearer abc",
    "AWS4-",
]


def malformed_seeds():
    for i, auth in enumerate(MALFORMED):
        write(f"malformed-{i}",
              "GET /?a=AWS4-HMAC-SHA256&X-Amz-Signature=00 HTTP/1.1\n"
              "Host:example.amazonaws.com\nX-Amz-Date:20150830T123600Z\n"
              f"Authorization:{auth}\n\n")
    # What fuzz-sigv4 found: bytes that are not UTF-8 quoted in a message; a name listed many
    # times over many headers of that name.
    write("malformed-not-utf8",
          b"GET / HTTP/1.1\nHost:example.amazonaws.com\nX-Amz-Date:20150830T123600Z\n"
          b"Authorization:AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\xff/20150830/us-east-1/service/"
          b"aws4_request, SignedHeaders=host;x-amz-date, Signature\xfe00\n\n")
    write("repeated-signed-names",
          "GET / HTTP/1.1\nHost:example.amazonaws.com\nX-Amz-Date:20150830T123600Z\n"
          + "Host:a\n" * 64
          + "Authorization:AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/"
          "aws4_request, SignedHeaders=" + "host;" * 64 + "x-amz-date, Signature=00\n\n")
    # No X-Amz-Date: Date, in the basic format and in HTTP's.
    write("malformed-date",
          "GET / HTTP/1.1\nHost:example.amazonaws.com\nDate:Sun, 30 Aug 2015 12:36:00 GMT\n"
          "Authorization:AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/"
          "aws4_request, SignedHeaders=date;host, Signature=00\n\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    suite_seeds()
    botocore_seeds()
    presigned_seeds()
    malformed_seeds()
    hostile_query_seeds()


if __name__ == "__main__":
    main()
