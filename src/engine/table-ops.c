/* table-ops.c: the table operations (CreateTable, DescribeTable, ListTables, DeleteTable,
 * UpdateTable, tags, time to live) with DynamoDB's validation and messages.
 *
 * Tables are usable as soon as they are created, so descriptions say ACTIVE (as DynamoDB Local
 * does) rather than CREATING/UPDATING; DeleteTable answers DELETING as DynamoDB does. ARNs use
 * the region "ddblocal" and the account 000000000000, as DynamoDB Local's do. The engine does not
 * expire items by itself: a TimeToLive setting is stored and described only. */
#include "engine/engine-private.h"

#include <string.h>

#include "core/error.h"
#include "engine/request.h"

#define ARN_PREFIX "arn:aws:dynamodb:ddblocal:000000000000:table/"
#define INVALID "One or more parameter values were invalid: "
#define MAX_LSI 5
#define MAX_GSI 20
#define MAX_CAPACITY G_GINT64_CONSTANT (1000000000000)
#define MAX_TAGS 50

/* ---- Validation helpers ---- */

/* DynamoDB lists every constraint a request breaks in one message, the members named by their
 * path with a lower-case first letter ('keySchema.1.member.keyType'). */
typedef struct {
  GString *text;
  guint count;
} Violations;

static void
violations_init (Violations *v)
{
  v->text = g_string_new (NULL);
  v->count = 0;
}

static void
violation_add (Violations *v, const char *path, const char *value, const char *constraint)
{
  if (v->count > 0)
    g_string_append (v->text, "; ");
  if (value != NULL)
    g_string_append_printf (v->text, "Value '%s'", value);
  else
    g_string_append (v->text, "Value null");
  g_string_append_printf (v->text, " at '%s' failed to satisfy constraint: %s", path, constraint);
  v->count++;
}

static gboolean
violations_finish (Violations *v, GError **error)
{
  gboolean ok = v->count == 0;

  if (!ok)
    g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "%u validation error%s detected: %s",
                 v->count, v->count > 1 ? "s" : "", v->text->str);
  g_string_free (v->text, TRUE);
  return ok;
}

static gboolean
fail (GError **error, DdbErrorCode code, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (GError **error, DdbErrorCode code, const char *format, ...)
{
  va_list args;

  char *msg;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, DDB_ERROR, code, msg);
  g_free (msg);
  return FALSE;
}

/* A member; JSON null counts as absent, as DynamoDB reads it. */
static json_t *
member (json_t *obj, const char *name)
{
  json_t *j = json_is_object (obj) ? json_object_get (obj, name) : NULL;

  return j == NULL || json_is_null (j) ? NULL : j;
}

/* What DynamoDB's deserializer says of a member of the wrong JSON type. `want` is the JSON type
 * expected (object, array or string) and `java` the Java type named in scalar messages. */
static gboolean
check_type (json_t *j, json_type want, const char *java, GError **error)
{
  const char *kind;

  if (j == NULL || json_typeof (j) == want
      || (want == JSON_TRUE && json_is_boolean (j))
      || (want == JSON_INTEGER && json_is_number (j)))
    return TRUE;
  switch (json_typeof (j))
    {
    case JSON_OBJECT:
      return fail (error, DDB_ERROR_SERIALIZATION,
                   "Start of structure or map found where not expected");
    case JSON_ARRAY:
      if (want == JSON_STRING)
        return fail (error, DDB_ERROR_SERIALIZATION,
                     "Unrecognized collection type class java.lang.String");
      return fail (error, DDB_ERROR_SERIALIZATION, "Start of list found where not expected");
    case JSON_STRING:
      if (want == JSON_TRUE)
        return fail (error, DDB_ERROR_SERIALIZATION, "Unexpected token received from parser");
      kind = "STRING_VALUE";
      break;
    case JSON_INTEGER:
      kind = "NUMBER_VALUE";
      break;
    case JSON_REAL:
      kind = "DECIMAL_VALUE";
      break;
    case JSON_TRUE:
      kind = "TRUE_VALUE";
      break;
    case JSON_FALSE:
      kind = "FALSE_VALUE";
      break;
    case JSON_NULL:
    default:
      kind = "NULL_VALUE";
      break;
    }
  return fail (error, DDB_ERROR_SERIALIZATION, "%s cannot be converted to %s", kind, java);
}

static gboolean
name_char_ok (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '.' || c == '-';
}

/* A table or index name's constraints: [a-zA-Z0-9_.-]+, 3..255 characters. */
static void
check_name (Violations *v, const char *path, json_t *j)
{
  const char *name;
  gsize len;
  gboolean pattern_ok;
  glong chars;

  if (j == NULL)
    {
      violation_add (v, path, NULL, "Member must not be null");
      return;
    }
  name = json_string_value (j);
  len = json_string_length (j);
  pattern_ok = len > 0 && strlen (name) == len;
  for (gsize i = 0; pattern_ok && i < len; i++)
    pattern_ok = name_char_ok (name[i]);
  chars = g_utf8_validate_len (name, len, NULL) ? g_utf8_strlen (name, (gssize) len) : (glong) len;
  if (!pattern_ok)
    violation_add (v, path, name,
                   "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
  if (chars < 3)
    violation_add (v, path, name, "Member must have length greater than or equal to 3");
  if (chars > 255)
    violation_add (v, path, name, "Member must have length less than or equal to 255");
}

static void
check_enum (Violations *v, const char *path, json_t *j, const char *const *allowed,
            gboolean required)
{
  const char *s = json_string_value (j);
  g_autoptr (GString) set = NULL;

  if (j == NULL)
    {
      if (required)
        violation_add (v, path, NULL, "Member must not be null");
      return;
    }
  for (guint i = 0; allowed[i] != NULL; i++)
    if (strcmp (s, allowed[i]) == 0)
      return;
  set = g_string_new ("Member must satisfy enum value set: [");
  for (guint i = 0; allowed[i] != NULL; i++)
    g_string_append_printf (set, "%s%s", i > 0 ? ", " : "", allowed[i]);
  g_string_append_c (set, ']');
  violation_add (v, path, s, set->str);
}

static const char *const key_types[] = { "HASH", "RANGE", NULL };
static const char *const attribute_types[] = { "B", "N", "S", NULL };
static const char *const projection_types[] = { "ALL", "INCLUDE", "KEYS_ONLY", NULL };
static const char *const billing_modes[] = { "PROVISIONED", "PAY_PER_REQUEST", NULL };
static const char *const stream_view_types[]
  = { "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY", NULL };

/* Types (SerializationException) of a list of structures, each member a string. */
static gboolean
check_struct_list (json_t *list, const char *const *string_members, GError **error)
{
  size_t i;
  json_t *elem;

  if (!check_type (list, JSON_ARRAY, "List", error))
    return FALSE;
  json_array_foreach (list, i, elem)
    {
      if (json_is_null (elem))
        continue;
      if (!check_type (elem, JSON_OBJECT, "Structure", error))
        return FALSE;
      for (guint k = 0; string_members[k] != NULL; k++)
        if (!check_type (member (elem, string_members[k]), JSON_STRING, "String", error))
          return FALSE;
    }
  return TRUE;
}

static const char *const key_schema_members[] = { "AttributeName", "KeyType", NULL };
static const char *const attr_def_members[] = { "AttributeName", "AttributeType", NULL };

/* KeySchema: types, then its constraints under `path`. */
static gboolean
check_key_schema (json_t *ks, const char *path, gboolean enum_key_type, Violations *v,
                  GError **error)
{
  size_t i;
  json_t *elem;

  if (!check_struct_list (ks, key_schema_members, error))
    return FALSE;
  if (ks == NULL)
    {
      violation_add (v, path, NULL, "Member must not be null");
      return TRUE;
    }
  json_array_foreach (ks, i, elem)
    {
      g_autofree char *p_name = g_strdup_printf ("%s.%zu.member.attributeName", path, i + 1);
      g_autofree char *p_type = g_strdup_printf ("%s.%zu.member.keyType", path, i + 1);

      if (member (elem, "AttributeName") == NULL)
        violation_add (v, p_name, NULL, "Member must not be null");
      if (enum_key_type)
        check_enum (v, p_type, member (elem, "KeyType"), key_types, TRUE);
      else if (member (elem, "KeyType") == NULL)
        violation_add (v, p_type, NULL, "Member must not be null");
    }
  if (json_array_size (ks) < 1)
    violation_add (v, path, "[]", "Member must have length greater than or equal to 1");
  if (json_array_size (ks) > 2)
    {
      g_autofree char *text = json_dumps (ks, JSON_COMPACT);

      violation_add (v, path, text, "Member must have length less than or equal to 2");
    }
  return TRUE;
}

/* ProvisionedThroughput: types, then constraints (both members present and at least 1). */
static gboolean
check_throughput (json_t *pt, const char *path, Violations *v, GError **error)
{
  static const char *const members[] = { "WriteCapacityUnits", "ReadCapacityUnits" };

  if (!check_type (pt, JSON_OBJECT, "Structure", error))
    return FALSE;
  if (pt == NULL)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    {
      json_t *j = member (pt, members[i]);
      g_autofree char *p = g_strdup_printf ("%s.%c%s", path, g_ascii_tolower (members[i][0]),
                                            members[i] + 1);

      if (!check_type (j, JSON_INTEGER, "Long", error))
        return FALSE;
      if (j == NULL)
        violation_add (v, p, NULL, "Member must not be null");
      else if (json_number_value (j) < 1)
        {
          g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT,
                                                   (gint64) json_number_value (j));

          violation_add (v, p, text, "Member must have value greater than or equal to 1");
        }
    }
  return TRUE;
}

static gint64
throughput_value (json_t *pt, const char *name)
{
  return (gint64) json_number_value (member (pt, name));
}

/* Projection: types, then constraints. */
static gboolean
check_projection (json_t *proj, const char *path, Violations *v, GError **error)
{
  g_autofree char *p_type = g_strdup_printf ("%s.projectionType", path);
  g_autofree char *p_nka = g_strdup_printf ("%s.nonKeyAttributes", path);
  json_t *nka;
  size_t i;
  json_t *elem;

  if (!check_type (proj, JSON_OBJECT, "Structure", error))
    return FALSE;
  if (proj == NULL)
    {
      violation_add (v, path, NULL, "Member must not be null");
      return TRUE;
    }
  if (!check_type (member (proj, "ProjectionType"), JSON_STRING, "String", error))
    return FALSE;
  nka = member (proj, "NonKeyAttributes");
  if (!check_type (nka, JSON_ARRAY, "List", error))
    return FALSE;
  json_array_foreach (nka, i, elem)
    if (!check_type (elem, JSON_STRING, "String", error))
      return FALSE;
  check_enum (v, p_type, member (proj, "ProjectionType"), projection_types, FALSE);
  if (nka != NULL && json_array_size (nka) < 1)
    violation_add (v, p_nka, "[]", "Member must have length greater than or equal to 1");
  return TRUE;
}

/* The index list of CreateTable (`gsi` for GlobalSecondaryIndexes): types and constraints. */
static gboolean
check_index_list (json_t *list, const char *path, gboolean gsi, Violations *v, GError **error)
{
  size_t i;
  json_t *ix;

  if (!check_type (list, JSON_ARRAY, "List", error))
    return FALSE;
  json_array_foreach (list, i, ix)
    {
      g_autofree char *base = g_strdup_printf ("%s.%zu.member", path, i + 1);
      g_autofree char *p_name = g_strconcat (base, ".indexName", NULL);
      g_autofree char *p_ks = g_strconcat (base, ".keySchema", NULL);
      g_autofree char *p_proj = g_strconcat (base, ".projection", NULL);
      g_autofree char *p_pt = g_strconcat (base, ".provisionedThroughput", NULL);

      if (!check_type (ix, JSON_OBJECT, "Structure", error)
          || !check_type (member (ix, "IndexName"), JSON_STRING, "String", error))
        return FALSE;
      check_name (v, p_name, member (ix, "IndexName"));
      if (!check_key_schema (member (ix, "KeySchema"), p_ks, FALSE, v, error)
          || !check_projection (member (ix, "Projection"), p_proj, v, error))
        return FALSE;
      if (gsi && !check_throughput (member (ix, "ProvisionedThroughput"), p_pt, v, error))
        return FALSE;
    }
  return TRUE;
}

/* ---- Definitions ---- */

static void
string_list_join (GString *out, GPtrArray *names)
{
  for (guint i = 0; i < names->len; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? ", " : "", (const char *) names->pdata[i]);
}

/* The type AttributeDefinitions gives `name`, or FALSE. */
static gboolean
attr_def_type (json_t *defs, const char *name, DdbType *type)
{
  size_t i;
  json_t *d;

  json_array_foreach (defs, i, d)
    {
      const char *n = json_string_value (member (d, "AttributeName"));

      if (n != NULL && strcmp (n, name) == 0)
        return ddb_type_from_name (json_string_value (member (d, "AttributeType")), type);
    }
  return FALSE;
}

static GPtrArray *
key_schema_names (json_t *ks)
{
  GPtrArray *names = g_ptr_array_new ();
  size_t i;
  json_t *e;

  json_array_foreach (ks, i, e)
    g_ptr_array_add (names, (gpointer) json_string_value (member (e, "AttributeName")));
  return names;
}

static GPtrArray *
attr_def_names (json_t *defs)
{
  return key_schema_names (defs); /* both are lists of {AttributeName: ...} */
}

/* The checks DynamoDB makes on one key schema once the members are well-formed. */
static gboolean
check_key_schema_semantics (json_t *ks, json_t *defs, GError **error)
{
  g_autoptr (GPtrArray) keys = key_schema_names (ks);
  g_autoptr (GPtrArray) def_names = attr_def_names (defs);
  const char *k0 = keys->pdata[0];
  const char *k1 = keys->len > 1 ? keys->pdata[1] : NULL;
  const char *t0 = json_string_value (member (json_array_get (ks, 0), "KeyType"));
  const char *t1 = k1 != NULL ? json_string_value (member (json_array_get (ks, 1), "KeyType"))
                              : NULL;
  DdbType type;

  for (guint i = 0; i < keys->len; i++)
    {
      if (!attr_def_type (defs, keys->pdata[i], &type))
        {
          g_autoptr (GString) msg
            = g_string_new (INVALID "Some index key attributes are not defined in "
                                    "AttributeDefinitions. Keys: [");

          string_list_join (msg, keys);
          g_string_append (msg, "], AttributeDefinitions: [");
          string_list_join (msg, def_names);
          g_string_append_c (msg, ']');
          return fail (error, DDB_ERROR_VALIDATION, "%s", msg->str);
        }
    }
  if (k1 != NULL && strcmp (k0, k1) == 0)
    return fail (error, DDB_ERROR_VALIDATION,
                 "Both the Hash Key and the Range Key element in the KeySchema have the same name");
  if (strcmp (t0, "HASH") != 0)
    return fail (error, DDB_ERROR_VALIDATION,
                 "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  if (t1 != NULL && strcmp (t1, "RANGE") != 0)
    return fail (error, DDB_ERROR_VALIDATION,
                 "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
  return TRUE;
}

static void
key_def_from_schema (json_t *ks, json_t *defs, DdbKeyDef *key)
{
  const char *hash = json_string_value (member (json_array_get (ks, 0), "AttributeName"));
  const char *range = json_array_size (ks) > 1
                        ? json_string_value (member (json_array_get (ks, 1), "AttributeName"))
                        : NULL;

  key->hash_name = g_strdup (hash);
  attr_def_type (defs, hash, &key->hash_type);
  key->range_name = g_strdup (range);
  if (range != NULL)
    attr_def_type (defs, range, &key->range_type);
}

static DdbProjectionType
projection_from_json (json_t *proj)
{
  const char *t = json_string_value (member (proj, "ProjectionType"));

  if (t != NULL && strcmp (t, "KEYS_ONLY") == 0)
    return DDB_PROJECTION_KEYS_ONLY;
  if (t != NULL && strcmp (t, "INCLUDE") == 0)
    return DDB_PROJECTION_INCLUDE;
  return DDB_PROJECTION_ALL;
}

static char **
non_key_attributes (json_t *proj)
{
  json_t *nka = member (proj, "NonKeyAttributes");
  size_t n = json_array_size (nka);
  char **out;

  if (nka == NULL)
    return NULL;
  out = g_new0 (char *, n + 1);
  for (size_t i = 0; i < n; i++)
    out[i] = g_strdup (json_string_value (json_array_get (nka, i)));
  return out;
}

/* The checks of one secondary index of CreateTable (or of an UpdateTable Create). */
static gboolean
check_index_semantics (json_t *ix, json_t *defs, const DdbKeyDef *table_key, gboolean gsi,
                       gboolean pay_per_request, GHashTable *seen, GError **error)
{
  const char *name = json_string_value (member (ix, "IndexName"));
  json_t *ks = member (ix, "KeySchema");
  json_t *proj = member (ix, "Projection");
  const char *ptype = json_string_value (member (proj, "ProjectionType"));

  if (!check_key_schema_semantics (ks, defs, error))
    return FALSE;
  if (!gsi)
    {
      const char *hash = json_string_value (member (json_array_get (ks, 0), "AttributeName"));

      if (json_array_size (ks) != 2)
        return fail (error, DDB_ERROR_VALIDATION,
                     INVALID "Index KeySchema does not have a range key for index: %s", name);
      if (strcmp (hash, table_key->hash_name) != 0)
        return fail (error, DDB_ERROR_VALIDATION,
                     INVALID "Index KeySchema does not have the same leading hash key as table "
                             "KeySchema for index: %s. index hash key: %s, table hash key: %s",
                     name, hash, table_key->hash_name);
    }
  if (ptype == NULL)
    return fail (error, DDB_ERROR_VALIDATION, INVALID "Unknown ProjectionType: null");
  if (member (proj, "NonKeyAttributes") != NULL && strcmp (ptype, "INCLUDE") != 0)
    return fail (error, DDB_ERROR_VALIDATION,
                 INVALID "ProjectionType is %s, but NonKeyAttributes is specified", ptype);
  if (gsi && pay_per_request && member (ix, "ProvisionedThroughput") != NULL)
    return fail (error, DDB_ERROR_VALIDATION,
                 INVALID "ProvisionedThroughput should not be specified for index: %s when "
                         "BillingMode is PAY_PER_REQUEST",
                 name);
  if (gsi && !pay_per_request && member (ix, "ProvisionedThroughput") == NULL)
    return fail (error, DDB_ERROR_VALIDATION,
                 "No provisioned throughput specified for the global secondary index");
  if (g_hash_table_contains (seen, name))
    return fail (error, DDB_ERROR_VALIDATION, INVALID "Duplicate index name: %s", name);
  g_hash_table_add (seen, (gpointer) name);
  return TRUE;
}

static json_t *
throughput_json (gint64 read, gint64 write)
{
  return json_pack ("{sI sI sI}", "NumberOfDecreasesToday", (json_int_t) 0, "ReadCapacityUnits",
                    (json_int_t) read, "WriteCapacityUnits", (json_int_t) write);
}

static DdbIndexDef *
index_from_json (json_t *ix, json_t *defs, gboolean gsi, gboolean pay_per_request)
{
  DdbIndexDef *index = g_new0 (DdbIndexDef, 1);
  json_t *proj = member (ix, "Projection");

  index->name = g_strdup (json_string_value (member (ix, "IndexName")));
  index->global = gsi;
  key_def_from_schema (member (ix, "KeySchema"), defs, &index->key);
  index->projection = projection_from_json (proj);
  index->non_key_attributes = non_key_attributes (proj);
  if (gsi)
    {
      json_t *pt = member (ix, "ProvisionedThroughput");

      index->provisioned = pay_per_request
                             ? throughput_json (0, 0)
                             : throughput_json (throughput_value (pt, "ReadCapacityUnits"),
                                                throughput_value (pt, "WriteCapacityUnits"));
    }
  return index;
}

/* AttributeDefinitions holding exactly the attributes the keys use, in the order of `defs`
 * (first definition of a name wins). */
static void
add_key_names (GPtrArray *used, const DdbKeyDef *key)
{
  const char *names[2] = { key->hash_name, key->range_name };

  for (guint i = 0; i < 2; i++)
    {
      gboolean found = FALSE;

      if (names[i] == NULL)
        continue;
      for (guint k = 0; k < used->len && !found; k++)
        found = strcmp (used->pdata[k], names[i]) == 0;
      if (!found)
        g_ptr_array_add (used, (gpointer) names[i]);
    }
}

static GPtrArray *
used_key_names (const DdbTableDef *def)
{
  GPtrArray *used = g_ptr_array_new ();

  add_key_names (used, &def->key);
  for (guint i = 0; i < def->indexes->len; i++)
    add_key_names (used, &((DdbIndexDef *) def->indexes->pdata[i])->key);
  return used;
}

static const char *
key_type_of (const DdbTableDef *def, const char *name)
{
  const DdbKeyDef *keys[MAX_GSI + MAX_LSI + 1];
  guint n = 0;

  keys[n++] = &def->key;
  for (guint i = 0; i < def->indexes->len && n < G_N_ELEMENTS (keys); i++)
    keys[n++] = &((DdbIndexDef *) def->indexes->pdata[i])->key;
  for (guint i = 0; i < n; i++)
    {
      if (strcmp (keys[i]->hash_name, name) == 0)
        return ddb_type_name (keys[i]->hash_type);
      if (keys[i]->range_name != NULL && strcmp (keys[i]->range_name, name) == 0)
        return ddb_type_name (keys[i]->range_type);
    }
  return "S";
}

/* Rebuilds meta.AttributeDefinitions from the keys in use, keeping the previous order. */
static void
sync_attribute_definitions (DdbTableDef *def)
{
  g_autoptr (GPtrArray) used = used_key_names (def);
  json_t *old = json_object_get (def->meta, "AttributeDefinitions");
  json_t *out = json_array ();
  g_autoptr (GPtrArray) done = g_ptr_array_new ();
  size_t i;
  json_t *d;

  json_array_foreach (old, i, d)
    {
      const char *n = json_string_value (member (d, "AttributeName"));

      for (guint k = 0; n != NULL && k < used->len; k++)
        {
          if (strcmp (used->pdata[k], n) == 0)
            {
              json_array_append_new (out, json_pack ("{ss ss}", "AttributeName", n,
                                                     "AttributeType", key_type_of (def, n)));
              g_ptr_array_add (done, used->pdata[k]);
              g_ptr_array_remove_index (used, k);
              break;
            }
        }
    }
  for (guint k = 0; k < used->len; k++)
    json_array_append_new (out, json_pack ("{ss ss}", "AttributeName",
                                           (const char *) used->pdata[k], "AttributeType",
                                           key_type_of (def, used->pdata[k])));
  json_object_set_new (def->meta, "AttributeDefinitions", out);
}

static gint64
now_seconds (void)
{
  return g_get_real_time () / G_USEC_PER_SEC;
}

static char *
stream_label (void)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();

  return g_date_time_format (now, "%Y-%m-%dT%H:%M:%S.%f");
}

static void
enable_stream (DdbTableDef *def, const char *view_type)
{
  g_autofree char *label = stream_label ();
  g_autofree char *full = NULL;
  g_autofree char *arn = NULL;

  /* %f gives microseconds; DynamoDB labels carry milliseconds. */
  full = g_strndup (label, strlen (label) - 3);
  arn = g_strdup_printf (ARN_PREFIX "%s/stream/%s", def->name, full);
  json_object_set_new (def->meta, "StreamSpecification",
                       json_pack ("{sb ss}", "StreamEnabled", 1, "StreamViewType", view_type));
  json_object_set_new (def->meta, "LatestStreamLabel", json_string (full));
  json_object_set_new (def->meta, "LatestStreamArn", json_string (arn));
}

/* StreamSpecification of CreateTable/UpdateTable: types and DynamoDB's rules. */
static gboolean
check_stream_spec (json_t *spec, gboolean *enabled, const char **view_type, GError **error)
{
  json_t *en, *vt;
  Violations v;

  if (!check_type (spec, JSON_OBJECT, "Structure", error))
    return FALSE;
  en = member (spec, "StreamEnabled");
  vt = member (spec, "StreamViewType");
  if (!check_type (en, JSON_TRUE, "Boolean", error)
      || !check_type (vt, JSON_STRING, "String", error))
    return FALSE;
  violations_init (&v);
  if (en == NULL)
    violation_add (&v, "streamSpecification.streamEnabled", NULL, "Member must not be null");
  check_enum (&v, "streamSpecification.streamViewType", vt, stream_view_types, FALSE);
  if (!violations_finish (&v, error))
    return FALSE;
  *enabled = json_is_true (en);
  *view_type = json_string_value (vt);
  if (*enabled && *view_type == NULL)
    return fail (error, DDB_ERROR_VALIDATION,
                 "Invalid StreamViewType: Stream ViewType must not be null or empty when "
                 "enabling streams.");
  if (!*enabled && *view_type != NULL)
    return fail (error, DDB_ERROR_VALIDATION,
                 "Invalid StreamViewType: Stream StreamEnabled was false but a StreamViewType "
                 "was present.");
  return TRUE;
}

static gboolean
check_tags (json_t *tags, const char *path, gboolean required, GError **error)
{
  static const char *const tag_members[] = { "Key", "Value", NULL };
  size_t i;
  json_t *t;
  Violations v;

  if (!check_struct_list (tags, tag_members, error))
    return FALSE;
  violations_init (&v);
  if (tags == NULL)
    {
      if (required)
        violation_add (&v, path, NULL, "Member must not be null");
      return violations_finish (&v, error);
    }
  json_array_foreach (tags, i, t)
    {
      g_autofree char *p_key = g_strdup_printf ("%s.%zu.member.key", path, i + 1);
      g_autofree char *p_value = g_strdup_printf ("%s.%zu.member.value", path, i + 1);
      json_t *k = member (t, "Key");
      json_t *val = member (t, "Value");

      if (k == NULL)
        violation_add (&v, p_key, NULL, "Member must not be null");
      else if (g_utf8_strlen (json_string_value (k), -1) < 1)
        violation_add (&v, p_key, json_string_value (k),
                       "Member must have length greater than or equal to 1");
      else if (g_utf8_strlen (json_string_value (k), -1) > 128)
        violation_add (&v, p_key, json_string_value (k),
                       "Member must have length less than or equal to 128");
      if (val == NULL)
        violation_add (&v, p_value, NULL, "Member must not be null");
      else if (g_utf8_strlen (json_string_value (val), -1) > 256)
        violation_add (&v, p_value, json_string_value (val),
                       "Member must have length less than or equal to 256");
    }
  if (required && json_array_size (tags) < 1)
    violation_add (&v, path, "[]", "Member must have length greater than or equal to 1");
  return violations_finish (&v, error);
}

/* Merges `tags` into the list `current` (a tag with an existing key replaces its value). */
static void
merge_tags (json_t *current, json_t *tags)
{
  size_t i;
  json_t *t;

  json_array_foreach (tags, i, t)
    {
      const char *key = json_string_value (member (t, "Key"));
      size_t k;
      json_t *c;
      gboolean replaced = FALSE;

      json_array_foreach (current, k, c)
        {
          if (strcmp (json_string_value (json_object_get (c, "Key")), key) == 0)
            {
              json_object_set (c, "Value", member (t, "Value"));
              replaced = TRUE;
              break;
            }
        }
      if (!replaced)
        json_array_append_new (current, json_pack ("{ss sO}", "Key", key, "Value",
                                                   member (t, "Value")));
    }
}

/* ---- Descriptions ---- */

static json_t *
key_schema_json (const DdbKeyDef *key)
{
  json_t *ks = json_array ();

  json_array_append_new (ks, json_pack ("{ss ss}", "AttributeName", key->hash_name, "KeyType",
                                        "HASH"));
  if (key->range_name != NULL)
    json_array_append_new (ks, json_pack ("{ss ss}", "AttributeName", key->range_name, "KeyType",
                                          "RANGE"));
  return ks;
}

static json_t *
projection_json (const DdbIndexDef *index)
{
  static const char *const names[] = {
    [DDB_PROJECTION_ALL] = "ALL",
    [DDB_PROJECTION_KEYS_ONLY] = "KEYS_ONLY",
    [DDB_PROJECTION_INCLUDE] = "INCLUDE",
  };
  json_t *p = json_pack ("{ss}", "ProjectionType", names[index->projection]);

  if (index->non_key_attributes != NULL)
    {
      json_t *nka = json_array ();

      for (char **a = index->non_key_attributes; *a != NULL; a++)
        json_array_append_new (nka, json_string (*a));
      json_object_set_new (p, "NonKeyAttributes", nka);
    }
  return p;
}

static void
copy_meta (json_t *out, const DdbTableDef *def, const char *name)
{
  json_t *j = json_object_get (def->meta, name);

  if (j != NULL)
    json_object_set_new (out, name, json_deep_copy (j));
}

/* The TableDescription of `def`, with its statistics when `store` is given. */
static json_t *
describe (DdbStore *store, const DdbTableDef *def, const char *status, GError **error)
{
  json_t *d = json_object ();
  json_t *lsis = json_array ();
  json_t *gsis = json_array ();
  gint64 count = 0, size = 0;
  g_autofree char *arn = g_strconcat (ARN_PREFIX, def->name, NULL);

  if (store != NULL && !ddb_store_table_stats (store, def, NULL, &count, &size, error))
    goto fail;
  copy_meta (d, def, "AttributeDefinitions");
  json_object_set_new (d, "TableName", json_string (def->name));
  json_object_set_new (d, "KeySchema", key_schema_json (&def->key));
  json_object_set_new (d, "TableStatus", json_string (status));
  copy_meta (d, def, "CreationDateTime");
  copy_meta (d, def, "ProvisionedThroughput");
  json_object_set_new (d, "TableSizeBytes", json_integer (size));
  json_object_set_new (d, "ItemCount", json_integer (count));
  json_object_set_new (d, "TableArn", json_string (arn));
  copy_meta (d, def, "TableId");
  copy_meta (d, def, "BillingModeSummary");
  for (guint i = 0; i < def->indexes->len; i++)
    {
      const DdbIndexDef *index = def->indexes->pdata[i];
      json_t *ix = json_object ();
      gint64 icount = 0, isize = 0;

      if (store != NULL && !ddb_store_table_stats (store, def, index, &icount, &isize, error))
        {
          json_decref (ix);
          goto fail;
        }
      json_object_set_new (ix, "IndexName", json_string (index->name));
      json_object_set_new (ix, "KeySchema", key_schema_json (&index->key));
      json_object_set_new (ix, "Projection", projection_json (index));
      if (index->global)
        {
          json_object_set_new (ix, "IndexStatus", json_string ("ACTIVE"));
          if (index->provisioned != NULL)
            json_object_set_new (ix, "ProvisionedThroughput", json_deep_copy (index->provisioned));
        }
      json_object_set_new (ix, "IndexSizeBytes", json_integer (isize));
      json_object_set_new (ix, "ItemCount", json_integer (icount));
      json_object_set_new (ix, "IndexArn",
                           json_sprintf ("%s/index/%s", arn, index->name));
      json_array_append_new (index->global ? gsis : lsis, ix);
    }
  if (json_array_size (lsis) > 0)
    json_object_set (d, "LocalSecondaryIndexes", lsis);
  if (json_array_size (gsis) > 0)
    json_object_set (d, "GlobalSecondaryIndexes", gsis);
  json_decref (lsis);
  json_decref (gsis);
  copy_meta (d, def, "StreamSpecification");
  copy_meta (d, def, "LatestStreamLabel");
  copy_meta (d, def, "LatestStreamArn");
  copy_meta (d, def, "SSEDescription");
  copy_meta (d, def, "TableClassSummary");
  if (json_object_get (def->meta, "DeletionProtectionEnabled") != NULL)
    copy_meta (d, def, "DeletionProtectionEnabled");
  else
    json_object_set_new (d, "DeletionProtectionEnabled", json_false ());
  return d;

fail:
  json_decref (lsis);
  json_decref (gsis);
  json_decref (d);
  return NULL;
}

static json_t *
wrap_description (json_t *description)
{
  return description != NULL ? json_pack ("{so}", "TableDescription", description) : NULL;
}

/* The table for DescribeTable/DeleteTable/UpdateTable, whose not-found message names it. */
static DdbTableDef *
table_get_named (DdbEngine *e, const char *name, GError **error)
{
  GError *local = NULL;
  DdbTableDef *def = ddb_store_table_get (e->store, name, &local);

  if (def == NULL)
    {
      if (g_error_matches (local, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND))
        {
          g_clear_error (&local);
          g_set_error (&local, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND,
                       "Requested resource not found: Table: %s not found", name);
        }
      g_propagate_error (error, local);
    }
  return def;
}

/* ---- CreateTable ---- */

json_t *
ddb_op_create_table (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  json_t *defs = member (req, "AttributeDefinitions");
  json_t *ks = member (req, "KeySchema");
  json_t *lsis = member (req, "LocalSecondaryIndexes");
  json_t *gsis = member (req, "GlobalSecondaryIndexes");
  json_t *pt = member (req, "ProvisionedThroughput");
  json_t *billing = member (req, "BillingMode");
  json_t *stream = member (req, "StreamSpecification");
  json_t *tags = member (req, "Tags");
  json_t *sse = member (req, "SSESpecification");
  json_t *table_class = member (req, "TableClass");
  json_t *protection = member (req, "DeletionProtectionEnabled");
  g_autoptr (DdbTableDef) def = NULL;
  g_autoptr (GHashTable) seen = NULL;
  g_autoptr (GPtrArray) used = NULL;
  g_autoptr (GPtrArray) def_names = NULL;
  gboolean pay_per_request, stream_enabled = FALSE;
  const char *view_type = NULL;
  const char *table_name;
  Violations v;
  size_t i;
  json_t *d;

  (void) extra;

  /* Member types first (SerializationException), then every constraint in one message. */
  if (!check_struct_list (defs, attr_def_members, error)
      || !check_type (member (req, "TableName"), JSON_STRING, "String", error)
      || !check_type (billing, JSON_STRING, "String", error)
      || !check_type (protection, JSON_TRUE, "Boolean", error)
      || !check_type (table_class, JSON_STRING, "String", error)
      || !check_type (sse, JSON_OBJECT, "Structure", error))
    return NULL;
  violations_init (&v);
  if (defs == NULL)
    violation_add (&v, "attributeDefinitions", NULL, "Member must not be null");
  json_array_foreach (defs, i, d)
    {
      g_autofree char *p_name = g_strdup_printf ("attributeDefinitions.%zu.member.attributeName",
                                                 i + 1);
      g_autofree char *p_type = g_strdup_printf ("attributeDefinitions.%zu.member.attributeType",
                                                 i + 1);

      if (member (d, "AttributeName") == NULL)
        violation_add (&v, p_name, NULL, "Member must not be null");
      check_enum (&v, p_type, member (d, "AttributeType"), attribute_types, TRUE);
    }
  check_name (&v, "tableName", member (req, "TableName"));
  check_enum (&v, "billingMode", billing, billing_modes, FALSE);
  if (!check_throughput (pt, "provisionedThroughput", &v, error)
      || !check_key_schema (ks, "keySchema", TRUE, &v, error)
      || !check_index_list (lsis, "localSecondaryIndexes", FALSE, &v, error)
      || !check_index_list (gsis, "globalSecondaryIndexes", TRUE, &v, error))
    {
      violations_finish (&v, NULL);
      return NULL;
    }
  if (!violations_finish (&v, error))
    return NULL;
  if (!check_tags (tags, "tags", FALSE, error))
    return NULL;
  if (stream != NULL && !check_stream_spec (stream, &stream_enabled, &view_type, error))
    return NULL;
  table_name = json_string_value (member (req, "TableName"));

  /* DynamoDB's own checks, in its order. */
  pay_per_request = billing != NULL && strcmp (json_string_value (billing), "PAY_PER_REQUEST") == 0;
  if (pay_per_request && pt != NULL)
    {
      fail (error, DDB_ERROR_VALIDATION,
            INVALID "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when "
                    "BillingMode is PAY_PER_REQUEST");
      return NULL;
    }
  if (!pay_per_request)
    {
      if (pt == NULL)
        {
          fail (error, DDB_ERROR_VALIDATION,
                INVALID "ReadCapacityUnits and WriteCapacityUnits must both be specified when "
                        "BillingMode is PROVISIONED");
          return NULL;
        }
      if (throughput_value (pt, "ReadCapacityUnits") > MAX_CAPACITY)
        {
          fail (error, DDB_ERROR_VALIDATION,
                "Given value %" G_GINT64_FORMAT " for ReadCapacityUnits is out of bounds",
                throughput_value (pt, "ReadCapacityUnits"));
          return NULL;
        }
      if (throughput_value (pt, "WriteCapacityUnits") > MAX_CAPACITY)
        {
          fail (error, DDB_ERROR_VALIDATION,
                "Given value %" G_GINT64_FORMAT " for WriteCapacityUnits is out of bounds",
                throughput_value (pt, "WriteCapacityUnits"));
          return NULL;
        }
    }
  def_names = attr_def_names (defs);
  if (json_array_size (ks) > json_array_size (defs))
    {
      fail (error, DDB_ERROR_VALIDATION,
            "Invalid KeySchema: Some index key attribute have no definition");
      return NULL;
    }
  for (guint a = 0; a < def_names->len; a++)
    for (guint b = a + 1; b < def_names->len; b++)
      if (strcmp (def_names->pdata[a], def_names->pdata[b]) == 0)
        {
          fail (error, DDB_ERROR_VALIDATION, "Cannot have two attributes with the same name");
          return NULL;
        }
  if (!check_key_schema_semantics (ks, defs, error))
    return NULL;
  if (lsis == NULL && gsis == NULL && json_array_size (ks) != json_array_size (defs))
    {
      fail (error, DDB_ERROR_VALIDATION,
            INVALID "Number of attributes in KeySchema does not exactly match number of "
                    "attributes defined in AttributeDefinitions");
      return NULL;
    }

  def = g_new0 (DdbTableDef, 1);
  def->name = g_strdup (table_name);
  def->indexes = g_ptr_array_new ();
  def->meta = json_object ();
  key_def_from_schema (ks, defs, &def->key);
  seen = g_hash_table_new (g_str_hash, g_str_equal);

  if (lsis != NULL)
    {
      json_t *ix;

      if (json_array_size (lsis) == 0)
        {
          fail (error, DDB_ERROR_VALIDATION, INVALID "List of LocalSecondaryIndexes is empty");
          return NULL;
        }
      if (def->key.range_name == NULL)
        {
          fail (error, DDB_ERROR_VALIDATION,
                INVALID "Table KeySchema does not have a range key, which is required when "
                        "specifying a LocalSecondaryIndex");
          return NULL;
        }
      json_array_foreach (lsis, i, ix)
        {
          if (!check_index_semantics (ix, defs, &def->key, FALSE, pay_per_request, seen, error))
            return NULL;
          g_ptr_array_add (def->indexes, index_from_json (ix, defs, FALSE, pay_per_request));
        }
      if (json_array_size (lsis) > MAX_LSI)
        {
          fail (error, DDB_ERROR_VALIDATION,
                INVALID "Number of LocalSecondaryIndexes exceeds per-table limit of 5");
          return NULL;
        }
    }
  if (gsis != NULL)
    {
      json_t *ix;

      if (json_array_size (gsis) == 0)
        {
          fail (error, DDB_ERROR_VALIDATION, INVALID "List of GlobalSecondaryIndexes is empty");
          return NULL;
        }
      json_array_foreach (gsis, i, ix)
        {
          if (!check_index_semantics (ix, defs, &def->key, TRUE, pay_per_request, seen, error))
            return NULL;
          g_ptr_array_add (def->indexes, index_from_json (ix, defs, TRUE, pay_per_request));
        }
      if (json_array_size (gsis) > MAX_GSI)
        {
          fail (error, DDB_ERROR_VALIDATION,
                INVALID "GlobalSecondaryIndex count exceeds the per-table limit of 20");
          return NULL;
        }
    }
  used = used_key_names (def);
  if (used->len != def_names->len)
    {
      g_autoptr (GString) msg = g_string_new (INVALID "Some AttributeDefinitions are not used. "
                                                      "AttributeDefinitions: [");

      string_list_join (msg, def_names);
      g_string_append (msg, "], keys used: [");
      string_list_join (msg, used);
      g_string_append_c (msg, ']');
      fail (error, DDB_ERROR_VALIDATION, "%s", msg->str);
      return NULL;
    }
  if (tags != NULL && json_array_size (tags) > MAX_TAGS)
    {
      fail (error, DDB_ERROR_VALIDATION, INVALID "Too many tags");
      return NULL;
    }

  json_object_set (def->meta, "AttributeDefinitions", defs);
  sync_attribute_definitions (def);
  json_object_set_new (def->meta, "CreationDateTime", json_integer (now_seconds ()));
  json_object_set_new (def->meta, "ProvisionedThroughput",
                       pay_per_request
                         ? throughput_json (0, 0)
                         : throughput_json (throughput_value (pt, "ReadCapacityUnits"),
                                            throughput_value (pt, "WriteCapacityUnits")));
  {
    g_autofree char *uuid = g_uuid_string_random ();

    json_object_set_new (def->meta, "TableId", json_string (uuid));
  }
  json_object_set_new (def->meta, "BillingModeSummary",
                       pay_per_request
                         ? json_pack ("{ss sI}", "BillingMode", "PAY_PER_REQUEST",
                                      "LastUpdateToPayPerRequestDateTime",
                                      (json_int_t) now_seconds ())
                         : json_pack ("{ss}", "BillingMode", "PROVISIONED"));
  if (stream_enabled)
    enable_stream (def, view_type);
  if (sse != NULL && json_is_true (member (sse, "Enabled")))
    json_object_set_new (def->meta, "SSEDescription",
                         json_pack ("{ss ss}", "Status", "ENABLED", "SSEType", "KMS"));
  if (table_class != NULL)
    json_object_set_new (def->meta, "TableClassSummary",
                         json_pack ("{sO}", "TableClass", table_class));
  json_object_set_new (def->meta, "DeletionProtectionEnabled",
                       json_boolean (json_is_true (protection)));
  json_object_set_new (def->meta, "Tags", json_array ());
  if (tags != NULL)
    merge_tags (json_object_get (def->meta, "Tags"), tags);

  if (!ddb_store_table_create (e->store, def, error))
    return NULL;
  return wrap_description (describe (NULL, def, "ACTIVE", error));
}

/* ---- DescribeTable, DeleteTable, ListTables ---- */

json_t *
ddb_op_describe_table (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  const char *name = ddb_req_table_name (req, "TableName", error);
  g_autoptr (DdbTableDef) def = NULL;
  json_t *d;

  (void) extra;
  if (name == NULL)
    return NULL;
  def = table_get_named (e, name, error);
  if (def == NULL)
    return NULL;
  d = describe (e->store, def, "ACTIVE", error);
  return d != NULL ? json_pack ("{so}", "Table", d) : NULL;
}

json_t *
ddb_op_delete_table (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  const char *name = ddb_req_table_name (req, "TableName", error);
  g_autoptr (DdbTableDef) def = NULL;
  json_t *d;

  (void) extra;
  if (name == NULL)
    return NULL;
  def = table_get_named (e, name, error);
  if (def == NULL)
    return NULL;
  if (json_is_true (json_object_get (def->meta, "DeletionProtectionEnabled")))
    {
      fail (error, DDB_ERROR_VALIDATION,
            "Resource cannot be deleted as it is currently protected against deletion. Disable "
            "deletion protection first.");
      return NULL;
    }
  d = describe (e->store, def, "DELETING", error);
  if (d == NULL)
    return NULL;
  if (!ddb_store_table_delete (e->store, def, error))
    {
      json_decref (d);
      return NULL;
    }
  return wrap_description (d);
}

json_t *
ddb_op_list_tables (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  const char *start = NULL;
  gint64 limit = 100;
  gboolean present;
  g_autoptr (GPtrArray) names = NULL;
  json_t *list, *out;

  (void) extra;
  if (member (req, "ExclusiveStartTableName") != NULL)
    {
      start = ddb_req_table_name (req, "ExclusiveStartTableName", error);
      if (start == NULL)
        return NULL;
    }
  if (!ddb_req_int (req, "Limit", 1, 100, &limit, &present, error))
    return NULL;
  /* One more than asked tells whether there is a next page. */
  names = ddb_store_table_names (e->store, start, (guint) limit + 1, error);
  if (names == NULL)
    return NULL;
  list = json_array ();
  for (guint i = 0; i < names->len && i < (guint) limit; i++)
    json_array_append_new (list, json_string (names->pdata[i]));
  out = json_pack ("{so}", "TableNames", list);
  if (names->len > (guint) limit)
    json_object_set_new (out, "LastEvaluatedTableName",
                         json_string (names->pdata[(guint) limit - 1]));
  return out;
}

/* ---- UpdateTable ---- */

static gboolean
set_table_throughput (DdbTableDef *def, json_t *pt, GError **error)
{
  json_t *cur = json_object_get (def->meta, "ProvisionedThroughput");
  gint64 r = throughput_value (pt, "ReadCapacityUnits");
  gint64 w = throughput_value (pt, "WriteCapacityUnits");
  gint64 cr = json_integer_value (json_object_get (cur, "ReadCapacityUnits"));
  gint64 cw = json_integer_value (json_object_get (cur, "WriteCapacityUnits"));
  json_t *nt;

  if (r > MAX_CAPACITY)
    return fail (error, DDB_ERROR_VALIDATION,
                 "Given value %" G_GINT64_FORMAT " for ReadCapacityUnits is out of bounds", r);
  if (w > MAX_CAPACITY)
    return fail (error, DDB_ERROR_VALIDATION,
                 "Given value %" G_GINT64_FORMAT " for WriteCapacityUnits is out of bounds", w);
  nt = cur != NULL ? json_deep_copy (cur) : throughput_json (0, 0);
  if (r > cr || w > cw)
    json_object_set_new (nt, "LastIncreaseDateTime", json_integer (now_seconds ()));
  if (r < cr || w < cw)
    {
      gint64 decreases = json_integer_value (json_object_get (nt, "NumberOfDecreasesToday"));

      json_object_set_new (nt, "LastDecreaseDateTime", json_integer (now_seconds ()));
      json_object_set_new (nt, "NumberOfDecreasesToday", json_integer (decreases + 1));
    }
  json_object_set_new (nt, "ReadCapacityUnits", json_integer (r));
  json_object_set_new (nt, "WriteCapacityUnits", json_integer (w));
  json_object_set_new (def->meta, "ProvisionedThroughput", nt);
  return TRUE;
}

/* One GlobalSecondaryIndexUpdates element: its action name and body. */
static gboolean
gsi_update_action (json_t *u, const char **action, json_t **body, GError **error)
{
  static const char *const actions[] = { "Create", "Update", "Delete" };

  *action = NULL;
  *body = NULL;
  if (!check_type (u, JSON_OBJECT, "Structure", error))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      json_t *b = member (u, actions[i]);

      if (!check_type (b, JSON_OBJECT, "Structure", error)
          || !check_type (member (b, "IndexName"), JSON_STRING, "String", error))
        return FALSE;
      if (b != NULL && *action == NULL)
        {
          *action = actions[i];
          *body = b;
        }
    }
  if (*action == NULL)
    return fail (error, DDB_ERROR_VALIDATION,
                 INVALID "One of GlobalSecondaryIndexUpdate.Update, "
                         "GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete "
                         "must not be null");
  return TRUE;
}

static void
set_all_gsi_throughput (DdbTableDef *def, gint64 r, gint64 w)
{
  for (guint i = 0; i < def->indexes->len; i++)
    {
      DdbIndexDef *index = def->indexes->pdata[i];

      if (!index->global)
        continue;
      if (index->provisioned != NULL)
        json_decref (index->provisioned);
      index->provisioned = throughput_json (r, w);
    }
}

/* Frees an index taken out of a definition's array (whatever its free function). */
static void
index_free (gpointer data)
{
  DdbIndexDef *index = data;

  g_free (index->name);
  g_free (index->key.hash_name);
  g_free (index->key.range_name);
  g_strfreev (index->non_key_attributes);
  if (index->provisioned != NULL)
    json_decref (index->provisioned);
  g_free (index);
}

/* Index key attributes of a new GSI get their types from the request's AttributeDefinitions,
 * falling back on the table's. */
static json_t *
merged_definitions (const DdbTableDef *def, json_t *defs)
{
  json_t *out = json_deep_copy (json_object_get (def->meta, "AttributeDefinitions"));
  size_t i;
  json_t *d;

  if (out == NULL)
    out = json_array ();
  json_array_foreach (defs, i, d)
    {
      const char *n = json_string_value (member (d, "AttributeName"));
      DdbType t;

      if (n != NULL && !attr_def_type (out, n, &t))
        json_array_append (out, d);
    }
  return out;
}

json_t *
ddb_op_update_table (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  json_t *defs = member (req, "AttributeDefinitions");
  json_t *billing = member (req, "BillingMode");
  json_t *pt = member (req, "ProvisionedThroughput");
  json_t *updates = member (req, "GlobalSecondaryIndexUpdates");
  json_t *stream = member (req, "StreamSpecification");
  json_t *protection = member (req, "DeletionProtectionEnabled");
  json_t *sse = member (req, "SSESpecification");
  json_t *table_class = member (req, "TableClass");
  json_t *replicas = member (req, "ReplicaUpdates");
  g_autoptr (DdbTableDef) def = NULL;
  json_t *all_defs = NULL;
  const char *name;
  gboolean was_ppr, ppr, stream_enabled = FALSE;
  const char *view_type = NULL;
  guint creates_deletes = 0;
  Violations v;
  size_t i;
  json_t *u;

  (void) extra;
  if (!check_struct_list (defs, attr_def_members, error)
      || !check_type (billing, JSON_STRING, "String", error)
      || !check_type (protection, JSON_TRUE, "Boolean", error)
      || !check_type (updates, JSON_ARRAY, "List", error)
      || !check_type (table_class, JSON_STRING, "String", error)
      || !check_type (sse, JSON_OBJECT, "Structure", error))
    return NULL;
  name = ddb_req_table_name (req, "TableName", error);
  if (name == NULL)
    return NULL;

  violations_init (&v);
  json_array_foreach (defs, i, u)
    {
      g_autofree char *p_type = g_strdup_printf ("attributeDefinitions.%zu.member.attributeType",
                                                 i + 1);
      g_autofree char *p_name = g_strdup_printf ("attributeDefinitions.%zu.member.attributeName",
                                                 i + 1);

      if (member (u, "AttributeName") == NULL)
        violation_add (&v, p_name, NULL, "Member must not be null");
      check_enum (&v, p_type, member (u, "AttributeType"), attribute_types, TRUE);
    }
  check_enum (&v, "billingMode", billing, billing_modes, FALSE);
  if (!check_throughput (pt, "provisionedThroughput", &v, error))
    {
      violations_finish (&v, NULL);
      return NULL;
    }
  json_array_foreach (updates, i, u)
    {
      const char *action;
      json_t *body;
      g_autofree char *base = NULL;
      g_autofree char *p_name = NULL;
      g_autofree char *p_pt = NULL;

      if (!gsi_update_action (u, &action, &body, error))
        {
          violations_finish (&v, NULL);
          return NULL;
        }
      base = g_strdup_printf ("globalSecondaryIndexUpdates.%zu.member.%c%s", i + 1,
                              g_ascii_tolower (action[0]), action + 1);
      p_name = g_strconcat (base, ".indexName", NULL);
      p_pt = g_strconcat (base, ".provisionedThroughput", NULL);
      check_name (&v, p_name, member (body, "IndexName"));
      if (strcmp (action, "Create") == 0)
        {
          g_autofree char *p_ks = g_strconcat (base, ".keySchema", NULL);
          g_autofree char *p_proj = g_strconcat (base, ".projection", NULL);

          if (!check_key_schema (member (body, "KeySchema"), p_ks, FALSE, &v, error)
              || !check_projection (member (body, "Projection"), p_proj, &v, error)
              || !check_throughput (member (body, "ProvisionedThroughput"), p_pt, &v, error))
            {
              violations_finish (&v, NULL);
              return NULL;
            }
        }
      else if (strcmp (action, "Update") == 0)
        {
          if (member (body, "ProvisionedThroughput") == NULL)
            violation_add (&v, p_pt, NULL, "Member must not be null");
          else if (!check_throughput (member (body, "ProvisionedThroughput"), p_pt, &v, error))
            {
              violations_finish (&v, NULL);
              return NULL;
            }
        }
    }
  if (!violations_finish (&v, error))
    return NULL;
  if (stream != NULL && !check_stream_spec (stream, &stream_enabled, &view_type, error))
    return NULL;

  if (billing == NULL && pt == NULL && json_array_size (updates) == 0 && stream == NULL
      && sse == NULL && replicas == NULL && protection == NULL && table_class == NULL)
    {
      fail (error, DDB_ERROR_VALIDATION,
            "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
            "GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required");
      return NULL;
    }
  if (replicas != NULL)
    {
      fail (error, DDB_ERROR_VALIDATION, "Replicas are not supported by this database");
      return NULL;
    }
  {
    g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);

    json_array_foreach (updates, i, u)
      {
        const char *action;
        json_t *body;
        const char *index_name;

        gsi_update_action (u, &action, &body, NULL);
        index_name = json_string_value (member (body, "IndexName"));
        if (g_hash_table_contains (names, index_name))
          {
            fail (error, DDB_ERROR_VALIDATION,
                  INVALID "Only one global secondary index update per index is allowed "
                          "simultaneously. Index: %s",
                  index_name);
            return NULL;
          }
        g_hash_table_add (names, (gpointer) index_name);
        if (strcmp (action, "Update") != 0)
          creates_deletes++;
      }
  }
  if (creates_deletes > 1)
    {
      fail (error, DDB_ERROR_LIMIT_EXCEEDED,
            "Subscriber limit exceeded: Only 1 online index can be created or deleted "
            "simultaneously per table");
      return NULL;
    }

  def = table_get_named (e, name, error);
  if (def == NULL)
    return NULL;

  /* Billing mode and throughput. */
  was_ppr = g_strcmp0 (json_string_value (json_object_get (
                         json_object_get (def->meta, "BillingModeSummary"), "BillingMode")),
                       "PAY_PER_REQUEST")
            == 0;
  ppr = billing != NULL ? strcmp (json_string_value (billing), "PAY_PER_REQUEST") == 0 : was_ppr;
  if (ppr && pt != NULL)
    {
      fail (error, DDB_ERROR_VALIDATION,
            INVALID "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when "
                    "BillingMode is PAY_PER_REQUEST");
      return NULL;
    }
  if (!ppr && was_ppr && pt == NULL)
    {
      fail (error, DDB_ERROR_VALIDATION, "No provisioned throughput specified for the table");
      return NULL;
    }
  if (pt != NULL && !was_ppr && !ppr)
    {
      json_t *cur = json_object_get (def->meta, "ProvisionedThroughput");
      gint64 cr = json_integer_value (json_object_get (cur, "ReadCapacityUnits"));
      gint64 cw = json_integer_value (json_object_get (cur, "WriteCapacityUnits"));
      gint64 r = throughput_value (pt, "ReadCapacityUnits");
      gint64 w = throughput_value (pt, "WriteCapacityUnits");

      if (r == cr && w == cw)
        {
          fail (error, DDB_ERROR_VALIDATION,
                "The provisioned throughput for the table will not change. The requested value "
                "equals the current value. Current ReadCapacityUnits provisioned for the table: "
                "%" G_GINT64_FORMAT ". Requested ReadCapacityUnits: %" G_GINT64_FORMAT ". Current "
                "WriteCapacityUnits provisioned for the table: %" G_GINT64_FORMAT ". Requested "
                "WriteCapacityUnits: %" G_GINT64_FORMAT ". Refer to the Amazon DynamoDB Developer "
                "Guide for current limits and how to request higher limits.",
                cr, r, cw, w);
          return NULL;
        }
    }
  if (pt != NULL && !set_table_throughput (def, pt, error))
    return NULL;
  if (ppr && !was_ppr)
    {
      json_object_set_new (def->meta, "ProvisionedThroughput", throughput_json (0, 0));
      json_object_set_new (def->meta, "BillingModeSummary",
                           json_pack ("{ss sI}", "BillingMode", "PAY_PER_REQUEST",
                                      "LastUpdateToPayPerRequestDateTime",
                                      (json_int_t) now_seconds ()));
      set_all_gsi_throughput (def, 0, 0);
    }
  else if (!ppr && was_ppr)
    {
      json_object_set_new (def->meta, "BillingModeSummary",
                           json_pack ("{ss}", "BillingMode", "PROVISIONED"));
      /* Every GSI needs its own throughput then; an Update below may give it. */
      set_all_gsi_throughput (def, throughput_value (pt, "ReadCapacityUnits"),
                              throughput_value (pt, "WriteCapacityUnits"));
    }

  /* Index updates. */
  /* Owned by the definition from here; replaced by the synced list after the updates. */
  all_defs = merged_definitions (def, defs);
  json_object_set_new (def->meta, "AttributeDefinitions", all_defs);
  json_array_foreach (updates, i, u)
    {
      const char *action;
      json_t *body;
      const char *index_name;
      DdbIndexDef *index;

      gsi_update_action (u, &action, &body, NULL);
      index_name = json_string_value (member (body, "IndexName"));
      index = ddb_table_def_index (def, index_name);
      if (strcmp (action, "Delete") == 0)
        {
          if (index == NULL || !index->global)
            {
              fail (error, DDB_ERROR_RESOURCE_NOT_FOUND, "Requested resource not found");
              return NULL;
            }
          for (guint k = 0; k < def->indexes->len; k++)
            if (def->indexes->pdata[k] == index)
              {
                index_free (g_ptr_array_steal_index (def->indexes, k));
                break;
              }
        }
      else if (strcmp (action, "Update") == 0)
        {
          json_t *ipt = member (body, "ProvisionedThroughput");

          if (index == NULL || !index->global)
            {
              fail (error, DDB_ERROR_VALIDATION, "Invalid global secondary index name");
              return NULL;
            }
          if (ppr)
            {
              fail (error, DDB_ERROR_VALIDATION,
                    INVALID "ProvisionedThroughput should not be specified for index: %s when "
                            "BillingMode is PAY_PER_REQUEST",
                    index_name);
              return NULL;
            }
          if (index->provisioned != NULL)
            json_decref (index->provisioned);
          index->provisioned = throughput_json (throughput_value (ipt, "ReadCapacityUnits"),
                                                throughput_value (ipt, "WriteCapacityUnits"));
        }
      else
        {
          g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
          guint gsi_count = 0;

          if (index != NULL)
            {
              fail (error, DDB_ERROR_VALIDATION, INVALID "Index already exists: %s", index_name);
              return NULL;
            }
          if (!check_index_semantics (body, all_defs, &def->key, TRUE, ppr, seen, error))
            return NULL;
          for (guint k = 0; k < def->indexes->len; k++)
            gsi_count += ((DdbIndexDef *) def->indexes->pdata[k])->global ? 1 : 0;
          if (gsi_count + 1 > MAX_GSI)
            {
              fail (error, DDB_ERROR_LIMIT_EXCEEDED,
                    "Subscriber limit exceeded: The number of global secondary indexes exceeds "
                    "the per-table limit of 20");
              return NULL;
            }
          g_ptr_array_add (def->indexes, index_from_json (body, all_defs, TRUE, ppr));
        }
    }
  sync_attribute_definitions (def);

  if (stream != NULL)
    {
      json_t *cur = json_object_get (def->meta, "StreamSpecification");
      gboolean cur_enabled = json_is_true (json_object_get (cur, "StreamEnabled"));

      if (stream_enabled && cur_enabled)
        {
          fail (error, DDB_ERROR_VALIDATION, "Table already has an enabled stream: %s",
                json_string_value (json_object_get (def->meta, "LatestStreamArn")));
          return NULL;
        }
      if (!stream_enabled && !cur_enabled)
        {
          fail (error, DDB_ERROR_VALIDATION, "Table has no stream to disable");
          return NULL;
        }
      if (stream_enabled)
        enable_stream (def, view_type);
      else
        json_object_set_new (def->meta, "StreamSpecification",
                             json_pack ("{sb}", "StreamEnabled", 0));
    }
  if (protection != NULL)
    json_object_set_new (def->meta, "DeletionProtectionEnabled",
                         json_boolean (json_is_true (protection)));
  if (sse != NULL)
    {
      if (json_is_true (member (sse, "Enabled")))
        json_object_set_new (def->meta, "SSEDescription",
                             json_pack ("{ss ss}", "Status", "ENABLED", "SSEType", "KMS"));
      else
        json_object_del (def->meta, "SSEDescription");
    }
  if (table_class != NULL)
    json_object_set_new (def->meta, "TableClassSummary",
                         json_pack ("{sO}", "TableClass", table_class));

  if (!ddb_store_table_update (e->store, def, error))
    return NULL;
  return wrap_description (describe (e->store, def, "ACTIVE", error));
}

/* ---- Tags ---- */

/* The table an ARN names: TableArn "arn:aws:dynamodb:REGION:ACCOUNT:table/NAME". */
static DdbTableDef *
table_from_arn (DdbEngine *e, json_t *req, GError **error)
{
  json_t *j = member (req, "ResourceArn");
  const char *arn, *slash;
  g_auto (GStrv) parts = NULL;
  GError *local = NULL;
  DdbTableDef *def;
  Violations v;

  if (!check_type (j, JSON_STRING, "String", error))
    return NULL;
  violations_init (&v);
  if (j == NULL)
    violation_add (&v, "resourceArn", NULL, "Member must not be null");
  else if (json_string_length (j) < 1)
    violation_add (&v, "resourceArn", "", "Member must have length greater than or equal to 1");
  else if (json_string_length (j) > 1283)
    violation_add (&v, "resourceArn", json_string_value (j),
                   "Member must have length less than or equal to 1283");
  if (!violations_finish (&v, error))
    return NULL;
  arn = json_string_value (j);
  parts = g_strsplit (arn, ":", 6);
  slash = g_strv_length (parts) == 6 ? strchr (parts[5], '/') : NULL;
  if (slash == NULL || strcmp (parts[0], "arn") != 0 || strcmp (parts[2], "dynamodb") != 0
      || strncmp (parts[5], "table/", 6) != 0 || strchr (slash + 1, '/') != NULL
      || slash[1] == '\0')
    {
      fail (error, DDB_ERROR_VALIDATION,
            "Invalid TableArn: Invalid ResourceArn provided as input %s", arn);
      return NULL;
    }
  def = ddb_store_table_get (e->store, slash + 1, &local);
  if (def == NULL)
    {
      if (g_error_matches (local, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND))
        {
          g_clear_error (&local);
          /* Sic: DynamoDB's message says "ResourcArn". */
          g_set_error (&local, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND,
                       "Requested resource not found: ResourcArn: %s not found", arn);
        }
      g_propagate_error (error, local);
    }
  return def;
}

json_t *
ddb_op_tag_resource (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  json_t *tags = member (req, "Tags");
  g_autoptr (DdbTableDef) def = NULL;
  json_t *current;

  (void) extra;
  if (!check_tags (tags, "tags", TRUE, error))
    return NULL;
  def = table_from_arn (e, req, error);
  if (def == NULL)
    return NULL;
  current = json_object_get (def->meta, "Tags");
  if (current == NULL)
    {
      current = json_array ();
      json_object_set_new (def->meta, "Tags", current);
    }
  merge_tags (current, tags);
  if (json_array_size (current) > MAX_TAGS)
    {
      fail (error, DDB_ERROR_VALIDATION, INVALID "Too many tags");
      return NULL;
    }
  if (!ddb_store_table_update (e->store, def, error))
    return NULL;
  return json_object ();
}

json_t *
ddb_op_untag_resource (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  json_t *keys = member (req, "TagKeys");
  g_autoptr (DdbTableDef) def = NULL;
  json_t *current;
  size_t i;
  json_t *k;
  Violations v;

  (void) extra;
  if (!check_type (keys, JSON_ARRAY, "List", error))
    return NULL;
  json_array_foreach (keys, i, k)
    if (!check_type (k, JSON_STRING, "String", error))
      return NULL;
  violations_init (&v);
  if (keys == NULL)
    violation_add (&v, "tagKeys", NULL, "Member must not be null");
  if (!violations_finish (&v, error))
    return NULL;
  def = table_from_arn (e, req, error);
  if (def == NULL)
    return NULL;
  current = json_object_get (def->meta, "Tags");
  json_array_foreach (keys, i, k)
    {
      for (size_t c = 0; c < json_array_size (current); c++)
        {
          if (strcmp (json_string_value (json_object_get (json_array_get (current, c), "Key")),
                      json_string_value (k))
              == 0)
            {
              json_array_remove (current, c);
              break;
            }
        }
    }
  if (!ddb_store_table_update (e->store, def, error))
    return NULL;
  return json_object ();
}

json_t *
ddb_op_list_tags_of_resource (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  g_autoptr (DdbTableDef) def = NULL;
  json_t *tags;

  (void) extra;
  if (!check_type (member (req, "NextToken"), JSON_STRING, "String", error))
    return NULL;
  def = table_from_arn (e, req, error);
  if (def == NULL)
    return NULL;
  tags = json_object_get (def->meta, "Tags");
  return json_pack ("{sO}", "Tags", tags != NULL ? tags : json_array ());
}

/* ---- Time to live ---- */

json_t *
ddb_op_update_time_to_live (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  json_t *spec = member (req, "TimeToLiveSpecification");
  json_t *en, *attr;
  g_autoptr (DdbTableDef) def = NULL;
  json_t *cur;
  const char *name;
  gboolean enabled, cur_enabled;
  Violations v;

  (void) extra;
  if (!check_type (spec, JSON_OBJECT, "Structure", error))
    return NULL;
  en = member (spec, "Enabled");
  attr = member (spec, "AttributeName");
  if (!check_type (en, JSON_TRUE, "Boolean", error)
      || !check_type (attr, JSON_STRING, "String", error))
    return NULL;
  name = ddb_req_table_name (req, "TableName", error);
  if (name == NULL)
    return NULL;
  violations_init (&v);
  if (spec == NULL)
    violation_add (&v, "timeToLiveSpecification", NULL, "Member must not be null");
  else
    {
      if (attr == NULL)
        violation_add (&v, "timeToLiveSpecification.attributeName", NULL,
                       "Member must not be null");
      else if (json_string_length (attr) < 1)
        violation_add (&v, "timeToLiveSpecification.attributeName", "",
                       "Member must have length greater than or equal to 1");
      else if (g_utf8_strlen (json_string_value (attr), -1) > 255)
        violation_add (&v, "timeToLiveSpecification.attributeName", json_string_value (attr),
                       "Member must have length less than or equal to 255");
      if (en == NULL)
        violation_add (&v, "timeToLiveSpecification.enabled", NULL, "Member must not be null");
    }
  if (!violations_finish (&v, error))
    return NULL;
  def = table_get_named (e, name, error);
  if (def == NULL)
    return NULL;
  enabled = json_is_true (en);
  cur = json_object_get (def->meta, "TimeToLiveDescription");
  cur_enabled = g_strcmp0 (json_string_value (json_object_get (cur, "TimeToLiveStatus")),
                           "ENABLED")
                == 0;
  if (enabled && cur_enabled)
    {
      fail (error, DDB_ERROR_VALIDATION, "TimeToLive is already enabled");
      return NULL;
    }
  if (!enabled && !cur_enabled)
    {
      fail (error, DDB_ERROR_VALIDATION, "TimeToLive is already disabled");
      return NULL;
    }
  if (!enabled
      && g_strcmp0 (json_string_value (json_object_get (cur, "AttributeName")),
                    json_string_value (attr))
           != 0)
    {
      fail (error, DDB_ERROR_VALIDATION, "TimeToLive is active on a different AttributeName");
      return NULL;
    }
  if (enabled)
    json_object_set_new (def->meta, "TimeToLiveDescription",
                         json_pack ("{ss sO}", "TimeToLiveStatus", "ENABLED", "AttributeName",
                                    attr));
  else
    json_object_set_new (def->meta, "TimeToLiveDescription",
                         json_pack ("{ss}", "TimeToLiveStatus", "DISABLED"));
  if (!ddb_store_table_update (e->store, def, error))
    return NULL;
  return json_pack ("{s{sbsO}}", "TimeToLiveSpecification", "Enabled", enabled, "AttributeName",
                    attr);
}

json_t *
ddb_op_describe_time_to_live (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  const char *name = ddb_req_table_name (req, "TableName", error);
  g_autoptr (DdbTableDef) def = NULL;
  json_t *cur;

  (void) extra;
  if (name == NULL)
    return NULL;
  def = table_get_named (e, name, error);
  if (def == NULL)
    return NULL;
  cur = json_object_get (def->meta, "TimeToLiveDescription");
  if (cur == NULL)
    return json_pack ("{s{ss}}", "TimeToLiveDescription", "TimeToLiveStatus", "DISABLED");
  return json_pack ("{sO}", "TimeToLiveDescription", cur);
}
