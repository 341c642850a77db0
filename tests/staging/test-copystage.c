/* test-copystage.c: items put into a table through the staging area (copystage.h): a
 * selection copied with its key attributes renamed to the target's, every item checked as
 * PutItem checks it (keys, their types, index keys, duplicates) and refused per item with
 * nothing staged, overwrite read first (update from the item as read, unchanged when equal,
 * create when absent), the commit's guard turning creates onto existing items into conflicts,
 * and the reading by key they share (batchread.h). Files: test-copystage-files.c. */
#include <glib/gstdio.h>
#include <string.h>

#include "backend/backend.h"
#include "core/ddbjson.h"
#include "core/number.h"
#include "core/plainjson.h"
#include "core/error.h"
#include "staging/batchread.h"
#include "staging/commit.h"
#include "staging/copystage.h"
#include "../core/test-util.h"
#include "../engine/engine-test-util.h"
#include "../engine/item-corpus.h"
#include "copystage-fixture.h"

static const char *const same_names[] = { "pk", "sk", NULL };
static const char *const upper_names[] = { "PK", "SK", NULL };
static const char *const id_only[] = { "id", NULL };

static void
copy (DdbStaging *st, DdbBackend *be, const char *table, const char *const *source_names,
      gboolean overwrite, GPtrArray *items, DdbCopyStageReport *report)
{
  DdbCopyStageSpec spec = { CONN, table, source_names, overwrite };
  GError *error = NULL;

  g_assert_true (ddb_copy_stage (st, be, &spec, items, NULL, report, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (report->n_items, ==, items->len);
  g_assert_cmpuint (report->n_failed, ==, report->failures->len);
}

/* The corpus under the source's names (a copy with pk/sk renamed to NAMES). */
static GPtrArray *
renamed (GPtrArray *items, const char *hash, const char *range)
{
  GPtrArray *out = cs_items_new ();

  for (guint i = 0; i < items->len; i++)
    {
      const DdbValue *item = g_ptr_array_index (items, i);
      DdbValue *out_item = ddb_value_new_m ();

      for (guint a = 0; a < ddb_value_map_size (item); a++)
        {
          const DdbAttr *attr = ddb_value_map_nth (item, a);
          const char *name = strcmp (attr->name, "pk") == 0   ? hash
                             : strcmp (attr->name, "sk") == 0 ? range
                                                              : attr->name;

          ddb_value_map_set (out_item, name, ddb_value_copy (attr->value));
        }
      g_ptr_array_add (out, out_item);
    }
  return out;
}

/* The staged changes are creates of exactly WANT (in any order). */
static void
assert_staged_creates (DdbStaging *st, const char *table, GPtrArray *want)
{
  g_autoptr (GPtrArray) changes = cs_open_changes (st, table);
  g_autoptr (GPtrArray) targets = cs_items_new ();

  for (guint i = 0; i < changes->len; i++)
    {
      const DdbChange *c = g_ptr_array_index (changes, i);

      g_assert_cmpint (c->kind, ==, DDB_CHANGE_CREATE);
      g_assert_cmpint (c->state, ==, DDB_CHANGE_STAGED);
      g_ptr_array_add (targets, ddb_value_copy (c->target));
    }
  corpus_assert_same_items (want, targets, "pk", "sk");
}

static void
test_same_names (void)
{
  g_autoptr (DdbBackend) be = cs_target_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) items = cs_corpus (300, 1);
  DdbCopyStageReport report;

  /* Named or not, the same names take the items as they are. */
  copy (st, be, "Target", same_names, FALSE, items, &report);
  g_assert_cmpuint (report.n_failed, ==, 0);
  g_assert_cmpuint (report.n_created, ==, items->len);
  assert_staged_creates (st, "Target", items);
  ddb_copy_stage_report_clear (&report);
  g_assert_true (ddb_staging_discard_all (st, CONN, NULL, NULL, NULL));
  copy (st, be, "Target", NULL, FALSE, items, &report);
  g_assert_cmpuint (report.n_created, ==, items->len);
  assert_staged_creates (st, "Target", items);
  ddb_copy_stage_report_clear (&report);
}

static void
test_different_names (void)
{
  g_autoptr (DdbBackend) be = cs_target_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) items = cs_corpus (300, 2);
  g_autoptr (GPtrArray) source = renamed (items, "PK", "SK");
  g_autoptr (GPtrArray) swapped = renamed (items, "sk", "pk");
  DdbCopyStageReport report;

  copy (st, be, "Target", upper_names, FALSE, source, &report);
  g_assert_cmpuint (report.n_failed, ==, 0);
  g_assert_cmpuint (report.n_created, ==, items->len);
  assert_staged_creates (st, "Target", items);
  ddb_copy_stage_report_clear (&report);

  /* A source keyed (sk, pk): both renamed at once, no clash. */
  g_assert_true (ddb_staging_discard_all (st, CONN, NULL, NULL, NULL));
  {
    static const char *const reversed[] = { "sk", "pk", NULL };

    /* Its partition key "sk" (S) becomes pk, its sort key "pk" (N) becomes sk. */
    copy (st, be, "Target", reversed, FALSE, swapped, &report);
    g_assert_cmpuint (report.n_failed, ==, 0);
    assert_staged_creates (st, "Target", items);
    ddb_copy_stage_report_clear (&report);
  }
}

static void
assert_all_refused (const DdbCopyStageReport *report, guint n, const char *message)
{
  g_assert_cmpuint (report->n_failed, ==, n);
  g_assert_cmpuint (report->n_created + report->n_overwritten + report->n_unchanged, ==, 0);
  for (guint i = 0; i < n; i++)
    {
      const DdbExprStageFailure *f = g_ptr_array_index (report->failures, i);

      g_assert_cmpstr (f->message, ==, message);
    }
}

static void
test_pk_only_to_pk_sk (void)
{
  g_autoptr (DdbBackend) be = cs_target_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) items = corpus_items (120, 3, "id", NULL);
  g_autoptr (GPtrArray) changes = NULL;
  DdbCopyStageReport report;

  copy (st, be, "Target", id_only, FALSE, items, &report);
  assert_all_refused (&report, items->len,
                      "One or more parameter values were invalid: Missing the key sk in the item");
  for (guint i = 0; i < items->len; i++)
    {
      const DdbExprStageFailure *f = g_ptr_array_index (report.failures, i);
      g_autoptr (DdbValue) key = ddb_value_new_m ();

      /* The key as given: the source's. */
      ddb_value_map_set (key, "id",
                         ddb_value_copy (ddb_value_map_get (g_ptr_array_index (items, i), "id")));
      g_assert_true (ddb_value_equal (f->key, key));
    }
  ddb_copy_stage_report_clear (&report);
  changes = cs_open_changes (st, NULL);
  g_assert_cmpuint (changes->len, ==, 0);
}

static void
test_clash (void)
{
  g_autoptr (DdbBackend) be = cs_target_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) items = cs_corpus (200, 4);
  g_autoptr (GPtrArray) source = renamed (items, "PK", "SK");
  g_autoptr (GPtrArray) changes = NULL;
  DdbCopyStageReport report;
  guint n_clash = 0;

  /* Every third item also holds "pk" or "sk" of its own: a rename would replace it. */
  for (guint i = 0; i < source->len; i += 3)
    {
      DdbValue *item = g_ptr_array_index (source, i);

      ddb_value_map_set (item, i % 2 == 0 ? "pk" : "sk", ddb_value_new_s ("own", -1));
      n_clash++;
    }
  copy (st, be, "Target", upper_names, FALSE, source, &report);
  g_assert_cmpuint (report.n_failed, ==, n_clash);
  g_assert_cmpuint (report.n_created, ==, 0);
  for (guint k = 0; k < n_clash; k++)
    {
      guint i = k * 3;
      const DdbExprStageFailure *f = g_ptr_array_index (report.failures, k);
      g_autofree char *want
          = i % 2 == 0
                ? g_strdup ("The key attribute PK would become pk, which the item already holds")
                : g_strdup ("The key attribute SK would become sk, which the item already holds");

      g_assert_cmpstr (f->message, ==, want);
      g_assert_true (ddb_value_equal (ddb_value_map_get (f->key, "PK"),
                                      ddb_value_map_get (g_ptr_array_index (source, i), "PK")));
    }
  ddb_copy_stage_report_clear (&report);
  changes = cs_open_changes (st, NULL);
  g_assert_cmpuint (changes->len, ==, 0);
}

typedef struct {
  const char *attribute; /* set on a good item (NULL: removed: see value) */
  const char *value;     /* single-quoted DynamoDB JSON, NULL: remove the attribute */
  const char *message;
} Bad;

static const Bad bad_items[] = {
  { "pk", "{'N': '1'}",
    "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N" },
  { "pk", "{'B': 'AA=='}",
    "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: B" },
  { "sk", "{'S': '1'}",
    "One or more parameter values were invalid: Type mismatch for key sk expected: N actual: S" },
  { "pk", NULL, "One or more parameter values were invalid: Missing the key pk in the item" },
  { "sk", NULL, "One or more parameter values were invalid: Missing the key sk in the item" },
  { "email", "{'N': '5'}", NULL },
  { "rank", "{'S': 'high'}", NULL },
  { "email", "{'S': ''}", NULL },
  { "pk", "{'S': ''}", NULL },
};

static void
test_types_refused (void)
{
  g_autoptr (DdbBackend) be = cs_target_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) items = cs_corpus (G_N_ELEMENTS (bad_items) * 4, 5);
  g_autoptr (GPtrArray) changes = NULL;
  DdbCopyStageReport report;
  guint k = 0;

  /* Every other item is bad, each way in turn; the good ones between are not staged either. */
  for (guint i = 0; i < items->len; i += 2)
    {
      DdbValue *item = g_ptr_array_index (items, i);
      const Bad *bad = &bad_items[(i / 2) % G_N_ELEMENTS (bad_items)];

      if (bad->value == NULL)
        ddb_value_map_remove (item, bad->attribute);
      else
        ddb_value_map_set (item, bad->attribute, cs_value_of (bad->value));
    }
  copy (st, be, "Target", NULL, FALSE, items, &report);
  g_assert_cmpuint (report.n_failed, ==, items->len / 2);
  g_assert_cmpuint (report.n_created, ==, 0);
  for (guint i = 0; i < items->len; i += 2, k++)
    {
      const Bad *bad = &bad_items[(i / 2) % G_N_ELEMENTS (bad_items)];
      const DdbExprStageFailure *f = g_ptr_array_index (report.failures, k);

      if (bad->message != NULL)
        g_assert_cmpstr (f->message, ==, bad->message);
      else
        g_assert_true (strstr (f->message, "One or more parameter values") != NULL
                       || strstr (f->message, "empty") != NULL);
      /* Named by the item's own key when it has one. */
      if (g_strcmp0 (bad->attribute, "pk") == 0 || g_strcmp0 (bad->attribute, "sk") == 0)
        {
          if (bad->value == NULL)
            g_assert_null (f->key);
        }
      else
        g_assert_nonnull (f->key);
    }
  ddb_copy_stage_report_clear (&report);
  changes = cs_open_changes (st, NULL);
  g_assert_cmpuint (changes->len, ==, 0);
}

static void
test_invalid_items (void)
{
  g_autoptr (DdbBackend) be = cs_target_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) items = cs_corpus (6, 6);
  g_autoptr (GPtrArray) changes = NULL;
  g_autofree char *big = g_strnfill (410 * 1024, 'x');
  DdbCopyStageReport report;

  ddb_value_map_set (g_ptr_array_index (items, 0), "empty", ddb_value_new_set (DDB_TYPE_SS));
  ddb_value_map_set (g_ptr_array_index (items, 2), "big", ddb_value_new_s (big, -1));
  g_ptr_array_add (items, ddb_value_new_s ("not an item", -1));
  copy (st, be, "Target", NULL, FALSE, items, &report);
  g_assert_cmpuint (report.n_failed, ==, 3);
  g_assert_cmpstr (((DdbExprStageFailure *) g_ptr_array_index (report.failures, 0))->message, ==,
                   "One or more parameter values were invalid: An string set  may not be empty");
  g_assert_cmpstr (((DdbExprStageFailure *) g_ptr_array_index (report.failures, 1))->message, ==,
                   "Item size has exceeded the maximum allowed size");
  g_assert_cmpstr (((DdbExprStageFailure *) g_ptr_array_index (report.failures, 2))->message, ==,
                   "Not an item");
  ddb_copy_stage_report_clear (&report);
  changes = cs_open_changes (st, NULL);
  g_assert_cmpuint (changes->len, ==, 0);
}

static void
test_duplicates (void)
{
  g_autoptr (DdbBackend) be = cs_target_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) items = cs_corpus (50, 7);
  g_autoptr (GPtrArray) changes = NULL;
  static const char *const twins[][2] = { { "1", "1.0" }, { "100", "1E2" }, { "-0.5", "-5E-1" } };
  DdbCopyStageReport report;

  /* Each pair's second item has the first's key, its number spelt another way. */
  for (guint t = 0; t < G_N_ELEMENTS (twins); t++)
    {
      DdbValue *a = g_ptr_array_index (items, t * 10);
      DdbValue *b = g_ptr_array_index (items, t * 10 + 5);

      ddb_value_map_set (a, "sk", tu_num (twins[t][0]));
      ddb_value_map_set (b, "sk", tu_num (twins[t][1]));
      ddb_value_map_set (b, "pk", ddb_value_copy (ddb_value_map_get (a, "pk")));
    }
  copy (st, be, "Target", NULL, FALSE, items, &report);
  g_assert_cmpuint (report.n_failed, ==, G_N_ELEMENTS (twins));
  for (guint t = 0; t < G_N_ELEMENTS (twins); t++)
    {
      const DdbExprStageFailure *f = g_ptr_array_index (report.failures, t);
      g_autofree char *want = g_strdup_printf ("The same key as item %u", t * 10 + 1);

      g_assert_cmpstr (f->message, ==, want);
    }
  ddb_copy_stage_report_clear (&report);
  changes = cs_open_changes (st, NULL);
  g_assert_cmpuint (changes->len, ==, 0);
}

/* Overwrite: a third of the items exist as given, a third differently, a third not at all. */
static void
test_overwrite (void)
{
  g_autoptr (DdbBackend) be = cs_target_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) items = cs_corpus (330, 8);
  g_autoptr (GPtrArray) before = cs_items_new ();
  g_autoptr (GPtrArray) changes = NULL;
  DdbCopyStageReport report;
  guint n_same = 0, n_other = 0, n_absent = 0;

  for (guint i = 0; i < items->len; i++)
    {
      const DdbValue *item = g_ptr_array_index (items, i);
      DdbValue *there = NULL;

      switch (i % 3)
        {
        case 0:
          there = ddb_value_copy (item);
          n_same++;
          break;
        case 1:
          there = ddb_value_copy (item);
          ddb_value_map_set (there, "extra", ddb_value_new_s ("old", -1));
          ddb_value_map_remove (there, "name");
          n_other++;
          break;
        default:
          n_absent++;
        }
      g_ptr_array_add (before, there);
      if (there != NULL)
        cs_put_item (be, "Target", there);
    }
  copy (st, be, "Target", NULL, TRUE, items, &report);
  g_assert_cmpuint (report.n_failed, ==, 0);
  g_assert_cmpuint (report.n_unchanged, ==, n_same);
  g_assert_cmpuint (report.n_overwritten, ==, n_other);
  g_assert_cmpuint (report.n_created, ==, n_absent);
  ddb_copy_stage_report_clear (&report);

  changes = cs_open_changes (st, "Target");
  g_assert_cmpuint (changes->len, ==, n_other + n_absent);
  for (guint c = 0; c < changes->len; c++)
    {
      const DdbChange *change = g_ptr_array_index (changes, c);
      gboolean found = FALSE;

      for (guint i = 0; i < items->len && !found; i++)
        {
          const DdbValue *item = g_ptr_array_index (items, i);

          if (!ddb_value_equal (ddb_value_map_get (item, "pk"),
                                ddb_value_map_get (change->key, "pk")))
            continue;
          found = TRUE;
          g_assert_true (ddb_value_equal (change->target, item));
          if (i % 3 == 1)
            {
              g_assert_cmpint (change->kind, ==, DDB_CHANGE_UPDATE);
              g_assert_true (ddb_value_equal (change->original, g_ptr_array_index (before, i)));
            }
          else
            {
              g_assert_cmpint (i % 3, ==, 2);
              g_assert_cmpint (change->kind, ==, DDB_CHANGE_CREATE);
            }
        }
      g_assert_true (found);
    }
}

/* Creates onto existing items are conflicts left in the store; the rest arrive exactly. */
static void
test_commit (void)
{
  g_autoptr (DdbBackend) be = cs_target_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) items = cs_corpus (400, 9);
  g_autoptr (GPtrArray) existing = cs_items_new ();
  g_autoptr (GPtrArray) want = cs_items_new ();
  g_autoptr (GPtrArray) got = NULL;
  g_autoptr (GPtrArray) left = NULL;
  DdbCopyStageReport report;

  for (guint i = 0; i < items->len; i++)
    {
      const DdbValue *item = g_ptr_array_index (items, i);

      if (i % 7 == 0)
        {
          DdbValue *there = ddb_value_new_m ();

          ddb_value_map_set (there, "pk", ddb_value_copy (ddb_value_map_get (item, "pk")));
          ddb_value_map_set (there, "sk", ddb_value_copy (ddb_value_map_get (item, "sk")));
          ddb_value_map_set (there, "was", ddb_value_new_s ("here first", -1));
          cs_put_item (be, "Target", there);
          g_ptr_array_add (existing, there);
          g_ptr_array_add (want, ddb_value_copy (there));
        }
      else
        g_ptr_array_add (want, ddb_value_copy (item));
    }
  copy (st, be, "Target", NULL, FALSE, items, &report);
  g_assert_cmpuint (report.n_created, ==, items->len);
  ddb_copy_stage_report_clear (&report);
  cs_commit (st, be, items->len - existing->len, existing->len);

  got = cs_scan_all (be, "Target");
  corpus_assert_same_items (want, got, "pk", "sk");
  left = cs_open_changes (st, "Target");
  g_assert_cmpuint (left->len, ==, existing->len);
  for (guint i = 0; i < left->len; i++)
    {
      const DdbChange *c = g_ptr_array_index (left, i);

      g_assert_cmpint (c->state, ==, DDB_CHANGE_CONFLICT);
      g_assert_cmpint (c->kind, ==, DDB_CHANGE_CREATE);
      g_assert_nonnull (c->current);
      g_assert_cmpstr (ddb_value_map_get (c->current, "was")->bytes.data, ==, "here first");
    }
}

/* The store's own refusal (a create over an open create) is the item's, and all or nothing. */
static void
test_store_refusal (void)
{
  g_autoptr (DdbBackend) be = cs_target_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) items = cs_corpus (40, 10);
  g_autoptr (GPtrArray) first = cs_items_new ();
  DdbCopyStageReport report;

  for (guint i = 0; i < items->len; i += 4)
    g_ptr_array_add (first, ddb_value_copy (g_ptr_array_index (items, i)));
  copy (st, be, "Target", NULL, FALSE, first, &report);
  g_assert_cmpuint (report.n_created, ==, first->len);
  ddb_copy_stage_report_clear (&report);
  copy (st, be, "Target", NULL, FALSE, items, &report);
  g_assert_cmpuint (report.n_failed, ==, first->len);
  g_assert_cmpuint (report.n_created, ==, 0);
  for (guint k = 0; k < first->len; k++)
    {
      const DdbExprStageFailure *f = g_ptr_array_index (report.failures, k);

      g_assert_true (ddb_value_equal (ddb_value_map_get (f->key, "pk"),
                                      ddb_value_map_get (g_ptr_array_index (first, k), "pk")));
    }
  ddb_copy_stage_report_clear (&report);
  assert_staged_creates (st, "Target", first);
}

static void
test_many (void)
{
  g_autoptr (DdbBackend) be = cs_target_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) items = cs_corpus (10000, 11);
  g_autoptr (GPtrArray) changes = NULL;
  DdbCopyStageReport report;
  gint64 start = g_get_monotonic_time ();

  copy (st, be, "Target", NULL, TRUE, items, &report);
  g_test_message ("10000 items checked, read and staged in %.2f s",
                  (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC);
  g_assert_cmpuint (report.n_created, ==, items->len);
  ddb_copy_stage_report_clear (&report);
  changes = cs_open_changes (st, "Target");
  g_assert_cmpuint (changes->len, ==, items->len);
}

/* ---- Reading by key (batchread.h) ---- */

/* Keys past a request's 100, repeated, absent, and spelt otherwise (1 and 1.0) each get the
 * item. */
static void
test_batch_read (void)
{
  g_autoptr (DdbBackend) be = cs_target_backend ();
  g_autoptr (GPtrArray) items = cs_corpus (250, 14);
  g_autoptr (GPtrArray) keys = cs_items_new ();
  g_autoptr (GPtrArray) want = g_ptr_array_new ();
  g_autoptr (GPtrArray) got = NULL;
  g_autoptr (GCancellable) cancelled = g_cancellable_new ();
  GError *error = NULL;

  for (guint i = 0; i < items->len; i++)
    {
      DdbValue *item = g_ptr_array_index (items, i);

      if (i % 5 == 0)
        ddb_value_map_set (item, "sk", tu_num ("1"));
      if (i % 4 != 3)
        cs_put_item (be, "Target", item);
    }
  for (guint i = 0; i < items->len; i++)
    {
      const DdbValue *item = g_ptr_array_index (items, i);
      DdbValue *key = ddb_value_new_m ();

      /* The sort key first: a key's attributes in any order. */
      ddb_value_map_set (
          key, "sk", i % 5 == 0 ? tu_num ("1.0") : ddb_value_copy (ddb_value_map_get (item, "sk")));
      ddb_value_map_set (key, "pk", ddb_value_copy (ddb_value_map_get (item, "pk")));
      g_ptr_array_add (keys, key);
      g_ptr_array_add (want, i % 4 != 3 ? (gpointer) item : NULL);
      if (i % 9 == 0)
        {
          g_ptr_array_add (keys, ddb_value_copy (key));
          g_ptr_array_add (want, i % 4 != 3 ? (gpointer) item : NULL);
        }
    }
  got = ddb_batch_read_items (be, "Target", keys, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, keys->len);
  for (guint i = 0; i < got->len; i++)
    {
      const DdbValue *w = g_ptr_array_index (want, i);
      const DdbValue *g = g_ptr_array_index (got, i);

      if (w == NULL)
        g_assert_null (g);
      else
        g_assert_true (g != NULL && ddb_value_equal (g, w));
      /* Each its own copy. */
      for (guint j = 0; j < i && g != NULL; j++)
        g_assert_true (g_ptr_array_index (got, j) != g);
    }

  g_cancellable_cancel (cancelled);
  g_assert_null (ddb_batch_read_items (be, "Target", keys, cancelled, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_null (ddb_batch_read_items (be, "Missing", keys, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND);
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/staging/copystage/same-names", test_same_names);
  g_test_add_func ("/staging/copystage/different-names", test_different_names);
  g_test_add_func ("/staging/copystage/pk-only-to-pk-sk", test_pk_only_to_pk_sk);
  g_test_add_func ("/staging/copystage/clash", test_clash);
  g_test_add_func ("/staging/copystage/types-refused", test_types_refused);
  g_test_add_func ("/staging/copystage/invalid-items", test_invalid_items);
  g_test_add_func ("/staging/copystage/duplicates", test_duplicates);
  g_test_add_func ("/staging/copystage/overwrite", test_overwrite);
  g_test_add_func ("/staging/copystage/commit", test_commit);
  g_test_add_func ("/staging/copystage/store-refusal", test_store_refusal);
  g_test_add_func ("/staging/copystage/many", test_many);
  g_test_add_func ("/staging/copystage/batch-read", test_batch_read);
  return g_test_run ();
}
