/* legacy.c: the pre-expression request parameters (Expected, QueryFilter/ScanFilter,
 * KeyConditions, AttributeUpdates, AttributesToGet) turned into core/expr.h trees, with the
 * checks and messages DynamoDB applies to them. Names in these parameters are literal: they
 * become one-element paths, so reserved words and dots need no placeholder. */
#include "engine/legacy.h"

#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "engine/request.h"

#define INVALID "One or more parameter values were invalid: "
/* DynamoDB reports the Expected rules inside its validation-layer envelope (observed against
 * the live service; older emulators such as dynalite print them bare). */
#define ENVELOPE "1 validation error detected: "

typedef enum {
  OP_EQ,
  OP_NE,
  OP_LE,
  OP_LT,
  OP_GE,
  OP_GT,
  OP_NOT_NULL,
  OP_NULL,
  OP_CONTAINS,
  OP_NOT_CONTAINS,
  OP_BEGINS_WITH,
  OP_IN,
  OP_BETWEEN,
  N_OPS
} LegacyOp;

static const char *const op_names[N_OPS] = {
  "EQ",       "NE",           "LE",          "LT", "GE",     "GT",          "NOT_NULL",
  "NULL",     "CONTAINS",     "NOT_CONTAINS", "BEGINS_WITH", "IN", "BETWEEN",
};

/* The enum as DynamoDB's model lists it in its "Member must satisfy enum value set" message. */
#define OP_ENUM_SET \
  "[IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]"

/* Attribute types each operator accepts in AttributeValueList (API reference, Condition). EQ
 * and NE are "supported for all data types, including lists and maps". */
static gboolean
op_accepts_type (LegacyOp op, DdbType t)
{
  switch (op)
    {
    case OP_EQ:
    case OP_NE:
      return TRUE;
    case OP_BEGINS_WITH:
      return t == DDB_TYPE_S || t == DDB_TYPE_B;
    default:
      return t == DDB_TYPE_S || t == DDB_TYPE_N || t == DDB_TYPE_B;
    }
}

/* ---- JSON shape checks, worded as DynamoDB's deserializer words them ------------------ */

static gboolean
expect_object (json_t *j, GError **error)
{
  if (json_is_object (j))
    return TRUE;
  if (json_is_array (j))
    ddb_req_fail (error, DDB_ERROR_SERIALIZATION, "Start of list found where not expected");
  else
    ddb_req_fail (error, DDB_ERROR_SERIALIZATION, "Expected null");
  return FALSE;
}

static gboolean
expect_array (json_t *j, GError **error)
{
  if (json_is_array (j))
    return TRUE;
  if (json_is_object (j))
    ddb_req_fail (error, DDB_ERROR_SERIALIZATION,
                  "Start of structure or map found where not expected.");
  else
    ddb_req_fail (error, DDB_ERROR_SERIALIZATION, "Expected list or null");
  return FALSE;
}

/* A string member: NULL and no error when absent or JSON null. */
static const char *
get_string (json_t *obj, const char *member, gboolean *ok, GError **error)
{
  json_t *j = json_object_get (obj, member);

  *ok = TRUE;
  if (j == NULL || json_is_null (j))
    return NULL;
  if (json_is_string (j))
    return json_string_value (j);
  *ok = FALSE;
  if (json_is_boolean (j))
    ddb_req_fail (error, DDB_ERROR_SERIALIZATION,
                  "class java.lang.Boolean can not be converted to an String");
  else if (json_is_number (j))
    ddb_req_fail (
        error, DDB_ERROR_SERIALIZATION,
        "class com.amazon.coral.value.json.numbers.TruncatingBigNumber can not be converted "
        "to an String");
  else if (json_is_array (j))
    ddb_req_fail (error, DDB_ERROR_SERIALIZATION, "Start of list found where not expected");
  else
    ddb_req_fail (error, DDB_ERROR_SERIALIZATION,
                  "Start of structure or map found where not expected.");
  return NULL;
}

/* A boolean member: -1 when absent, 0/1, or -2 on error. DynamoDB's deserializer also takes
 * the strings true/false/yes/no/1/0 in any case. */
static int
get_bool (json_t *obj, const char *member, GError **error)
{
  json_t *j = json_object_get (obj, member);

  if (j == NULL || json_is_null (j))
    return -1;
  if (json_is_boolean (j))
    return json_is_true (j) ? 1 : 0;
  if (json_is_string (j))
    {
      g_autofree char *up = g_ascii_strup (json_string_value (j), -1);

      if (strcmp (up, "TRUE") == 0 || strcmp (up, "1") == 0 || strcmp (up, "YES") == 0)
        return 1;
      if (strcmp (up, "FALSE") == 0 || strcmp (up, "0") == 0 || strcmp (up, "NO") == 0)
        return 0;
      ddb_req_fail (error, DDB_ERROR_SERIALIZATION, "'%s' can not be converted to an Boolean", up);
      return -2;
    }
  if (json_is_number (j))
    ddb_req_fail (
        error, DDB_ERROR_SERIALIZATION,
        "class com.amazon.coral.value.json.numbers.TruncatingBigNumber can not be converted "
        "to an Boolean");
  else if (json_is_array (j))
    ddb_req_fail (error, DDB_ERROR_SERIALIZATION, "Start of list found where not expected");
  else
    ddb_req_fail (error, DDB_ERROR_SERIALIZATION,
                  "Start of structure or map found where not expected.");
  return -2;
}

/* ---- Tree building ------------------------------------------------------------------- */

static void
path_set_name (DdbPath *p, const char *name)
{
  p->n = 1;
  p->elems = g_new0 (DdbPathElem, 1);
  p->elems[0].name = g_strdup (name);
}

static DdbNode *
path_node (const char *name)
{
  DdbNode *n = ddb_node_new (DDB_NODE_PATH, 0);

  path_set_name (&n->path, name);
  return n;
}

/* The condition for one attribute; takes ownership of the values. */
static DdbNode *
make_condition (const char *attr, LegacyOp op, GPtrArray *vals)
{
  DdbNode *n;

#define TAKE(i) ddb_node_new_value (g_steal_pointer (&g_ptr_array_index (vals, (i))), NULL)
  switch (op)
    {
    case OP_EQ:
      return ddb_node_new_binary (DDB_NODE_EQ, path_node (attr), TAKE (0));
    case OP_NE:
      return ddb_node_new_binary (DDB_NODE_NE, path_node (attr), TAKE (0));
    case OP_LE:
      return ddb_node_new_binary (DDB_NODE_LE, path_node (attr), TAKE (0));
    case OP_LT:
      return ddb_node_new_binary (DDB_NODE_LT, path_node (attr), TAKE (0));
    case OP_GE:
      return ddb_node_new_binary (DDB_NODE_GE, path_node (attr), TAKE (0));
    case OP_GT:
      return ddb_node_new_binary (DDB_NODE_GT, path_node (attr), TAKE (0));
    case OP_NOT_NULL:
      n = ddb_node_new (DDB_NODE_ATTRIBUTE_EXISTS, 1);
      n->args[0] = path_node (attr);
      return n;
    case OP_NULL:
      n = ddb_node_new (DDB_NODE_ATTRIBUTE_NOT_EXISTS, 1);
      n->args[0] = path_node (attr);
      return n;
    case OP_CONTAINS:
      return ddb_node_new_binary (DDB_NODE_CONTAINS, path_node (attr), TAKE (0));
    case OP_NOT_CONTAINS:
      {
        /* The attribute must be there to not contain the value: on a missing one NOT_CONTAINS
         * fails, as DynamoDB answers. */
        DdbNode *exists = ddb_node_new (DDB_NODE_ATTRIBUTE_EXISTS, 1);

        exists->args[0] = path_node (attr);
        n = ddb_node_new (DDB_NODE_NOT, 1);
        n->args[0] = ddb_node_new_binary (DDB_NODE_CONTAINS, path_node (attr), TAKE (0));
        return ddb_node_new_binary (DDB_NODE_AND, exists, n);
      }
    case OP_BEGINS_WITH:
      return ddb_node_new_binary (DDB_NODE_BEGINS_WITH, path_node (attr), TAKE (0));
    case OP_IN:
      n = ddb_node_new (DDB_NODE_IN, vals->len + 1);
      n->args[0] = path_node (attr);
      for (guint i = 0; i < vals->len; i++)
        n->args[i + 1] = TAKE (i);
      return n;
    case OP_BETWEEN:
      n = ddb_node_new (DDB_NODE_BETWEEN, 3);
      n->args[0] = path_node (attr);
      n->args[1] = TAKE (0);
      n->args[2] = TAKE (1);
      return n;
    default:
      g_assert_not_reached ();
    }
#undef TAKE
}

/* ---- Condition checks ------------------------------------------------------------------ */

static gboolean
arity_ok (LegacyOp op, guint n)
{
  switch (op)
    {
    case OP_NOT_NULL:
    case OP_NULL:
      return n == 0;
    case OP_IN:
      return n >= 1;
    case OP_BETWEEN:
      return n == 2;
    default:
      return n == 1;
    }
}

static int
scalar_compare (const DdbValue *a, const DdbValue *b)
{
  gsize n;
  int c;

  if (a->type == DDB_TYPE_N)
    return ddb_number_compare (&a->number, &b->number);
  n = MIN (a->bytes.len, b->bytes.len);
  c = n ? memcmp (a->bytes.data, b->bytes.data, n) : 0;
  if (c != 0)
    return c;
  return a->bytes.len < b->bytes.len ? -1 : a->bytes.len > b->bytes.len ? 1 : 0;
}

static int
parse_op (const char *name)
{
  for (int i = 0; i < N_OPS; i++)
    {
      if (strcmp (name, op_names[i]) == 0)
        return i;
    }
  return -1;
}

/* Parses the AttributeValueList (or a lone Value) into `vals`. */
static gboolean
parse_values (json_t *list, json_t *single, GPtrArray *vals, GError **error)
{
  if (list != NULL)
    {
      json_t *elem;
      gsize i;

      if (!expect_array (list, error))
        return FALSE;
      json_array_foreach (list, i, elem)
        {
          DdbValue *v = ddb_req_value (elem, error);

          if (v == NULL)
            return FALSE;
          g_ptr_array_add (vals, v);
        }
    }
  else if (single != NULL)
    {
      DdbValue *v = ddb_req_value (single, error);

      if (v == NULL)
        return FALSE;
      g_ptr_array_add (vals, v);
    }
  return TRUE;
}

/* The rules shared by filters, KeyConditions and Expected entries with a ComparisonOperator,
 * once the values are parsed. `prefix` is "" or the envelope. */
static gboolean
check_operands (LegacyOp op, GPtrArray *vals, const char *prefix, GError **error)
{
  DdbType t;

  if (!arity_ok (op, vals->len))
    {
      ddb_req_fail (error, DDB_ERROR_VALIDATION,
                    "%s" INVALID "Invalid number of argument(s) for the %s ComparisonOperator",
                    prefix, op_names[op]);
      return FALSE;
    }
  if (vals->len == 0)
    return TRUE;
  t = ((DdbValue *) g_ptr_array_index (vals, 0))->type;
  for (guint i = 1; i < vals->len; i++)
    {
      if (((DdbValue *) g_ptr_array_index (vals, i))->type != t)
        {
          ddb_req_fail (error, DDB_ERROR_VALIDATION,
                        "%s" INVALID
                        "AttributeValues inside AttributeValueList must be of same type",
                        prefix);
          return FALSE;
        }
    }
  if (!op_accepts_type (op, t))
    {
      ddb_req_fail (error, DDB_ERROR_VALIDATION,
                    "%s" INVALID "ComparisonOperator %s is not valid for %s AttributeValue type",
                    prefix, op_names[op], ddb_type_name (t));
      return FALSE;
    }
  if (op == OP_BETWEEN
      && scalar_compare (g_ptr_array_index (vals, 0), g_ptr_array_index (vals, 1)) > 0)
    {
      ddb_req_fail (
          error, DDB_ERROR_VALIDATION,
          "%sThe BETWEEN condition was provided a range where the lower bound is greater than "
          "the upper bound",
          prefix);
      return FALSE;
    }
  return TRUE;
}

/* ComparisonOperator of one entry; -1 with an error when missing or unknown. */
static int
entry_op (json_t *cond, const char *member_path, const char *attr, GError **error)
{
  gboolean ok;
  const char *name = get_string (cond, "ComparisonOperator", &ok, error);
  int op;

  if (!ok)
    return -1;
  if (name == NULL)
    {
      ddb_req_fail (error, DDB_ERROR_VALIDATION,
                    ENVELOPE "Value null at '%s.%s.member.comparisonOperator' failed to satisfy "
                             "constraint: Member must not be null",
                    member_path, attr);
      return -1;
    }
  op = parse_op (name);
  if (op < 0)
    ddb_req_fail (error, DDB_ERROR_VALIDATION,
                  ENVELOPE "Value '%s' at '%s.%s.member.comparisonOperator' failed to satisfy "
                           "constraint: Member must satisfy enum value set: " OP_ENUM_SET,
                  name, member_path, attr);
  return op;
}

/* One QueryFilter/ScanFilter/KeyConditions entry. */
static DdbNode *
filter_entry (const char *attr, json_t *cond, const char *member_path, gboolean key_condition,
              GError **error)
{
  g_autoptr (GPtrArray) vals = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  json_t *list;
  int op;

  if (!expect_object (cond, error))
    return NULL;
  list = json_object_get (cond, "AttributeValueList");
  if (list != NULL && json_is_null (list))
    list = NULL;
  /* DynamoDB checks the values before the operator's arity. */
  if (!parse_values (list, NULL, vals, error))
    return NULL;
  op = entry_op (cond, member_path, attr, error);
  if (op < 0)
    return NULL;
  if (!check_operands (op, vals, "", error))
    return NULL;
  if (key_condition)
    {
      switch (op)
        {
        case OP_EQ:
        case OP_LE:
        case OP_LT:
        case OP_GE:
        case OP_GT:
        case OP_BEGINS_WITH:
        case OP_BETWEEN:
          break;
        default:
          return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                               "Attempted conditional constraint is not an indexable operation");
        }
    }
  return make_condition (attr, op, vals);
}

/* One Expected entry: a ComparisonOperator with its values, or the Value/Exists short form. */
static DdbNode *
expected_entry (const char *attr, json_t *cond, GError **error)
{
  g_autoptr (GPtrArray) vals = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  json_t *list, *value;
  gboolean has_op;
  int exists, op;

  if (!expect_object (cond, error))
    return NULL;
  list = json_object_get (cond, "AttributeValueList");
  value = json_object_get (cond, "Value");
  if (list != NULL && json_is_null (list))
    list = NULL;
  if (value != NULL && json_is_null (value))
    value = NULL;
  exists = get_bool (cond, "Exists", error);
  if (exists == -2)
    return NULL;
  if (list != NULL && !expect_array (list, error))
    return NULL;
  if (value != NULL && !expect_object (value, error))
    return NULL;
  has_op = json_object_get (cond, "ComparisonOperator") != NULL
           && !json_is_null (json_object_get (cond, "ComparisonOperator"));

  if (list != NULL && value != NULL)
    return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                         ENVELOPE INVALID
                         "Value and AttributeValueList cannot be used together for "
                         "Attribute: %s",
                         attr);
  if (has_op)
    {
      op = entry_op (cond, "expected", attr, error);
      if (op < 0)
        return NULL;
      if (exists != -1)
        return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                             ENVELOPE INVALID
                             "Exists and ComparisonOperator cannot be used together "
                             "for Attribute: %s",
                             attr);
      if (op != OP_NULL && op != OP_NOT_NULL && list == NULL && value == NULL)
        return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                             ENVELOPE INVALID "Value or AttributeValueList must be used with "
                                              "ComparisonOperator: %s for Attribute: %s",
                             op_names[op], attr);
      /* A lone Value with a ComparisonOperator is accepted as a one-element list. */
      if (!parse_values (list, value, vals, error))
        return NULL;
      if (!check_operands (op, vals, ENVELOPE, error))
        return NULL;
      return make_condition (attr, op, vals);
    }
  if (list != NULL)
    return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                         ENVELOPE INVALID
                         "AttributeValueList can only be used with a ComparisonOperator "
                         "for Attribute: %s",
                         attr);
  if (exists != 0 && value == NULL)
    return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                         ENVELOPE INVALID
                         "Value must be provided when Exists is %s for Attribute: %s",
                         exists == -1 ? "null" : "true", attr);
  if (exists == 0 && value != NULL)
    return ddb_req_fail (
        error, DDB_ERROR_VALIDATION,
        ENVELOPE INVALID "Value cannot be used when Exists is false for Attribute: %s", attr);
  if (exists == 0)
    {
      g_ptr_array_set_size (vals, 0);
      return make_condition (attr, OP_NULL, vals);
    }
  if (!parse_values (NULL, value, vals, error))
    return NULL;
  /* `a = :v` also requires the attribute to exist, which is what Exists: true asks. */
  return make_condition (attr, OP_EQ, vals);
}

typedef DdbNode *(*EntryFunc) (const char *attr, json_t *cond, gpointer data, GError **error);

/* Combines the entries of a condition map with ConditionalOperator. An empty or absent map is
 * "no condition": NULL without an error. */
static DdbNode *
combine (json_t *map, const char *conditional_operator, EntryFunc func, gpointer data,
         GError **error)
{
  g_autoptr (DdbNode) result = NULL;
  DdbNodeKind join = DDB_NODE_AND;
  gsize n = 0;
  const char *attr;
  json_t *cond;

  if (map != NULL && json_is_null (map))
    map = NULL;
  if (map != NULL && !expect_object (map, error))
    return NULL;
  if (map != NULL)
    n = json_object_size (map);
  if (conditional_operator != NULL)
    {
      if (strcmp (conditional_operator, "OR") == 0)
        join = DDB_NODE_OR;
      else if (strcmp (conditional_operator, "AND") != 0)
        return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                             ENVELOPE
                             "Value '%s' at 'conditionalOperator' failed to satisfy constraint: "
                             "Member must satisfy enum value set: [OR, AND]",
                             conditional_operator);
    }
  json_object_foreach (map, attr, cond)
    {
      DdbNode *c;

      if (!ddb_req_attribute_name (attr, error))
        return NULL;
      c = func (attr, cond, data, error);

      if (c == NULL)
        return NULL;
      result = result == NULL ? c : ddb_node_new_binary (join, g_steal_pointer (&result), c);
    }
  if (conditional_operator != NULL && n == 0)
    return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                         "ConditionalOperator cannot be used without Filter or Expected");
  if (conditional_operator != NULL && n == 1)
    return ddb_req_fail (
        error, DDB_ERROR_VALIDATION,
        "ConditionalOperator can only be used when Filter or Expected has two or more "
        "elements");
  return g_steal_pointer (&result);
}

static DdbNode *
expected_func (const char *attr, json_t *cond, gpointer data, GError **error)
{
  return expected_entry (attr, cond, error);
}

typedef struct {
  const char *member_path;
  gboolean key_condition;
} FilterData;

static DdbNode *
filter_func (const char *attr, json_t *cond, gpointer data, GError **error)
{
  FilterData *fd = data;

  return filter_entry (attr, cond, fd->member_path, fd->key_condition, error);
}

DdbNode *
ddb_legacy_expected (json_t *expected, const char *conditional_operator, GError **error)
{
  return combine (expected, conditional_operator, expected_func, NULL, error);
}

DdbNode *
ddb_legacy_filter (json_t *filter, const char *conditional_operator, GError **error)
{
  /* The caller does not say whether this is a QueryFilter or a ScanFilter; the member path
   * only shows in the message for a missing or unknown ComparisonOperator. */
  FilterData fd = { "filter", FALSE };

  return combine (filter, conditional_operator, filter_func, &fd, error);
}

DdbNode *
ddb_legacy_key_conditions (json_t *key_conditions, GError **error)
{
  FilterData fd = { "keyConditions", TRUE };
  g_autoptr (DdbNode) cond = NULL;
  GError *local = NULL;
  gsize n;

  /* Each condition is checked before their number, as DynamoDB does. */
  cond = combine (key_conditions, NULL, filter_func, &fd, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  n = json_is_object (key_conditions) ? json_object_size (key_conditions) : 0;
  if (n == 0 || n > 2)
    return ddb_req_fail (error, DDB_ERROR_VALIDATION, "Conditions can be of length 1 or 2 only");
  return g_steal_pointer (&cond);
}

/* ---- AttributeUpdates ------------------------------------------------------------------ */

static void
add_action (GArray *actions, DdbUpdateKind kind, const char *attr, DdbNode *operand)
{
  DdbUpdateAction a = { 0 };

  a.kind = kind;
  path_set_name (&a.path, attr);
  a.operand = operand;
  g_array_append_val (actions, a);
}

static void
clear_action (gpointer p)
{
  DdbUpdateAction *a = p;

  ddb_path_clear (&a->path);
  ddb_node_free (a->operand);
}

DdbUpdate *
ddb_legacy_attribute_updates (json_t *updates, GError **error)
{
  g_autoptr (GArray) actions = g_array_new (FALSE, TRUE, sizeof (DdbUpdateAction));
  DdbUpdate *u;
  const char *attr;
  json_t *upd;

  g_array_set_clear_func (actions, clear_action);
  if (updates != NULL && json_is_null (updates))
    updates = NULL;
  if (updates != NULL && !expect_object (updates, error))
    return NULL;

  json_object_foreach (updates, attr, upd)
    {
      g_autoptr (DdbValue) v = NULL;
      const char *action;
      gboolean ok;
      json_t *jv;

      if (!ddb_req_attribute_name (attr, error))
        return NULL;

      if (!expect_object (upd, error))
        return NULL;
      action = get_string (upd, "Action", &ok, error);
      if (!ok)
        return NULL;
      if (action == NULL)
        action = "PUT";
      if (strcmp (action, "PUT") != 0 && strcmp (action, "ADD") != 0
          && strcmp (action, "DELETE") != 0)
        return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                             ENVELOPE
                             "Value '%s' at 'attributeUpdates.%s.member.action' failed to "
                             "satisfy constraint: Member must satisfy enum value set: [ADD, "
                             "PUT, DELETE]",
                             action, attr);
      jv = json_object_get (upd, "Value");
      if (jv != NULL && !json_is_null (jv))
        {
          v = ddb_req_value (jv, error);
          if (v == NULL)
            return NULL;
        }

      if (v == NULL)
        {
          if (strcmp (action, "DELETE") != 0)
            return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                                 INVALID "Only DELETE action is allowed when no attribute value is "
                                         "specified");
          add_action (actions, DDB_UPDATE_REMOVE, attr, NULL);
        }
      else if (strcmp (action, "PUT") == 0)
        add_action (actions, DDB_UPDATE_SET, attr, ddb_node_new_value (g_steal_pointer (&v), NULL));
      else if (strcmp (action, "DELETE") == 0)
        {
          if (!ddb_type_is_set (v->type))
            return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                                 INVALID
                                 "DELETE action with value is not supported for the type %s",
                                 ddb_type_name (v->type));
          add_action (actions, DDB_UPDATE_DELETE, attr, ddb_node_new_value (g_steal_pointer (&v), NULL));
        }
      else if (v->type == DDB_TYPE_L)
        {
          /* Legacy ADD appends to a list, creating it when missing:
           * SET a = list_append(if_not_exists(a, []), v). */
          DdbNode *ine = ddb_node_new (DDB_NODE_IF_NOT_EXISTS, 2);

          ine->args[0] = path_node (attr);
          ine->args[1] = ddb_node_new_value (ddb_value_new_l (), NULL);
          add_action (actions, DDB_UPDATE_SET, attr,
                      ddb_node_new_binary (DDB_NODE_LIST_APPEND, ine, ddb_node_new_value (g_steal_pointer (&v), NULL)));
        }
      else if (v->type == DDB_TYPE_N || ddb_type_is_set (v->type))
        add_action (actions, DDB_UPDATE_ADD, attr, ddb_node_new_value (g_steal_pointer (&v), NULL));
      else
        return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                             INVALID "ADD action is not supported for the type %s",
                             ddb_type_name (v->type));
    }

  u = g_new0 (DdbUpdate, 1);
  u->n_actions = actions->len;
  u->legacy = TRUE;
  /* The actions now belong to `u`: drop the array's clear function before freeing it. */
  g_array_set_clear_func (actions, NULL);
  u->actions = (DdbUpdateAction *) g_array_free (g_steal_pointer (&actions), u->n_actions == 0);
  return u;
}

/* ---- AttributesToGet ------------------------------------------------------------------- */

DdbProjection *
ddb_legacy_attributes_to_get (json_t *names, GError **error)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  DdbProjection *p;
  json_t *elem;
  gsize i, n;

  if (!expect_array (names, error))
    return NULL;
  n = json_array_size (names);
  if (n == 0)
    return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                         ENVELOPE
                         "Value '[]' at 'attributesToGet' failed to satisfy constraint: Member "
                         "must have length greater than or equal to 1");
  json_array_foreach (names, i, elem)
    {
      if (!json_is_string (elem))
        return ddb_req_fail (error, DDB_ERROR_SERIALIZATION,
                             json_is_object (elem)
                                 ? "Start of structure or map found where not expected."
                             : json_is_array (elem) ? "Start of list found where not expected"
                                                    : "Unexpected value type in payload");
      if (!ddb_req_attribute_name (json_string_value (elem), error))
        return NULL;
      if (!g_hash_table_add (seen, (gpointer) json_string_value (elem)))
        return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                             INVALID "Duplicate value in attribute name: %s",
                             json_string_value (elem));
    }

  p = g_new0 (DdbProjection, 1);
  p->n_paths = n;
  p->paths = g_new0 (DdbPath, n);
  json_array_foreach (names, i, elem)
    path_set_name (&p->paths[i], json_string_value (elem));
  return p;
}

/* ---- Mixing the two styles ------------------------------------------------------------- */

/* In the order DynamoDB lists them in its message (the orders of the operations that take
 * several of them agree with these: UpdateItem, Query, Scan). */
static const char *const expression_members[] = {
  "UpdateExpression",     "ConditionExpression",    "ProjectionExpression",
  "FilterExpression",     "KeyConditionExpression", NULL,
};
static const char *const legacy_members[] = {
  "AttributeUpdates",    "Expected",      "AttributesToGet", "QueryFilter", "ScanFilter",
  "ConditionalOperator", "KeyConditions", NULL,
};

static gboolean
present (json_t *req, const char *member)
{
  json_t *j = json_object_get (req, member);

  return j != NULL && !json_is_null (j);
}

gboolean
ddb_legacy_check_not_mixed (json_t *req, GError **error)
{
  g_autoptr (GString) expr = g_string_new (NULL);
  g_autoptr (GString) legacy = g_string_new (NULL);

  for (guint i = 0; expression_members[i] != NULL; i++)
    {
      if (present (req, expression_members[i]))
        g_string_append_printf (expr, "%s%s", expr->len ? ", " : "", expression_members[i]);
    }
  if (expr->len == 0)
    return TRUE;
  for (guint i = 0; legacy_members[i] != NULL; i++)
    {
      /* Query may filter with an expression over KeyConditions: only KeyConditionExpression
       * makes KeyConditions a mix. */
      if (strcmp (legacy_members[i], "KeyConditions") == 0
          && !present (req, "KeyConditionExpression"))
        continue;
      if (present (req, legacy_members[i]))
        g_string_append_printf (legacy, "%s%s", legacy->len ? ", " : "", legacy_members[i]);
    }
  if (legacy->len == 0)
    return TRUE;
  g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
               "Can not use both expression and non-expression parameters in the same request: "
               "Non-expression parameters: {%s} Expression parameters: {%s}",
               legacy->str, expr->str);
  return FALSE;
}
