#!/usr/bin/env python3
"""Every request of the corpus (codegen_corpus.all_steps(), through test-codegen-compile.py's
programs(): every step for the first two targets, the first of each operation for the others)
written as a Rust program by `dynoscope-cli codegen --lang rust` and type-checked by ONE
`cargo check --offline`: each program is a module of one crate (its #[tokio::main] main stays
its own), built against the stand-in crates in sdk-stubs/rust (aws-sdk-dynamodb, aws-config,
tokio: crates.io cannot be reached here). A compile error fails the test, naming the request.
Usage: test-codegen-compile-rust.py DYNOSCOPE-CLI. Exits 77 (skipped) without cargo and rustc."""
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
STUBS = os.path.join(HERE, "sdk-stubs", "rust")
SKIP = 77

spec = importlib.util.spec_from_file_location("codegen_compile",
                                              os.path.join(HERE, "test-codegen-compile.py"))
compile_test = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compile_test)


def toolchain():
    cargo = compile_test.find("cargo", os.path.expanduser("~/.cargo/bin/cargo"))
    rustc = compile_test.find("rustc", os.path.expanduser("~/.cargo/bin/rustc"))
    return (cargo, rustc) if cargo and rustc else None


def write_crate(work, progs):
    """The crate: Cargo.toml on the stubs, src/main.rs declaring src/pNNN.rs, one per program."""
    src = os.path.join(work, "src")
    os.makedirs(src)
    with open(os.path.join(work, "Cargo.toml"), "w") as f:
        f.write('[package]\nname = "codegen-check"\nversion = "0.0.0"\nedition = "2021"\n\n'
                "[dependencies]\n")
        for crate in ("aws-config", "aws-sdk-dynamodb", "tokio"):
            f.write(f'{crate} = {{ path = "{os.path.join(STUBS, crate)}" }}\n')
        f.write("\n[workspace]\n")
    mods = ["#![allow(dead_code, unused_imports)]"]
    for n, (label, text) in enumerate(progs):
        with open(os.path.join(src, f"p{n:03d}.rs"), "w") as f:
            f.write(text)
        mods.append(f"mod p{n:03d}; // {label}")
    mods.append("fn main() {}")
    with open(os.path.join(src, "main.rs"), "w") as f:
        f.write("\n".join(mods) + "\n")


def main():
    cli = sys.argv[1]
    tools = toolchain()
    if tools is None:
        print("skipped: no cargo/rustc")
        return SKIP
    cargo, rustc = tools
    started = time.monotonic()
    work = tempfile.mkdtemp(prefix="dynoscope-codegen-compile-rust-")
    try:
        progs = compile_test.programs(cli, "rust")
        write_crate(work, progs)
        env = dict(os.environ, RUSTC=rustc, CARGO_NET_OFFLINE="true",
                   CARGO_TARGET_DIR=os.path.join(work, "target"), CARGO_TERM_COLOR="never")
        r = subprocess.run([cargo, "check", "--offline", "--quiet", "--message-format=short"],
                           cwd=work, capture_output=True, text=True, env=env, timeout=900)
        if r.returncode != 0:
            # Name the request of each file rustc reports on.
            out = r.stdout + r.stderr
            labels = {f"p{n:03d}.rs": label for n, (label, _) in enumerate(progs)}
            named = re.sub(r"src/(p\d{3}\.rs)", lambda m: f"{labels[m.group(1)]} ({m.group(0)})",
                           out)
            bad = sorted({labels[m] for m in re.findall(r"src/(p\d{3}\.rs):\d+:\d+: error", out)})
            compile_test.fail(f"cargo check failed for {len(bad)} programs: {', '.join(bad)}\n"
                              + named)
        print(f"cargo check: {len(progs)} programs type-checked "
              f"in {time.monotonic() - started:.1f}s")
        print("1 passed, 0 failed")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
