/* exprstage.c: staging one built update or delete on each item of a result. */
#include "staging/exprstage.h"

#include <string.h>

#include "staging/staging-private.h"

void
ddb_expr_stage_failure_free (gpointer data)
{
  DdbExprStageFailure *f = data;

  g_clear_pointer (&f->key, ddb_value_free);
  g_free (f->message);
  g_free (f);
}

void
ddb_expr_stage_report_clear (DdbExprStageReport *report)
{
  g_clear_pointer (&report->failures, g_ptr_array_unref);
}

G_GNUC_PRINTF (3, 4)
static void
add_failure (DdbExprStageReport *report, const DdbValue *key, const char *format, ...)
{
  DdbExprStageFailure *f = g_new0 (DdbExprStageFailure, 1);
  va_list ap;

  va_start (ap, format);
  f->message = g_strdup_vprintf (format, ap);
  va_end (ap);
  f->key = key != NULL ? ddb_value_copy (key) : NULL;
  g_ptr_array_add (report->failures, f);
  report->n_failed++;
}

static DdbValue *
item_key (const DdbValue *item, const char *const *names, const char **missing)
{
  g_autoptr (DdbValue) key = ddb_value_new_m ();

  for (guint i = 0; names[i] != NULL; i++)
    {
      const DdbValue *v = ddb_value_map_get (item, names[i]);

      if (v == NULL)
        {
          *missing = names[i];
          return NULL;
        }
      ddb_value_map_set (key, names[i], ddb_value_copy (v));
    }
  return g_steal_pointer (&key);
}

gboolean
ddb_staging_is_item_refusal (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS)
         || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BUSY);
}

/* One item: FALSE only when the store failed (*ERROR set). */
static gboolean
stage_item (DdbStaging *staging, const DdbExprStageSpec *spec, const DdbValue *item,
            DdbExprStageReport *report, GError **error)
{
  g_autoptr (DdbValue) key = NULL;
  g_autoptr (DdbValue) target = NULL;
  const char *missing = NULL;
  GError *local = NULL;
  gboolean ok;

  if (item == NULL || item->type != DDB_TYPE_M)
    {
      add_failure (report, NULL, "Not an item");
      return TRUE;
    }
  key = item_key (item, spec->key_names, &missing);
  if (key == NULL)
    {
      add_failure (report, NULL, "The item has no key attribute %s", missing);
      return TRUE;
    }
  if (spec->condition != NULL)
    {
      gboolean holds = FALSE;

      if (!ddb_condition_eval (spec->condition, item, &holds, &local))
        {
          add_failure (report, key, "%s", local->message);
          g_error_free (local);
          return TRUE;
        }
      if (!holds)
        {
          report->n_skipped++;
          return TRUE;
        }
    }
  if (spec->update != NULL)
    {
      target = ddb_value_copy (item);
      if (!ddb_update_apply (spec->update, target, &local))
        {
          add_failure (report, key, "%s", local->message);
          g_error_free (local);
          return TRUE;
        }
      for (guint i = 0; spec->key_names[i] != NULL; i++)
        if (!ddb_value_equal (ddb_value_map_get (item, spec->key_names[i]),
                              ddb_value_map_get (target, spec->key_names[i])))
          {
            add_failure (report, key, "The update changes the key attribute %s",
                         spec->key_names[i]);
            return TRUE;
          }
      if (ddb_value_equal (item, target))
        {
          report->n_unchanged++;
          return TRUE;
        }
      ok = ddb_staging_stage_update (staging, spec->connection, spec->table, key, item, target,
                                     NULL, &local);
    }
  else
    ok = ddb_staging_stage_delete (staging, spec->connection, spec->table, key, item, NULL, &local);
  if (ok)
    {
      report->n_staged++;
      return TRUE;
    }
  if (ddb_staging_is_item_refusal (local))
    {
      add_failure (report, key, "%s", local->message);
      g_error_free (local);
      return TRUE;
    }
  g_propagate_error (error, local);
  return FALSE;
}

gboolean
ddb_expr_stage (DdbStaging *staging, const DdbExprStageSpec *spec, GPtrArray *items,
                DdbExprStageReport *report, GError **error)
{
  gboolean ok = TRUE;
  GError *local = NULL;

  g_return_val_if_fail (spec->key_names != NULL && spec->key_names[0] != NULL, FALSE);
  memset (report, 0, sizeof *report);
  report->failures = g_ptr_array_new_with_free_func (ddb_expr_stage_failure_free);
  if (!ddb_staging_batch_begin (staging, error))
    return FALSE;
  for (guint i = 0; ok && i < items->len; i++)
    ok = stage_item (staging, spec, g_ptr_array_index (items, i), report, &local);
  /* After a failure it rolls back and sets no error of its own. */
  if (!ddb_staging_batch_end (staging, ok, error))
    ok = FALSE;
  if (local != NULL)
    g_propagate_error (error, local);
  if (!ok)
    {
      /* Rolled back: the counts would describe nothing. */
      report->n_staged = report->n_skipped = report->n_unchanged = report->n_failed = 0;
      g_ptr_array_set_size (report->failures, 0);
    }
  return ok;
}
