/* `model check` on plain NoSQL Workbench models (no x-dynoscope templates or patterns): a corpus
 * of files shaped as Workbench exports them (data/workbench/: v1.0 and v3.0 exports, with and
 * without sort keys, GSIs, LSIs, facets with and without TableData, several tables), each with the
 * flags it must get and no other; the low-cardinality rule over generated tables of every size
 * and spread around its thresholds; what could not run listed; and each file written back by
 * dy_workbench_write as it was read. */
#include "model/check.h"
#include "model/workbench.h"

#include <string.h>

#define CORPUS MODEL_TEST_DATA "/data/workbench/"

typedef struct {
  const char *file;
  /* Each expected flag as "kind:text its message holds"; NULL-terminated. */
  const char *flags[4];
} Expected;

static const Expected corpus[] = {
  { "tickets-status-pk.json", { "low-cardinality:the partition key status takes 3 values", NULL } },
  { "orders-gsi-status.json", { "low-cardinality:the partition key status of index status-index",
                                NULL } },
  { "shop-single-table.json", { NULL } },
  { "analytics-multi-table.json", { "low-cardinality:table Events: the partition key eventType",
                                    NULL } },
  { "documents-unpadded.json", { "unpadded-number:\"VERSION#10\" sorts before \"VERSION#2\"",
                                 NULL } },
  { "bank-mixed-case.json", { "mixed-case:(PK = \"ACCT#500\")", NULL } },
  { "game-collision.json", { "collision:facets Player and GuildMember", NULL } },
  { "tenants-alias-items.json", { "low-cardinality:the partition key pk takes 2 values in 22",
                                  NULL } },
  { "refs-bad-items.json", { "sample-key:lacks the partition key id",
                             "sample-key:TableData[1], of type N",
                             "key-too-long:the partition key ref of index by-ref is 2100 bytes",
                             NULL } },
  { "fresh-no-data.json", { NULL } },
};

static DyModel *
read_model (json_t *json)
{
  g_autoptr (GError) error = NULL;
  DyModel *model = dy_workbench_read (json, &error);
  g_assert_no_error (error);
  return model;
}

static json_t *
load (const char *file)
{
  g_autofree char *path = g_strconcat (CORPUS, file, NULL);
  json_error_t jerr;
  json_t *json = json_load_file (path, 0, &jerr);
  if (json == NULL)
    g_error ("%s: %s", path, jerr.text);
  return json;
}

static gboolean
has_kind (GPtrArray *list, const char *kind, const char *text)
{
  for (guint i = 0; i < list->len; i++)
    {
      const DyFlag *f = g_ptr_array_index (list, i);
      if (g_str_equal (dy_flag_kind_name (f->kind), kind)
          && (text == NULL || strstr (f->message, text) != NULL))
        return TRUE;
    }
  return FALSE;
}

static void
dump_flags (const char *file, const DyCheckReport *report)
{
  for (guint i = 0; i < report->flags->len; i++)
    {
      const DyFlag *f = g_ptr_array_index (report->flags, i);
      g_printerr ("%s: flag [%s] %s\n", file, dy_flag_kind_name (f->kind), f->message);
    }
}

/* Every file gets exactly its expected flags, and says what it could not check. */
static void
test_corpus (void)
{
  for (gsize c = 0; c < G_N_ELEMENTS (corpus); c++)
    {
      json_t *json = load (corpus[c].file);
      g_autoptr (DyModel) model = read_model (json);
      json_decref (json);
      g_autoptr (DyCheckReport) report = dy_model_check (model);
      guint n = 0;
      for (; corpus[c].flags[n]; n++)
        {
          g_autofree char *kind = g_strndup (corpus[c].flags[n],
                                             strchr (corpus[c].flags[n], ':') - corpus[c].flags[n]);
          const char *text = strchr (corpus[c].flags[n], ':') + 1;
          if (!has_kind (report->flags, kind, text))
            {
              dump_flags (corpus[c].file, report);
              g_error ("%s: no flag [%s] with \"%s\"", corpus[c].file, kind, text);
            }
        }
      if (report->flags->len != n)
        {
          dump_flags (corpus[c].file, report);
          g_error ("%s: %u flags, expected %u", corpus[c].file, report->flags->len, n);
        }
      /* A plain model: no patterns, no templates; both said. */
      g_assert_true (has_kind (report->skipped, "pattern", "no access patterns"));
      g_assert_true (has_kind (report->skipped, "unknown-key", "no key templates"));
    }
}

/* A design without sample items says each data check could not run. */
static void
test_no_data_says_so (void)
{
  json_t *json = load ("fresh-no-data.json");
  g_autoptr (DyModel) model = read_model (json);
  json_decref (json);
  g_autoptr (DyCheckReport) report = dy_model_check (model);
  g_assert_cmpuint (report->flags->len, ==, 0);
  const char *kinds[] = { "low-cardinality", "unpadded-number", "key-too-long", "mixed-case",
                          "collision", "unknown-key", "pattern" };
  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (!has_kind (report->skipped, kinds[i], NULL))
      g_error ("fresh-no-data.json: nothing says %s could not run", kinds[i]);
  g_assert_true (has_kind (report->skipped, "low-cardinality", "gsi1pk of index gsi1"));
}

/* Read and written back, each file is the same JSON, and checks the same. */
static void
test_round_trip (void)
{
  for (gsize c = 0; c < G_N_ELEMENTS (corpus); c++)
    {
      json_t *json = load (corpus[c].file);
      g_autoptr (DyModel) model = read_model (json);
      json_t *written = dy_workbench_write (model);
      if (!json_equal (json, written))
        {
          g_autofree char *w = json_dumps (written, JSON_SORT_KEYS | JSON_INDENT (1));
          g_error ("%s: written back differently:\n%s", corpus[c].file, w);
        }
      g_autoptr (DyModel) again = read_model (written);
      g_autoptr (DyCheckReport) r1 = dy_model_check (model);
      g_autoptr (DyCheckReport) r2 = dy_model_check (again);
      g_assert_cmpuint (r1->flags->len, ==, r2->flags->len);
      for (guint i = 0; i < r1->flags->len; i++)
        g_assert_cmpstr (((DyFlag *) g_ptr_array_index (r1->flags, i))->message, ==,
                         ((DyFlag *) g_ptr_array_index (r2->flags, i))->message);
      json_decref (written);
      json_decref (json);
    }
}

typedef enum { IN_TABLE, IN_FACET, IN_BOTH, AS_GSI } Where;

/* A one-table plain model of N_ITEMS items whose partition key (or, AS_GSI, a GSI's) takes
 * N_VALUES values; the table's key otherwise unique per item. */
static json_t *
generated (guint n_items, guint n_values, Where where, gboolean with_sort)
{
  json_t *items = json_array ();
  for (guint i = 0; i < n_items; i++)
    {
      g_autofree char *few = g_strdup_printf ("REGION-%u", i % n_values);
      g_autofree char *id = g_strdup_printf ("id-%05u", i * 7919 % 100000);
      json_t *item = json_pack ("{s:{s:s}, s:{s:s}}", "pk", "S", where == AS_GSI ? id : few,
                                "region", "S", few);
      if (with_sort)
        json_object_set_new (item, "sk", json_pack ("{s:s}", "S", id));
      json_array_append_new (items, item);
    }
  json_t *keys = json_pack ("{s:{s:s, s:s}}", "PartitionKey", "AttributeName", "pk",
                            "AttributeType", "S");
  if (with_sort)
    json_object_set_new (keys, "SortKey",
                         json_pack ("{s:s, s:s}", "AttributeName", "sk", "AttributeType", "S"));
  json_t *table = json_pack ("{s:s, s:o, s:[{s:s, s:s}]}", "TableName", "T", "KeyAttributes",
                             keys, "NonKeyAttributes", "AttributeName", "region",
                             "AttributeType", "S");
  json_t *facet = json_pack ("{s:s, s:{s:s}, s:[s]}", "FacetName", "F", "KeyAttributeAlias",
                             "PartitionKeyAlias", "Key", "NonKeyAttributes", "region");
  if (where == IN_FACET || where == IN_BOTH)
    json_object_set (facet, "TableData", items);
  if (where != IN_FACET)
    json_object_set (table, "TableData", items);
  json_object_set_new (table, "TableFacets", json_pack ("[o]", facet));
  if (where == AS_GSI)
    json_object_set_new (table, "GlobalSecondaryIndexes",
                         json_pack ("[{s:s, s:{s:{s:s, s:s}}, s:{s:s}}]", "IndexName", "ByRegion",
                                    "KeyAttributes", "PartitionKey", "AttributeName", "region",
                                    "AttributeType", "S", "Projection", "ProjectionType",
                                    "ALL"));
  json_decref (items);
  return json_pack ("{s:s, s:[o]}", "ModelName", "generated", "DataModel", table);
}

/* The rule over the class: few values across at least 20 items flagged, wherever the items are
 * and whichever key it is; more values never; fewer items said to be too few to judge. */
static void
test_cardinality_class (void)
{
  const guint sizes[] = { 5, 12, 19, 20, 21, 36, 60, 200 };
  for (guint w = IN_TABLE; w <= AS_GSI; w++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (guint values = 1; values <= 9; values++)
        for (guint sorted = 0; sorted < 2; sorted++)
          {
            guint n = sizes[s];
            /* Without a sort key, a table keyed by a few values holds only that many items. */
            if (values > n || (!sorted && w != AS_GSI))
              continue;
            json_t *json = generated (n, values, w, sorted);
            g_autoptr (DyModel) model = read_model (json);
            json_decref (json);
            g_autoptr (DyCheckReport) report = dy_model_check (model);
            gboolean few = values <= DY_LOW_CARDINALITY_MAX_VALUES;
            gboolean want = few && n >= DY_LOW_CARDINALITY_SAMPLE_MIN_ITEMS;
            const char *key = w == AS_GSI ? "region of index ByRegion" : "partition key pk";
            gboolean got = has_kind (report->flags, "low-cardinality", key);
            if (got != want)
              {
                dump_flags ("generated", report);
                g_error ("%u items, %u values, place %u, sort key %u: low-cardinality %s", n,
                         values, w, sorted, want ? "missing" : "unexpected");
              }
            /* The flag is the only one, and gives the count; too few items are said. */
            g_assert_cmpuint (report->flags->len, ==, want ? 1 : 0);
            g_assert_true (has_kind (report->skipped, "low-cardinality", key)
                           == (few && !want));
            if (want)
              {
                g_autofree char *count = g_strdup_printf ("takes %u value%s in %u sample items",
                                                          values, values == 1 ? "" : "s", n);
                g_assert_true (has_kind (report->flags, "low-cardinality", count));
              }
          }
}

/* A key with a template is checked by its template alone: the sample rule adds no second flag,
 * and nothing is said to be unchecked for it. */
static void
test_template_wins (void)
{
  json_t *json = generated (30, 2, IN_TABLE, TRUE);
  json_object_set_new (json, "x-dynoscope",
                       json_pack ("{s:{s:{s:{s:s, s:s}}}}", "entities", "F", "keys", "pk",
                                  "REGION-{region}", "sk", "id-{id}"));
  g_autoptr (DyModel) model = read_model (json);
  json_decref (json);
  g_autoptr (DyCheckReport) report = dy_model_check (model);
  if (report->flags->len != 1)
    dump_flags ("templated", report);
  g_assert_cmpuint (report->flags->len, ==, 1);
  g_assert_true (has_kind (report->flags, "low-cardinality", "REGION-{region}"));
  g_assert_false (has_kind (report->skipped, "unknown-key", NULL));
  g_assert_false (has_kind (report->skipped, "low-cardinality", NULL));
}

/* Numbers in a string sort key: out of order only when unpadded and of one shape. */
static void
test_unpadded_class (void)
{
  static const struct {
    const char *values[4];
    gboolean flagged;
  } cases[] = {
    { { "ITEM#9", "ITEM#10", NULL }, TRUE },
    { { "v1.2", "v1.10", NULL }, TRUE },
    { { "ITEM#09", "ITEM#10", NULL }, FALSE },
    { { "2024-01-09T10:00:00Z", "2024-01-10T09:00:00Z", NULL }, FALSE },
    { { "p#12345", "p#2020-06-21T19:18:00", NULL }, FALSE },
    { { "A#1", "B#10", "C#2", NULL }, FALSE },
    { { "ORDER#7#LINE#3", "ORDER#7#LINE#12", NULL }, TRUE },
  };
  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      json_t *items = json_array ();
      for (guint i = 0; cases[c].values[i]; i++)
        json_array_append_new (items, json_pack ("{s:{s:s}, s:{s:s}}", "pk", "S", "P#1", "sk",
                                                 "S", cases[c].values[i]));
      json_t *json = json_pack (
        "{s:s, s:[{s:s, s:{s:{s:s, s:s}, s:{s:s, s:s}}, s:o}]}", "ModelName", "m", "DataModel",
        "TableName", "T", "KeyAttributes", "PartitionKey", "AttributeName", "pk", "AttributeType",
        "S", "SortKey", "AttributeName", "sk", "AttributeType", "S", "TableData", items);
      g_autoptr (DyModel) model = read_model (json);
      json_decref (json);
      g_autoptr (DyCheckReport) report = dy_model_check (model);
      if (has_kind (report->flags, "unpadded-number", NULL) != cases[c].flagged)
        g_error ("case %zu (%s, %s): unpadded-number %s", c, cases[c].values[0],
                 cases[c].values[1], cases[c].flagged ? "missing" : "unexpected");
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/check-plain/corpus", test_corpus);
  g_test_add_func ("/check-plain/no-data-says-so", test_no_data_says_so);
  g_test_add_func ("/check-plain/round-trip", test_round_trip);
  g_test_add_func ("/check-plain/cardinality-class", test_cardinality_class);
  g_test_add_func ("/check-plain/template-wins", test_template_wins);
  g_test_add_func ("/check-plain/unpadded-class", test_unpadded_class);
  return g_test_run ();
}
