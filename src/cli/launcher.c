/* launcher.c: the dynoscope-cli users run. It links nothing but the C library and only picks an
 * executable: `--db PATH serve …` goes straight to the lean dynoscope-serve, so a local endpoint
 * starts without loading libcurl and the rest of the client side (several milliseconds); every
 * other command line, including help, errors and the unusual spellings of serve, goes unchanged
 * to the full CLI, which is installed out of PATH (libexecdir/dynoscope) and behaves exactly as
 * dynoscope-cli always has. Plain C library calls on purpose: GLib alone would double this
 * program's start time. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The directory of this executable (with a trailing '/') into dir; FALSE if unknown. */
static int
self_dir (char *dir, size_t size)
{
  ssize_t len = readlink ("/proc/self/exe", dir, size - 1);
  char *slash;

  if (len <= 0 || (size_t) len >= size - 1)
    return 0;
  dir[len] = '\0';
  slash = strrchr (dir, '/');
  if (slash == NULL)
    return 0;
  slash[1] = '\0';
  return 1;
}

/* Runs dir + name (dir may be NULL for an absolute name) in this process's place if it exists;
 * returns only when it could not be run. */
static void
try_exec (const char *dir, const char *name, char **argv)
{
  char path[PATH_MAX];
  int n = snprintf (path, sizeof path, "%s%s", dir != NULL ? dir : "", name);

  if (n <= 0 || (size_t) n >= sizeof path || access (path, X_OK) != 0)
    return;
  execv (path, argv);
}

/* `--db PATH serve …` or `--db=PATH serve …` with a non-empty PATH: the one form dynoscope-serve
 * takes as dynoscope-cli would. Anything else (another global option, a missing or empty PATH,
 * --help before the command, DYNOSCOPE_READ_ONLY set whatever its value) is left to the full
 * CLI and its messages. */
static int
is_plain_serve (int argc, char **argv)
{
  if (getenv ("DYNOSCOPE_READ_ONLY") != NULL)
    return 0;
  if (argc >= 4 && strcmp (argv[1], "--db") == 0 && argv[2][0] != '\0'
      && strcmp (argv[3], "serve") == 0)
    return 1;
  return argc >= 3 && strncmp (argv[1], "--db=", 5) == 0 && argv[1][5] != '\0'
         && strcmp (argv[2], "serve") == 0;
}

int
main (int argc, char **argv)
{
  char dir[PATH_MAX];
  int have_dir = self_dir (dir, sizeof dir);

  if (have_dir && is_plain_serve (argc, argv))
    try_exec (dir, "dynoscope-serve", argv);
  /* The build tree keeps the full CLI beside this one; an installation keeps it in libexecdir,
   * found relative to this executable first so that a moved installation still works. */
  if (have_dir)
    {
      try_exec (dir, "dynoscope-cli-full", argv);
      try_exec (dir, CLI_LIBEXEC_RELATIVE "/dynoscope-cli-full", argv);
    }
  try_exec (NULL, CLI_LIBEXEC_ABSOLUTE "/dynoscope-cli-full", argv);
  fprintf (stderr, "dynoscope-cli: cannot run %s: %s\n", CLI_LIBEXEC_ABSOLUTE "/dynoscope-cli-full",
           strerror (errno));
  return 127;
}
