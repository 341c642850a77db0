/* keys.c: what the partitions read say: their histogram, the heaviest, sharded families, the
 * partitions a request rate would push past DynamoDB's per-partition ceilings, and the advice. */
#include "model/keys-private.h"

#include <math.h>

#define N_HEAVIEST 10
#define N_COLLECTIONS 5

static int
heaviest_first (gconstpointer a, gconstpointer b)
{
  const DdbKeysPartition *pa = *(DdbKeysPartition *const *) a;
  const DdbKeysPartition *pb = *(DdbKeysPartition *const *) b;

  if (pa->items != pb->items)
    return pa->items > pb->items ? -1 : 1;
  if (pa->bytes != pb->bytes)
    return pa->bytes > pb->bytes ? -1 : 1;
  return strcmp (pa->key, pb->key);
}

static int
largest_first (gconstpointer a, gconstpointer b)
{
  const DdbKeysPartition *pa = *(DdbKeysPartition *const *) a;
  const DdbKeysPartition *pb = *(DdbKeysPartition *const *) b;

  if (pa->bytes != pb->bytes)
    return pa->bytes > pb->bytes ? -1 : 1;
  return strcmp (pa->key, pb->key);
}

double
ddb_keys_share_items (const DdbKeysReport *report, const DdbKeysPartition *partition)
{
  return report->items > 0 ? (double) partition->items / (double) report->items : 0;
}

double
ddb_keys_share_bytes (const DdbKeysReport *report, const DdbKeysPartition *partition)
{
  return report->bytes > 0 ? (double) partition->bytes / (double) report->bytes : 0;
}

char *
ddb_keys_bucket_label (guint bucket)
{
  guint64 low = (guint64) 1 << bucket;

  if (bucket == 0)
    return g_strdup ("1");
  return g_strdup_printf ("%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT, low, low * 2 - 1);
}

guint
ddb_keys_round_suffixes (double n)
{
  static const guint steps[] = { 1, 2, 5 };
  guint scale = 1;

  if (n <= 2)
    return 2;
  for (;;)
    {
      for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
        if ((double) (steps[i] * scale) >= n)
          return steps[i] * scale;
      if (scale > G_MAXUINT / 100)
        return G_MAXUINT;
      scale *= 10;
    }
}

/* A shard's numeric suffix after one of the separators; FALSE when KEY has none. */
static gboolean
split_shard (const char *key, gsize *prefix_len, guint64 *number, gsize *digits)
{
  gsize len = strlen (key), i = len;

  while (i > 0 && g_ascii_isdigit (key[i - 1]))
    i--;
  if (i == len || i < 2 || len - i > 9 || strchr ("#_-", key[i - 1]) == NULL)
    return FALSE;
  *prefix_len = i;
  *digits = len - i;
  *number = g_ascii_strtoull (key + i, NULL, 10);
  return TRUE;
}

typedef struct {
  DdbKeysFamily family;
  guint64 min_number, max_number;
  gboolean leading_zero; /* a suffix of two digits or more starts with 0: they are padded */
  gsize min_digits, max_digits;
} FamilyBuild;

static guint64
suffix_of (const DdbKeysFamily *f, const DdbKeysPartition *p)
{
  return g_ascii_strtoull (p->key + strlen (f->prefix), NULL, 10);
}

static const DdbKeysFamily *sort_family;

static int
by_suffix (gconstpointer a, gconstpointer b)
{
  guint64 na = suffix_of (sort_family, *(DdbKeysPartition *const *) a);
  guint64 nb = suffix_of (sort_family, *(DdbKeysPartition *const *) b);

  return na < nb ? -1 : na > nb;
}

static int
largest_family_first (gconstpointer a, gconstpointer b)
{
  const DdbKeysFamily *fa = *(DdbKeysFamily *const *) a;
  const DdbKeysFamily *fb = *(DdbKeysFamily *const *) b;

  if (fa->items != fb->items)
    return fa->items > fb->items ? -1 : 1;
  return strcmp (fa->prefix, fb->prefix);
}

static void
family_free (DdbKeysFamily *f)
{
  g_free (f->prefix);
  g_ptr_array_unref (f->shards);
  g_free (f);
}

/* Keys that differ only by a numeric suffix whose numbers run without a gap from 0 or 1 (what
 * write sharding makes; in a sample, any up to 1000); ids like ORDER#1 ... ORDER#9317 are left
 * out by the bound on their count. */
static void
find_families (DdbKeysReport *report)
{
  g_autoptr (GHashTable) builds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  FamilyBuild *b;

  report->families = g_ptr_array_new_with_free_func ((GDestroyNotify) family_free);
  for (guint i = 0; i < report->partitions->len; i++)
    {
      DdbKeysPartition *p = report->partitions->pdata[i];
      gsize prefix_len, digits;
      guint64 number;
      g_autofree char *prefix = NULL;

      if (!split_shard (p->key, &prefix_len, &number, &digits))
        continue;
      prefix = g_strndup (p->key, prefix_len);
      b = g_hash_table_lookup (builds, prefix);
      if (b == NULL)
        {
          b = g_new0 (FamilyBuild, 1);
          b->family.prefix = g_strdup (prefix);
          b->family.shards = g_ptr_array_new ();
          b->min_number = b->max_number = number;
          b->min_digits = b->max_digits = digits;
          g_hash_table_insert (builds, g_steal_pointer (&prefix), b);
        }
      b->leading_zero = b->leading_zero || (digits > 1 && p->key[prefix_len] == '0');
      b->min_digits = MIN (b->min_digits, digits);
      b->max_digits = MAX (b->max_digits, digits);
      b->min_number = MIN (b->min_number, number);
      b->max_number = MAX (b->max_number, number);
      g_ptr_array_add (b->family.shards, p);
    }
  g_hash_table_iter_init (&iter, builds);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &b))
    {
      DdbKeysFamily *f = g_new (DdbKeysFamily, 1);
      guint n = b->family.shards->len;

      /* A sample sees some of the shards only: gaps are then expected. */
      gboolean dense = report->sampled ? b->max_number <= 1000
                       : n == b->max_number - b->min_number + 1 && b->min_number <= 1;

      *f = b->family;
      /* Padded suffixes of different widths ("#01" and "#100") are two numberings, not one. */
      if (n < 2 || n > 1000 || !dense || (b->leading_zero && b->min_digits != b->max_digits))
        {
          family_free (f);
          continue;
        }
      sort_family = f;
      g_ptr_array_sort (f->shards, by_suffix);
      f->items = 0;
      f->min_items = G_MAXUINT64;
      f->max_items = 0;
      f->hottest = NULL;
      f->first = (guint) b->min_number;
      f->width = b->leading_zero ? (guint) b->max_digits : 0;
      for (guint i = 0; i < n; i++)
        {
          const DdbKeysPartition *p = f->shards->pdata[i];

          f->items += p->items;
          f->min_items = MIN (f->min_items, p->items);
          if (p->items > f->max_items)
            {
              f->max_items = p->items;
              f->hottest = p;
            }
        }
      g_ptr_array_add (report->families, f);
    }
  g_ptr_array_sort (report->families, largest_family_first);
}

static void
find_hot (DdbKeysReport *report)
{
  report->hot = g_array_new (FALSE, FALSE, sizeof (DdbKeysHot));
  if (!report->has_rate)
    return;
  for (guint i = 0; i < report->partitions->len; i++)
    {
      const DdbKeysPartition *p = report->partitions->pdata[i];
      double share = ddb_keys_share_items (report, p);
      DdbKeysHot hot = { p, share * report->rate_rcu, share * report->rate_wcu, 0 };
      double need = MAX (hot.rcu / DDB_KEYS_PARTITION_RCU, hot.wcu / DDB_KEYS_PARTITION_WCU);

      if (need <= 1)
        break; /* heaviest first: none after it is hotter */
      hot.suffixes = ddb_keys_round_suffixes (ceil (need));
      g_array_append_val (report->hot, hot);
    }
}

/* The suffixes FAMILY's numbering covers, from its lowest to its highest (a sample may have
 * missed some of them). */
static guint
family_span (const DdbKeysFamily *f)
{
  const DdbKeysPartition *last = f->shards->pdata[f->shards->len - 1];

  return (guint) (suffix_of (f, last) - f->first + 1);
}

static char *
percent (double share)
{
  return g_strdup_printf ("%.1f%%", share * 100);
}

static void
shard_advice_free (DdbKeysShardAdvice *a)
{
  g_free (a->prefix);
  g_free (a);
}

/* Keeps what the sentence just added to the advice needs for its fan-out Query (takes
 * PREFIX). */
static void
add_shard_advice (DdbKeysReport *report, char *prefix, guint first, guint suffixes,
                  guint width, const DdbKeysFamily *family)
{
  DdbKeysShardAdvice *a = g_new0 (DdbKeysShardAdvice, 1);

  a->prefix = prefix;
  a->first = first;
  a->suffixes = suffixes;
  a->width = width;
  a->family = family;
  a->advice = report->advice->len - 1;
  if (!report->key_is_string)
    {
      shard_advice_free (a); /* a number or bytes cannot take a suffix */
      return;
    }
  g_ptr_array_add (report->shard_advice, a);
}

static void
advise (DdbKeysReport *report)
{
  GPtrArray *advice = g_ptr_array_new_with_free_func (g_free);
  guint64 cardinality = report->partitions->len;

  g_autoptr (GHashTable) family_of = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) advised = g_hash_table_new (NULL, NULL);
  guint shown = 0;

  report->advice = advice;
  report->shard_advice = g_ptr_array_new_with_free_func ((GDestroyNotify) shard_advice_free);
  for (guint i = 0; i < report->families->len; i++)
    {
      DdbKeysFamily *f = report->families->pdata[i];

      for (guint s = 0; s < f->shards->len; s++)
        g_hash_table_insert (family_of, f->shards->pdata[s], f);
    }
  for (guint i = 0; i < report->hot->len && shown < N_HEAVIEST; i++)
    {
      const DdbKeysHot *hot = &g_array_index (report->hot, DdbKeysHot, i);
      const char *key = hot->partition->key;
      g_autofree char *share = percent (ddb_keys_share_items (report, hot->partition));
      const DdbKeysFamily *f = g_hash_table_lookup (family_of, hot->partition);

      if (f != NULL)
        {
          /* A shard already: the family needs more suffixes, not shards of shards. */
          double fshare = (double) f->items / (double) report->items;
          double need = MAX (fshare * report->rate_rcu / DDB_KEYS_PARTITION_RCU,
                             fshare * report->rate_wcu / DDB_KEYS_PARTITION_WCU);
          guint suffixes = ddb_keys_round_suffixes (ceil (need));
          g_autofree char *fpercent = percent (fshare);

          if (g_hash_table_contains (advised, f))
            continue;
          g_hash_table_add (advised, (gpointer) f);
          shown++;
          if (suffixes <= f->shards->len)
            {
              g_ptr_array_add (advice, g_strdup_printf (
                "%s* has suffixes enough (%u) for its %s of the items at this rate, were they "
                "even, but \"%s\" would take %.0f RCU and %.0f WCU, past a partition's %.0f RCU "
                "/ %.0f WCU: it is the hot shard. Spread the writes evenly over the suffixes "
                "(chosen at random or from a hash of a high-cardinality attribute).",
                f->prefix, f->shards->len, fpercent, key, hot->rcu, hot->wcu,
                DDB_KEYS_PARTITION_RCU, DDB_KEYS_PARTITION_WCU));
              continue;
            }
          g_ptr_array_add (advice, g_strdup_printf (
            "%s* is sharded with %u suffixes but still too hot: its %s of the items would take "
            "%.0f RCU and %.0f WCU, and a shard like \"%s\" %.0f RCU and %.0f WCU, past a "
            "partition's %.0f RCU / %.0f WCU. Shard this key with %u suffixes instead; its "
            "fan-out Query then issues %u Queries, one per suffix (%s = \"%s%0*u\" … "
            "\"%s%0*u\"), run in parallel and their items merged.",
            f->prefix, f->shards->len, fpercent, fshare * report->rate_rcu,
            fshare * report->rate_wcu, key, hot->rcu, hot->wcu, DDB_KEYS_PARTITION_RCU,
            DDB_KEYS_PARTITION_WCU, suffixes, suffixes, report->key_name, f->prefix,
            (int) f->width, f->first, f->prefix, (int) f->width, f->first + suffixes - 1));
          add_shard_advice (report, g_strdup (f->prefix), f->first, suffixes, f->width, f);
          continue;
        }
      shown++;

      g_ptr_array_add (
        advice,
        g_strdup_printf (
          "\"%s\" holds %s of the items: at the rate given it would take %.0f RCU and %.0f WCU, "
          "past a partition's %.0f RCU / %.0f WCU. Shard this key with %u suffixes (%s#1 … "
          "%s#%u, chosen at random or from a hash of another attribute when writing); reading "
          "it then takes a fan-out Query: %u Queries, one per suffix (%s = \"%s#1\" … "
          "\"%s#%u\"), run in parallel and their items merged.",
          key, share, hot->rcu, hot->wcu, DDB_KEYS_PARTITION_RCU, DDB_KEYS_PARTITION_WCU,
          hot->suffixes, key, key, hot->suffixes, hot->suffixes, report->key_name, key, key,
          hot->suffixes));
      add_shard_advice (report, g_strconcat (key, "#", NULL), 1, hot->suffixes, 0, NULL);
    }
  if (!report->has_rate && report->partitions->len > 1)
    {
      const DdbKeysPartition *top = report->partitions->pdata[0];
      double share = ddb_keys_share_items (report, top);

      if (share >= 0.1)
        {
          g_autofree char *text = percent (share);

          g_ptr_array_add (advice, g_strdup_printf (
            "\"%s\" holds %s of the items; give a request rate (the table's whole RCU and WCU) to see "
            "whether it would exceed a partition's %.0f RCU / %.0f WCU and how many suffixes to "
            "shard it with.", top->key, text, DDB_KEYS_PARTITION_RCU, DDB_KEYS_PARTITION_WCU));
        }
    }
  if (cardinality > 0 && cardinality <= 10 && report->items >= cardinality * 10)
    g_ptr_array_add (advice, g_strdup_printf (
      "Only %" G_GUINT64_FORMAT " distinct values of %s for %" G_GUINT64_FORMAT " items: "
      "compose the partition key with a second, high-cardinality attribute (\"%s#<id>\") so "
      "that the items and the requests spread over more partitions, or move the pattern that "
      "reads by %s alone to a GSI.", cardinality, report->key_name, report->items,
      ((DdbKeysPartition *) report->partitions->pdata[0])->key, report->key_name));
  for (guint i = 0; i < report->families->len; i++)
    {
      const DdbKeysFamily *f = report->families->pdata[i];
      g_autofree char *share = percent (report->items ? (double) f->items / report->items : 0);

      if (f->min_items > 0 && f->max_items >= 2 * f->min_items)
        g_ptr_array_add (advice, g_strdup_printf (
          "The shards of %s* are uneven: \"%s\" holds %" G_GUINT64_FORMAT " items, %.1f× the "
          "lightest shard's %" G_GUINT64_FORMAT ", so it is the hot one. Choose the suffix at "
          "random or from a hash of a high-cardinality attribute rather than from a value "
          "that repeats.", f->prefix, f->hottest->key, f->max_items,
          (double) f->max_items / (double) f->min_items, f->min_items));
      else if (i == 0 && (double) f->items >= 0.25 * (double) report->items
               && !g_hash_table_contains (advised, f))
        {
          g_ptr_array_add (advice, g_strdup_printf (
            "%s* is a sharded key (%u shards) holding %s of the items, evenly spread "
            "(%" G_GUINT64_FORMAT "–%" G_GUINT64_FORMAT " items a shard): its reads are a "
            "fan-out Query, %u Queries, one per suffix, merged.", f->prefix, f->shards->len,
            share, f->min_items, f->max_items, f->shards->len));
          /* Its existing suffixes. */
          add_shard_advice (report, g_strdup (f->prefix), f->first, family_span (f), f->width,
                            f);
        }
    }
  if (report->has_lsi && report->partitions->len > 0)
    {
      const DdbKeysPartition *largest = report->collections->pdata[0];
      if (largest->bytes * 2 >= DDB_KEYS_COLLECTION_LIMIT)
        g_ptr_array_add (advice, g_strdup_printf (
          "The item collection \"%s\" is %.2f GB of the 10 GB a table with a local secondary "
          "index allows per partition key value: shard the key, or use a GSI, which has no such "
          "limit.", largest->key, (double) largest->bytes / 1e9));
    }
}

DdbKeysReport *
ddb_keys_analyze (DdbBackend *backend, const DdbKeysOptions *options, DdbKeysProgress progress,
                  gpointer user_data, GCancellable *cancellable, GError **error)
{
  g_autoptr (DdbKeysReport) report = g_new0 (DdbKeysReport, 1);

  g_return_val_if_fail (options->table != NULL, NULL);
  report->table = g_strdup (options->table);
  report->index = g_strdup (options->index);
  report->has_rate = options->rate_rcu > 0 || options->rate_wcu > 0;
  report->rate_rcu = options->rate_rcu;
  report->rate_wcu = options->rate_wcu;
  report->partitions = ddb_keys_read (backend, options, report, progress, user_data,
                                      cancellable, error);
  if (report->partitions == NULL)
    return NULL;
  g_ptr_array_sort (report->partitions, heaviest_first);
  for (guint i = 0; i < report->partitions->len; i++)
    {
      const DdbKeysPartition *p = report->partitions->pdata[i];
      guint bucket = g_bit_storage (p->items) - 1;

      report->items += p->items;
      report->bytes += p->bytes;
      if (bucket >= report->n_buckets)
        {
          report->buckets = g_renew (guint64, report->buckets, bucket + 1);
          memset (report->buckets + report->n_buckets, 0,
                  (bucket + 1 - report->n_buckets) * sizeof (guint64));
          report->n_buckets = bucket + 1;
        }
      report->buckets[bucket]++;
    }
  /* Borrowed: g_ptr_array_copy would keep the free function of the partitions. */
  report->collections = g_ptr_array_sized_new (report->partitions->len);
  for (guint i = 0; i < report->partitions->len; i++)
    g_ptr_array_add (report->collections, report->partitions->pdata[i]);
  g_ptr_array_sort (report->collections, largest_first);
  if (report->collections->len > N_COLLECTIONS)
    g_ptr_array_set_size (report->collections, N_COLLECTIONS);
  find_families (report);
  find_hot (report);
  advise (report);
  return g_steal_pointer (&report);
}

void
ddb_keys_report_free (DdbKeysReport *report)
{
  if (report == NULL)
    return;
  g_free (report->table);
  g_free (report->index);
  g_free (report->key_name);
  g_clear_pointer (&report->families, g_ptr_array_unref);
  g_clear_pointer (&report->collections, g_ptr_array_unref);
  g_clear_pointer (&report->partitions, g_ptr_array_unref);
  g_free (report->buckets);
  g_clear_pointer (&report->hot, g_array_unref);
  g_clear_pointer (&report->shard_advice, g_ptr_array_unref);
  g_clear_pointer (&report->advice, g_ptr_array_unref);
  g_free (report);
}

static json_t *
partition_json (const DdbKeysReport *report, const DdbKeysPartition *p)
{
  return json_pack ("{sssIsIsfsf}", "key", p->key, "items", (json_int_t) p->items, "bytes",
                    (json_int_t) p->bytes, "itemShare", ddb_keys_share_items (report, p),
                    "byteShare", ddb_keys_share_bytes (report, p));
}

json_t *
ddb_keys_fanout_request (const DdbKeysReport *report, const DdbKeysShardAdvice *advice)
{
  g_autofree char *key = g_strdup_printf ("%s%0*u", advice->prefix, (int) advice->width,
                                          advice->first);
  json_t *request = json_pack ("{ss}", "TableName", report->table);

  if (report->index != NULL)
    json_object_set_new (request, "IndexName", json_string (report->index));
  json_object_set_new (request, "KeyConditionExpression", json_string ("#pk = :pk"));
  json_object_set_new (request, "ExpressionAttributeNames",
                       json_pack ("{ss}", "#pk", report->key_name));
  json_object_set_new (request, "ExpressionAttributeValues",
                       json_pack ("{s{ss}}", DDB_KEYS_FANOUT_PLACEHOLDER, "S", key));
  return request;
}

json_t *
ddb_keys_report_to_json (const DdbKeysReport *report)
{
  json_t *out = json_object ();
  json_t *histogram = json_array (), *heaviest = json_array (), *collections = json_array ();
  json_t *families = json_array (), *hot = json_array (), *advice = json_array ();
  json_t *shard_advice = json_array ();

  json_object_set_new (out, "table", json_string (report->table));
  if (report->index != NULL)
    json_object_set_new (out, "index", json_string (report->index));
  json_object_set_new (out, "partitionKey", json_string (report->key_name));
  json_object_set_new (out, "read", json_string (report->sampled ? "sample" : "all"));
  json_object_set_new (out, "items", json_integer ((json_int_t) report->items));
  json_object_set_new (out, "bytes", json_integer ((json_int_t) report->bytes));
  json_object_set_new (out, "cardinality", json_integer ((json_int_t) report->partitions->len));
  for (guint b = 0; b < report->n_buckets; b++)
    {
      g_autofree char *label = ddb_keys_bucket_label (b);

      json_array_append_new (histogram, json_pack ("{sssIsI}", "items", label, "min",
                                                   (json_int_t) 1 << b, "partitions",
                                                   (json_int_t) report->buckets[b]));
    }
  json_object_set_new (out, "histogram", histogram);
  for (guint i = 0; i < report->partitions->len && i < N_HEAVIEST; i++)
    json_array_append_new (heaviest, partition_json (report, report->partitions->pdata[i]));
  json_object_set_new (out, "heaviest", heaviest);
  json_object_set_new (out, "hasLocalSecondaryIndex", json_boolean (report->has_lsi));
  for (guint i = 0; i < report->collections->len; i++)
    {
      const DdbKeysPartition *p = report->collections->pdata[i];

      json_array_append_new (collections, json_pack (
        "{sssIsf}", "key", p->key, "bytes", (json_int_t) p->bytes, "shareOfLimit",
        (double) p->bytes / (double) DDB_KEYS_COLLECTION_LIMIT));
    }
  json_object_set_new (out, "largestCollections", collections);
  for (guint i = 0; i < report->families->len; i++)
    {
      const DdbKeysFamily *f = report->families->pdata[i];
      json_t *shards = json_array ();

      for (guint s = 0; s < f->shards->len; s++)
        json_array_append_new (shards, partition_json (report, f->shards->pdata[s]));
      json_array_append_new (families, json_pack (
        "{sssIsIsIsIsfsssfso}", "prefix", f->prefix, "shardCount", (json_int_t) f->shards->len,
        "items", (json_int_t) f->items, "minItems", (json_int_t) f->min_items, "maxItems",
        (json_int_t) f->max_items, "itemShare",
        report->items ? (double) f->items / (double) report->items : 0.0, "hottest",
        f->hottest->key, "spread", f->min_items ? (double) f->max_items / f->min_items : 0.0,
        "shards", shards));
    }
  json_object_set_new (out, "shardedFamilies", families);
  if (report->has_rate)
    json_object_set_new (out, "rate", json_pack ("{sfsf}", "rcu", report->rate_rcu, "wcu",
                                                 report->rate_wcu));
  for (guint i = 0; i < report->hot->len; i++)
    {
      const DdbKeysHot *h = &g_array_index (report->hot, DdbKeysHot, i);

      json_array_append_new (hot, json_pack ("{sssfsfsbsbsI}", "key", h->partition->key, "rcu",
                                             h->rcu, "wcu", h->wcu, "exceedsRcu",
                                             h->rcu > DDB_KEYS_PARTITION_RCU, "exceedsWcu",
                                             h->wcu > DDB_KEYS_PARTITION_WCU, "suffixes",
                                             (json_int_t) h->suffixes));
    }
  json_object_set_new (out, "hotPartitions", hot);
  for (guint i = 0; i < report->advice->len; i++)
    json_array_append_new (advice, json_string (report->advice->pdata[i]));
  json_object_set_new (out, "advice", advice);
  for (guint i = 0; i < report->shard_advice->len; i++)
    {
      const DdbKeysShardAdvice *a = report->shard_advice->pdata[i];

      json_array_append_new (shard_advice, json_pack (
        "{sss{sssIsIsIsssoss?}}", "advice", (const char *) report->advice->pdata[a->advice],
        "fanout", "prefix", a->prefix, "first", (json_int_t) a->first, "suffixes",
        (json_int_t) a->suffixes, "width", (json_int_t) a->width, "placeholder",
        DDB_KEYS_FANOUT_PLACEHOLDER, "request", ddb_keys_fanout_request (report, a), "family",
        a->family != NULL ? a->family->prefix : NULL));
    }
  json_object_set_new (out, "shardAdvice", shard_advice);
  return out;
}
