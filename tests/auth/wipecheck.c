/* wipecheck.c: an LD_PRELOAD library that reports every heap block freed while it still holds a
 * secret. The secrets are read once, at load, from the file named by WIPECHECK_SECRETS (one a
 * line; never from the environment, whose copies would then hold them); a block handed to free()
 * or moved by realloc() is searched for each of them first, and a finding (the secret's line
 * number and a backtrace) is appended to the file named by WIPECHECK_LOG.
 *
 * Any allocator that ends in glibc's malloc is seen: GLib, jansson, libcurl, OpenSSL. The
 * process's own environment block is never freed and so never reported. Not for sanitizer
 * builds (AddressSanitizer owns malloc there). */
#define _GNU_SOURCE
#include <execinfo.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc (size_t size);
extern void __libc_free (void *ptr);
extern void *__libc_realloc (void *ptr, size_t size);

#define MAX_SECRETS 256

static char *secrets[MAX_SECRETS];
static size_t secret_lens[MAX_SECRETS];
static size_t n_secrets;
static int log_fd = -1;
static __thread int busy; /* backtrace() may allocate: no checks from inside a report */

static void
append_secret (const char *start, size_t len)
{
  char *copy;

  /* Short lines would match by chance; a test's secrets are long. */
  if (len < 12 || n_secrets == MAX_SECRETS)
    return;
  copy = __libc_malloc (len);
  if (copy == NULL)
    return;
  memcpy (copy, start, len);
  secrets[n_secrets] = copy;
  secret_lens[n_secrets] = len;
  n_secrets++;
}

__attribute__ ((constructor)) static void
wipecheck_init (void)
{
  const char *path = getenv ("WIPECHECK_SECRETS");
  const char *log_path = getenv ("WIPECHECK_LOG");
  char buf[65536];
  size_t len = 0;
  ssize_t got;
  int fd;
  void *frames[1];

  if (path == NULL || log_path == NULL)
    return;
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  while (len < sizeof buf && (got = read (fd, buf + len, sizeof buf - len)) > 0)
    len += (size_t) got;
  close (fd);
  for (size_t start = 0, i = 0; i <= len; i++)
    if (i == len || buf[i] == '\n')
      {
        append_secret (buf + start, i - start);
        start = i + 1;
      }
  memset (buf, 0, sizeof buf);
  log_fd = open (log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  /* backtrace() loads libgcc the first time, which allocates: do it now. */
  busy = 1;
  backtrace (frames, 1);
  busy = 0;
}

static void
write_text (const char *text)
{
  size_t len = strlen (text);

  while (len > 0)
    {
      ssize_t done = write (log_fd, text, len);

      if (done <= 0)
        return;
      text += done;
      len -= (size_t) done;
    }
}

static void
check_block (void *ptr)
{
  size_t size;

  if (ptr == NULL || n_secrets == 0 || log_fd < 0 || busy)
    return;
  size = malloc_usable_size (ptr);
  for (size_t i = 0; i < n_secrets; i++)
    if (memmem (ptr, size, secrets[i], secret_lens[i]) != NULL)
      {
        void *frames[32];
        int n;
        char line[96];

        busy = 1;
        snprintf (line, sizeof line, "wipecheck: a block of %zu bytes freed holding secret %zu\n",
                  size, i + 1);
        write_text (line);
        n = backtrace (frames, 32);
        backtrace_symbols_fd (frames, n, log_fd);
        write_text ("--\n");
        /* Reported once: a later block made of this memory is not blamed for it. */
        memset (ptr, 0, size);
        busy = 0;
        return;
      }
}

void
free (void *ptr)
{
  check_block (ptr);
  __libc_free (ptr);
}

void *
realloc (void *ptr, size_t size)
{
  void *moved;
  size_t old;

  if (ptr == NULL || size == 0 || n_secrets == 0 || log_fd < 0)
    {
      if (size == 0)
        check_block (ptr);
      return __libc_realloc (ptr, size);
    }
  /* A block that moves leaves its old bytes behind: move it here, checking the old one. */
  old = malloc_usable_size (ptr);
  moved = __libc_malloc (size);
  if (moved == NULL)
    return NULL;
  memcpy (moved, ptr, old < size ? old : size);
  free (ptr);
  return moved;
}
