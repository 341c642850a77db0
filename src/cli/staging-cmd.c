/* staging-cmd.c: `dynoscope-cli CONNECTION fanout | staged | commit | discard`: the staging
 * area from the command line. The changes are kept in the staging store (--staging PATH, else
 * ddb_staging_default_path()) under a connection id, the backend's description: the absolute
 * path of the database for --db (made absolute so that the same file is the same connection
 * from any directory), the endpoint URL for a remote target. Standard output carries stable
 * key=value lines (or JSON) for scripts; conflicts, failures and progress go to standard error.
 *
 * Ctrl-C: the signal handler only writes a byte to a pipe (g_cancellable_cancel() is not
 * async-signal-safe) and a thread cancels. The commit journals every change's outcome before
 * going on, so a cancelled commit leaves the store consistent; a change whose write may have
 * gone out stays 'sending' and the next commit judges it from the item. */
#include <errno.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/staging-cmd.h"
#include "core/ddbjson.h"
#include "core/error.h"
#include "staging/commit.h"
#include "staging/diff.h"
#include "staging/fanout.h"

#define EXIT_USAGE 2
#define EXIT_CANCELLED 130 /* as a shell reports a SIGINT death */

/* ------------------------------------------------------------------------------------------ */
/* Ctrl-C as a cancellation */

typedef struct {
  GCancellable *cancellable;
  GThread *watch;
  int pipe[2];
} Interrupt;

static int interrupt_fd = -1;

static void
on_sigint (int sig)
{
  int saved = errno;
  char c = 1;
  ssize_t n = write (interrupt_fd, &c, 1);

  (void) n;
  errno = saved;
}

static gpointer
interrupt_watch (gpointer data)
{
  Interrupt *in = data;

  for (;;)
    {
      char c = 0;
      ssize_t n = read (in->pipe[0], &c, 1);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0 || c == 0)
        return NULL;
      g_cancellable_cancel (in->cancellable);
    }
}

static void
interrupt_begin (Interrupt *in)
{
  struct sigaction sa;

  in->cancellable = g_cancellable_new ();
  in->watch = NULL;
  if (!g_unix_open_pipe (in->pipe, FD_CLOEXEC, NULL))
    return; /* no clean cancellation: Ctrl-C still stops the command */
  interrupt_fd = in->pipe[1];
  in->watch = g_thread_new ("dynoscope-sigint", interrupt_watch, in);
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  /* One-shot: a second Ctrl-C kills at once, which the journal also survives. */
  sa.sa_flags = SA_RESETHAND;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, NULL);
}

static void
interrupt_end (Interrupt *in)
{
  signal (SIGINT, SIG_DFL);
  if (in->watch != NULL)
    {
      char c = 0;
      ssize_t n = write (in->pipe[1], &c, 1);

      (void) n;
      g_thread_join (in->watch);
      in->watch = NULL;
      interrupt_fd = -1;
      close (in->pipe[0]);
      close (in->pipe[1]);
    }
  g_clear_object (&in->cancellable);
}

/* ------------------------------------------------------------------------------------------ */
/* What every command shares */

typedef struct {
  DdbBackend *backend; /* NULL when the command did not need one */
  DdbStaging *staging;
  char *connection;
} Session;

static void
session_clear (Session *s)
{
  g_clear_pointer (&s->backend, ddb_backend_free);
  g_clear_pointer (&s->staging, ddb_staging_free);
  g_clear_pointer (&s->connection, g_free);
}

static int
fail (const char *command, const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      fprintf (stderr, "dynoscope-cli %s: %s\n", command, _ ("cancelled"));
      return EXIT_CANCELLED;
    }
  if (error->domain == DDB_ERROR)
    fprintf (stderr, "%s: %s\n", ddb_backend_error_name (error, NULL), error->message);
  else
    fprintf (stderr, "dynoscope-cli %s: %s\n", command, error->message);
  return 1;
}

static int
usage_error (const char *command, const char *message)
{
  fprintf (stderr, "dynoscope-cli %s: %s\n", command, message);
  fprintf (stderr, _ ("Run 'dynoscope-cli %s --help' for its options.\n"), command);
  return EXIT_USAGE;
}

char *
cli_staging_connection (const CliTarget *target, DdbBackend *backend)
{
  if (cli_target_is_remote (target))
    return g_strdup (ddb_backend_get_description (backend));
  return strcmp (target->db_path, ":memory:") == 0 ? g_strdup (target->db_path)
                                                   : g_canonicalize_filename (target->db_path, NULL);
}

/* Opens the staging store and finds the connection id; opens the backend too with
 * NEED_BACKEND (listing and discarding need no database: none is created for them).
 * Returns 0, or the exit status. */
static int
session_open (Session *s, const char *command, const CliTarget *target, const char *staging_path,
              gboolean need_backend)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *default_path = NULL;

  memset (s, 0, sizeof *s);
  if (!cli_target_is_remote (target))
    {
      s->connection = cli_staging_connection (target, NULL);
      if (need_backend)
        {
          CliTarget absolute = *target;
          gboolean config_error = FALSE;

          absolute.db_path = s->connection;
          s->backend = cli_target_open (&absolute, &config_error, &error);
          if (s->backend == NULL)
            return fail (command, error);
        }
    }
  else
    {
      gboolean config_error = FALSE;

      /* No request is sent here: the endpoint is known once the profile is read. */
      s->backend = cli_target_open (target, &config_error, &error);
      if (s->backend == NULL)
        {
          fprintf (stderr, "dynoscope-cli %s: %s\n", command, error->message);
          return config_error ? EXIT_USAGE : 1;
        }
      s->connection = cli_staging_connection (target, s->backend);
    }
  if (staging_path == NULL)
    staging_path = default_path = ddb_staging_default_path ();
  s->staging = ddb_staging_open (staging_path, &error);
  if (s->staging == NULL)
    {
      fprintf (stderr, "dynoscope-cli %s: %s: %s\n", command, staging_path, error->message);
      return 1;
    }
  return 0;
}

static GOptionContext *
option_context (const char *parameters, const char *summary, GOptionEntry *entries)
{
  GOptionContext *octx = g_option_context_new (parameters);

  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (octx, summary);
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  return octx;
}

#define CONNECTION_HELP \
  N_ ("CONNECTION is --db PATH or --endpoint URL [--profile P] [--region R], given before the " \
      "command. Changes are staged per connection: the absolute path of the database, or the " \
      "endpoint URL (two profiles on one endpoint share their staged changes). They are kept " \
      "in the staging store --staging PATH, by default dynoscope/staging.db in the user's data " \
      "directory ($XDG_DATA_HOME), which the app shares.")

static gboolean
parse_options (GOptionContext *octx, const char *command, int *argc, char ***argv, int *status)
{
  g_autoptr (GError) error = NULL;

  if (!g_option_context_parse (octx, argc, argv, &error))
    {
      *status = usage_error (command, error->message);
      return FALSE;
    }
  if (*argc > 1)
    {
      g_autofree char *message = g_strdup_printf (_ ("unexpected argument “%s”"), (*argv)[1]);

      *status = usage_error (command, message);
      return FALSE;
    }
  return TRUE;
}

static char *
format_value (const DdbValue *value)
{
  if (value == NULL)
    return g_strdup (_ ("(absent)"));
  return ddb_json_format_value (value);
}

/* ------------------------------------------------------------------------------------------ */
/* fanout */

/* The value of a (--NAME TEXT | --NAME-json JSON) pair: TEXT as a string, or JSON as a typed
 * value. NULL with *STATUS set on a usage error. */
static DdbValue *
value_option (const char *command, const char *name, const char *text, const char *json,
              int *status)
{
  g_autoptr (GError) error = NULL;
  DdbValue *value;

  if (text != NULL && json != NULL)
    {
      g_autofree char *message
          = g_strdup_printf (_ ("--%s and --%s-json cannot be used together"), name, name);

      *status = usage_error (command, message);
      return NULL;
    }
  if (text != NULL)
    return ddb_value_new_s (text, -1);
  value = ddb_json_parse_value (json, -1, &error);
  if (value == NULL)
    {
      g_autofree char *message = g_strdup_printf (_ ("--%s-json: %s"), name, error->message);

      *status = usage_error (command, message);
    }
  return value;
}

int
cli_fanout_main (const CliTarget *target, int argc, char **argv)
{
  const char *command = "fanout";
  g_autofree char *table = NULL, *index = NULL, *key = NULL, *key_json = NULL;
  g_autofree char *attribute = NULL, *from = NULL, *from_json = NULL, *to = NULL;
  g_autofree char *to_json = NULL, *staging_path = NULL, *summary = NULL;
  gboolean scan = FALSE, dry_run = FALSE;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbValue) old_value = NULL, new_value = NULL, index_key = NULL;
  g_autoptr (DdbFanoutPlan) plan = NULL;
  DdbFanoutSpec spec = { 0 };
  Interrupt interrupt;
  Session session;
  int status = 0;
  GOptionEntry entries[] = {
    { "table", 0, 0, G_OPTION_ARG_STRING, &table, N_ ("The table holding the copies"), N_ ("T") },
    { "index", 0, 0, G_OPTION_ARG_STRING, &index,
      N_ ("Find the copies with a Query of this index (GSI or LSI)…"), N_ ("NAME") },
    { "key", 0, 0, G_OPTION_ARG_STRING, &key, N_ ("…on this value of its partition key (a string)"),
      N_ ("VALUE") },
    { "key-json", 0, 0, G_OPTION_ARG_STRING, &key_json,
      N_ ("…or on this typed value, in DynamoDB JSON: '{\"N\": \"12\"}'"), N_ ("JSON") },
    { "scan", 0, 0, G_OPTION_ARG_NONE, &scan,
      N_ ("Find the copies with a filtered Scan of the whole table instead"), NULL },
    { "set", 0, 0, G_OPTION_ARG_STRING, &attribute, N_ ("The top-level attribute holding the copy"),
      N_ ("ATTR") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, N_ ("The value it holds now (a string)"),
      N_ ("OLD") },
    { "from-json", 0, 0, G_OPTION_ARG_STRING, &from_json,
      N_ ("The value it holds now, typed, in DynamoDB JSON: '{\"N\": \"5\"}'"), N_ ("JSON") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, N_ ("The value it gets (a string)"), N_ ("NEW") },
    { "to-json", 0, 0, G_OPTION_ARG_STRING, &to_json,
      N_ ("The value it gets, typed, in DynamoDB JSON: '{\"L\": [{\"S\": \"a\"}]}'"), N_ ("JSON") },
    { "dry-run", 0, 0, G_OPTION_ARG_NONE, &dry_run, N_ ("Print the plan without staging anything"),
      NULL },
    { "staging", 0, 0, G_OPTION_ARG_FILENAME, &staging_path,
      N_ ("The staging store (default: staging.db in the user's data directory)"), N_ ("PATH") },
    { NULL },
  };

  summary = g_strdup_printf (
      "%s\n\n%s\n\n%s\n\n%s\n\n%s",
      _ ("Usage: dynoscope-cli CONNECTION fanout --table T "
         "(--index NAME --key VALUE | --scan) --set ATTR --from OLD "
         "--to NEW"),
      _ ("Finds every item of table T whose attribute ATTR holds OLD — through a Query of an "
         "index on its partition key value, or a Scan of the table filtered on ATTR = OLD — and "
         "stages for each an update of ATTR to NEW, guarded on commit by ATTR still being OLD. "
         "Nothing is written to the table until `commit`."),
      _ ("Values are strings; --from-json, --to-json and --key-json take a typed value in "
         "DynamoDB JSON instead, e.g. --from-json '{\"N\": \"5\"}'."),
      _ ("Prints the plan, “items=N bytes=B wcu_single=W wcu_transactions=T” (the items' total "
         "size as written, and the write capacity the commit costs as single writes and in "
         "transactions, which double it), then “staged=N”. Exit status: 0 on success, 1 on an "
         "error, 2 on a usage error, 130 when cancelled with Ctrl-C (nothing is staged)."),
      _ (CONNECTION_HELP));
  octx = option_context (NULL, summary, entries);
  if (!parse_options (octx, command, &argc, &argv, &status))
    return status;
  if (table == NULL)
    return usage_error (command, _ ("--table is required"));
  if ((index != NULL) == scan)
    return usage_error (command, _ ("give either --index NAME with --key VALUE, or --scan"));
  if (scan && (key != NULL || key_json != NULL))
    return usage_error (command, _ ("--key goes with --index, not with --scan"));
  if (index != NULL && key == NULL && key_json == NULL)
    return usage_error (command, _ ("--index needs the partition key's value: --key VALUE"));
  if (attribute == NULL)
    return usage_error (command, _ ("--set ATTR is required"));
  if (from == NULL && from_json == NULL)
    return usage_error (command, _ ("--from OLD (or --from-json) is required"));
  if (to == NULL && to_json == NULL)
    return usage_error (command, _ ("--to NEW (or --to-json) is required"));
  if ((old_value = value_option (command, "from", from, from_json, &status)) == NULL
      || (new_value = value_option (command, "to", to, to_json, &status)) == NULL)
    return status;
  if (index != NULL && (index_key = value_option (command, "key", key, key_json, &status)) == NULL)
    return status;
  if (ddb_value_equal (old_value, new_value))
    return usage_error (command, _ ("--from and --to are the same value: nothing to change"));

  status = session_open (&session, command, target, staging_path, TRUE);
  if (status != 0)
    {
      session_clear (&session);
      return status;
    }
  spec.table = table;
  spec.attribute = attribute;
  spec.old_value = old_value;
  spec.new_value = new_value;
  spec.index = index;
  spec.index_key = index_key;

  interrupt_begin (&interrupt);
  plan = ddb_fanout_plan (session.backend, &spec, interrupt.cancellable, &error);
  interrupt_end (&interrupt);
  if (plan == NULL)
    {
      session_clear (&session);
      return fail (command, error);
    }
  printf ("items=%u bytes=%" G_GUINT64_FORMAT " wcu_single=%" G_GUINT64_FORMAT
          " wcu_transactions=%" G_GUINT64_FORMAT "\n",
          plan->n_items, plan->total_size, plan->write_units, plan->write_units_transactions);
  if (!dry_run)
    {
      if (!ddb_fanout_stage (session.staging, session.connection, &spec, plan, &error))
        status = fail (command, error);
      else
        printf ("staged=%u\n", plan->n_items);
    }
  if (fflush (stdout) != 0 && status == 0)
    status = 1;
  session_clear (&session);
  return status;
}

/* ------------------------------------------------------------------------------------------ */
/* staged */

static json_t *
change_to_json (const DdbChange *change)
{
  g_autoptr (GPtrArray) diff = ddb_change_diff (change);
  json_t *obj = json_object ();
  json_t *paths = json_array ();

  json_object_set_new (obj, "id", json_integer (change->id));
  json_object_set_new (obj, "table", json_string (change->table));
  json_object_set_new (obj, "kind", json_string (ddb_change_kind_name (change->kind)));
  json_object_set_new (obj, "state", json_string (ddb_change_state_name (change->state)));
  json_object_set_new (obj, "key", ddb_item_to_json (change->key));
  for (guint i = 0; i < diff->len; i++)
    {
      DdbDiffEntry *entry = g_ptr_array_index (diff, i);
      g_autofree char *path = ddb_path_to_string (&entry->path);
      json_t *row = json_object ();

      json_object_set_new (row, "path", json_string (path));
      json_object_set_new (row, "old",
                           entry->old_value != NULL ? ddb_value_to_json (entry->old_value)
                                                    : json_null ());
      json_object_set_new (row, "new",
                           entry->new_value != NULL ? ddb_value_to_json (entry->new_value)
                                                    : json_null ());
      json_array_append_new (paths, row);
    }
  json_object_set_new (obj, "changes", paths);
  if (change->state == DDB_CHANGE_CONFLICT)
    json_object_set_new (obj, "current",
                         change->current != NULL ? ddb_item_to_json (change->current)
                                                 : json_null ());
  if (change->message != NULL)
    json_object_set_new (obj, "message", json_string (change->message));
  return obj;
}

static void
print_change (FILE *out, const DdbChange *change)
{
  g_autoptr (GPtrArray) diff = ddb_change_diff (change);
  g_autofree char *key = ddb_json_format_item (change->key);

  fprintf (out, "#%" G_GINT64_FORMAT " %s %s %s [%s]\n", change->id,
           ddb_change_kind_name (change->kind), change->table, key,
           ddb_change_state_name (change->state));
  for (guint i = 0; i < diff->len; i++)
    {
      DdbDiffEntry *entry = g_ptr_array_index (diff, i);
      g_autofree char *path = ddb_path_to_string (&entry->path);
      g_autofree char *old_text = format_value (entry->old_value);
      g_autofree char *new_text = format_value (entry->new_value);

      fprintf (out, "  %s: %s -> %s\n", path, old_text, new_text);
    }
  if (change->state == DDB_CHANGE_CONFLICT)
    {
      g_autofree char *current = change->current != NULL ? ddb_json_format_item (change->current)
                                                         : g_strdup (_ ("(absent)"));

      fprintf (out, "  %s %s\n", _ ("found:"), current);
    }
  if (change->message != NULL)
    fprintf (out, "  %s\n", change->message);
}

int
cli_staged_main (const CliTarget *target, int argc, char **argv)
{
  const char *command = "staged";
  g_autofree char *table = NULL, *staging_path = NULL, *summary = NULL;
  gboolean as_json = FALSE;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) changes = NULL;
  Session session;
  int status = 0;
  GOptionEntry entries[] = {
    { "table", 0, 0, G_OPTION_ARG_STRING, &table, N_ ("Only the changes of this table"), N_ ("T") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json, N_ ("Print a JSON array, for scripts"), NULL },
    { "staging", 0, 0, G_OPTION_ARG_FILENAME, &staging_path,
      N_ ("The staging store (default: staging.db in the user's data directory)"), N_ ("PATH") },
    { NULL },
  };

  summary = g_strdup_printf (
      "%s\n\n%s\n\n%s\n\n%s", _ ("Usage: dynoscope-cli CONNECTION staged [--table T] [--json]"),
      _ ("Lists the open changes of the connection, oldest first: staged ones, those left in "
         "conflict or failed by a commit, and those a commit was sending when it stopped. Each "
         "is shown as “#ID KIND TABLE KEY [STATE]” followed by one line per changed document "
         "path, “path: old -> new”, values in DynamoDB JSON; a conflict also shows the item as "
         "found."),
      _ ("With --json: an array of {id, table, kind, state, key, changes: [{path, old, new}], "
         "current (conflicts), message}, where an absent value is null."),
      _ (CONNECTION_HELP));
  octx = option_context (NULL, summary, entries);
  if (!parse_options (octx, command, &argc, &argv, &status))
    return status;
  status = session_open (&session, command, target, staging_path, FALSE);
  if (status != 0)
    {
      session_clear (&session);
      return status;
    }
  changes = ddb_staging_list (session.staging, session.connection, table, FALSE, &error);
  if (changes == NULL)
    status = fail (command, error);
  else if (as_json)
    {
      json_t *array = json_array ();
      char *text;

      for (guint i = 0; i < changes->len; i++)
        json_array_append_new (array, change_to_json (g_ptr_array_index (changes, i)));
      text = json_dumps (array, JSON_INDENT (2));
      printf ("%s\n", text);
      free (text);
      json_decref (array);
    }
  else
    for (guint i = 0; i < changes->len; i++)
      print_change (stdout, g_ptr_array_index (changes, i));
  if (fflush (stdout) != 0 && status == 0)
    status = 1;
  session_clear (&session);
  return status;
}

/* ------------------------------------------------------------------------------------------ */
/* commit */

typedef struct {
  gboolean terminal;
} CommitRun;

static void
on_commit_progress (const DdbCommitProgress *p, gpointer user_data)
{
  CommitRun *run = user_data;
  guint done = p->committed + p->conflicts + p->failed;

  if (!run->terminal)
    return;
  /* TRANSLATORS: "Committing: 120/500 (committed 117, conflicts 3, failed 0)" */
  fprintf (stderr, "\r");
  fprintf (stderr, _ ("Committing: %u/%u (committed %u, conflicts %u, failed %u)"), done, p->total,
           p->committed, p->conflicts, p->failed);
  fprintf (stderr, "\033[K");
  fflush (stderr);
}

/* A conflict: each guarded path with the value the change expected, the one found and the one
 * it wanted to write. */
static void
print_conflict (const DdbChange *change)
{
  g_autoptr (GPtrArray) diff = ddb_change_diff (change);
  g_autofree char *key = ddb_json_format_item (change->key);
  g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, change->id);

  /* TRANSLATORS: the change's number, its kind (create, update, delete), table and key */
  fprintf (stderr, _ ("conflict: #%s %s %s %s\n"), id, ddb_change_kind_name (change->kind),
           change->table, key);
  if (change->current == NULL && change->kind != DDB_CHANGE_CREATE)
    fprintf (stderr, "  %s\n", _ ("the item no longer exists"));
  for (guint i = 0; i < diff->len; i++)
    {
      DdbDiffEntry *entry = g_ptr_array_index (diff, i);
      g_autofree char *path = ddb_path_to_string (&entry->path);
      DdbValue *found
          = change->current != NULL ? ddb_path_lookup (change->current, &entry->path) : NULL;
      g_autofree char *expected = format_value (entry->old_value);
      g_autofree char *current = format_value (found);
      g_autofree char *wanted = format_value (entry->new_value);

      /* TRANSLATORS: a conflicted path: "name: expected X, found Y (to write: Z)" */
      fprintf (stderr, _ ("  %s: expected %s, found %s (to write: %s)\n"), path, expected, current,
               wanted);
    }
  if (change->kind == DDB_CHANGE_DELETE && change->current != NULL)
    {
      g_autofree char *current = ddb_json_format_item (change->current);

      fprintf (stderr, "  %s %s\n", _ ("found:"), current);
    }
}

int
cli_commit_main (const CliTarget *target, int argc, char **argv)
{
  const char *command = "commit";
  g_autofree char *table = NULL, *staging_path = NULL, *summary = NULL;
  gboolean single = FALSE;
  gint64 change_id = 0;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) before = NULL;
  g_autoptr (GPtrArray) after = NULL;
  g_autoptr (GHashTable) sent = NULL;
  DdbCommitOptions options = { 0 };
  DdbCommitReport report = { 0 };
  CommitRun run = { 0 };
  Interrupt interrupt;
  Session session;
  gboolean ok;
  int status = 0;
  GOptionEntry entries[] = {
    { "table", 0, 0, G_OPTION_ARG_STRING, &table, N_ ("Only the changes of this table"), N_ ("T") },
    { "single", 0, 0, G_OPTION_ARG_NONE, &single,
      N_ ("One conditional write per change instead of TransactWriteItems batches"), NULL },
    { "change", 0, 0, G_OPTION_ARG_INT64, &change_id, N_ ("Only this change (see `staged`)"),
      N_ ("ID") },
    { "staging", 0, 0, G_OPTION_ARG_FILENAME, &staging_path,
      N_ ("The staging store (default: staging.db in the user's data directory)"), N_ ("PATH") },
    { NULL },
  };

  summary = g_strdup_printf (
      "%s\n\n%s\n\n%s\n\n%s\n\n%s",
      _ ("Usage: dynoscope-cli CONNECTION commit [--table T] [--single]"),
      _ ("Sends the staged changes, each under its optimistic lock: an update only if the "
         "paths it changes still hold their original values, a create only if the item does "
         "not exist, a delete only if the item is unchanged. They go out in TransactWriteItems "
         "batches (at most 100 actions, 4 MB, one per item), or with --single as one "
         "conditional write each. Throttled calls are retried with backoff."),
      _ ("Every change's outcome is journaled before the next is sent: a commit stopped by "
         "Ctrl-C, a crash or kill -9 resumes where it stopped when run again, and never "
         "applies a change twice."),
      _ ("Prints “committed=N conflicts=M failed=K” on standard output. A conflict (the item "
         "changed behind our back) is not an error: the item is left untouched, the change "
         "stays staged beside the item as found, and each is described on standard error, "
         "path by path, with the value expected, the value found and the value to write. Exit "
         "status: 0 when no change failed (even with conflicts), 1 when some failed or the "
         "commit had to stop (network, throttling past the retries), 2 on a usage error, 130 "
         "when cancelled with Ctrl-C."),
      _ (CONNECTION_HELP));
  octx = option_context (NULL, summary, entries);
  if (!parse_options (octx, command, &argc, &argv, &status))
    return status;
  if (change_id < 0)
    return usage_error (command, _ ("--change needs a change id (see `staged`)"));
  status = session_open (&session, command, target, staging_path, TRUE);
  if (status != 0)
    {
      session_clear (&session);
      return status;
    }
  /* Refused here rather than change by change: the changes stay staged, none marked failed. */
  if (!ddb_backend_check_writable (session.backend, "commit", &error))
    {
      session_clear (&session);
      return fail (command, error);
    }

  /* What this commit sends: those failing now are reported, not the ones failed before. */
  before = ddb_staging_list (session.staging, session.connection, table, FALSE, &error);
  if (before == NULL)
    {
      session_clear (&session);
      return fail (command, error);
    }
  sent = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < before->len; i++)
    {
      DdbChange *change = g_ptr_array_index (before, i);

      if (change->state == DDB_CHANGE_STAGED || change->state == DDB_CHANGE_SENDING)
        g_hash_table_add (sent, g_memdup2 (&change->id, sizeof change->id));
    }

  options.connection = session.connection;
  options.table = table;
  options.change_id = change_id;
  options.mode = single ? DDB_COMMIT_SINGLE : DDB_COMMIT_TRANSACTIONS;
  options.progress = on_commit_progress;
  options.progress_data = &run;
  run.terminal = isatty (STDERR_FILENO);

  interrupt_begin (&interrupt);
  ok = ddb_staging_commit (session.staging, session.backend, &options, interrupt.cancellable,
                           &report, &error);
  interrupt_end (&interrupt);
  if (run.terminal)
    fputc ('\n', stderr);

  for (guint i = 0; report.conflict_ids != NULL && i < report.conflict_ids->len; i++)
    {
      g_autoptr (DdbChange) change
          = ddb_staging_get (session.staging, g_array_index (report.conflict_ids, gint64, i), NULL);

      if (change != NULL)
        print_conflict (change);
    }
  after = ddb_staging_list (session.staging, session.connection, table, FALSE, NULL);
  for (guint i = 0; after != NULL && i < after->len; i++)
    {
      DdbChange *change = g_ptr_array_index (after, i);

      if (change->state == DDB_CHANGE_FAILED && g_hash_table_contains (sent, &change->id))
        {
          g_autofree char *key = ddb_json_format_item (change->key);
          g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, change->id);

          fprintf (stderr, _ ("failed: #%s %s %s %s: %s\n"), id,
                   ddb_change_kind_name (change->kind), change->table, key,
                   change->message != NULL ? change->message : "");
        }
    }

  printf ("committed=%u conflicts=%u failed=%u\n", report.committed, report.conflicts,
          report.failed);
  if (fflush (stdout) != 0)
    status = 1;
  if (!ok)
    {
      status = fail (command, error);
      fprintf (stderr, "%s\n",
               _ ("The journal is consistent: run commit again to resume where it stopped."));
    }
  else if (report.failed > 0)
    status = 1;
  ddb_commit_report_clear (&report);
  session_clear (&session);
  return status;
}

/* ------------------------------------------------------------------------------------------ */
/* discard */

int
cli_discard_main (const CliTarget *target, int argc, char **argv)
{
  const char *command = "discard";
  g_autofree char *table = NULL, *staging_path = NULL, *summary = NULL;
  gint64 change_id = 0;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  Session session;
  guint n = 0;
  int status = 0;
  GOptionEntry entries[] = {
    { "table", 0, 0, G_OPTION_ARG_STRING, &table, N_ ("Only the changes of this table"), N_ ("T") },
    { "change", 0, 0, G_OPTION_ARG_INT64, &change_id, N_ ("Only this change (see `staged`)"),
      N_ ("ID") },
    { "staging", 0, 0, G_OPTION_ARG_FILENAME, &staging_path,
      N_ ("The staging store (default: staging.db in the user's data directory)"), N_ ("PATH") },
    { NULL },
  };

  summary = g_strdup_printf (
      "%s\n\n%s\n\n%s", _ ("Usage: dynoscope-cli CONNECTION discard [--table T]"),
      _ ("Removes the open changes of the connection (staged, in conflict or failed), of every "
         "table or of table T, or only change ID; nothing is written to the tables. Changes "
         "an interrupted commit was sending are kept: run commit to settle them. Prints "
         "“discarded=N”."),
      _ (CONNECTION_HELP));
  octx = option_context (NULL, summary, entries);
  if (!parse_options (octx, command, &argc, &argv, &status))
    return status;
  if (change_id < 0)
    return usage_error (command, _ ("--change needs a change id (see `staged`)"));
  status = session_open (&session, command, target, staging_path, FALSE);
  if (status != 0)
    {
      session_clear (&session);
      return status;
    }
  if (change_id > 0)
    {
      g_autoptr (DdbChange) change = ddb_staging_get (session.staging, change_id, &error);

      if (change != NULL
          && (strcmp (change->connection, session.connection) != 0
              || (table != NULL && strcmp (change->table, table) != 0)
              || change->state == DDB_CHANGE_COMMITTED))
        {
          g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, change_id);

          g_clear_pointer (&change, ddb_change_free);
          g_set_error (&error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _ ("No open change %s on this connection"), id);
        }
      if (change != NULL && ddb_staging_discard (session.staging, change_id, &error))
        n = 1;
    }
  else
    ddb_staging_discard_all (session.staging, session.connection, table, &n, &error);
  if (error != NULL)
    status = fail (command, error);
  else
    printf ("discarded=%u\n", n);
  if (fflush (stdout) != 0 && status == 0)
    status = 1;
  session_clear (&session);
  return status;
}
