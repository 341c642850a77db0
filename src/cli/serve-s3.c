/* serve-s3.c: serve's S3 export target. Each object an export writes is put in a temporary
 * file, then `dynoscope-cli s3 put s3://BUCKET/KEY FILE` sends it; its exit status and the S3
 * error it prints ("NoSuchBucket: …") become the export's failure. When the engine closes, the
 * puts under way are stopped (SIGTERM) rather than waited for. Only GLib core (g_spawn), so
 * that dynoscope-serve links neither libcurl nor GIO. */
#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/serve-s3.h"
#include "cli/serve.h"
#include "engine/export-target.h"

/* A configured endpoint, as the AWS CLI reads it: set, not empty, and not ignored. */
static gboolean
endpoint_configured (const char *name)
{
  const char *value = g_getenv (name);
  const char *ignore = g_getenv ("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS");

  if (ignore != NULL && g_ascii_strcasecmp (ignore, "true") == 0)
    return FALSE;
  return value != NULL && *value != '\0';
}

gboolean
cli_serve_s3_wanted (gboolean asked, const char *export_dir)
{
  if (asked)
    return TRUE;
  return export_dir == NULL
         && (endpoint_configured ("AWS_ENDPOINT_URL_S3")
             || endpoint_configured ("AWS_ENDPOINT_URL"));
}

/* The target: the launcher, and the `s3 put` processes under way. */
typedef struct {
  char *launcher; /* dynoscope-cli */
  GMutex lock;
  GArray *running;  /* GPid */
  gboolean stopped; /* the engine is closing: no more puts */
} Target;

typedef struct {
  Target *target;
  char *bucket;
} S3Put;

static void
target_free (gpointer data)
{
  Target *t = data;

  g_free (t->launcher);
  g_array_unref (t->running);
  g_mutex_clear (&t->lock);
  g_free (t);
}

/* DdbExportStopFunc: the puts under way are stopped, and no other starts. */
static void
target_stop (gpointer data)
{
  Target *t = data;

  g_mutex_lock (&t->lock);
  t->stopped = TRUE;
  for (guint i = 0; i < t->running->len; i++)
    kill (g_array_index (t->running, GPid, i), SIGTERM);
  g_mutex_unlock (&t->lock);
}

static void
s3_put_free (gpointer data)
{
  S3Put *put = data;

  g_free (put->bucket);
  g_free (put);
}

/* The child starts with serve's blocked SIGINT and SIGTERM and ignored SIGPIPE undone, so that
 * it can be stopped as any process. Async-signal-safe calls only. */
static void
child_setup (gpointer data)
{
  sigset_t set;

  (void) data;
  sigemptyset (&set);
  sigaddset (&set, SIGINT);
  sigaddset (&set, SIGTERM);
  pthread_sigmask (SIG_UNBLOCK, &set, NULL);
  signal (SIGPIPE, SIG_DFL);
}

/* CONTENTS into a new temporary file; its path, or NULL with an error. */
static char *
write_temporary (GBytes *contents, GError **error)
{
  char *path = NULL;
  gsize len = 0;
  const guint8 *p = g_bytes_get_data (contents, &len);
  int fd = g_file_open_tmp ("dynoscope-export-XXXXXX", &path, error);

  if (fd < 0)
    return NULL;
  while (len > 0)
    {
      ssize_t n = write (fd, p, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int saved = errno;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", path,
                       g_strerror (saved));
          close (fd);
          g_unlink (path);
          g_free (path);
          return NULL;
        }
      p += n;
      len -= (gsize) n;
    }
  if (close (fd) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", path,
                   g_strerror (saved));
      g_unlink (path);
      g_free (path);
      return NULL;
    }
  return path;
}

/* The export's failure for `s3 put` that ended with WAIT_STATUS, having printed STDERR_TEXT:
 * its first line, which names S3's error ("NoSuchBucket: The specified bucket does not
 * exist. (s3://b/k)"). */
static void
set_put_error (int wait_status, const char *stderr_text, GError **error)
{
  g_autofree char *text = g_strdup (stderr_text != NULL ? stderr_text : "");
  char *newline = strchr (text, '\n');
  DdbExportErrorCode code = DDB_EXPORT_ERROR_FAILED;
  g_autoptr (GError) status_error = NULL;

  if (newline != NULL)
    *newline = '\0';
  g_strstrip (text);
  if (g_str_has_prefix (text, "NoSuchBucket:"))
    code = DDB_EXPORT_ERROR_NO_SUCH_BUCKET;
  else if (g_str_has_prefix (text, "AccessDenied:")
           || g_str_has_prefix (text, "AllAccessDisabled:"))
    code = DDB_EXPORT_ERROR_ACCESS_DENIED;
  if (*text != '\0')
    {
      g_set_error_literal (error, DDB_EXPORT_ERROR, code, text);
      return;
    }
  g_spawn_check_wait_status (wait_status, &status_error);
  g_set_error (error, DDB_EXPORT_ERROR, code, _ ("dynoscope-cli s3 put failed: %s"),
               status_error != NULL ? status_error->message : "?");
}

/* Runs `s3 put` on PATH to URL, noted as running while it runs: *WAIT_STATUS and its stderr;
 * FALSE (no error) when the target was stopped first or meanwhile. */
static gboolean
run_put (Target *t, const char *url, const char *path, int *wait_status, GString *err_text,
         GError **error)
{
  char *argv[] = { t->launcher, (char *) "s3", (char *) "put", (char *) url, (char *) path, NULL };
  GPid pid = 0;
  int err_fd = -1;
  gboolean spawned = FALSE, stopped;
  char buf[4096];

  g_mutex_lock (&t->lock);
  if (!t->stopped)
    spawned = g_spawn_async_with_pipes (NULL, argv, NULL,
                                        G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL
                                            | G_SPAWN_STDIN_FROM_DEV_NULL,
                                        child_setup, NULL, &pid, NULL, NULL, &err_fd, error);
  if (spawned)
    g_array_append_val (t->running, pid);
  g_mutex_unlock (&t->lock);
  if (!spawned)
    return FALSE;
  /* Its stderr to its end (the process's end, or its being stopped), then its status. */
  for (;;)
    {
      ssize_t n = read (err_fd, buf, sizeof buf);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      if (err_text->len < 65536)
        g_string_append_len (err_text, buf, n);
    }
  close (err_fd);
  while (waitpid (pid, wait_status, 0) < 0 && errno == EINTR)
    ;
  g_mutex_lock (&t->lock);
  for (guint i = 0; i < t->running->len; i++)
    if (g_array_index (t->running, GPid, i) == pid)
      {
        g_array_remove_index_fast (t->running, i);
        break;
      }
  stopped = t->stopped;
  g_mutex_unlock (&t->lock);
  return !stopped;
}

static gboolean
s3_put (const char *key, GBytes *contents, gpointer data, GCancellable *cancellable, GError **error)
{
  S3Put *put = data;
  g_autofree char *path = NULL;
  g_autofree char *url = NULL;
  g_autoptr (GString) err_text = g_string_new (NULL);
  g_autoptr (GError) spawn_error = NULL;
  int wait_status = 0;
  gboolean ran;

  (void) cancellable; /* the engine's jobs stop through target_stop () */
  path = write_temporary (contents, &spawn_error);
  if (path == NULL)
    {
      g_set_error (error, DDB_EXPORT_ERROR, DDB_EXPORT_ERROR_FAILED, "%s", spawn_error->message);
      return FALSE;
    }
  url = g_strdup_printf ("s3://%s/%s", put->bucket, key);
  ran = run_put (put->target, url, path, &wait_status, err_text, &spawn_error);
  g_unlink (path);
  if (!ran && spawn_error != NULL)
    {
      g_set_error (error, DDB_EXPORT_ERROR, DDB_EXPORT_ERROR_FAILED, "%s: %s",
                   put->target->launcher, spawn_error->message);
      return FALSE;
    }
  if (!ran)
    {
      g_set_error_literal (error, DDB_EXPORT_ERROR, DDB_EXPORT_ERROR_FAILED,
                           "The export was stopped: the database was closed");
      return FALSE;
    }
  if (g_spawn_check_wait_status (wait_status, NULL))
    return TRUE;
  set_put_error (wait_status, err_text->str, error);
  return FALSE;
}

static gboolean
open_bucket (const char *bucket, const char *bucket_owner, gpointer user_data,
             DdbExportPutFunc *put, gpointer *put_data, GDestroyNotify *put_data_free,
             GError **error)
{
  S3Put *p = g_new0 (S3Put, 1);

  (void) bucket_owner;
  (void) error;
  p->target = user_data;
  p->bucket = g_strdup (bucket);
  *put = s3_put;
  *put_data = p;
  *put_data_free = s3_put_free;
  return TRUE;
}

gboolean
cli_serve_s3_set_target (DdbEngine *engine, GError **error)
{
  char *launcher = cli_serve_find_program ("dynoscope-cli");
  Target *t;

  if (launcher == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                   _ ("exports to S3 need dynoscope-cli, which is neither beside this program "
                      "nor in %s"),
                   CLI_BINDIR_ABSOLUTE);
      return FALSE;
    }
  t = g_new0 (Target, 1);
  t->launcher = launcher;
  g_mutex_init (&t->lock);
  t->running = g_array_new (FALSE, FALSE, sizeof (GPid));
  ddb_engine_set_export_target (engine, open_bucket, target_stop, t, target_free);
  return TRUE;
}
