"""dynoscope-serve links none of the client side's libraries: not libcurl, not libcrypto (SigV4's
hashes come from GLib, src/net/hash.c), not GIO; with --static (libmicrohttpd linked statically
with stand-ins for GnuTLS, src/server/no-tls.c), not GnuTLS either, nor any shared library besides
the C library's and zlib (which Debian forbids embedding). Checked on the dynamic section (DT_NEEDED) of the executable."""
import subprocess
import sys

exe = sys.argv[1]
static = "--static" in sys.argv[2:]
out = subprocess.run(["readelf", "-d", exe], check=True, capture_output=True, text=True).stdout
needed = [line.split("[", 1)[1].split("]", 1)[0] for line in out.splitlines() if "(NEEDED)" in line]
print("# NEEDED:", " ".join(needed))
bad = [lib for lib in needed
       if lib.startswith(("libcurl", "libcrypto", "libssl", "libgio", "libgobject"))
       or (static and not lib.startswith(("libc.so", "libm.so", "ld-linux", "libz.so",
                                          # the sanitizers' runtimes in a -Db_sanitize build
                                          "libasan.so", "libubsan.so")))]
if bad:
    print("not ok 1 - dynoscope-serve loads %s" % ", ".join(bad))
    print("1..1")
    sys.exit(1)
print("ok 1 - dynoscope-serve loads no client-side library")
print("1..1")
