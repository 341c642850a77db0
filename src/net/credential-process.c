/* credential-process.c: botocore's ProcessProvider: credential_process run (no shell: the
 * command line split as the CLI splits it), its JSON output read, the credentials kept until
 * their Expiration. A process that does not answer within the timeout is killed. When the
 * program is not on PATH (an app started from a desktop launcher has a short one), the login
 * shell's PATH is searched too, and the error names both. */
#include "net/credentials-private.h"

#include "net/hash.h"

#include <string.h>

/* A helper that waits for a person (a browser sign-in, a hardware key) may take a while. */
#define DEFAULT_TIMEOUT_S 120

static gboolean
process_error (GError **error, const char *msg)
{
  g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
               "Error when retrieving credentials from custom-process: %s", msg);
  return FALSE;
}

/* Version must equal 1, as Python compares it: 1, 1.0, 1e0 ... */
static gboolean
version_is_one (const char *s)
{
  if (*s++ != '1')
    return FALSE;
  if (*s == '.')
    for (s++; *s == '0'; s++)
      ;
  if (*s == 'e' || *s == 'E')
    {
      s++;
      if (*s == '+' || *s == '-')
        s++;
      for (; *s == '0'; s++)
        ;
    }
  return *s == '\0';
}

static gboolean
string_or_absent (DdbSecretJson *json, const char *key, gboolean null_ok)
{
  DdbSecretJsonKind kind = ddb_secret_json_kind (json, key);

  return kind == DDB_SECRET_JSON_STRING || kind == DDB_SECRET_JSON_ABSENT
         || (null_ok && kind == DDB_SECRET_JSON_NULL);
}

DdbAwsCredentials *
ddb_aws_parse_process_output (const char *text, gsize len, GError **error)
{
  g_autoptr (DdbSecretJson) json = ddb_secret_json_parse (text, len, NULL);
  DdbSecretJsonKind version;
  const char *token, *expiration_text;
  gint64 expiration = 0;

  /* The output is never quoted in errors: it holds the secret. */
  if (json == NULL)
    {
      process_error (error, "its output is not a JSON object");
      return NULL;
    }
  version = ddb_secret_json_kind (json, "Version");
  if (version == DDB_SECRET_JSON_ABSENT)
    {
      process_error (error, "Unsupported version '<Version key not provided>' for credential "
                            "process provider, supported versions: 1");
      return NULL;
    }
  if (version != DDB_SECRET_JSON_NUMBER || !version_is_one (ddb_secret_json_get (json, "Version")))
    {
      g_autofree char *msg = g_strdup_printf (
          "Unsupported version '%s' for credential process provider, supported versions: 1",
          version == DDB_SECRET_JSON_NULL     ? "None"
          : version == DDB_SECRET_JSON_NUMBER ? ddb_secret_json_get (json, "Version")
          : version == DDB_SECRET_JSON_TRUE   ? "True"
          : version == DDB_SECRET_JSON_FALSE  ? "False"
                                              : "(not a number)");
      process_error (error, msg);
      return NULL;
    }
  if (ddb_secret_json_kind (json, "AccessKeyId") == DDB_SECRET_JSON_ABSENT)
    {
      process_error (error, "Missing required key in response: 'AccessKeyId'");
      return NULL;
    }
  if (ddb_secret_json_kind (json, "SecretAccessKey") == DDB_SECRET_JSON_ABSENT)
    {
      process_error (error, "Missing required key in response: 'SecretAccessKey'");
      return NULL;
    }
  if (ddb_secret_json_get_string (json, "AccessKeyId") == NULL
      || ddb_secret_json_get_string (json, "SecretAccessKey") == NULL
      || !string_or_absent (json, "SessionToken", TRUE))
    {
      process_error (error, "AccessKeyId, SecretAccessKey and SessionToken must be strings");
      return NULL;
    }
  expiration_text = ddb_secret_json_get_string (json, "Expiration");
  if (!string_or_absent (json, "Expiration", TRUE)
      || (expiration_text != NULL && !ddb_aws_parse_timestamp (expiration_text, &expiration)))
    {
      process_error (error, "Expiration is not an ISO 8601 date and time");
      return NULL;
    }
  token = ddb_secret_json_get_string (json, "SessionToken");
  return ddb_aws_credentials_new (ddb_secret_json_get_string (json, "AccessKeyId"),
                                  ddb_secret_json_get_string (json, "SecretAccessKey"), token,
                                  expiration, "custom-process");
}

/* ---- Finding the program ---- */

G_LOCK_DEFINE_STATIC (login_path);
static char *login_path; /* the login shell's PATH, asked once; "" if it could not be had */

/* The PATH a login shell sets up ($SHELL -l -c), as a terminal would have it. */
static const char *
login_shell_path (const char *const *envp)
{
  G_LOCK (login_path);
  if (login_path == NULL)
    {
      const char *shell = ddb_aws_getenv (envp, "SHELL");
      const char *argv[] = { shell, "-l", "-c", "printf '%s' \"$PATH\"", NULL };
      g_autofree char *out = NULL;
      gint status = 0;

      if (shell == NULL || shell[0] != '/'
          || !g_spawn_sync (NULL, (char **) argv, (char **) envp,
                            G_SPAWN_STDERR_TO_DEV_NULL | G_SPAWN_STDIN_FROM_DEV_NULL, NULL, NULL,
                            &out, NULL, &status, NULL)
          || !g_spawn_check_wait_status (status, NULL) || out == NULL)
        login_path = g_strdup ("");
      else
        {
          /* The last line: a profile script may print before it. */
          char *nl = strrchr (g_strstrip (out), '\n');

          login_path = g_strdup (nl != NULL ? nl + 1 : out);
        }
    }
  G_UNLOCK (login_path);
  return login_path;
}

static char *
find_in (const char *path_list, const char *program)
{
  g_auto (GStrv) dirs = g_strsplit (path_list != NULL ? path_list : "", ":", -1);

  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *candidate = g_build_filename (dirs[i][0] != '\0' ? dirs[i] : ".", program,
                                                     NULL);

      if (g_file_test (candidate, G_FILE_TEST_IS_EXECUTABLE)
          && !g_file_test (candidate, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&candidate);
    }
  return NULL;
}

/* The full path of PROGRAM: itself when it names a path, else from PATH, else from the
 * login shell's PATH. */
static char *
find_program (const char *program, const char *const *envp, GError **error)
{
  const char *path = ddb_aws_getenv (envp, "PATH");
  const char *shell_path;
  char *found;

  if (strchr (program, '/') != NULL)
    return g_strdup (program);
  found = find_in (path != NULL ? path : "/usr/bin:/bin", program);
  if (found != NULL)
    return found;
  shell_path = login_shell_path (envp);
  found = find_in (shell_path, program);
  if (found != NULL)
    return found;
  {
    g_autofree char *msg = g_strdup_printf (
        "the program \"%s\" was not found on PATH (%s)%s%s%s", program,
        path != NULL ? path : "unset", shell_path[0] != '\0' ? " nor on your login shell's PATH ("
                                                             : "",
        shell_path, shell_path[0] != '\0' ? ")" : "");
    process_error (error, msg);
  }
  return NULL;
}

/* ---- Running it ---- */

typedef struct {
  GMutex lock;
  GCond cond;
  gboolean done;
  gboolean fired;
  gint64 deadline; /* monotonic */
  GCancellable *cancellable;
} Watchdog;

static gpointer
watchdog_run (gpointer data)
{
  Watchdog *w = data;

  g_mutex_lock (&w->lock);
  while (!w->done)
    if (!g_cond_wait_until (&w->cond, &w->lock, w->deadline))
      {
        if (!w->done)
          {
            w->fired = TRUE;
            g_cancellable_cancel (w->cancellable);
          }
        break;
      }
  g_mutex_unlock (&w->lock);
  return NULL;
}

static void
forward_cancel (GCancellable *outer, gpointer inner)
{
  g_cancellable_cancel (inner);
}

static guint
process_timeout_s (const char *const *envp)
{
  const char *v = ddb_aws_getenv (envp, "DYNOSCOPE_CREDENTIAL_PROCESS_TIMEOUT");
  guint64 n;

  if (v != NULL && g_ascii_string_to_unsigned (v, 10, 1, 86400, &n, NULL))
    return (guint) n;
  return DEFAULT_TIMEOUT_S;
}

/* A pipe read to its end or until STOP, keeping at most STDERR_KEPT bytes of it. */
#define STDERR_KEPT 65536
typedef struct {
  GInputStream *in;
  GCancellable *stop;
  GString *text;
  GError *error;
} Drain;

static gpointer
drain_run (gpointer data)
{
  Drain *d = data;
  char buf[4096];
  gssize n;

  while ((n = g_input_stream_read (d->in, buf, sizeof buf, d->stop, &d->error)) > 0)
    if (d->text->len < STDERR_KEPT)
      g_string_append_len (d->text, buf, MIN ((gsize) n, STDERR_KEPT - d->text->len));
  return NULL;
}

/* The process's standard output and standard error, each to its end, then its exit. The
 * output holds the keys: read into a secret string (*OUT: free with ddb_secret_string_free),
 * not through g_subprocess_communicate, whose buffers are freed unwiped. FALSE with ERROR when
 * STOP was cancelled first or a pipe failed (*OUT then NULL). */
static gboolean
read_outputs (GSubprocess *proc, GCancellable *stop, GString **out, GString **err, GError **error)
{
  Drain e = { g_subprocess_get_stderr_pipe (proc), stop, g_string_new (NULL), NULL };
  GThread *thread = g_thread_new ("credential-process-stderr", drain_run, &e);
  GString *o = ddb_secret_string_new (4096);
  GError *local = NULL;
  char buf[4096];
  gssize n;

  while (
      (n = g_input_stream_read (g_subprocess_get_stdout_pipe (proc), buf, sizeof buf, stop, &local))
      > 0)
    ddb_secret_string_append_len (o, buf, (gsize) n);
  ddb_secure_zero (buf, sizeof buf);
  if (n < 0)
    g_cancellable_cancel (stop); /* the standard error's reader too */
  g_thread_join (thread);
  *err = e.text;
  if (local == NULL && e.error == NULL && g_subprocess_wait (proc, stop, &local))
    {
      *out = o;
      g_clear_error (&e.error);
      return TRUE;
    }
  ddb_secret_string_free (o);
  *out = NULL;
  if (local == NULL)
    local = g_steal_pointer (&e.error);
  g_clear_error (&e.error);
  g_propagate_error (error, local);
  return FALSE;
}

/* The launcher's copy of the environment is freed unwiped: its secrets are wiped first. */
static void
launcher_wipe_secrets (GSubprocessLauncher *launcher)
{
  for (const char *const *name = ddb_environ_secret_names (); *name != NULL; name++)
    {
      /* transfer none: the value inside the launcher's own copy */
      char *value = (char *) g_subprocess_launcher_getenv (launcher, *name);

      if (value != NULL)
        ddb_secure_zero (value, strlen (value));
    }
}

static DdbAwsCredentials *
run_process (DdbAwsSession *s, DdbCredSource *src, gint64 now, GCancellable *cancellable,
             GError **error)
{
  const char *const *envp = ddb_aws_session_envp (s);
  const char *command = src->data;
  g_auto (GStrv) argv = NULL;
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  GString *out = NULL;
  g_autoptr (GString) err = NULL;
  g_autoptr (GCancellable) stop = g_cancellable_new ();
  GError *local = NULL;
  DdbAwsCredentials *creds;
  Watchdog w = { 0 };
  GThread *thread;
  gulong handler = 0;
  guint timeout_s = process_timeout_s (envp);
  g_autofree char *name = NULL;
  char **own_envp = NULL;
  char *program;
  gboolean ok;

  argv = ddb_aws_shell_split (command, &local);
  if (argv == NULL || argv[0] == NULL)
    {
      process_error (error, local != NULL ? local->message : "credential_process is empty");
      g_clear_error (&local);
      return NULL;
    }
  program = find_program (argv[0], envp, error);
  if (program == NULL)
    return NULL;
  name = g_path_get_basename (argv[0]);
  g_free (argv[0]);
  argv[0] = program;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_PIPE
                                        | G_SUBPROCESS_FLAGS_STDIN_INHERIT);
  /* The process environment whole, the secrets it hides included (botocore's child has them). */
  own_envp = envp == NULL ? ddb_environ_get () : NULL;
  g_subprocess_launcher_set_environ (launcher, own_envp != NULL ? own_envp : (char **) envp);
  proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv, &local);
  launcher_wipe_secrets (launcher);
  ddb_environ_free (own_envp);
  if (proc == NULL)
    {
      process_error (error, local->message);
      g_error_free (local);
      return NULL;
    }

  g_mutex_init (&w.lock);
  g_cond_init (&w.cond);
  w.cancellable = stop;
  w.deadline = g_get_monotonic_time () + (gint64) timeout_s * G_USEC_PER_SEC;
  thread = g_thread_new ("credential-process-timeout", watchdog_run, &w);
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel), stop, NULL);
  ok = read_outputs (proc, stop, &out, &err, &local);
  g_mutex_lock (&w.lock);
  w.done = TRUE;
  g_cond_signal (&w.cond);
  g_mutex_unlock (&w.lock);
  g_thread_join (thread);
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  g_mutex_clear (&w.lock);
  g_cond_clear (&w.cond);

  if (!ok)
    {
      g_subprocess_force_exit (proc);
      g_subprocess_wait (proc, NULL, NULL);
      if (w.fired)
        {
          g_autofree char *msg
              = g_strdup_printf ("%s did not answer within %u seconds and was stopped "
                                 "(DYNOSCOPE_CREDENTIAL_PROCESS_TIMEOUT sets the limit)",
                                 name, timeout_s);
          process_error (error, msg);
          g_error_free (local);
        }
      else if (g_cancellable_is_cancelled (cancellable))
        {
          g_error_free (local);
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
        }
      else
        {
          process_error (error, local->message);
          g_error_free (local);
        }
      return NULL;
    }
  if (!g_subprocess_get_successful (proc))
    {
      /* The CLI reports the process's standard error; its standard output is never shown. */
      g_autofree char *msg = g_utf8_make_valid (err->str, MIN (err->len, 4096));

      g_strstrip (msg);
      if (msg[0] == '\0')
        {
          g_free (msg);
          msg = g_strdup_printf ("%s exited with status %d", name,
                                 g_subprocess_get_if_exited (proc)
                                     ? g_subprocess_get_exit_status (proc)
                                     : -1);
        }
      process_error (error, msg);
      ddb_secret_string_free (out);
      return NULL;
    }
  creds = ddb_aws_parse_process_output (out->str, out->len, error);
  ddb_secret_string_free (out);
  return creds;
}

DdbCredSource *
ddb_process_source_new (const char *profile, const char *command)
{
  return ddb_cred_source_new ("custom-process", profile, run_process, g_strdup (command),
                              (GDestroyNotify) ddb_secret_free);
}
