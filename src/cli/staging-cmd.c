/* staging-cmd.c: `dynoscope-cli CONNECTION fanout | staged | commit | discard`: the staging
 * area from the command line. The changes are kept in the staging store (--staging PATH, else
 * ddb_staging_default_path()) under a connection id, the backend's description: the absolute
 * path of the database for --db (made absolute so that the same file is the same connection
 * from any directory), the endpoint URL for a remote target. Standard output carries stable
 * key=value lines (or JSON) for scripts; conflicts, failures and progress go to standard error.
 *
 * Ctrl-C cancels (staging-session.c, shared with stage-file-cmd.c). The commit journals every
 * change's outcome before going on, so a cancelled commit leaves the store consistent; a change
 * whose write may have gone out stays 'sending' and the next commit judges it from the item. */
#include <glib/gi18n.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli/staging-cmd.h"
#include "cli/staging-session.h"
#include "core/ddbjson.h"
#include "core/error.h"
#include "staging/commit.h"
#include "staging/diff.h"
#include "staging/fanout.h"

char *
cli_staging_connection (const CliTarget *target, DdbBackend *backend)
{
  if (cli_target_is_remote (target))
    return g_strdup (ddb_backend_get_description (backend));
  return strcmp (target->db_path, ":memory:") == 0 ? g_strdup (target->db_path)
                                                   : g_canonicalize_filename (target->db_path, NULL);
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

      *status = cli_staging_usage_error (command, message);
      return NULL;
    }
  if (text != NULL)
    return ddb_value_new_s (text, -1);
  value = ddb_json_parse_value (json, -1, &error);
  if (value == NULL)
    {
      g_autofree char *message = g_strdup_printf (_ ("--%s-json: %s"), name, error->message);

      *status = cli_staging_usage_error (command, message);
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
  CliStagingInterrupt interrupt;
  CliStagingSession session;
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
      _ (CLI_STAGING_CONNECTION_HELP));
  octx = cli_staging_option_context (NULL, summary, entries);
  if (!cli_staging_parse_options (octx, command, &argc, &argv, &status))
    return status;
  if (table == NULL)
    return cli_staging_usage_error (command, _ ("--table is required"));
  if ((index != NULL) == scan)
    return cli_staging_usage_error (command,
                                    _ ("give either --index NAME with --key VALUE, or --scan"));
  if (scan && (key != NULL || key_json != NULL))
    return cli_staging_usage_error (command, _ ("--key goes with --index, not with --scan"));
  if (index != NULL && key == NULL && key_json == NULL)
    return cli_staging_usage_error (command,
                                    _ ("--index needs the partition key's value: --key VALUE"));
  if (attribute == NULL)
    return cli_staging_usage_error (command, _ ("--set ATTR is required"));
  if (from == NULL && from_json == NULL)
    return cli_staging_usage_error (command, _ ("--from OLD (or --from-json) is required"));
  if (to == NULL && to_json == NULL)
    return cli_staging_usage_error (command, _ ("--to NEW (or --to-json) is required"));
  if ((old_value = value_option (command, "from", from, from_json, &status)) == NULL
      || (new_value = value_option (command, "to", to, to_json, &status)) == NULL)
    return status;
  if (index != NULL && (index_key = value_option (command, "key", key, key_json, &status)) == NULL)
    return status;
  if (ddb_value_equal (old_value, new_value))
    return cli_staging_usage_error (
        command, _ ("--from and --to are the same value: nothing to change"));

  status = cli_staging_session_open (&session, command, target, staging_path, TRUE);
  if (status != 0)
    {
      cli_staging_session_clear (&session);
      return status;
    }
  spec.table = table;
  spec.attribute = attribute;
  spec.old_value = old_value;
  spec.new_value = new_value;
  spec.index = index;
  spec.index_key = index_key;

  cli_staging_interrupt_begin (&interrupt);
  plan = ddb_fanout_plan (session.backend, &spec, interrupt.cancellable, &error);
  cli_staging_interrupt_end (&interrupt);
  if (plan == NULL)
    {
      cli_staging_session_clear (&session);
      return cli_staging_fail (command, error);
    }
  printf ("items=%u bytes=%" G_GUINT64_FORMAT " wcu_single=%" G_GUINT64_FORMAT
          " wcu_transactions=%" G_GUINT64_FORMAT "\n",
          plan->n_items, plan->total_size, plan->write_units, plan->write_units_transactions);
  if (!dry_run)
    {
      if (!ddb_fanout_stage (session.staging, session.connection, &spec, plan, &error))
        status = cli_staging_fail (command, error);
      else
        printf ("staged=%u\n", plan->n_items);
    }
  if (fflush (stdout) != 0 && status == 0)
    status = 1;
  cli_staging_session_clear (&session);
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
  CliStagingSession session;
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
      _ (CLI_STAGING_CONNECTION_HELP));
  octx = cli_staging_option_context (NULL, summary, entries);
  if (!cli_staging_parse_options (octx, command, &argc, &argv, &status))
    return status;
  status = cli_staging_session_open (&session, command, target, staging_path, FALSE);
  if (status != 0)
    {
      cli_staging_session_clear (&session);
      return status;
    }
  changes = ddb_staging_list (session.staging, session.connection, table, FALSE, &error);
  if (changes == NULL)
    status = cli_staging_fail (command, error);
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
  cli_staging_session_clear (&session);
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
  CliStagingInterrupt interrupt;
  CliStagingSession session;
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
      _ (CLI_STAGING_CONNECTION_HELP));
  octx = cli_staging_option_context (NULL, summary, entries);
  if (!cli_staging_parse_options (octx, command, &argc, &argv, &status))
    return status;
  if (change_id < 0)
    return cli_staging_usage_error (command, _ ("--change needs a change id (see `staged`)"));
  status = cli_staging_session_open (&session, command, target, staging_path, TRUE);
  if (status != 0)
    {
      cli_staging_session_clear (&session);
      return status;
    }
  /* Refused here rather than change by change: the changes stay staged, none marked failed. */
  if (!ddb_backend_check_writable (session.backend, "commit", &error))
    {
      cli_staging_session_clear (&session);
      return cli_staging_fail (command, error);
    }

  /* What this commit sends: those failing now are reported, not the ones failed before. */
  before = ddb_staging_list (session.staging, session.connection, table, FALSE, &error);
  if (before == NULL)
    {
      cli_staging_session_clear (&session);
      return cli_staging_fail (command, error);
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

  cli_staging_interrupt_begin (&interrupt);
  ok = ddb_staging_commit (session.staging, session.backend, &options, interrupt.cancellable,
                           &report, &error);
  cli_staging_interrupt_end (&interrupt);
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
      status = cli_staging_fail (command, error);
      fprintf (stderr, "%s\n",
               _ ("The journal is consistent: run commit again to resume where it stopped."));
    }
  else if (report.failed > 0)
    status = 1;
  ddb_commit_report_clear (&report);
  cli_staging_session_clear (&session);
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
  CliStagingSession session;
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
      _ (CLI_STAGING_CONNECTION_HELP));
  octx = cli_staging_option_context (NULL, summary, entries);
  if (!cli_staging_parse_options (octx, command, &argc, &argv, &status))
    return status;
  if (change_id < 0)
    return cli_staging_usage_error (command, _ ("--change needs a change id (see `staged`)"));
  status = cli_staging_session_open (&session, command, target, staging_path, FALSE);
  if (status != 0)
    {
      cli_staging_session_clear (&session);
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
    status = cli_staging_fail (command, error);
  else
    printf ("discarded=%u\n", n);
  if (fflush (stdout) != 0 && status == 0)
    status = 1;
  cli_staging_session_clear (&session);
  return status;
}
