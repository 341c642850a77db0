#!/usr/bin/env python3
"""Every request of the corpus (codegen_corpus.all_steps(): the replayed requests and the wide
ones: long expressions, many names and values, deep nesting, every type, every operation), for
each connection of codegen_corpus.TARGETS, written by `dynoscope-cli codegen` in ONE language and
checked by that language's own toolchain, the whole corpus in one invocation:
  go      one module, a package per program, `go vet ./...` (type-checks and vets) against the
          stand-in SDK in sdk-stubs/go (the real one cannot be fetched here);
  java    one javac run over every program (each in a package of its own) and the stand-in SDK
          written by sdk_stub_java.py;
  python  compile() of every program by this interpreter;
  js      one node process: every program compiled as node compiles a CommonJS module, and the
          names it takes from @aws-sdk/client-dynamodb checked against the real SDK where the
          test cache has it (build-aux/install-deps.sh installs it);
  cli     bash -n of every program, and the request JSON each one holds read back as JSON.
Usage: test-codegen-compile.py DYNOSCOPE-CLI LANG. Exits 77 (skipped) when LANG's toolchain is
missing."""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import codegen_corpus as corpus  # noqa: E402

SKIP = 77


def programs(cli, lang):
    """[(label, text)]: every step for the first two targets, and the first step of each
    operation for the others (the target changes only the program's opening lines)."""
    jobs = []
    seen_ops = set()
    steps = corpus.all_steps()
    for n, (op, request) in enumerate(steps):
        for t, target in enumerate(corpus.TARGETS):
            if t >= 2 and op in seen_ops:
                continue
            jobs.append((f"step{n:02d}-{op}-t{t}", op, request, target))
        seen_ops.add(op)

    def run(job):
        label, op, request, target = job
        r = subprocess.run([cli, *target, "codegen", "--lang", lang, op, "-"],
                           input=json.dumps(request), capture_output=True, text=True,
                           timeout=300)
        if r.returncode != 0:
            raise AssertionError(f"{label}: codegen failed: {r.stderr}")
        return label, r.stdout

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(run, jobs))


def fail(message):
    print(message[:20000])
    print("FAILED")
    sys.exit(1)


def find(*candidates):
    for c in candidates:
        path = c if os.path.isabs(c) else shutil.which(c)
        if path and os.path.exists(path):
            return path
    return None


# Go 1.21 made min a builtin; the programs use it (the SDK needs a newer Go anyway). On an
# older toolchain (Debian 12's 1.19) this file stands in for it.
GO_MIN = """//go:build !go1.21

package main

import "time"

func min(a, b time.Duration) time.Duration {
	if a < b {
		return a
	}
	return b
}
"""


def check_go(work, progs):
    go = find("go", "/usr/lib/go/bin/go")
    if go is None:
        return SKIP
    stub = os.path.join(HERE, "sdk-stubs", "go")
    with open(os.path.join(work, "go.mod"), "w") as f:
        f.write("module codegencheck\n\ngo 1.19\n\n"
                "require github.com/aws/aws-sdk-go-v2 v1.0.0\n\n"
                f"replace github.com/aws/aws-sdk-go-v2 => {stub}\n")
    for label, text in progs:
        d = os.path.join(work, label)
        os.makedirs(d)
        with open(os.path.join(d, "main.go"), "w") as f:
            f.write(text)
        with open(os.path.join(d, "min.go"), "w") as f:
            f.write(GO_MIN)
    env = dict(os.environ, GOFLAGS="-mod=mod", GOPROXY="off", GOWORK="off",
               GOTOOLCHAIN="local", GO111MODULE="on",
               GOCACHE=os.environ.get("GOCACHE") or os.path.join(work, ".gocache"))
    r = subprocess.run([go, "vet", "./..."], cwd=work, capture_output=True, text=True,
                       env=env, timeout=900)
    if r.returncode != 0:
        fail(f"go vet failed:\n{r.stdout}{r.stderr}")
    print(f"go vet: {len(progs)} programs type-checked and vetted")
    return 0


def check_python(work, progs):
    for label, text in progs:
        try:
            compile(text, label + ".py", "exec")
        except SyntaxError as e:
            fail(f"{label}: {e}\n{text[:5000]}")
    print(f"python: {len(progs)} programs compiled")
    return 0


NODE_CHECK = r"""
const fs = require("fs");
const vm = require("vm");
const [dir, sdkDir] = process.argv.slice(2);
let sdk = null;
if (sdkDir) {
  try { sdk = require(require.resolve("@aws-sdk/client-dynamodb", { paths: [sdkDir] })); }
  catch (e) { sdk = null; }
}
let failed = 0, count = 0;
for (const name of fs.readdirSync(dir).sort()) {
  const file = dir + "/" + name;
  const text = fs.readFileSync(file, "utf8");
  count++;
  try {
    vm.compileFunction(text, ["exports", "require", "module", "__filename", "__dirname"],
                       { filename: file });
  } catch (e) {
    console.log(`${name}: ${e.name}: ${e.message}`);
    failed++;
    continue;
  }
  const m = /const \{([^}]*)\} = require\("@aws-sdk\/client-dynamodb"\);/.exec(text);
  if (!m) { console.log(`${name}: no require of @aws-sdk/client-dynamodb`); failed++; continue; }
  if (sdk) {
    for (const id of m[1].split(",").map((s) => s.trim()).filter(Boolean)) {
      if (typeof sdk[id] !== "function") { console.log(`${name}: the SDK has no ${id}`); failed++; }
    }
  }
}
console.log(`${count} programs, ${failed} failures, SDK names ${sdk ? "checked" : "not checked"}`);
process.exitCode = failed ? 1 : 0;
"""


def check_js(work, progs):
    node = find("node", "nodejs")
    if node is None:
        return SKIP
    d = os.path.join(work, "programs")
    os.makedirs(d)
    for label, text in progs:
        with open(os.path.join(d, label + ".js"), "w") as f:
            f.write(text)
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    sdk = os.environ.get("DYNOSCOPE_AWS_SDK_JS_DIR") or os.path.join(cache, "dynoscope",
                                                                     "aws-sdk-js")
    script = os.path.join(work, "check.js")
    with open(script, "w") as f:
        f.write(NODE_CHECK)
    r = subprocess.run([node, script, d, sdk if os.path.isdir(sdk) else ""],
                       capture_output=True, text=True, timeout=600)
    print(r.stdout, r.stderr)
    if r.returncode != 0:
        fail("node found errors")
    return 0


def check_cli(work, progs):
    bash = find("bash")
    files = []
    for label, text in progs:
        path = os.path.join(work, label + ".sh")
        with open(path, "w") as f:
            f.write(text)
        files.append(path)
        # The request travels in a quoted here-document: it must end where it should and hold
        # the JSON text whole.
        m = re.search(r"<<'JSON'[^\n]*\n(.*?)\nJSON\n", text, re.S)
        if m is None:
            fail(f"{label}: no request here-document\n{text[:3000]}")
        try:
            json.loads(m.group(1))
        except ValueError as e:
            fail(f"{label}: the here-document is not JSON: {e}")
    r = subprocess.run([bash, "-c", 'for f; do bash -n "$f" || echo "FAILED: $f"; done', "bash",
                        *files], capture_output=True, text=True, timeout=600)
    if r.returncode != 0 or "FAILED" in r.stdout or r.stderr:
        fail(f"bash -n:\n{r.stdout}{r.stderr}")
    print(f"bash: {len(progs)} programs parsed")
    return 0


def check_java(work, progs):
    javac = find("javac", "/usr/lib/jvm/java-17-openjdk-amd64/bin/javac")
    if javac is None:
        return SKIP
    import sdk_stub_java  # noqa: E402  (only Java needs it)
    sources = sdk_stub_java.write(os.path.join(work, "stub"))
    for n, (label, text) in enumerate(progs):
        d = os.path.join(work, "src", f"p{n:03d}")
        os.makedirs(d)
        path = os.path.join(d, "DynamoDbRequest.java")
        with open(path, "w") as f:
            f.write(f"package p{n:03d}; // {label}\n" + text)
        sources.append(path)
    listing = os.path.join(work, "sources.txt")
    with open(listing, "w") as f:
        f.write("\n".join(sources) + "\n")
    # No annotation processing, debug tables or implicit classes: a fifth less time, the same
    # checks (class files are still written: a method past 64 KB of bytecode fails there).
    r = subprocess.run([javac, "-J-Xmx2g", "-Xmaxerrs", "200", "-Xlint:none", "-proc:none",
                        "-g:none", "-implicit:none", "-encoding", "UTF-8", "-d",
                        os.path.join(work, "classes"), "@" + listing],
                       capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        fail(f"javac failed:\n{r.stdout}{r.stderr}")
    print(f"javac: {len(progs)} programs compiled")
    return 0


CHECKS = {"go": check_go, "python": check_python, "js": check_js, "cli": check_cli,
          "java": check_java}


def main():
    cli, lang = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix=f"dynoscope-codegen-compile-{lang}-")
    try:
        check = CHECKS[lang]
        if check in (check_go, check_java, check_js) and (
                {check_go: find("go", "/usr/lib/go/bin/go"),
                 check_java: find("javac", "/usr/lib/jvm/java-17-openjdk-amd64/bin/javac"),
                 check_js: find("node", "nodejs")}[check] is None):
            print(f"skipped: no toolchain for {lang}")
            return SKIP
        progs = programs(cli, lang)
        rc = check(work, progs)
        if rc == 0:
            print("1 passed, 0 failed")
        return rc
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
