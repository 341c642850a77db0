/* push.c: a compare's pushable differences staged on there's connection (push.h). */
#include <glib/gi18n-lib.h>

#include "compare/compare-private.h"
#include "compare/push.h"
#include "staging/diff.h"

typedef struct {
  DdbCompareResult *result;
  DdbStaging *staging;
  const char *connection, *table;
  DdbPushSelectFunc select;
  gpointer select_data;
  DdbPushCounts counts;
  GError *error;
} Push;

gboolean
ddb_push_is_pushable (const DdbCompareDifference *d)
{
  return d->kind != DDB_COMPARE_SAME
         && (d->klass == DDB_COMPARE_NO_BASE || d->klass == DDB_COMPARE_EDITED_HERE);
}

/* HERE with the excluded paths as THERE holds them: what there should become. */
static DdbValue *
push_target (DdbCompareResult *r, const DdbValue *here, const DdbValue *there)
{
  DdbValue *target = ddb_value_copy (here);

  for (guint i = 0; i < r->n_exclude; i++)
    {
      const DdbPath *p = &r->exclude[i];
      const DdbValue *kept = ddb_path_lookup (there, p);

      if (kept != NULL)
        ddb_path_set (target, p, ddb_value_copy (kept));
      else if (ddb_path_lookup (target, p) != NULL)
        ddb_path_set (target, p, NULL);
    }
  return target;
}

static gboolean
push_one (const DdbCompareDifference *d, gpointer data)
{
  Push *push = data;
  gboolean ok;

  if (!ddb_push_is_pushable (d))
    {
      if (d->klass == DDB_COMPARE_EDITED_THERE)
        push->counts.left_there++;
      else if (d->klass == DDB_COMPARE_EDITED_BOTH)
        push->counts.conflicts++;
      return TRUE;
    }
  if (push->select != NULL && !push->select (d, push->select_data))
    {
      push->counts.not_selected++;
      return TRUE;
    }
  {
    DdbCompareResult *r = push->result;
    g_autoptr (DdbValue) key = compare_map_to_there (r, d->key);
    g_autoptr (DdbValue) there = compare_map_to_there (r, d->there);
    g_autoptr (DdbValue) target = NULL;

    if (d->here == NULL)
      {
        ok = ddb_staging_stage_delete (push->staging, push->connection, push->table, key, there,
                                       NULL, &push->error);
        push->counts.deletes += ok;
      }
    else if (d->there == NULL)
      {
        target = compare_map_to_there (r, d->here);
        ok = ddb_staging_stage_create (push->staging, push->connection, push->table, key, target,
                                       NULL, &push->error);
        push->counts.creates += ok;
      }
    else
      {
        g_autoptr (DdbValue) wanted = push_target (r, d->here, d->there);

        target = compare_map_to_there (r, wanted);
        ok = ddb_staging_stage_update (push->staging, push->connection, push->table, key, there,
                                       target, NULL, &push->error);
        push->counts.updates += ok;
      }
  }
  push->counts.staged += ok;
  return ok;
}

gboolean
ddb_push_stage (DdbCompareResult *result, DdbStaging *staging, const char *connection,
                DdbPushSelectFunc select, gpointer user_data, DdbPushCounts *counts, GError **error)
{
  const DdbCompareOptions *o = ddb_compare_result_options (result);
  Push push = { result, staging, connection, o->there.table, select, user_data };
  g_autoptr (GPtrArray) open = NULL;
  gboolean ok;

  if (counts != NULL)
    *counts = push.counts;
  if (o->there.export_path != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "The other side is an export (%s): a push needs a table to write to",
                   o->there.export_path);
      return FALSE;
    }
  open = ddb_staging_list (staging, connection, push.table, FALSE, error);
  if (open == NULL)
    return FALSE;
  if (open->len > 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   ngettext ("%u change is already open on %s in %s: commit or discard it "
                             "before a push, so that the push does not merge into it",
                             "%u changes are already open on %s in %s: commit or discard "
                             "them before a push, so that the push does not merge into them",
                             open->len),
                   open->len, push.table, connection);
      return FALSE;
    }
  ok = ddb_compare_result_foreach (result, push_one, &push, error);
  if (counts != NULL)
    *counts = push.counts;
  if (ok && push.error != NULL)
    {
      g_propagate_prefixed_error (
          error, push.error, "Staging the push stopped after %u changes: ", push.counts.staged);
      return FALSE;
    }
  g_clear_error (&push.error);
  return ok;
}
