/* pitr-ops.c: UpdateContinuousBackups and DescribeContinuousBackups. Continuous backups are
 * ENABLED on every table, as on AWS; point-in-time recovery is off until turned on, and while
 * on every change of the table's items is kept (pitr-store.c) for its recovery period (1 to 35
 * days, 35 by default). Turning it off forgets the history: the restorable window starts again
 * when it is next turned on, as AWS's does. */
#include <string.h>

#include "core/error.h"
#include "engine/export-private.h"
#include "engine/pitr-store.h"
#include "engine/request.h"
#include "engine/table-private.h"

char *
ddb_pitr_table_arn (const char *name)
{
  return g_strconcat (ARN_PREFIX, name, NULL);
}

DdbTableDef *
ddb_pitr_table (DdbEngine *e, const char *name_or_arn, GError **error)
{
  const char *name = name_or_arn;
  const char *t;
  GError *local = NULL;
  DdbTableDef *def;

  if (g_str_has_prefix (name_or_arn, "arn:") && (t = strstr (name_or_arn, ":table/")) != NULL)
    name = t + strlen (":table/");
  def = ddb_store_table_get (e->store, name, &local);
  if (def == NULL)
    {
      if (g_error_matches (local, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND))
        {
          g_clear_error (&local);
          g_set_error (&local, DDB_ERROR, DDB_ERROR_TABLE_NOT_FOUND, "Table not found: %s", name);
        }
      g_propagate_error (error, local);
    }
  return def;
}

json_t *
ddb_export_time_json (gint64 us)
{
  return json_real ((double) (us / 1000) / 1000.0);
}

static json_t *
describe (const DdbTableDef *def)
{
  json_t *pitr;
  gint64 days = 0, earliest, latest;

  if (!ddb_pitr_enabled (def, NULL, &days))
    pitr = json_pack ("{ss}", "PointInTimeRecoveryStatus", "DISABLED");
  else
    {
      ddb_pitr_window (def, g_get_real_time (), &earliest, &latest);
      pitr = json_pack ("{ss so so sI}", "PointInTimeRecoveryStatus", "ENABLED",
                        "EarliestRestorableDateTime", ddb_export_time_json (earliest),
                        "LatestRestorableDateTime", ddb_export_time_json (latest),
                        "RecoveryPeriodInDays", (json_int_t) days);
    }
  return json_pack ("{s{ss so}}", "ContinuousBackupsDescription", "ContinuousBackupsStatus",
                    "ENABLED", "PointInTimeRecoveryDescription", pitr);
}

/* TableName: a name or an ARN, 1 to 1024 characters. */
static const char *
table_name_member (json_t *req, DdbViolations *v, GError **error)
{
  const char *name = ddb_req_string (req, "TableName", FALSE, error);

  if (name == NULL && error != NULL && *error != NULL)
    return NULL;
  if (name == NULL)
    ddb_violation_add (v, "tableName", NULL, "Member must not be null");
  else if (*name == '\0')
    ddb_violation_add (v, "tableName", name, "Member must have length greater than or equal to 1");
  else if (strlen (name) > 1024)
    ddb_violation_add (v, "tableName", name, "Member must have length less than or equal to 1024");
  return name;
}

json_t *
ddb_op_describe_continuous_backups (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  g_autoptr (DdbTableDef) def = NULL;
  const char *name;
  DdbViolations v;

  (void) extra;
  ddb_violations_init (&v);
  name = table_name_member (req, &v, error);
  if (error != NULL && *error != NULL)
    {
      ddb_violations_finish (&v, NULL);
      return NULL;
    }
  if (!ddb_violations_finish (&v, error))
    return NULL;
  def = ddb_pitr_table (e, name, error);
  if (def == NULL)
    return NULL;
  return describe (def);
}

json_t *
ddb_op_update_continuous_backups (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  json_t *spec = json_object_get (req, "PointInTimeRecoverySpecification");
  json_t *en = json_object_get (spec, "PointInTimeRecoveryEnabled");
  json_t *days_j = json_object_get (spec, "RecoveryPeriodInDays");
  g_autoptr (DdbTableDef) def = NULL;
  const char *name;
  gint64 days = DDB_PITR_DEFAULT_DAYS, since = 0, cur_days = 0;
  gboolean was;
  DdbViolations v;

  (void) extra;
  if (!ddb_table_check_type (spec, JSON_OBJECT, "Structure", error)
      || !ddb_table_check_type (en, JSON_TRUE, "Boolean", error)
      || !ddb_table_check_type (days_j, JSON_INTEGER, "Integer", error))
    return NULL;
  ddb_violations_init (&v);
  name = table_name_member (req, &v, error);
  if (error != NULL && *error != NULL)
    {
      ddb_violations_finish (&v, NULL);
      return NULL;
    }
  if (spec == NULL)
    ddb_violation_add (&v, "pointInTimeRecoverySpecification", NULL, "Member must not be null");
  else if (en == NULL)
    ddb_violation_add (&v, "pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled", NULL,
                       "Member must not be null");
  if (days_j != NULL)
    {
      g_autofree char *text = NULL;

      days = (gint64) json_number_value (days_j);
      text = g_strdup_printf ("%" G_GINT64_FORMAT, days);
      if (days < 1)
        ddb_violation_add (&v, "pointInTimeRecoverySpecification.recoveryPeriodInDays", text,
                           "Member must have value greater than or equal to 1");
      else if (days > 35)
        ddb_violation_add (&v, "pointInTimeRecoverySpecification.recoveryPeriodInDays", text,
                           "Member must have value less than or equal to 35");
    }
  if (!ddb_violations_finish (&v, error))
    return NULL;
  def = ddb_pitr_table (e, name, error);
  if (def == NULL)
    return NULL;
  was = ddb_pitr_enabled (def, &since, &cur_days);
  if (!json_is_true (en))
    {
      if (days_j != NULL)
        return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                             "RecoveryPeriodInDays can only be set when point in time recovery "
                             "is enabled");
      if (was)
        {
          json_object_del (def->meta, DDB_PITR_META);
          if (!ddb_store_begin (e->store, error))
            return NULL;
          if (!ddb_pitr_forget (e->store, def->id, error)
              || !ddb_store_table_update (e->store, def, error))
            {
              ddb_store_rollback (e->store);
              return NULL;
            }
          if (!ddb_store_commit (e->store, error))
            return NULL;
        }
      return describe (def);
    }
  if (was && days_j == NULL)
    days = cur_days;
  if (!was || days != cur_days)
    {
      json_object_set_new (def->meta, DDB_PITR_META,
                           json_pack ("{sI sI}", "SinceMicros",
                                      (json_int_t) (was ? since : g_get_real_time ()),
                                      "RecoveryPeriodInDays", (json_int_t) days));
      if (!ddb_store_table_update (e->store, def, error))
        return NULL;
    }
  return describe (def);
}
