/* snapshot-keys.c: the table an import creates: its key schema given, recorded by the snapshot
 * (our own S3 exports) or inferred from a sample of the items, its indexes, and the description
 * DescribeTable shows. */
#include <string.h>

#include "core/error.h"
#include "engine/request.h"
#include "engine/snapshot-private.h"

#define INFER_SAMPLE 1000

/* ---- Key inference ---- */

typedef struct {
  char *name;
  DdbType type;
  gboolean ok;
} Candidate;

static void
candidate_free (gpointer data)
{
  Candidate *c = data;

  g_free (c->name);
  g_free (c);
}

static gboolean
is_key_value (const DdbValue *v)
{
  return (v->type == DDB_TYPE_S || v->type == DDB_TYPE_B) ? v->bytes.len > 0
                                                          : v->type == DDB_TYPE_N;
}

static Candidate *
find_candidate (GPtrArray *cands, const char *name)
{
  for (guint i = 0; i < cands->len; i++)
    {
      Candidate *c = g_ptr_array_index (cands, i);
      if (c->ok && strcmp (c->name, name) == 0)
        return c;
    }
  return NULL;
}

static gboolean
infer_key (const Sources *s, DdbKeyDef *key, GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) cands = g_ptr_array_new_with_free_func (candidate_free);
  guint64 seen = 0;
  static const char *const pairs[][2] = { { "PK", "SK" }, { "pk", "sk" } };
  Candidate *only = NULL;
  guint nok = 0;
  GString *names;

  memset (key, 0, sizeof *key);
  for (guint f = 0; f < s->files->len; f++)
    {
      const SourceFile *sf = g_ptr_array_index (s->files, f);

      /* The sample is read first, then the import reads the source again. */
      if (sf->key == NULL && !g_file_test (sf->path, G_FILE_TEST_IS_REGULAR))
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "%s is not a regular file, so the key schema cannot be inferred from it: "
                       "give it with --key NAME:TYPE[,NAME:TYPE]",
                       sf->display);
          return FALSE;
        }
    }
  for (guint f = 0; f < s->files->len && seen < INFER_SAMPLE; f++)
    {
      ItemSource src;
      DdbValue *item;
      GError *local = NULL;

      if (!snap_item_source_open (&src, s->format, g_ptr_array_index (s->files, f), NULL,
                                  cancellable, error))
        {
          snap_item_source_close (&src);
          return FALSE;
        }
      while (seen < INFER_SAMPLE && (item = snap_item_source_next (&src, &local)) != NULL)
        {
          if (seen == 0)
            {
              for (guint i = 0; i < ddb_value_map_size (item); i++)
                {
                  DdbAttr *a = ddb_value_map_nth (item, i);
                  if (is_key_value (a->value) && a->name_len == strlen (a->name))
                    {
                      Candidate *c = g_new0 (Candidate, 1);
                      c->name = g_strdup (a->name);
                      c->type = a->value->type;
                      c->ok = TRUE;
                      g_ptr_array_add (cands, c);
                    }
                }
            }
          else
            {
              for (guint i = 0; i < cands->len; i++)
                {
                  Candidate *c = g_ptr_array_index (cands, i);
                  DdbValue *v = c->ok ? ddb_value_map_get (item, c->name) : NULL;
                  if (c->ok && (v == NULL || v->type != c->type || !is_key_value (v)))
                    c->ok = FALSE;
                }
            }
          seen++;
          ddb_value_free (item);
        }
      snap_item_source_close (&src);
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
    }

  if (seen == 0)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "The snapshot holds no items to infer the key schema from: give it "
                           "with --key NAME:TYPE[,NAME:TYPE]");
      return FALSE;
    }
  for (guint p = 0; p < G_N_ELEMENTS (pairs); p++)
    {
      Candidate *h = find_candidate (cands, pairs[p][0]);
      Candidate *r = find_candidate (cands, pairs[p][1]);

      if (h != NULL)
        {
          key->hash_name = g_strdup (h->name);
          key->hash_type = h->type;
          if (r != NULL)
            {
              key->range_name = g_strdup (r->name);
              key->range_type = r->type;
            }
          return TRUE;
        }
    }
  for (guint i = 0; i < cands->len; i++)
    {
      Candidate *c = g_ptr_array_index (cands, i);
      if (c->ok)
        {
          nok++;
          only = c;
        }
    }
  if (nok == 1)
    {
      key->hash_name = g_strdup (only->name);
      key->hash_type = only->type;
      return TRUE;
    }
  names = g_string_new (NULL);
  for (guint i = 0; i < cands->len; i++)
    {
      Candidate *c = g_ptr_array_index (cands, i);
      if (c->ok)
        g_string_append_printf (names, "%s%s:%s", names->len > 0 ? ", " : "", c->name,
                                ddb_type_name (c->type));
    }
  g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
               "The key schema cannot be inferred (%s): give it with --key NAME:TYPE[,NAME:TYPE]",
               nok == 0 ? "no attribute is in every item with one key type" : names->str);
  g_string_free (names, TRUE);
  return FALSE;
}

/* ---- Import ---- */

static json_t *
table_meta_new (const DdbTableDef *def)
{
  json_t *attrs = json_array ();
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  const DdbKeyDef *keys[64];
  guint nkeys = 0;

  keys[nkeys++] = &def->key;
  for (guint i = 0; i < def->indexes->len && nkeys < G_N_ELEMENTS (keys); i++)
    keys[nkeys++] = &((DdbIndexDef *) g_ptr_array_index (def->indexes, i))->key;
  for (guint k = 0; k < nkeys; k++)
    {
      const char *names[2] = { keys[k]->hash_name, keys[k]->range_name };
      DdbType types[2] = { keys[k]->hash_type, keys[k]->range_type };

      for (guint j = 0; j < 2; j++)
        {
          if (names[j] == NULL || !g_hash_table_add (seen, (gpointer) names[j]))
            continue;
          json_array_append_new (attrs, json_pack ("{ssss}", "AttributeName", names[j],
                                                   "AttributeType", ddb_type_name (types[j])));
        }
    }
  g_hash_table_destroy (seen);
  {
    /* The shape CreateTable stores (table-ops.c), as for an on-demand table. */
    json_int_t now_s = (json_int_t) (g_get_real_time () / G_USEC_PER_SEC);
    g_autofree char *uuid = g_uuid_string_random ();

    return json_pack ("{so sI s{sI sI sI} ss s{ss sI} sb s[]}", "AttributeDefinitions", attrs,
                      "CreationDateTime", now_s, "ProvisionedThroughput", "NumberOfDecreasesToday",
                      (json_int_t) 0, "ReadCapacityUnits", (json_int_t) 0, "WriteCapacityUnits",
                      (json_int_t) 0, "TableId", uuid, "BillingModeSummary", "BillingMode",
                      "PAY_PER_REQUEST", "LastUpdateToPayPerRequestDateTime", now_s,
                      "DeletionProtectionEnabled", 0, "Tags");
  }
}

/* The table definition from the options (or the snapshot, or inference). */
DdbTableDef *
snap_build_table_def (const char *table_name, const DdbImportOptions *options, const Sources *s,
                      gboolean *inferred, GError **error)
{
  g_autoptr (DdbTableDef) def = g_new0 (DdbTableDef, 1);
  json_auto_t *req = json_pack ("{ss}", "TableName", table_name != NULL ? table_name : "");
  const char *key_spec = options->key != NULL ? options->key : s->key_spec;
  const char *const *gsis
      = options->gsis != NULL ? options->gsis : (const char *const *) s->gsi_specs;

  /* No free function: ddb_table_def_free() frees the elements itself, and request.c's
   * ddb_item_check_index_keys() sorts a g_ptr_array_copy() of this array, which would inherit
   * a free function and free the indexes under us. */
  def->indexes = g_ptr_array_new ();
  *inferred = FALSE;
  if (req == NULL || ddb_req_table_name (req, "TableName", error) == NULL)
    {
      if (req == NULL)
        ddb_set_validation_error (error, "The table name is not valid UTF-8");
      return NULL;
    }
  def->name = g_strdup (table_name);
  if (key_spec != NULL)
    {
      if (!snap_parse_key_spec (key_spec, "key", &def->key, error))
        return NULL;
    }
  else
    {
      if (!infer_key (s, &def->key, options->cancellable, error))
        return NULL;
      *inferred = TRUE;
    }
  for (guint i = 0; gsis != NULL && gsis[i] != NULL; i++)
    {
      DdbIndexDef *index = snap_parse_gsi_spec (gsis[i], error);

      if (index == NULL)
        return NULL;
      if (ddb_table_def_index (def, index->name) != NULL)
        {
          ddb_set_validation_error (error, "Duplicate index name: %s", index->name);
          ddb_index_def_free (index);
          return NULL;
        }
      g_ptr_array_add (def->indexes, index);
    }
  if (def->indexes->len > 20)
    {
      ddb_set_validation_error (
          error, "One or more parameter values were invalid: GlobalSecondaryIndex count "
                 "exceeds the per-table limit of 20");
      return NULL;
    }
  /* One attribute cannot have two types across the table's and the indexes' key schemas. */
  for (guint i = 0; i < def->indexes->len; i++)
    {
      DdbIndexDef *index = g_ptr_array_index (def->indexes, i);
      const DdbKeyDef *others[2] = { &def->key, NULL };

      for (guint j = 0; j < i + 1; j++)
        {
          const DdbKeyDef *o
              = j == 0 ? others[0]
                       : &((DdbIndexDef *) g_ptr_array_index (def->indexes, j - 1))->key;
          const char *an[2] = { index->key.hash_name, index->key.range_name };
          DdbType at[2] = { index->key.hash_type, index->key.range_type };
          const char *bn[2] = { o->hash_name, o->range_name };
          DdbType bt[2] = { o->hash_type, o->range_type };

          for (guint x = 0; x < 2; x++)
            for (guint y = 0; y < 2; y++)
              if (an[x] != NULL && bn[y] != NULL && strcmp (an[x], bn[y]) == 0 && at[x] != bt[y])
                {
                  ddb_set_validation_error (
                      error,
                      "Attribute %s is declared with two types (%s and %s) in the key "
                      "schemas",
                      an[x], ddb_type_name (at[x]), ddb_type_name (bt[y]));
                  return NULL;
                }
        }
    }
  def->meta = table_meta_new (def);
  return g_steal_pointer (&def);
}
