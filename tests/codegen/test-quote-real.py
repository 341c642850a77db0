#!/usr/bin/python3
"""codegen's literals read by the real languages: for adversarial and random texts and byte
strings, tests/codegen/quote-tool writes the literal (src/codegen/quote.c) and the language
itself reads it back, which must give exactly the input.

    test-quote-real.py QUOTE_TOOL LANG     LANG: cli python js java go rust

cli: bash prints each word (`printf '%s\\0' WORD`) under the C and C.UTF-8 locales, and a
blob's word is then base64 that decodes to the bytes; python: ast.literal_eval with warnings as
errors; js: node, in strict mode, prints each string's UTF-8 and each Buffer in hex; java:
javac compiles one class holding every literal (a stub SdkBytes returns the decoded array) and
java prints them in hex; go: `go run` of one file; rust: rustc -D warnings of one file (a stub
Blob holds the Vec<u8>). All literals of a language are read in one run. Exits 77 (skipped)
when javac/java, go or rustc is missing; bash, python3 and node are required.
"""

import ast
import base64
import os
import random
import shutil
import subprocess
import sys
import tempfile
import warnings

TOOL, LANG = sys.argv[1], sys.argv[2]
SKIP = 77

# The characters ddb_quote_must_escape names (src/codegen/quote.h), to aim the random texts.
FORMAT = ([0xAD, 0x61C, 0x180E, 0xFEFF] + list(range(0x200B, 0x2010))
          + list(range(0x2028, 0x202F)) + list(range(0x2060, 0x206A))
          + list(range(0xFFF9, 0xFFFC)))
CONTROLS = list(range(0x20)) + list(range(0x7F, 0xA0))
NONCHARACTERS = list(range(0xFDD0, 0xFDF0)) + [p << 16 | 0xFFFE | b for p in range(17)
                                               for b in (0, 1)]
TRAPS = ["\\u", "\\x", "\\U", "\\0", "\\N{DASH}", "\\u{41}", "\\\\u0022", "\\\n", "'\\''",
         "$'", "${x}", "$(id)", "`id`", "{0}", "%s", "*/", "\r\n", "\\", "\"", "'", "0", "7",
         "f", "u"]

FIXED_TEXTS = [
    "", "'", "''", "\"", "\\", "\\'", "'\\''", "$HOME", "${HOME}", "`id`", "$(id)", "!!",
    "!$", "*", "?", "[a]", "~", "#x", "a b", "-n", "-e", "--", "\n", "\r", "\r\n", "\t",
    "\x00", "a\x00b", "\x001", "\x00\x00", "\x1b[2J", "\x1b]0;title\x07", "\x7f", "\x85",
    "\xad", "\\u000a", "\\u0022", "\\u005c", "\\\\u0041", "\\\\\\u0041", "\\x41", "\\0",
    "\\N{DASH}", "\\U0001F600", "\\u{41}", "{}", "{0}", "{{}}", "%s%d%v", "*/ /*",
    "</script>", "\u202e\u2066abc\u2069\u202c", "\u200b\u200c\u200d\u200e\u200f",
    "\u2028\u2029", "\ufeff", "\ufeffBOM", "\u061c\u180e\u2060\u2064", "\ufff9\ufffa\ufffb",
    "\U0001F600", "\U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F3F4\U000E0067\U000E0062"
    "\U000E0073\U000E0063\U000E0074\U000E007F", "שלום עולם", "مرحبا بالعالم", "e\u0301",
    "\u0915\u094d\u0937", "Z\u0351\u0352\u0353", "\uffff", "\ufffe", "\ufdd0", "\U0001fffe",
    "\U0010ffff", "\U0010fffd", "\ud7ff\ue000", "\u00a0\u3000",
    "".join(chr(c) for c in range(0x80)), "".join(chr(c) for c in range(0x80, 0x300)),
    "".join(chr(c) for c in CONTROLS + FORMAT + NONCHARACTERS),
    "".join(chr(c) + "7" for c in CONTROLS), "x" * 3000,
]


def random_text(rng):
    out = []
    for _ in range(rng.randint(0, 40)):
        k = rng.random()
        if k < 0.3:
            out.append(chr(rng.randint(0x20, 0x7E)))
        elif k < 0.45:
            out.append(chr(rng.choice(CONTROLS)))
        elif k < 0.55:
            out.append(chr(rng.choice(FORMAT)))
        elif k < 0.7:
            c = rng.randint(0xA0, 0xFFFF)
            out.append(chr(c if not 0xD800 <= c <= 0xDFFF else c - 0x800))
        elif k < 0.8:
            out.append(chr(rng.randint(0x10000, 0x10FFFF)))
        elif k < 0.85:
            out.append(chr(rng.choice(NONCHARACTERS)))
        else:
            out.append(rng.choice(TRAPS))
    return "".join(out)


def random_bytes(rng):
    n = rng.randint(0, 64)
    if rng.random() < 0.5:
        return bytes(rng.randrange(256) for _ in range(n))
    return bytes(rng.choice(b"\x00\\\"'\n\r\t\x7f\x80\xff0x7u{}$`") for _ in range(n))


def cases():
    rng = random.Random(20240610)
    texts = FIXED_TEXTS + [random_text(rng) for _ in range(400)]
    blobs = [b"", bytes(range(256)), bytes(reversed(range(256))), b"\x00\x00\x00",
             b"\xef\xbb\xbf", b"\"\\", b"\\x41", b"\\u0000", "😀".encode(), b"{}$`"]
    blobs += [bytes([b]) for b in range(256)]
    blobs += [bytes([b, ord("7")]) for b in range(256)]
    blobs += [random_bytes(rng) for _ in range(200)]
    if LANG == "cli":
        # No shell word holds a NUL (a precondition of ddb_quote_string for the CLI).
        texts = [t for t in texts if "\x00" not in t]
    return texts, blobs


def literals(kind, items):
    data = "".join(item.hex() + "\n" for item in items)
    run = subprocess.run([TOOL, LANG, kind], input=data.encode(), capture_output=True,
                         check=False)
    if run.returncode != 0:
        sys.exit("quote-tool failed: " + run.stderr.decode(errors="replace"))
    lines = run.stdout.decode("utf-8").split("\n")
    assert lines[-1] == "" and len(lines) == len(items) + 1, "one literal per line"
    return lines[:-1]


failures = []


def check(kind, item, lit, got):
    if got != item:
        failures.append(f"{kind} {item!r}: literal {lit} reads as {got!r}")


def run(argv, **kw):
    proc = subprocess.run(argv, capture_output=True, check=False, **kw)
    if proc.returncode != 0:
        sys.exit(f"{argv[0]} failed ({proc.returncode}):\n"
                 + proc.stderr.decode(errors="replace")[-4000:])
    return proc.stdout


def hex_lines(out, texts, blobs):
    """Output of a program that prints each string's UTF-8 in hex, "--", then each blob."""
    lines = out.decode().split("\n")
    assert lines[-1] == ""
    lines = lines[:-1]
    assert len(lines) == len(texts) + 1 + len(blobs) and lines[len(texts)] == "--"
    return ([bytes.fromhex(x) for x in lines[:len(texts)]],
            [bytes.fromhex(x) for x in lines[len(texts) + 1:]])


def read_all(tmp, texts, slits, blobs, blits):
    """Each literal as the language reads it: the texts' UTF-8 and the blobs."""
    if LANG == "cli":
        script = os.path.join(tmp, "q.sh")
        with open(script, "w", encoding="utf-8") as f:
            for lit in slits + blits:
                f.write(f"printf '%s\\0' {lit}\n")
        got = None
        for locale in ("C", "C.UTF-8"):
            env = dict(os.environ, LC_ALL=locale)
            out = run(["bash", "--norc", "--noprofile", script], env=env).split(b"\0")
            assert out[-1] == b"" and len(out) == len(slits) + len(blits) + 1
            if got is not None and out != got:
                sys.exit("bash read the words differently under C and C.UTF-8")
            got = out
        words = got[:-1]
        # The AWS CLI v2 takes a blob's word as base64.
        return (words[:len(slits)],
                [base64.b64decode(w, validate=True) for w in words[len(slits):]])

    if LANG == "python":
        with warnings.catch_warnings():
            # An invalid escape is a warning today and an error tomorrow.
            warnings.simplefilter("error")
            # A lone surrogate would pass through to bytes no input has.
            return ([ast.literal_eval(lit).encode("utf-8", "surrogatepass") for lit in slits],
                    [ast.literal_eval(lit) for lit in blits])

    if LANG == "js":
        src = os.path.join(tmp, "q.js")
        with open(src, "w", encoding="utf-8") as f:
            f.write('"use strict";\nconst S = [\n' + ",\n".join(slits) + "\n];\n")
            f.write("const B = [\n" + ",\n".join(blits) + "\n];\n")
            f.write('for (const s of S) console.log(Buffer.from(s, "utf8").toString("hex"));\n'
                    'console.log("--");\n'
                    'for (const b of B) console.log(b.toString("hex"));\n')
        out = run(["node", src])
    elif LANG == "java":
        src = os.path.join(tmp, "Q.java")
        with open(src, "w", encoding="utf-8") as f:
            f.write("import java.nio.charset.StandardCharsets;\n"
                    "import java.util.Base64;\nimport java.util.HexFormat;\n\n"
                    "final class SdkBytes {\n"
                    "  static byte[] fromByteArray(byte[] b) { return b; }\n}\n\n"
                    "public final class Q {\n")
            f.write("  static final String[] S = {\n" + ",\n".join(slits) + "\n  };\n")
            f.write("  static final byte[][] B = {\n" + ",\n".join(blits) + "\n  };\n")
            f.write("  public static void main(String[] args) {\n"
                    "    HexFormat h = HexFormat.of();\n"
                    "    for (String s : S)\n"
                    "      System.out.println(h.formatHex(s.getBytes(StandardCharsets.UTF_8)));\n"
                    '    System.out.println("--");\n'
                    "    for (byte[] b : B)\n"
                    "      System.out.println(h.formatHex(b));\n  }\n}\n")
        run(["javac", "-encoding", "UTF-8", "-Xlint:all", "-Werror", "-d", tmp, src])
        out = run(["java", "-cp", tmp, "Q"])
    elif LANG == "go":
        src = os.path.join(tmp, "q.go")
        with open(src, "w", encoding="utf-8") as f:
            f.write('package main\n\nimport (\n\t"encoding/hex"\n\t"fmt"\n)\n\n')
            f.write("var S = []string{\n" + "".join(f"\t{x},\n" for x in slits) + "}\n\n")
            f.write("var B = [][]byte{\n" + "".join(f"\t{x},\n" for x in blits) + "}\n\n")
            f.write("func main() {\n"
                    "\tfor _, s := range S {\n\t\tfmt.Println(hex.EncodeToString([]byte(s)))\n\t}\n"
                    '\tfmt.Println("--")\n'
                    "\tfor _, b := range B {\n\t\tfmt.Println(hex.EncodeToString(b))\n\t}\n}\n")
        # A file of its own outside any module, with a cache that is not the user's.
        env = dict(os.environ, GOCACHE=os.path.join(tmp, "gocache"),
                   GOPATH=os.path.join(tmp, "gopath"), GOFLAGS="", GO111MODULE="off")
        out = run([GO, "run", src], env=env)
    else:
        src = os.path.join(tmp, "q.rs")
        exe = os.path.join(tmp, "q")
        with open(src, "w", encoding="utf-8") as f:
            f.write("struct Blob(Vec<u8>);\n\nimpl Blob {\n"
                    "    fn new(v: Vec<u8>) -> Blob {\n        Blob(v)\n    }\n}\n\n"
                    "fn hex(b: &[u8]) -> String {\n"
                    '    b.iter().map(|x| format!("{:02x}", x)).collect()\n}\n\n'
                    "fn main() {\n")
            f.write("    let s: Vec<&str> = vec![\n" + ",\n".join(slits) + "\n    ];\n")
            f.write("    let b: Vec<Blob> = vec![\n" + ",\n".join(blits) + "\n    ];\n")
            f.write('    for x in &s {\n        println!("{}", hex(x.as_bytes()));\n    }\n'
                    '    println!("--");\n'
                    '    for x in &b {\n        println!("{}", hex(&x.0));\n    }\n}\n')
        run([RUSTC, "--edition", "2021", "-D", "warnings", "-C", "opt-level=0", "-o", exe,
             src])
        out = run([exe])
    return hex_lines(out, slits, blits)


def find_tool(name, *fallbacks):
    path = shutil.which(name)
    for f in fallbacks:
        if path is None and os.access(os.path.expanduser(f), os.X_OK):
            path = os.path.expanduser(f)
    return path


GO = find_tool("go", "/usr/lib/go/bin/go")
RUSTC = find_tool("rustc", "~/.cargo/bin/rustc")


def main():
    tools = {"cli": {"bash": shutil.which("bash")}, "python": {},
             "js": {"node": shutil.which("node")},
             "java": {"javac": shutil.which("javac"), "java": shutil.which("java")},
             "go": {"go": GO}, "rust": {"rustc": RUSTC}}
    if LANG not in tools:
        sys.exit(f"unknown language {LANG}")
    missing = [name for name, path in tools[LANG].items() if path is None]
    if missing and LANG in ("cli", "js"):
        sys.exit(f"{LANG}: {', '.join(missing)} missing, and required")
    if missing:
        print(f"SKIP {LANG}: {', '.join(missing)} not installed")
        sys.exit(SKIP)

    texts, blobs = cases()
    slits = literals("string", [t.encode("utf-8") for t in texts])
    blits = literals("bytes", blobs)
    with tempfile.TemporaryDirectory() as tmp:
        got_s, got_b = read_all(tmp, texts, slits, blobs, blits)
    for t, lit, g in zip(texts, slits, got_s):
        check("string", t.encode("utf-8"), lit, g)
    for b, lit, g in zip(blobs, blits, got_b):
        check("bytes", b, lit, g)
    for f in failures[:30]:
        print("FAIL", f)
    print(f"{LANG}: {len(texts)} strings, {len(blobs)} byte strings, {len(failures)} failures")
    sys.exit(1 if failures else 0)


main()
