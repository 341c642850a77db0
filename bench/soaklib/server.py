"""The serve process under test: started on the database file, killed with SIGKILL,
restarted on the same port when it can be had (else on a new one, which the Endpoint tells
the clients), stopped with SIGTERM. Each process's life is kept: how it ended, its stderr,
and its RSS sampled every second."""
import os
import select
import signal
import subprocess
import threading
import time

START_TIMEOUT = 180.0  # seconds for a start to print "Listening on" (ASan, a busy machine)
STOP_TIMEOUT = 180.0   # for a SIGTERM'd serve to finish its requests and close the database
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
                   "SUMMARY: UndefinedBehaviorSanitizer", "ThreadSanitizer")


class StartFailed(Exception):
    pass


class Life:
    """One serve process."""

    def __init__(self, number, proc, port, log_path):
        self.number = number
        self.proc = proc
        self.pid = proc.pid
        self.port = port
        self.log_path = log_path
        self.started = time.monotonic()
        self.ended = None
        self.ending = None      # what we did to it: "killed" or "stopped"; None: it died itself
        self.returncode = None
        self.exited = threading.Event()
        self.rss = []           # (seconds since start, VmRSS in kB)

    @property
    def seconds(self):
        return (self.ended or time.monotonic()) - self.started

    def stderr_text(self):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def sanitizer_report(self):
        text = self.stderr_text()
        return next((line for line in text.splitlines()
                     if any(mark in line for mark in SANITIZER_MARKS)), None)


def asan_built(cli):
    """Whether the CLI (and serve beside it, from the same build) runs under AddressSanitizer."""
    try:
        with open(cli, "rb") as f:
            data = f.read()
    except OSError:
        return False
    return b"libasan.so" in data or b"__asan_init" in data


def capped_quarantine_env(cli):
    """ASan keeps freed memory in a quarantine of 256 MB, which fills at the pace of the
    requests: RSS climbs for as long as that takes, throughput-dependent. Capped at 16 MB, RSS
    levels off within seconds and its flatness means something under ASan too (a setting the
    caller gave is kept). {} when serve is not built with ASan."""
    options = os.environ.get("ASAN_OPTIONS", "")
    if not asan_built(cli) or "quarantine_size_mb" in options:
        return {}
    return {"ASAN_OPTIONS": ":".join(filter(None, [options, "quarantine_size_mb=16"]))}


def read_rss_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None  # gone, or a zombie (no VmRSS line)


class Serve:
    """The one serve process at a time, on `db`."""

    def __init__(self, cli, db, log_dir, endpoint, extra_env=None):
        self.cli, self.db, self.log_dir = cli, db, log_dir
        self.endpoint = endpoint
        self.env = dict(os.environ, **(extra_env or {}))
        self.lives = []
        self.current = None
        self.died = threading.Event()   # set when a process exits that we did not end
        self.port_changes = 0
        self.spawned = 0
        self._sampler_stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample, name="rss", daemon=True)
        self._sampler.start()

    def _popen(self, port):
        self.spawned += 1
        log_path = os.path.join(self.log_dir, "serve-%03d.log" % self.spawned)
        with open(log_path, "w") as log:
            proc = subprocess.Popen([self.cli, "--db", self.db, "serve", "--port", str(port)],
                                    stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL,
                                    env=self.env, text=True)
        return proc, log_path

    def _spawn(self, port):
        proc, log_path = self._popen(port)
        # The first line, "Listening on http://127.0.0.1:PORT", says it is ready.
        deadline = time.monotonic() + START_TIMEOUT
        line = ""
        while not line.endswith("\n"):
            ready, _, _ = select.select([proc.stdout], [], [], max(0, deadline - time.monotonic()))
            if not ready:
                proc.kill()
                proc.wait()
                raise StartFailed("serve did not print Listening within %ds" % START_TIMEOUT)
            chunk = proc.stdout.readline()
            if chunk == "":
                break
            line += chunk
        if not line.startswith("Listening on http://"):
            proc.wait()
            with open(log_path, errors="replace") as f:
                raise StartFailed("serve exited %s at start: %s"
                                  % (proc.returncode, f.read().strip()[-2000:]))
        life = Life(len(self.lives) + 1, proc, int(line.rsplit(":", 1)[1]), log_path)
        self.lives.append(life)
        threading.Thread(target=self._watch, args=(life,), name="watch", daemon=True).start()
        return life

    def kill_while_starting(self, delay):
        """A process killed `delay` seconds after it was started, ready or not (mostly not: it
        is opening the database, recovering what the last kill left): it is never published.
        Booked as a Life; one that exited by itself meanwhile is a crash at start."""
        port = self.current.port if self.current is not None else 0
        proc, log_path = self._popen(port)
        select.select([proc.stdout], [], [], delay)   # returns early only if it printed or died
        proc.kill()
        proc.wait()
        proc.stdout.close()
        life = Life(len(self.lives) + 1, proc, port, log_path)
        life.returncode, life.ended = proc.returncode, time.monotonic()
        life.exited.set()
        if proc.returncode == -signal.SIGKILL:
            life.ending = "killed while starting"
        elif "cannot listen" in life.stderr_text():
            life.ending = "could not listen"   # the port was taken meanwhile: not serve's fault
        self.lives.append(life)
        return life

    def _watch(self, life):
        for _ in life.proc.stdout:  # drains whatever else it prints, to its end
            pass
        life.returncode = life.proc.wait()
        life.ended = time.monotonic()
        if life.ending is None:     # not ours: a crash
            self.endpoint.mark_down()
            self.died.set()
        life.exited.set()

    def start(self):
        """A new process on the last port if there was one (else any); clients learn it."""
        port = self.current.port if self.current is not None else 0
        try:
            life = self._spawn(port)
        except StartFailed:
            if port == 0:
                raise
            life = self._spawn(0)  # the port was taken meanwhile: a new one
        if self.current is not None and life.port != self.current.port:
            self.port_changes += 1
        self.current = life
        self.endpoint.publish(life.port)
        return life

    def _end(self, how, sig, timeout):
        life = self.current
        self.endpoint.mark_down()
        life.ending = how
        if not life.exited.is_set():
            life.proc.send_signal(sig)
        if not life.exited.wait(timeout):
            life.proc.kill()
            life.exited.wait()
            life.ending = how + " (hung: killed)"
        return life

    def kill(self):
        return self._end("killed", signal.SIGKILL, 60)

    def stop(self):
        """SIGTERM: serve answers what is in flight, closes the database and exits 0."""
        return self._end("stopped", signal.SIGTERM, STOP_TIMEOUT)

    def close(self):
        self._sampler_stop.set()
        if self.current is not None and not self.current.exited.is_set():
            self.kill()

    def _sample(self):
        # Every second: the current process's VmRSS.
        while not self._sampler_stop.wait(1.0):
            life = self.current
            if life is None or life.exited.is_set():
                continue
            kb = read_rss_kb(life.pid)
            if kb is not None:
                life.rss.append((time.monotonic() - life.started, kb))
