/* cache-file.c: the atomic cache-file write shared by the SSO, `aws login` and role caches. */
#include "net/cache-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <unistd.h>

gboolean
ddb_aws_cache_file_write (const char *path, const char *text, gsize len, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *tmp = g_strdup_printf ("%s/.%s.XXXXXX.tmp", dir, base);
  gsize done = 0;
  int fd, saved;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "Cannot create %s: %s",
                   dir, g_strerror (saved));
      return FALSE;
    }
  /* mkstemp's file is 0600, as Python's tempfile.mkstemp makes it. */
  fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "Cannot create a temporary file in %s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  while (done < len)
    {
      gssize n = write (fd, text + done, len - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      done += n;
    }
  saved = done == len ? 0 : errno != 0 ? errno : EIO;
  if (saved == 0 && fsync (fd) != 0)
    saved = errno;
  if (close (fd) != 0 && saved == 0)
    saved = errno;
  if (saved == 0 && g_rename (tmp, path) != 0)
    saved = errno;
  if (saved != 0)
    {
      g_unlink (tmp);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "Cannot write %s: %s",
                   path, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}
