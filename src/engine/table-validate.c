/* table-validate.c: the checks of CreateTable and UpdateTable requests (member types, the
 * constraints DynamoDB lists in one "N validation errors detected" message, then its own rules
 * in its order), and the validation helpers the other table operations share. */
#include "engine/table-private.h"

#include <string.h>

#include "engine/request.h"

/* ---- Validation helpers ---- */

/* A member; JSON null counts as absent, as DynamoDB reads it. */
json_t *
ddb_table_member (json_t *obj, const char *name)
{
  json_t *j = json_is_object (obj) ? json_object_get (obj, name) : NULL;

  return j == NULL || json_is_null (j) ? NULL : j;
}

/* What DynamoDB's deserializer says of a member of the wrong JSON type. `want` is the JSON type
 * expected (object, array or string) and `java` the Java type named in scalar messages. */
gboolean
ddb_table_check_type (json_t *j, json_type want, const char *java, GError **error)
{
  if (j == NULL || json_typeof (j) == want
      || (want == JSON_TRUE && json_is_boolean (j))
      || (want == JSON_INTEGER && json_is_number (j)))
    return TRUE;
  /* Where DynamoDB reads a structure, a list or a number, a list is refused as such; where it
   * reads a boolean, a string is an unexpected token. */
  if (json_is_array (j) && want != JSON_STRING)
    return ddb_table_fail (error, DDB_ERROR_SERIALIZATION,
                           "Start of list found where not expected");
  if (json_is_string (j) && want == JSON_TRUE)
    return ddb_table_fail (error, DDB_ERROR_SERIALIZATION, "Unexpected token received from parser");
  return ddb_req_type_error (j, java, error);
}

/* Adds the violations of a "N validation error(s) detected: ..." error to `v`. */
static void
violations_take (DdbViolations *v, GError *taken)
{
  const char *rest = strstr (taken->message, " detected: ");
  guint count = (guint) g_ascii_strtoull (taken->message, NULL, 10);

  if (rest != NULL && count > 0)
    {
      if (v->count > 0)
        g_string_append (v->text, "; ");
      g_string_append (v->text, rest + strlen (" detected: "));
      v->count += count;
    }
  g_error_free (taken);
}

/* A table or index name's constraints, as ddb_req_table_name checks a TableName; here they
 * join the request's other violations. */
static void
check_name (DdbViolations *v, const char *path, json_t *j)
{
  json_t *holder = json_object ();
  g_autofree char *key = g_strdup (path);
  GError *local = NULL;

  /* ddb_req_table_name names the member by its key with a lower-case first letter. */
  key[0] = g_ascii_toupper (key[0]);
  if (j != NULL)
    json_object_set (holder, key, j);
  if (ddb_req_table_name (holder, key, &local) == NULL)
    violations_take (v, local);
  json_decref (holder);
}

static void
check_enum (DdbViolations *v, const char *path, json_t *j, const char *const *allowed,
            gboolean required)
{
  const char *s = json_string_value (j);
  g_autoptr (GString) set = NULL;

  if (j == NULL)
    {
      if (required)
        ddb_violation_add (v, path, NULL, "Member must not be null");
      return;
    }
  for (guint i = 0; allowed[i] != NULL; i++)
    if (strcmp (s, allowed[i]) == 0)
      return;
  set = g_string_new ("Member must satisfy enum value set: [");
  for (guint i = 0; allowed[i] != NULL; i++)
    g_string_append_printf (set, "%s%s", i > 0 ? ", " : "", allowed[i]);
  g_string_append_c (set, ']');
  ddb_violation_add (v, path, s, set->str);
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

  if (!ddb_table_check_type (list, JSON_ARRAY, "List", error))
    return FALSE;
  json_array_foreach (list, i, elem)
    {
      if (json_is_null (elem))
        continue;
      if (!ddb_table_check_type (elem, JSON_OBJECT, "Structure", error))
        return FALSE;
      for (guint k = 0; string_members[k] != NULL; k++)
        if (!ddb_table_check_type (ddb_table_member (elem, string_members[k]), JSON_STRING, "String", error))
          return FALSE;
    }
  return TRUE;
}

static const char *const key_schema_members[] = { "AttributeName", "KeyType", NULL };
static const char *const attr_def_members[] = { "AttributeName", "AttributeType", NULL };

/* KeySchema: types, then its constraints under `path`. */
static gboolean
check_key_schema (json_t *ks, const char *path, gboolean enum_key_type, DdbViolations *v,
                  GError **error)
{
  size_t i;
  json_t *elem;

  if (!check_struct_list (ks, key_schema_members, error))
    return FALSE;
  if (ks == NULL)
    {
      ddb_violation_add (v, path, NULL, "Member must not be null");
      return TRUE;
    }
  json_array_foreach (ks, i, elem)
    {
      g_autofree char *p_name = g_strdup_printf ("%s.%zu.member.attributeName", path, i + 1);
      g_autofree char *p_type = g_strdup_printf ("%s.%zu.member.keyType", path, i + 1);

      if (ddb_table_member (elem, "AttributeName") == NULL)
        ddb_violation_add (v, p_name, NULL, "Member must not be null");
      if (enum_key_type)
        check_enum (v, p_type, ddb_table_member (elem, "KeyType"), key_types, TRUE);
      else if (ddb_table_member (elem, "KeyType") == NULL)
        ddb_violation_add (v, p_type, NULL, "Member must not be null");
    }
  if (json_array_size (ks) < 1)
    ddb_violation_add (v, path, "[]", "Member must have length greater than or equal to 1");
  if (json_array_size (ks) > 2)
    {
      g_autofree char *text = json_dumps (ks, JSON_COMPACT);

      ddb_violation_add (v, path, text, "Member must have length less than or equal to 2");
    }
  return TRUE;
}

/* ProvisionedThroughput: types, then constraints (both members present and at least 1). */
static gboolean
check_throughput (json_t *pt, const char *path, DdbViolations *v, GError **error)
{
  static const char *const members[] = { "WriteCapacityUnits", "ReadCapacityUnits" };

  if (!ddb_table_check_type (pt, JSON_OBJECT, "Structure", error))
    return FALSE;
  if (pt == NULL)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    {
      json_t *j = ddb_table_member (pt, members[i]);
      g_autofree char *p = g_strdup_printf ("%s.%c%s", path, g_ascii_tolower (members[i][0]),
                                            members[i] + 1);

      if (!ddb_table_check_type (j, JSON_INTEGER, "Long", error))
        return FALSE;
      if (j == NULL)
        ddb_violation_add (v, p, NULL, "Member must not be null");
      else if (json_number_value (j) < 1)
        {
          g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT,
                                                   (gint64) json_number_value (j));

          ddb_violation_add (v, p, text, "Member must have value greater than or equal to 1");
        }
    }
  return TRUE;
}

gint64
ddb_table_throughput_value (json_t *pt, const char *name)
{
  return (gint64) json_number_value (ddb_table_member (pt, name));
}

/* Projection: types, then constraints. */
static gboolean
check_projection (json_t *proj, const char *path, DdbViolations *v, GError **error)
{
  g_autofree char *p_type = g_strdup_printf ("%s.projectionType", path);
  g_autofree char *p_nka = g_strdup_printf ("%s.nonKeyAttributes", path);
  json_t *nka;
  size_t i;
  json_t *elem;

  if (!ddb_table_check_type (proj, JSON_OBJECT, "Structure", error))
    return FALSE;
  if (proj == NULL)
    {
      ddb_violation_add (v, path, NULL, "Member must not be null");
      return TRUE;
    }
  if (!ddb_table_check_type (ddb_table_member (proj, "ProjectionType"), JSON_STRING, "String", error))
    return FALSE;
  nka = ddb_table_member (proj, "NonKeyAttributes");
  if (!ddb_table_check_type (nka, JSON_ARRAY, "List", error))
    return FALSE;
  json_array_foreach (nka, i, elem)
    if (!ddb_table_check_type (elem, JSON_STRING, "String", error))
      return FALSE;
  check_enum (v, p_type, ddb_table_member (proj, "ProjectionType"), projection_types, FALSE);
  if (nka != NULL && json_array_size (nka) < 1)
    ddb_violation_add (v, p_nka, "[]", "Member must have length greater than or equal to 1");
  return TRUE;
}

/* The index list of CreateTable (`gsi` for GlobalSecondaryIndexes): types and constraints. */
static gboolean
check_index_list (json_t *list, const char *path, gboolean gsi, DdbViolations *v, GError **error)
{
  size_t i;
  json_t *ix;

  if (!ddb_table_check_type (list, JSON_ARRAY, "List", error))
    return FALSE;
  json_array_foreach (list, i, ix)
    {
      g_autofree char *base = g_strdup_printf ("%s.%zu.member", path, i + 1);
      g_autofree char *p_name = g_strconcat (base, ".indexName", NULL);
      g_autofree char *p_ks = g_strconcat (base, ".keySchema", NULL);
      g_autofree char *p_proj = g_strconcat (base, ".projection", NULL);
      g_autofree char *p_pt = g_strconcat (base, ".provisionedThroughput", NULL);

      if (!ddb_table_check_type (ix, JSON_OBJECT, "Structure", error)
          || !ddb_table_check_type (ddb_table_member (ix, "IndexName"), JSON_STRING, "String", error))
        return FALSE;
      check_name (v, p_name, ddb_table_member (ix, "IndexName"));
      if (!check_key_schema (ddb_table_member (ix, "KeySchema"), p_ks, FALSE, v, error)
          || !check_projection (ddb_table_member (ix, "Projection"), p_proj, v, error))
        return FALSE;
      if (gsi && !check_throughput (ddb_table_member (ix, "ProvisionedThroughput"), p_pt, v, error))
        return FALSE;
    }
  return TRUE;
}

/* ---- Definitions ---- */

void
ddb_table_string_list_join (GString *out, GPtrArray *names)
{
  for (guint i = 0; i < names->len; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? ", " : "", (const char *) names->pdata[i]);
}

/* The type AttributeDefinitions gives `name`, or FALSE. */
gboolean
ddb_table_attr_def_type (json_t *defs, const char *name, DdbType *type)
{
  size_t i;
  json_t *d;

  json_array_foreach (defs, i, d)
    {
      const char *n = json_string_value (ddb_table_member (d, "AttributeName"));

      if (n != NULL && strcmp (n, name) == 0)
        return ddb_type_from_name (json_string_value (ddb_table_member (d, "AttributeType")), type);
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
    g_ptr_array_add (names, (gpointer) json_string_value (ddb_table_member (e, "AttributeName")));
  return names;
}

GPtrArray *
ddb_table_attr_def_names (json_t *defs)
{
  return key_schema_names (defs); /* both are lists of {AttributeName: ...} */
}

/* The checks DynamoDB makes on one key schema once the members are well-formed. */
static gboolean
check_key_schema_semantics (json_t *ks, json_t *defs, GError **error)
{
  g_autoptr (GPtrArray) keys = key_schema_names (ks);
  g_autoptr (GPtrArray) def_names = ddb_table_attr_def_names (defs);
  const char *k0 = keys->pdata[0];
  const char *k1 = keys->len > 1 ? keys->pdata[1] : NULL;
  const char *t0 = json_string_value (ddb_table_member (json_array_get (ks, 0), "KeyType"));
  const char *t1 = k1 != NULL ? json_string_value (ddb_table_member (json_array_get (ks, 1), "KeyType"))
                              : NULL;
  DdbType type;

  for (guint i = 0; i < keys->len; i++)
    {
      if (!ddb_table_attr_def_type (defs, keys->pdata[i], &type))
        {
          g_autoptr (GString) msg
            = g_string_new (INVALID "Some index key attributes are not defined in "
                                    "AttributeDefinitions. Keys: [");

          ddb_table_string_list_join (msg, keys);
          g_string_append (msg, "], AttributeDefinitions: [");
          ddb_table_string_list_join (msg, def_names);
          g_string_append_c (msg, ']');
          return ddb_table_fail (error, DDB_ERROR_VALIDATION, "%s", msg->str);
        }
    }
  if (k1 != NULL && strcmp (k0, k1) == 0)
    return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                 "Both the Hash Key and the Range Key element in the KeySchema have the same name");
  if (strcmp (t0, "HASH") != 0)
    return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                 "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  if (t1 != NULL && strcmp (t1, "RANGE") != 0)
    return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                 "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
  return TRUE;
}

/* The checks of one secondary index of CreateTable (or of an UpdateTable Create). */
gboolean
ddb_table_check_index (json_t *ix, json_t *defs, const DdbKeyDef *table_key, gboolean gsi,
                       gboolean pay_per_request, GHashTable *seen, GError **error)
{
  const char *name = json_string_value (ddb_table_member (ix, "IndexName"));
  json_t *ks = ddb_table_member (ix, "KeySchema");
  json_t *proj = ddb_table_member (ix, "Projection");
  const char *ptype = json_string_value (ddb_table_member (proj, "ProjectionType"));

  if (!check_key_schema_semantics (ks, defs, error))
    return FALSE;
  if (!gsi)
    {
      const char *hash = json_string_value (ddb_table_member (json_array_get (ks, 0), "AttributeName"));

      if (json_array_size (ks) != 2)
        return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                     INVALID "Index KeySchema does not have a range key for index: %s", name);
      if (strcmp (hash, table_key->hash_name) != 0)
        return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                     INVALID "Index KeySchema does not have the same leading hash key as table "
                             "KeySchema for index: %s. index hash key: %s, table hash key: %s",
                     name, hash, table_key->hash_name);
    }
  if (ptype == NULL)
    return ddb_table_fail (error, DDB_ERROR_VALIDATION, INVALID "Unknown ProjectionType: null");
  if (ddb_table_member (proj, "NonKeyAttributes") != NULL && strcmp (ptype, "INCLUDE") != 0)
    return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                 INVALID "ProjectionType is %s, but NonKeyAttributes is specified", ptype);
  if (gsi && pay_per_request && ddb_table_member (ix, "ProvisionedThroughput") != NULL)
    return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                 INVALID "ProvisionedThroughput should not be specified for index: %s when "
                         "BillingMode is PAY_PER_REQUEST",
                 name);
  if (gsi && !pay_per_request && ddb_table_member (ix, "ProvisionedThroughput") == NULL)
    return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                 "No provisioned throughput specified for the global secondary index");
  if (g_hash_table_contains (seen, name))
    return ddb_table_fail (error, DDB_ERROR_VALIDATION, INVALID "Duplicate index name: %s", name);
  g_hash_table_add (seen, (gpointer) name);
  return TRUE;
}

/* StreamSpecification of CreateTable/UpdateTable: types and DynamoDB's rules. */
static gboolean
check_stream_spec (json_t *spec, gboolean *enabled, const char **view_type, GError **error)
{
  json_t *en, *vt;
  DdbViolations v;

  if (!ddb_table_check_type (spec, JSON_OBJECT, "Structure", error))
    return FALSE;
  en = ddb_table_member (spec, "StreamEnabled");
  vt = ddb_table_member (spec, "StreamViewType");
  if (!ddb_table_check_type (en, JSON_TRUE, "Boolean", error)
      || !ddb_table_check_type (vt, JSON_STRING, "String", error))
    return FALSE;
  ddb_violations_init (&v);
  if (en == NULL)
    ddb_violation_add (&v, "streamSpecification.streamEnabled", NULL, "Member must not be null");
  check_enum (&v, "streamSpecification.streamViewType", vt, stream_view_types, FALSE);
  if (!ddb_violations_finish (&v, error))
    return FALSE;
  *enabled = json_is_true (en);
  *view_type = json_string_value (vt);
  if (*enabled && *view_type == NULL)
    return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                 "Invalid StreamViewType: Stream ViewType must not be null or empty when "
                 "enabling streams.");
  if (!*enabled && *view_type != NULL)
    return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                 "Invalid StreamViewType: Stream StreamEnabled was false but a StreamViewType "
                 "was present.");
  return TRUE;
}

/* Whether `text` keeps to the characters AWS allows in a tag key or value: Unicode letters,
 * numbers and space separators, and _ . : / = + - @ (the API's pattern
 * [\p{L}\p{Z}\p{N}_.:/=+\-@]*; the Developer Guide's "Tagging restrictions" lists the same
 * classes). */
static gboolean
tag_text_allowed (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x80 && strchr ("_.:/=+-@", (int) c) != NULL)
        continue;
      switch (g_unichar_type (c))
        {
        case G_UNICODE_LOWERCASE_LETTER:
        case G_UNICODE_MODIFIER_LETTER:
        case G_UNICODE_OTHER_LETTER:
        case G_UNICODE_TITLECASE_LETTER:
        case G_UNICODE_UPPERCASE_LETTER:
        case G_UNICODE_DECIMAL_NUMBER:
        case G_UNICODE_LETTER_NUMBER:
        case G_UNICODE_OTHER_NUMBER:
        case G_UNICODE_SPACE_SEPARATOR:
        case G_UNICODE_LINE_SEPARATOR:
        case G_UNICODE_PARAGRAPH_SEPARATOR:
          continue;
        default:
          return FALSE;
        }
    }
  return TRUE;
}

/* The prefix AWS keeps for its own tags, in any case ("aws:", "AWS:", "Aws:"...). */
static gboolean
tag_text_reserved (const char *text)
{
  return g_ascii_strncasecmp (text, "aws:", 4) == 0;
}

/* A tag text of `j` (a JSON string), or NULL; `*bad_char` is set when it holds a NUL, which no
 * tag may (C's view of the text would stop there). */
static const char *
tag_text (json_t *j, gboolean *bad_char)
{
  const char *text = json_string_value (j);

  *bad_char = text != NULL && strlen (text) != json_string_length (j);
  return text;
}

gboolean
ddb_table_check_tag_key (DdbViolations *v, const char *path, json_t *j)
{
  gboolean bad_char;
  const char *key = tag_text (j, &bad_char);

  if (key == NULL)
    ddb_violation_add (v, path, NULL, "Member must not be null");
  else if (g_utf8_strlen (key, -1) < 1)
    ddb_violation_add (v, path, key, "Member must have length greater than or equal to 1");
  else if (g_utf8_strlen (key, -1) > 128)
    ddb_violation_add (v, path, key, "Member must have length less than or equal to 128");
  else if (bad_char || !tag_text_allowed (key))
    ddb_violation_add (v, path, key, TAG_PATTERN);
  return key != NULL && tag_text_reserved (key);
}

gboolean
ddb_table_check_tags (json_t *tags, const char *path, gboolean required, GError **error)
{
  static const char *const tag_members[] = { "Key", "Value", NULL };
  gboolean reserved = FALSE;
  size_t i;
  json_t *t;
  DdbViolations v;

  if (!check_struct_list (tags, tag_members, error))
    return FALSE;
  ddb_violations_init (&v);
  if (tags == NULL)
    {
      if (required)
        ddb_violation_add (&v, path, NULL, "Member must not be null");
      return ddb_violations_finish (&v, error);
    }
  json_array_foreach (tags, i, t)
    {
      g_autofree char *p_key = g_strdup_printf ("%s.%zu.member.key", path, i + 1);
      g_autofree char *p_value = g_strdup_printf ("%s.%zu.member.value", path, i + 1);
      gboolean bad_char;
      const char *val = tag_text (ddb_table_member (t, "Value"), &bad_char);

      reserved |= ddb_table_check_tag_key (&v, p_key, ddb_table_member (t, "Key"));
      if (val == NULL)
        ddb_violation_add (&v, p_value, NULL, "Member must not be null");
      else if (g_utf8_strlen (val, -1) > 256)
        ddb_violation_add (&v, p_value, val, "Member must have length less than or equal to 256");
      else if (bad_char || !tag_text_allowed (val))
        ddb_violation_add (&v, p_value, val, TAG_PATTERN);
      reserved |= val != NULL && tag_text_reserved (val);
    }
  if (required && json_array_size (tags) < 1)
    ddb_violation_add (&v, path, "[]", "Member must have length greater than or equal to 1");
  if (!ddb_violations_finish (&v, error))
    return FALSE;
  if (reserved)
    return ddb_table_fail (error, DDB_ERROR_VALIDATION, TAG_RESERVED);
  return TRUE;
}

/* AttributeDefinitions' element constraints. */
static void
check_attr_defs (json_t *defs, DdbViolations *v)
{
  size_t i;
  json_t *d;

  json_array_foreach (defs, i, d)
    {
      g_autofree char *p_name = g_strdup_printf ("attributeDefinitions.%zu.member.attributeName",
                                                 i + 1);
      g_autofree char *p_type = g_strdup_printf ("attributeDefinitions.%zu.member.attributeType",
                                                 i + 1);

      if (ddb_table_member (d, "AttributeName") == NULL)
        ddb_violation_add (v, p_name, NULL, "Member must not be null");
      check_enum (v, p_type, ddb_table_member (d, "AttributeType"), attribute_types, TRUE);
    }
}

gboolean
ddb_table_check_capacity (json_t *pt, GError **error)
{
  static const char *const members[] = { "ReadCapacityUnits", "WriteCapacityUnits" };

  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    {
      gint64 value = ddb_table_throughput_value (pt, members[i]);

      if (value > MAX_CAPACITY)
        return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                               "Given value %" G_GINT64_FORMAT " for %s is out of bounds", value,
                               members[i]);
    }
  return TRUE;
}

gboolean
ddb_table_check_create_request (json_t *req, gboolean *pay_per_request,
                                gboolean *stream_enabled, const char **view_type,
                                GError **error)
{
  json_t *defs = ddb_table_member (req, "AttributeDefinitions");
  json_t *ks = ddb_table_member (req, "KeySchema");
  json_t *pt = ddb_table_member (req, "ProvisionedThroughput");
  json_t *billing = ddb_table_member (req, "BillingMode");
  json_t *stream = ddb_table_member (req, "StreamSpecification");
  g_autoptr (GPtrArray) def_names = NULL;
  DdbViolations v;

  /* Member types first (SerializationException), then every constraint in one message. */
  if (!check_struct_list (defs, attr_def_members, error)
      || !ddb_table_check_type (ddb_table_member (req, "TableName"), JSON_STRING, "String", error)
      || !ddb_table_check_type (billing, JSON_STRING, "String", error)
      || !ddb_table_check_type (ddb_table_member (req, "DeletionProtectionEnabled"), JSON_TRUE,
                                "Boolean", error)
      || !ddb_table_check_type (ddb_table_member (req, "TableClass"), JSON_STRING, "String",
                                error)
      || !ddb_table_check_type (ddb_table_member (req, "SSESpecification"), JSON_OBJECT,
                                "Structure", error))
    return FALSE;
  ddb_violations_init (&v);
  if (defs == NULL)
    ddb_violation_add (&v, "attributeDefinitions", NULL, "Member must not be null");
  check_attr_defs (defs, &v);
  check_name (&v, "tableName", ddb_table_member (req, "TableName"));
  check_enum (&v, "billingMode", billing, billing_modes, FALSE);
  if (!check_throughput (pt, "provisionedThroughput", &v, error)
      || !check_key_schema (ks, "keySchema", TRUE, &v, error)
      || !check_index_list (ddb_table_member (req, "LocalSecondaryIndexes"),
                            "localSecondaryIndexes", FALSE, &v, error)
      || !check_index_list (ddb_table_member (req, "GlobalSecondaryIndexes"),
                            "globalSecondaryIndexes", TRUE, &v, error))
    {
      ddb_violations_finish (&v, NULL);
      return FALSE;
    }
  if (!ddb_violations_finish (&v, error))
    return FALSE;
  if (!ddb_table_check_tags (ddb_table_member (req, "Tags"), "tags", FALSE, error))
    return FALSE;
  if (stream != NULL && !check_stream_spec (stream, stream_enabled, view_type, error))
    return FALSE;

  /* DynamoDB's own checks, in its order. */
  *pay_per_request = billing != NULL
                     && strcmp (json_string_value (billing), "PAY_PER_REQUEST") == 0;
  if (*pay_per_request && pt != NULL)
    return ddb_table_fail (error, DDB_ERROR_VALIDATION, PPR_WITH_THROUGHPUT);
  if (!*pay_per_request)
    {
      if (pt == NULL)
        return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                               INVALID "ReadCapacityUnits and WriteCapacityUnits must both be "
                                       "specified when BillingMode is PROVISIONED");
      if (!ddb_table_check_capacity (pt, error))
        return FALSE;
    }
  def_names = ddb_table_attr_def_names (defs);
  if (json_array_size (ks) > json_array_size (defs))
    return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                           "Invalid KeySchema: Some index key attribute have no definition");
  for (guint a = 0; a < def_names->len; a++)
    for (guint b = a + 1; b < def_names->len; b++)
      if (strcmp (def_names->pdata[a], def_names->pdata[b]) == 0)
        return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                               "Cannot have two attributes with the same name");
  if (!check_key_schema_semantics (ks, defs, error))
    return FALSE;
  if (ddb_table_member (req, "LocalSecondaryIndexes") == NULL
      && ddb_table_member (req, "GlobalSecondaryIndexes") == NULL
      && json_array_size (ks) != json_array_size (defs))
    return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                           INVALID "Number of attributes in KeySchema does not exactly match "
                                   "number of attributes defined in AttributeDefinitions");
  return TRUE;
}

gboolean
ddb_table_gsi_update_action (json_t *u, const char **action, json_t **body, GError **error)
{
  static const char *const actions[] = { "Create", "Update", "Delete" };

  *action = NULL;
  *body = NULL;
  if (!ddb_table_check_type (u, JSON_OBJECT, "Structure", error))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      json_t *b = ddb_table_member (u, actions[i]);

      if (!ddb_table_check_type (b, JSON_OBJECT, "Structure", error)
          || !ddb_table_check_type (ddb_table_member (b, "IndexName"), JSON_STRING, "String",
                                    error))
        return FALSE;
      if (b != NULL && *action == NULL)
        {
          *action = actions[i];
          *body = b;
        }
    }
  if (*action == NULL)
    return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                           INVALID "One of GlobalSecondaryIndexUpdate.Update, "
                                   "GlobalSecondaryIndexUpdate.Create, "
                                   "GlobalSecondaryIndexUpdate.Delete must not be null");
  return TRUE;
}

/* The constraints of one GlobalSecondaryIndexUpdates element. */
static gboolean
check_gsi_update (json_t *u, size_t i, DdbViolations *v, GError **error)
{
  const char *action;
  json_t *body;
  g_autofree char *base = NULL;
  g_autofree char *p_name = NULL;
  g_autofree char *p_pt = NULL;
  json_t *pt;

  if (!ddb_table_gsi_update_action (u, &action, &body, error))
    return FALSE;
  base = g_strdup_printf ("globalSecondaryIndexUpdates.%zu.member.%c%s", i + 1,
                          g_ascii_tolower (action[0]), action + 1);
  p_name = g_strconcat (base, ".indexName", NULL);
  p_pt = g_strconcat (base, ".provisionedThroughput", NULL);
  pt = ddb_table_member (body, "ProvisionedThroughput");
  check_name (v, p_name, ddb_table_member (body, "IndexName"));
  if (strcmp (action, "Create") == 0)
    {
      g_autofree char *p_ks = g_strconcat (base, ".keySchema", NULL);
      g_autofree char *p_proj = g_strconcat (base, ".projection", NULL);

      return check_key_schema (ddb_table_member (body, "KeySchema"), p_ks, FALSE, v, error)
             && check_projection (ddb_table_member (body, "Projection"), p_proj, v, error)
             && check_throughput (pt, p_pt, v, error);
    }
  if (strcmp (action, "Update") == 0)
    {
      if (pt == NULL)
        ddb_violation_add (v, p_pt, NULL, "Member must not be null");
      else
        return check_throughput (pt, p_pt, v, error);
    }
  return TRUE;
}

gboolean
ddb_table_check_update_request (json_t *req, DdbTableUpdateRequest *out, GError **error)
{
  g_autoptr (GHashTable) names = NULL;
  guint creates_deletes = 0;
  DdbViolations v;
  size_t i;
  json_t *u;

  memset (out, 0, sizeof *out);
  out->defs = ddb_table_member (req, "AttributeDefinitions");
  out->billing = ddb_table_member (req, "BillingMode");
  out->pt = ddb_table_member (req, "ProvisionedThroughput");
  out->updates = ddb_table_member (req, "GlobalSecondaryIndexUpdates");
  out->stream = ddb_table_member (req, "StreamSpecification");
  out->protection = ddb_table_member (req, "DeletionProtectionEnabled");
  out->sse = ddb_table_member (req, "SSESpecification");
  out->table_class = ddb_table_member (req, "TableClass");
  out->replicas = ddb_table_member (req, "ReplicaUpdates");

  if (!check_struct_list (out->defs, attr_def_members, error)
      || !ddb_table_check_type (out->billing, JSON_STRING, "String", error)
      || !ddb_table_check_type (out->protection, JSON_TRUE, "Boolean", error)
      || !ddb_table_check_type (out->updates, JSON_ARRAY, "List", error)
      || !ddb_table_check_type (out->table_class, JSON_STRING, "String", error)
      || !ddb_table_check_type (out->sse, JSON_OBJECT, "Structure", error))
    return FALSE;
  out->name = ddb_req_table_name (req, "TableName", error);
  if (out->name == NULL)
    return FALSE;

  ddb_violations_init (&v);
  check_attr_defs (out->defs, &v);
  check_enum (&v, "billingMode", out->billing, billing_modes, FALSE);
  if (!check_throughput (out->pt, "provisionedThroughput", &v, error))
    {
      ddb_violations_finish (&v, NULL);
      return FALSE;
    }
  json_array_foreach (out->updates, i, u)
    if (!check_gsi_update (u, i, &v, error))
      {
        ddb_violations_finish (&v, NULL);
        return FALSE;
      }
  if (!ddb_violations_finish (&v, error))
    return FALSE;
  if (out->stream != NULL
      && !check_stream_spec (out->stream, &out->stream_enabled, &out->view_type, error))
    return FALSE;

  if (out->billing == NULL && out->pt == NULL && json_array_size (out->updates) == 0
      && out->stream == NULL && out->sse == NULL && out->replicas == NULL && out->protection == NULL
      && out->table_class == NULL)
    return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                           "At least one of ProvisionedThroughput, BillingMode, "
                           "UpdateStreamEnabled, GlobalSecondaryIndexUpdates or "
                           "SSESpecification or ReplicaUpdates is required");
  if (out->replicas != NULL)
    return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                           "Replicas are not supported by this database");
  names = g_hash_table_new (g_str_hash, g_str_equal);
  json_array_foreach (out->updates, i, u)
    {
      const char *action;
      json_t *body;
      const char *index_name;

      ddb_table_gsi_update_action (u, &action, &body, NULL);
      index_name = json_string_value (ddb_table_member (body, "IndexName"));
      if (g_hash_table_contains (names, index_name))
        return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                               INVALID "Only one global secondary index update per index is "
                                       "allowed simultaneously. Index: %s",
                               index_name);
      g_hash_table_add (names, (gpointer) index_name);
      if (strcmp (action, "Update") != 0)
        creates_deletes++;
    }
  if (creates_deletes > 1)
    return ddb_table_fail (error, DDB_ERROR_LIMIT_EXCEEDED,
                           "Subscriber limit exceeded: Only 1 online index can be created or "
                           "deleted simultaneously per table");
  return TRUE;
}
