"""s3rver (npm), a real S3 implementation on loopback, for the tests that need a bucket
(tests/net/run-s3-tests.py, tests/exports/run-s3-import-tests.py, bench/bench-s3-import.sh):
found in DYNOSCOPE_S3RVER_DIR or installed into the test cache once, started on a free port over
a folder; and SlowProxy, a TCP proxy that paces the answers it forwards (a download that is still
going when a test acts on it)."""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dynoscope_testlib as lib  # noqa: E402

S3RVER_PACKAGE = "s3rver@3.7.1"
# s3rver accepts any credentials; these are the ones its documentation uses.
KEY_ID = "S3RVER"
SECRET = "S3RVER"


def s3rver_dirs():
    dirs = []
    if os.environ.get("DYNOSCOPE_S3RVER_DIR"):
        dirs.append(os.environ["DYNOSCOPE_S3RVER_DIR"])
    dirs.append(lib.cache_dir("s3rver"))
    return dirs


def find_s3rver():
    for d in s3rver_dirs():
        cli = os.path.join(d, "node_modules", "s3rver", "bin", "s3rver.js")
        if os.path.isfile(cli):
            return cli
    return None


def install_s3rver():
    if shutil.which("npm") is None or not lib.npm_install(s3rver_dirs()[0], S3RVER_PACKAGE):
        return None
    return find_s3rver()


def find_or_install():
    """s3rver's bin/s3rver.js, or None (with the reason as the second value) when node is
    missing or s3rver cannot be installed."""
    if shutil.which("node") is None:
        return None, "node is missing"
    cli = find_s3rver() or install_s3rver()
    if cli is None:
        return None, "s3rver could not be installed (npm missing or offline)"
    return cli, None


class S3rver:
    def __init__(self, cli, directory):
        self.cli = cli
        self.directory = directory
        self.proc = None
        self.port = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        self.port = lib.free_port()
        self.logfile = tempfile.TemporaryFile(mode="w+")
        # s3rver makes its continuation tokens with DES, which OpenSSL 3 only has in its
        # legacy provider.
        self.proc = subprocess.Popen(["node", "--openssl-legacy-provider", self.cli, "-d",
                                      self.directory, "-a", "127.0.0.1", "-p", str(self.port),
                                      "--silent"],
                                     stdout=self.logfile, stderr=subprocess.STDOUT,
                                     start_new_session=True, preexec_fn=lib.die_with_parent)
        if lib.wait_http(self.url, self.proc, 60):
            return True
        self.logfile.seek(0)
        lib.log("s3rver did not start:", self.logfile.read()[-2000:])
        self.stop()
        return False

    def stop(self):
        lib.stop_process_group(self.proc)
        self.proc = None

    def boto3_client(self, max_pool_connections=16):
        import boto3
        import botocore.config
        return boto3.client("s3", endpoint_url=self.url, region_name="us-east-1",
                            aws_access_key_id=KEY_ID, aws_secret_access_key=SECRET,
                            config=botocore.config.Config(
                                max_pool_connections=max_pool_connections))

    def client_env(self, extra=None):
        """An environment for our executables: this S3 through AWS_ENDPOINT_URL_S3."""
        env = lib.client_env({"AWS_ACCESS_KEY_ID": KEY_ID, "AWS_SECRET_ACCESS_KEY": SECRET,
                              "AWS_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true",
                              "AWS_ENDPOINT_URL_S3": self.url})
        env.update(extra or {})
        return env


class SlowProxy:
    """Forwards loopback connections to TARGET_PORT, sending the answers back at most
    BYTES_PER_SECOND per connection; `forwarded` counts the answers' bytes."""

    def __init__(self, target_port, bytes_per_second):
        self.target_port = target_port
        self.rate = bytes_per_second
        self.forwarded = 0
        self.lock = threading.Lock()
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
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
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            threading.Thread(target=self.pump, args=(client, upstream, False),
                             daemon=True).start()
            threading.Thread(target=self.pump, args=(upstream, client, True),
                             daemon=True).start()

    def pump(self, src, dst, paced):
        step = max(1, self.rate // 20)
        try:
            while True:
                data = src.recv(step if paced else 65536)
                if not data:
                    break
                dst.sendall(data)
                if paced:
                    with self.lock:
                        self.forwarded += len(data)
                    time.sleep(len(data) / self.rate)
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
