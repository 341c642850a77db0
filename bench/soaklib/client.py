"""DynamoDB's JSON 1.0 protocol over raw HTTP to `serve` (which, without --auth, takes any
signature): one keep-alive connection per client, and every call ends in one of three ways:

- an answer (HTTP status and JSON body): serve decided, and said what;
- NotSent: no connection could be made, so the request never reached serve (retried by call());
- Lost: the request was sent (at least partly) and no whole answer came back (reset, EOF,
  timeout): the outcome is unknown, and for a write it is UNCERTAIN.
"""
import http.client
import json
import select
import socket
import threading
import time
import zlib

HEADERS = {
    "Content-Type": "application/x-amz-json-1.0",
    "X-Amz-Date": "20240101T000000Z",
    "Authorization": "AWS4-HMAC-SHA256 Credential=soak/20240101/us-east-1/dynamodb/"
                     "aws4_request, SignedHeaders=host;x-amz-date, Signature=00",
}
DYNAMODB = "DynamoDB_20120810."
STREAMS = "DynamoDBStreams_20120810."


class Lost(Exception):
    """Sent, and the answer was lost: the outcome is unknown."""

    def __init__(self, why, timeout=False):
        super().__init__(why)
        self.timeout = timeout


class NotSent(Exception):
    """No connection: nothing reached serve."""


class Stopped(Exception):
    """The run is over while waiting for serve to come back."""


class Endpoint:
    """Where serve listens now. The controller publishes each new process (its generation
    counts up), and marks it down before killing it; clients that cannot connect wait here
    for the next generation."""

    def __init__(self):
        self.cond = threading.Condition()
        self.port = None
        self.generation = 0
        self.up = False
        self.closed = False

    def publish(self, port):
        with self.cond:
            self.port, self.up = port, True
            self.generation += 1
            self.cond.notify_all()

    def mark_down(self):
        with self.cond:
            self.up = False

    def close(self):
        """Wakes every waiting client for good (the run is stopping)."""
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def current(self):
        with self.cond:
            return self.port, self.generation

    def wait_next(self, generation, timeout):
        """Until a process newer than `generation` is published (or the run stops). The timeout
        is a backstop: a process that died on its own is noticed by the controller, which then
        publishes its successor."""
        with self.cond:
            self.cond.wait_for(lambda: self.closed or (self.up and self.generation > generation),
                               timeout)
            if self.closed:
                raise Stopped()


def error_type(body):
    """The exception's short name: "ConditionalCheckFailedException"."""
    kind = body.get("__type", "") if isinstance(body, dict) else ""
    return kind.rsplit("#", 1)[-1]


class Client:
    """One thread's connection to whichever serve process is current."""

    def __init__(self, endpoint, timeout=60.0):
        self.endpoint = endpoint
        self.timeout = timeout
        self.conn = None
        self.generation = None
        self.crc_mismatches = 0
        self.attempt_started = None   # when the last attempt began (time.monotonic())

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def _stale(self):
        """A kept connection that the peer closed (serve killed, or its idle timeout): its
        socket reads as ready (EOF or reset). Reusing it would turn a request that serve never
        saw into a Lost one."""
        sock = self.conn.sock
        return sock is None or bool(select.select([sock], [], [], 0)[0])

    def _connect(self):
        port, generation = self.endpoint.current()
        if self.conn is not None and (self.generation != generation or self._stale()):
            self.close()
        if self.conn is None:
            if port is None:
                raise NotSent("no serve yet")
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=self.timeout)
            try:
                conn.connect()
            except OSError as e:
                conn.close()
                raise NotSent(e) from None
            self.conn, self.generation = conn, generation
        return self.generation

    def call_once(self, op, request, api=DYNAMODB):
        """One attempt: (status, body), or NotSent, or Lost."""
        self.attempt_started = time.monotonic()
        self._connect()
        data = json.dumps(request).encode()
        try:
            self.conn.request("POST", "/", data, dict(HEADERS, **{"X-Amz-Target": api + op}))
            response = self.conn.getresponse()
            payload = response.read()
        except socket.timeout:
            self.close()
            raise Lost("timeout", timeout=True) from None
        except (OSError, http.client.HTTPException) as e:
            self.close()
            raise Lost(e) from None
        crc = response.getheader("x-amz-crc32")
        if crc is not None and int(crc) != zlib.crc32(payload):
            self.crc_mismatches += 1
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        try:
            body = json.loads(payload) if payload else {}
        except ValueError:
            body = {"__type": "soak#UnparsableAnswer", "text": payload[:200].decode("latin-1")}
        return response.status, body

    def call(self, op, request, api=DYNAMODB, stop=None):
        """Like call_once, but waits for serve while it cannot be reached (NotSent is safe to
        retry: nothing was sent). Raises Stopped if the run ends meanwhile."""
        while True:
            _, generation = self.endpoint.current()
            try:
                return self.call_once(op, request, api)
            except NotSent:
                if stop is not None and stop.is_set():
                    raise Stopped() from None
                self.endpoint.wait_next(generation, timeout=1.0)
