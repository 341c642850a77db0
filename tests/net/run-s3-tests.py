#!/usr/bin/env python3
"""Runs src/net/s3.c (through tests/net/s3-tool) against servers started here:

    run-s3-tests.py S3_TOOL fakes    the fake S3 of s3_fakes.py: region redirects (header,
                                     HeadBucket, AuthorizationHeaderMalformed), retries of 5xx,
                                     SlowDown and throttling, error names, downloads cut or
                                     stalled mid-way and resumed (Range + If-Match), an object
                                     that changes meanwhile, Range and If-Match asked for
    run-s3-tests.py S3_TOOL s3rver   s3rver (npm, installed into the cache once like dynalite):
                                     objects of 0 B, 1 B and 10 MB both ways, keys of every kind
                                     read and written by boto3 too, ListObjectsV2 over 1000 keys
                                     and with a delimiter, errors, a download cut by a proxy and
                                     resumed, AWS_ENDPOINT_URL_S3

Exit status: 0 when every test passed, 77 (skipped) when node or s3rver cannot be had."""
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, HERE)
import dynoscope_testlib as lib  # noqa: E402
from s3rver_lib import S3rver  # noqa: E402
import s3rver_lib  # noqa: E402

lib.use_system_python_for_boto3()

TOOL = None
S3_ERROR = "ddb-s3-error-quark"
TIMEOUT = 600


def run_tool(args, env):
    out = subprocess.run([TOOL, *args], env=env, capture_output=True, text=True,
                         timeout=TIMEOUT)
    if out.returncode not in (0, 1) or not out.stdout.strip() \
            or "runtime error:" in out.stderr or "Sanitizer" in out.stderr:
        raise AssertionError(f"s3-tool {args} exited {out.returncode}: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


class ToolCase(unittest.TestCase):
    endpoint = None
    env = None

    def tool(self, *args, region="us-east-1", endpoint=True, env=None, opts=()):
        pre = ["--region", region, "--base-delay-ms", "1", *opts]
        if endpoint:
            pre += ["--endpoint", self.endpoint]
        return run_tool([*pre, *args], env or self.env)

    def ok(self, result):
        self.assertNotIn("error", result, json.dumps(result))
        return result

    def s3_error(self, result, name):
        self.assertIn("error", result, json.dumps(result))
        err = result["error"]
        self.assertEqual(err["domain"], S3_ERROR, err)
        self.assertTrue(err["message"].startswith(name + ":"), err["message"])
        return err

    def get_bytes(self, bucket, key, *extra, **kw):
        with tempfile.NamedTemporaryFile(delete=False) as f:
            path = f.name
        try:
            result = self.tool("get", bucket, key, path, *extra, **kw)
            with open(path, "rb") as f:
                return result, f.read()
        finally:
            os.unlink(path)

    def put_bytes(self, bucket, key, data, **kw):
        with tempfile.NamedTemporaryFile(delete=False) as f:
            f.write(data)
            path = f.name
        try:
            return self.tool("put", bucket, key, path, **kw)
        finally:
            os.unlink(path)


# ---------------------------------------------------------------------------------------------
# The fake S3


class FakeTests(ToolCase):
    @classmethod
    def setUpClass(cls):
        import s3_fakes
        cls.fakes = s3_fakes
        cls.server = s3_fakes.FakeS3().start()
        cls.endpoint = cls.server.url
        cls.env = lib.client_env({"AWS_ACCESS_KEY_ID": s3_fakes.KEY_ID,
                                  "AWS_SECRET_ACCESS_KEY": s3_fakes.SECRET,
                                  "AWS_EC2_METADATA_DISABLED": "true"})

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def setUp(self):
        self.server.take_log()
        self.server.counts.clear()

    def data(self, bucket, key):
        return self.server.objects[(bucket, key)].data

    def signed_regions(self, log):
        self.assertTrue(all(e["region"] is not None for e in log), log)
        return [e["region"] for e in log]

    def test_redirect_with_header_then_cached(self):
        result, got = self.get_bytes("moved", "obj", "--repeat", "2")
        self.ok(result)
        self.assertEqual(got, self.data("moved", "obj"))
        self.assertEqual(result["calls"], [{"attempts": 2, "resumes": 0, "redirects": 1},
                                           {"attempts": 1, "resumes": 0, "redirects": 0}])
        self.assertEqual(self.signed_regions(self.server.take_log()),
                         ["us-east-1", "eu-west-2", "eu-west-2"])

    def test_redirect_found_by_head_bucket(self):
        result, got = self.get_bytes("hidden", "obj")
        self.ok(result)
        self.assertEqual(got, self.data("hidden", "obj"))
        log = self.server.take_log()
        self.assertEqual([(e["method"], e["key"]) for e in log],
                         [("GET", "obj"), ("HEAD", None), ("GET", "obj")])
        self.assertEqual(self.signed_regions(log)[2], "ap-southeast-2")

    def test_redirect_authorization_header_malformed(self):
        result, got = self.get_bytes("malformed", "obj")
        self.ok(result)
        self.assertEqual(got, self.data("malformed", "obj"))
        self.assertEqual(self.signed_regions(self.server.take_log()),
                         ["us-east-1", "eu-central-1"])

    def test_redirect_head_and_put(self):
        head = self.ok(self.tool("head", "moved", "obj"))
        self.assertEqual(head["size"], 300_000)
        self.assertEqual(head["call"]["redirects"], 1)
        put = self.ok(self.put_bytes("malformed", "new-object", b"written after a redirect"))
        self.assertEqual(put["call"]["redirects"], 1)
        self.assertEqual(self.server.objects[("malformed", "new-object")].data,
                         b"written after a redirect")
        self.assertEqual(self.signed_regions(self.server.take_log()),
                         ["us-east-1", "eu-west-2", "us-east-1", "eu-central-1"])

    def test_bucket_region(self):
        for bucket, (region, _) in self.fakes.REGIONS.items():
            self.assertEqual(self.ok(self.tool("bucket-region", bucket))["region"], region)

    def test_retries_clear(self):
        for key in ["slowdown-2", "internal-2", "throttle-2"]:
            result, got = self.get_bytes("home", key)
            self.ok(result)
            self.assertEqual(got, self.data("home", key))
            self.assertEqual(result["calls"][0]["attempts"], 3, key)

    def test_retries_give_up_named(self):
        result, got = self.get_bytes("home", "slowdown-99", opts=["--max-attempts", "3"])
        self.s3_error(result, "SlowDown")
        self.assertEqual(result["last"]["attempts"], 3)
        self.assertEqual(len(self.server.take_log()), 3)

    def test_errors_named_not_retried(self):
        cases = [("home", "missing", "NoSuchKey", 1), ("nope", "obj", "NoSuchBucket", 2),
                 ("home", "forbidden", "AccessDenied", 3)]
        for bucket, key, name, code in cases:
            result, _ = self.get_bytes(bucket, key)
            err = self.s3_error(result, name)
            self.assertEqual(err["code"], code)
            self.assertIn(f"s3://{bucket}/{key}", err["message"])
            self.assertEqual(result["last"]["attempts"], 1)
        # HEAD answers carry no body: the name comes from the status.
        err = self.s3_error(self.tool("head", "home", "missing"), "NoSuchKey")
        self.assertEqual(err["code"], 1)

    def check_resumed(self, key, resumes):
        result, got = self.get_bytes("home", key, opts=["--idle-timeout-ms", "1000"])
        self.ok(result)
        data = self.data("home", key)
        self.assertEqual(len(got), len(data), key)
        self.assertEqual(got, data, key)
        self.assertEqual(result["calls"][0]["resumes"], resumes, key)
        log = self.server.take_log()
        self.assertEqual(len(log), resumes + 1)
        self.assertIsNone(log[0]["range"])
        etag = self.server.objects[("home", key)].etag
        for e in log[1:]:
            self.assertRegex(e["range"], r"^bytes=[1-9][0-9]*-$")
            self.assertEqual(e["if_match"], etag)
        return log

    def test_resume_after_cut(self):
        self.check_resumed("cut", 1)

    def test_resume_after_three_cuts(self):
        log = self.check_resumed("cut-3", 3)
        offsets = [int(e["range"][6:-1]) for e in log[1:]]
        self.assertEqual(offsets, sorted(offsets))

    def test_resume_after_stall(self):
        self.check_resumed("stall", 1)

    def test_resume_when_range_is_ignored(self):
        result, got = self.get_bytes("home", "ignore-range")
        self.ok(result)
        self.assertEqual(got, self.data("home", "ignore-range"))
        self.assertEqual(result["calls"][0]["resumes"], 1)

    def test_object_changed_while_resuming(self):
        result, got = self.get_bytes("home", "changed")
        self.s3_error(result, "PreconditionFailed")
        data = self.data("home", "changed")
        # What reached the sink is a true prefix of the object, never a byte of another one.
        self.assertTrue(0 < len(got) < len(data))
        self.assertEqual(got, data[:len(got)])

    def test_start_and_if_match(self):
        data = self.data("home", "obj")
        etag = self.server.objects[("home", "obj")].etag
        for start in [1, 1000, len(data) - 1]:
            result, got = self.get_bytes("home", "obj", "--start", str(start), "--if-match", etag)
            self.ok(result)
            self.assertEqual(got, data[start:])
            self.assertEqual(result["size"], len(data))
        result, _ = self.get_bytes("home", "obj", "--if-match", '"not-the-etag"')
        self.s3_error(result, "PreconditionFailed")
        result, _ = self.get_bytes("home", "obj", "--start", str(len(data)))
        self.s3_error(result, "InvalidRange")

    def test_threads_share_one_client(self):
        # Eight downloads at once through one DdbS3: each redirected or cut, all whole.
        for bucket, key in [("moved", "obj"), ("home", "cut-3"), ("hidden", "obj")]:
            result = self.ok(self.tool("get-parallel", bucket, key, "8"))
            md5 = hashlib.md5(self.data(bucket, key)).hexdigest()
            for d in result["downloads"]:
                self.assertNotIn("error", d, d)
                self.assertEqual((d["size"], d["md5"]), (300_000, md5))
            self.assertTrue(all(e["region"] is not None for e in self.server.take_log()))
            self.server.counts.clear()

    def test_empty_object(self):
        result, got = self.get_bytes("home", "empty")
        self.ok(result)
        self.assertEqual(got, b"")
        self.assertEqual(result["size"], 0)
        self.assertEqual(result["etag"], '"%s"' % hashlib.md5(b"").hexdigest())


# ---------------------------------------------------------------------------------------------
# s3rver


# Not "a//b": s3rver's router answers 404 to it, for boto3 as for us; not "a/./b": s3rver
# stores keys as file paths and lists it as "a/b"; and no segment longer than a file name.
# (The signature corpus of s3-botocore-check.py has all three.)
ODD_KEYS = ["with space", "plus+sign", "equals=sign", "tilde~", "trailing/",
            "üñíçødé/ключ/キー", "emoji 😀", "percent%20literal", "amp&and=x?y#z",
            "brackets[]{}()", "quote'\"", "/".join(["x" * 200] * 5), "AWSDynamoDB/01234567890123-abc/data/a.json.gz"]


class S3rverTests(ToolCase):
    server = None
    bucket = "dynoscope-exports"

    @classmethod
    def setUpClass(cls):
        import boto3
        import botocore.config
        cls.tmp = tempfile.TemporaryDirectory(prefix="dynoscope-s3rver-")
        cls.server = S3rver(CLI, cls.tmp.name)
        if not cls.server.start():
            raise RuntimeError("s3rver did not start")
        cls.endpoint = cls.server.url
        cls.env = lib.client_env({"AWS_ACCESS_KEY_ID": "S3RVER",
                                  "AWS_SECRET_ACCESS_KEY": "S3RVER",
                                  "AWS_EC2_METADATA_DISABLED": "true"})
        cls.boto = boto3.client("s3", endpoint_url=cls.endpoint, region_name="us-east-1",
                                aws_access_key_id="S3RVER", aws_secret_access_key="S3RVER",
                                config=botocore.config.Config(max_pool_connections=16))
        cls.boto.create_bucket(Bucket=cls.bucket)

    @classmethod
    def tearDownClass(cls):
        if cls.server is not None:
            cls.server.stop()
        cls.tmp.cleanup()

    def test_objects_of_every_size(self):
        for size in [0, 1, 10 * 1024 * 1024]:
            data = os.urandom(size)
            key = f"sizes/{size}"
            put = self.ok(self.put_bytes(self.bucket, key, data))
            md5 = '"%s"' % hashlib.md5(data).hexdigest()
            self.assertEqual(put["etag"], md5)
            result, got = self.get_bytes(self.bucket, key)
            self.ok(result)
            self.assertEqual(got, data, size)
            self.assertEqual((result["size"], result["etag"]), (size, md5))
            head = self.ok(self.tool("head", self.bucket, key))
            self.assertEqual((head["size"], head["etag"]), (size, md5))
            self.assertGreater(head["last_modified"], 1_600_000_000)
            # boto3 reads what we wrote
            self.assertEqual(self.boto.get_object(Bucket=self.bucket, Key=key)["Body"].read(),
                             data)

    def test_keys_both_ways_with_boto3(self):
        for i, key in enumerate(ODD_KEYS):
            ours = f"ours/{key}"
            theirs = f"theirs/{key}"
            data = f"{i}:{key}".encode() * (i + 1)
            self.ok(self.put_bytes(self.bucket, ours, data))
            got = self.boto.get_object(Bucket=self.bucket, Key=ours)["Body"].read()
            self.assertEqual(got, data, key)
            self.boto.put_object(Bucket=self.bucket, Key=theirs, Body=data[::-1])
            result, got = self.get_bytes(self.bucket, theirs)
            self.ok(result)
            self.assertEqual(got, data[::-1], key)
        listing = self.ok(self.tool("list", self.bucket, "--prefix", "ours/"))
        boto_keys = [o["Key"] for o in self.boto.list_objects_v2(
            Bucket=self.bucket, Prefix="ours/")["Contents"]]
        self.assertEqual([o["key"] for o in listing["objects"]], boto_keys)
        self.assertEqual(sorted(o["key"] for o in listing["objects"]),
                         sorted(f"ours/{k}" for k in ODD_KEYS))

    def test_list_pages_and_delimiter(self):
        keys = [f"many/{i:05d}" for i in range(1100)]
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda k: self.boto.put_object(Bucket=self.bucket, Key=k,
                                                         Body=k.encode() * 3), keys))
        listing = self.ok(self.tool("list", self.bucket, "--prefix", "many/"))
        self.assertEqual([o["key"] for o in listing["objects"]], keys)
        for o in listing["objects"]:
            self.assertEqual(o["size"], len(o["key"]) * 3)
            self.assertEqual(o["etag"], '"%s"' % hashlib.md5(o["key"].encode() * 3).hexdigest())
        self.assertEqual(listing["call"]["attempts"], 2)  # two pages of at most 1000
        for key in ["tree/a/1", "tree/a/2", "tree/b/1", "tree/c", "tree/d"]:
            self.boto.put_object(Bucket=self.bucket, Key=key, Body=b"x")
        listing = self.ok(self.tool("list", self.bucket, "--prefix", "tree/", "--delimiter",
                                    "/"))
        self.assertEqual(listing["prefixes"], ["tree/a/", "tree/b/"])
        self.assertEqual([o["key"] for o in listing["objects"]], ["tree/c", "tree/d"])
        empty = self.ok(self.tool("list", self.bucket, "--prefix", "nothing-here/"))
        self.assertEqual((empty["objects"], empty["prefixes"]), ([], []))

    def test_errors_named(self):
        result, _ = self.get_bytes(self.bucket, "no/such/key")
        self.assertEqual(self.s3_error(result, "NoSuchKey")["code"], 1)
        result, _ = self.get_bytes("no-such-bucket-here", "k")
        self.assertEqual(self.s3_error(result, "NoSuchBucket")["code"], 2)
        self.assertEqual(self.s3_error(self.tool("list", "no-such-bucket-here"),
                                       "NoSuchBucket")["code"], 2)
        self.s3_error(self.tool("head", self.bucket, "no/such/key"), "NoSuchKey")

    def test_download_cut_by_proxy_resumes(self):
        import s3_fakes
        data = os.urandom(10 * 1024 * 1024)
        self.boto.put_object(Bucket=self.bucket, Key="big/cut", Body=data)
        proxy = s3_fakes.CuttingProxy(self.server.port, 3 * 1024 * 1024 + 12345)
        try:
            old = self.endpoint
            self.endpoint = proxy.url
            result, got = self.get_bytes(self.bucket, "big/cut")
        finally:
            self.endpoint = old
            proxy.stop()
        self.ok(result)
        self.assertEqual(proxy.cuts, 1)
        self.assertEqual(result["calls"][0]["resumes"], 1)
        self.assertEqual(len(got), len(data))
        self.assertEqual(got, data)

    def test_configured_endpoint_from_environment(self):
        data = b"found through the environment"
        self.boto.put_object(Bucket=self.bucket, Key="env/key", Body=data)
        envs = [{"AWS_ENDPOINT_URL_S3": self.endpoint, "AWS_ENDPOINT_URL": "http://127.0.0.1:9"},
                {"AWS_ENDPOINT_URL": self.endpoint,
                 "AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:9"}]
        for extra in envs:
            env = dict(self.env)
            env.update(extra)
            result, got = self.get_bytes(self.bucket, "env/key", endpoint=False, env=env)
            self.ok(result)
            self.assertEqual(got, data)


def main():
    global TOOL, CLI
    TOOL, mode = sys.argv[1], sys.argv[2]
    if mode == "fakes":
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(FakeTests)
    elif mode == "s3rver":
        CLI, why = s3rver_lib.find_or_install()
        if CLI is None:
            print(f"1..0 # SKIP {why}")
            return lib.SKIP
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(S3rverTests)
    else:
        print(f"unknown mode {mode}", file=sys.stderr)
        return 2
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    print(f"{result.testsRun - len(result.failures) - len(result.errors)} passed, "
          f"{len(result.failures) + len(result.errors)} failed")
    return 0 if result.wasSuccessful() else 1


CLI = None

if __name__ == "__main__":
    sys.exit(main())
