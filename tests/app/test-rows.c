/* test-rows.c: the grid's light row model (no display): items kept encoded in a spill file and
 * read back exactly, pages from another store refused, snapshots read on another thread, row
 * lists in a given order, the feed that hands rows to the grid a few at a time, the grid's
 * selection, kept as positions (never fetching a row), and item collections built from rows. */
#define G_LOG_DOMAIN "test-rows"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/browser/dy-grid.h"
#include "app/browser/dy-group.h"
#include "app/browser/dy-row-selection.h"
#include "app/browser/dy-rows.h"
#include "core/ddbjson.h"

/* Item I of a result: every type, a 38-digit number, attributes in a fixed order. */
static json_t *
make_item (guint i)
{
  g_autofree char *text = g_strdup_printf (
      "{\"PK\":{\"S\":\"WS#t%05u\"},\"SK\":{\"S\":\"PROJ#%08u\"},"
      "\"budget\":{\"N\":\"12345678901234567890123456789012345%03u\"},"
      "\"tags\":{\"SS\":[\"billing\",\"q%u\"]},\"blob\":{\"B\":\"3q2+7w==\"},"
      "\"meta\":{\"M\":{\"flags\":{\"L\":[{\"BOOL\":true},{\"NULL\":true}]}}}%s}",
      i / 10, i, i % 1000, i % 4, i % 3 == 0 ? ",\"extra\":{\"S\":\"only some items\"}" : "");
  json_error_t error;
  json_t *json = json_loads (text, 0, &error);

  g_assert_nonnull (json);
  return json;
}

static json_t *
make_items (guint from, guint n)
{
  json_t *items = json_array ();

  for (guint i = from; i < from + n; i++)
    json_array_append_new (items, make_item (i));
  return items;
}

static DdbValue *
expected_value (guint i)
{
  json_t *json = make_item (i);
  DdbValue *value = ddb_json_to_item (json, NULL);

  json_decref (json);
  return value;
}

/* Whether ITEM holds item I exactly, its attributes in the same order. */
static void
assert_item (DyItem *item, guint i)
{
  g_autoptr (DdbValue) expected = expected_value (i);
  const DdbValue *value = dy_item_get_value (item);

  g_assert_true (ddb_value_equal (value, expected));
  g_assert_cmpuint (ddb_value_map_size (value), ==, ddb_value_map_size (expected));
  for (guint a = 0; a < ddb_value_map_size (value); a++)
    g_assert_cmpstr (ddb_value_map_nth (value, a)->name, ==, ddb_value_map_nth (expected, a)->name);
}

static void
add_rows (DyRows *rows, guint from, guint n)
{
  json_t *items = make_items (from, n);
  g_autoptr (GError) error = NULL;
  DyRowPage *page = dy_row_page_new (dy_rows_get_store (rows), items, &error);

  g_assert_no_error (error);
  g_assert_true (dy_rows_add_page (rows, page));
  dy_row_page_free (page);
  json_decref (items);
}

static void
count_changes (GListModel *model, guint position, guint removed, guint added, int *n)
{
  *n += (int) added - (int) removed;
}

static void
test_page_round_trip (void)
{
  g_autoptr (DyRows) rows = dy_rows_new ();
  json_t *items = make_items (0, 3);
  g_autoptr (GError) error = NULL;
  DyRowPage *page = dy_row_page_new (dy_rows_get_store (rows), items, &error);
  const char *names[] = { "PK", "SK", "budget", "tags", "blob", "meta", "extra" };
  int changes = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (page->lengths->len, ==, 3);
  /* Attribute names in first-seen order, each with a width that holds its longest value. */
  g_assert_cmpuint (page->names->len, ==, G_N_ELEMENTS (names));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpstr (page->names->pdata[i], ==, names[i]);
  g_assert_cmpint (g_array_index (page->widths, int, 2), ==, 38);
  g_signal_connect (rows, "items-changed", G_CALLBACK (count_changes), &changes);
  g_assert_true (dy_rows_add_page (rows, page));
  dy_row_page_free (page);
  json_decref (items);
  g_assert_cmpint (changes, ==, 3);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (rows)), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (DyItem) item = g_list_model_get_item (G_LIST_MODEL (rows), i);

      assert_item (item, i);
    }
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (rows), 3));
}

static void
test_bad_item (void)
{
  g_autoptr (DyRows) rows = dy_rows_new ();
  json_t *items
      = json_loads ("[{\"PK\":{\"S\":\"a\"}},{\"PK\":{\"N\":\"not a number\"}}]", 0, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_null (dy_row_page_new (dy_rows_get_store (rows), items, &error));
  g_assert_nonnull (error);
  json_decref (items);
}

static void
test_many_rows (void)
{
  g_autoptr (DyRows) rows = dy_rows_new ();
  const guint n = 5000;

  /* Pages of different sizes, an empty one (a filter that matched nothing) among them. */
  add_rows (rows, 0, 1);
  add_rows (rows, 1, 0);
  for (guint from = 1; from < n; from += 1333)
    add_rows (rows, from, MIN (1333, n - from));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (rows)), ==, n);
  /* Positions that share a cache slot, read in turns, each give their own item. */
  for (guint round = 0; round < 2; round++)
    for (guint i = 7; i < n; i += 1024)
      {
        g_autoptr (DyItem) item = g_list_model_get_item (G_LIST_MODEL (rows), i);

        assert_item (item, i);
      }
  {
    g_autoptr (DyItem) last = g_list_model_get_item (G_LIST_MODEL (rows), n - 1);

    assert_item (last, n - 1);
  }
}

static void
test_clear_drops_old_pages (void)
{
  g_autoptr (DyRows) rows = dy_rows_new ();
  json_t *items = make_items (0, 10);
  DyRowPage *stale;
  int changes = 0;

  add_rows (rows, 100, 5);
  /* A page on its way when the results are cleared (a new Run) is not added. */
  stale = dy_row_page_new (dy_rows_get_store (rows), items, NULL);
  g_signal_connect (rows, "items-changed", G_CALLBACK (count_changes), &changes);
  dy_rows_clear (rows);
  g_assert_cmpint (changes, ==, -5);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (rows)), ==, 0);
  g_assert_false (dy_rows_add_page (rows, stale));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (rows)), ==, 0);
  dy_row_page_free (stale);
  json_decref (items);
  add_rows (rows, 200, 2);
  {
    g_autoptr (DyItem) item = g_list_model_get_item (G_LIST_MODEL (rows), 1);

    assert_item (item, 201);
  }
}

static gpointer
read_snapshot (gpointer data)
{
  DyRowsSnapshot *snapshot = data;

  for (guint i = 0; i < dy_rows_snapshot_get_n (snapshot); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (DdbValue) value = dy_rows_snapshot_read (snapshot, i, &error);
      g_autoptr (DdbValue) expected = expected_value (i);

      g_assert_no_error (error);
      if (!ddb_value_equal (value, expected))
        return GUINT_TO_POINTER (i + 1);
    }
  return NULL;
}

static void
test_snapshot_on_thread (void)
{
  g_autoptr (DyRows) rows = dy_rows_new ();
  DyRowsSnapshot *snapshot;
  GThread *thread;

  add_rows (rows, 0, 300);
  snapshot = dy_rows_snapshot (rows);
  g_assert_cmpuint (dy_rows_snapshot_get_n (snapshot), ==, 300);
  thread = g_thread_new ("reader", read_snapshot, snapshot);
  /* Rows added meanwhile are not in the snapshot. */
  add_rows (rows, 300, 300);
  g_assert_null (g_thread_join (thread));
  g_assert_cmpuint (dy_rows_snapshot_get_n (snapshot), ==, 300);
  dy_rows_snapshot_free (snapshot);
}

static void
test_row_list (void)
{
  g_autoptr (DyRows) rows = dy_rows_new ();
  GArray *positions = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (DyRowList) list = NULL;

  add_rows (rows, 0, 10);
  for (guint32 i = 10; i-- > 0;)
    g_array_append_val (positions, i);
  list = dy_row_list_new (rows, positions);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 10);
  add_rows (rows, 10, 3);
  dy_row_list_append_range (list, 10, 13);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 13);
  for (guint i = 0; i < 13; i++)
    {
      g_autoptr (DyItem) item = g_list_model_get_item (G_LIST_MODEL (list), i);

      assert_item (item, i < 10 ? 9 - i : i);
    }
}

/* Column widths fitted into the grid's room: untouched when they fit; else the widest are
 * narrowed first to one cap, none below its floor; floors that do not fit are kept. Every
 * split of a random set is checked against the rule, not against one example. */
static void
test_fit_widths (void)
{
  int widths[] = { 88, 184, 360, 72, 150 };
  const int floors[] = { 88, 96, 96, 72, 96 };
  int floors_only[5];
  GRand *rand = g_rand_new_with_seed (7);

  dy_grid_fit_widths (widths, floors, 5, 2000);
  g_assert_cmpint (widths[2], ==, 360); /* room enough: as asked */
  dy_grid_fit_widths (widths, floors, 5, 600);
  /* 88 + 72 stay; 184, 360 and 150 share 440: a cap of 146 */
  g_assert_cmpint (widths[0], ==, 88);
  g_assert_cmpint (widths[3], ==, 72);
  g_assert_cmpint (widths[1] + widths[2] + widths[4] + 88 + 72, <=, 600);
  g_assert_cmpint (widths[1], ==, widths[2]);
  g_assert_cmpint (widths[4], <=, widths[1]);
  memcpy (floors_only, widths, sizeof widths);
  dy_grid_fit_widths (floors_only, floors, 5, 100);
  for (guint i = 0; i < 5; i++)
    g_assert_cmpint (floors_only[i], ==, floors[i]);

  for (guint round = 0; round < 2000; round++)
    {
      guint n = (guint) g_rand_int_range (rand, 1, 20);
      int asked[20], fitted[20], floor[20], room, sum = 0, floor_sum = 0, cap = 0;

      for (guint i = 0; i < n; i++)
        {
          int title = g_rand_int_range (rand, 72, 121);

          asked[i] = g_rand_int_range (rand, 72, 361);
          floor[i] = MIN (asked[i], title);
          fitted[i] = asked[i];
          floor_sum += floor[i];
        }
      room = g_rand_int_range (rand, 0, 4000);
      dy_grid_fit_widths (fitted, floor, n, room);
      for (guint i = 0; i < n; i++)
        {
          g_assert_cmpint (fitted[i], >=, floor[i]);
          g_assert_cmpint (fitted[i], <=, asked[i]);
          if (fitted[i] < asked[i] && fitted[i] > floor[i])
            cap = fitted[i];
          sum += fitted[i];
        }
      if (floor_sum <= room)
        g_assert_cmpint (sum, <=, room);
      else
        g_assert_cmpint (sum, ==, floor_sum);
      /* narrowed columns share one cap; nothing narrower than the cap was touched */
      for (guint i = 0; i < n && cap > 0; i++)
        if (fitted[i] < asked[i] && fitted[i] > floor[i])
          g_assert_cmpint (fitted[i], ==, cap);
        else if (fitted[i] < asked[i])
          g_assert_cmpint (floor[i], >=, cap);
    }
  g_rand_free (rand);
}

/* A list of N plain objects that counts how many it was asked for, and can grow and shrink. */
#define TEST_TYPE_COUNTED (test_counted_get_type ())
G_DECLARE_FINAL_TYPE (TestCounted, test_counted, TEST, COUNTED, GObject)

struct _TestCounted {
  GObject parent_instance;
  guint n;
  guint fetched;
};

static GType
counted_item_type (GListModel *list)
{
  return G_TYPE_OBJECT;
}

static guint
counted_n_items (GListModel *list)
{
  return TEST_COUNTED (list)->n;
}

static gpointer
counted_item (GListModel *list, guint position)
{
  TestCounted *self = TEST_COUNTED (list);

  if (position >= self->n)
    return NULL;
  self->fetched++;
  return g_object_new (G_TYPE_OBJECT, NULL);
}

static void
counted_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = counted_item_type;
  iface->get_n_items = counted_n_items;
  iface->get_item = counted_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (TestCounted, test_counted, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, counted_list_model_init))

static void
test_counted_class_init (TestCountedClass *klass)
{
}

static void
test_counted_init (TestCounted *self)
{
}

static void
counted_splice (TestCounted *self, guint position, guint removed, guint added)
{
  self->n = self->n - removed + added;
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

typedef struct {
  guint calls;
  guint first, last; /* the union of the ranges announced */
} Announced;

static void
selection_changed (GtkSelectionModel *model, guint position, guint n_items, Announced *a)
{
  if (a->calls++ == 0)
    {
      a->first = position;
      a->last = position + n_items;
    }
  a->first = MIN (a->first, position);
  a->last = MAX (a->last, position + n_items);
}

/* ---- Item collections built from rows ---- */

static int
compare_descending (gconstpointer a, gconstpointer b, gpointer user_data)
{
  guint32 pa = *(const guint32 *) a, pb = *(const guint32 *) b;

  return pa < pb ? 1 : pa > pb ? -1 : 0;
}

/* Whether GOT (built lazily by DyGroupBuilder) is WANT (built from objects and gathered by
 * dy_group_collect_shards): key, counts, size, shard flags, and its rows or collections. */
static void
assert_same_group (DyGroup *got, DyGroup *want)
{
  GListModel *got_items, *want_items;

  g_assert_cmpstr (dy_group_get_key_text (got), ==, dy_group_get_key_text (want));
  g_assert_cmpuint (dy_group_get_n_items (got), ==, dy_group_get_n_items (want));
  g_assert_cmpuint (dy_group_get_total_size (got), ==, dy_group_get_total_size (want));
  g_assert_cmpint (dy_group_is_shard_set (got), ==, dy_group_is_shard_set (want));
  g_assert_cmpstr (dy_group_get_shard_base (got), ==, dy_group_get_shard_base (want));
  g_assert_cmpstr (dy_group_get_shard_suffix (got), ==, dy_group_get_shard_suffix (want));
  g_assert_cmpuint (dy_group_get_shard_count (got), ==, dy_group_get_shard_count (want));
  got_items = dy_group_get_items (got);
  want_items = dy_group_get_items (want);
  g_assert_true (got_items == dy_group_get_items (got)); /* made once */
  g_assert_cmpuint (g_list_model_get_n_items (got_items), ==,
                    g_list_model_get_n_items (want_items));
  for (guint i = 0; i < g_list_model_get_n_items (want_items); i++)
    {
      g_autoptr (GObject) g = g_list_model_get_item (got_items, i);
      g_autoptr (GObject) w = g_list_model_get_item (want_items, i);

      if (DY_IS_GROUP (w))
        assert_same_group (DY_GROUP (g), DY_GROUP (w));
      else
        g_assert_cmpuint (dy_row_list_get_source_position (DY_ROW_LIST (got_items), i), ==,
                          dy_row_list_get_source_position (DY_ROW_LIST (want_items), i));
    }
}

/* The builder's collections, made only when asked for, are those of one DyGroup per key
 * gathered by dy_group_collect_shards: rows in the order added or sorted, sizes summed, shard
 * sets (T#big#01..#12), a lone shard beside its base (WS#a#01), numbered keys of two widths
 * (M#m#1, M#m#02) and keys that only look numbered (USER#12, X#y#05), among many others. */
static void
test_collections (void)
{
  static const char *const special[]
      = { "WS#a", "WS#a#01", "USER#12", "X#y#05", "M#m#1", "M#m#02" };
  g_autoptr (DyRows) rows = dy_rows_new ();
  GRand *rand = g_rand_new_with_seed (28);
  const guint n = 3000;

  add_rows (rows, 0, n);
  for (guint pass = 0; pass < 2; pass++)
    {
      GCompareDataFunc compare = pass == 0 ? NULL : compare_descending;
      g_autoptr (DyGroupBuilder) builder = dy_group_builder_new ();
      g_autoptr (GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
      g_autoptr (GPtrArray) positions
          = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      g_autoptr (GArray) sizes = g_array_new (FALSE, TRUE, sizeof (guint64));
      g_autoptr (GListStore) groups = g_list_store_new (DY_TYPE_GROUP);
      g_autoptr (GListModel) built = NULL;
      g_autoptr (GListModel) want = NULL;

      for (guint32 row = 0; row < n; row++)
        {
          guint pick = g_rand_int_range (rand, 0, 100);
          g_autofree char *key
              = pick < 30   ? g_strdup_printf ("T#big#%02d", g_rand_int_range (rand, 1, 13))
                : pick < 40 ? g_strdup (special[g_rand_int_range (rand, 0, G_N_ELEMENTS (special))])
                : pick < 70 ? g_strdup_printf ("WS#t%03d", g_rand_int_range (rand, 0, 200))
                            : g_strdup_printf ("POST#%08x", g_rand_int (rand));
          guint64 size = g_rand_int_range (rand, 1, 400000);
          gpointer found = g_hash_table_lookup (by_key, key);
          guint k;

          dy_group_builder_add (builder, key, row, size);
          if (found == NULL)
            {
              k = keys->len;
              g_ptr_array_add (keys, g_strdup (key));
              g_ptr_array_add (positions, g_array_new (FALSE, FALSE, sizeof (guint32)));
              g_array_set_size (sizes, k + 1);
              g_hash_table_insert (by_key, g_strdup (key), GUINT_TO_POINTER (k + 1));
            }
          else
            k = GPOINTER_TO_UINT (found) - 1;
          g_array_append_val (g_ptr_array_index (positions, k), row);
          g_array_index (sizes, guint64, k) += size;
        }
      built = dy_group_builder_finish (builder, rows, compare, NULL);

      for (guint k = 0; k < keys->len; k++)
        {
          g_autoptr (DyGroup) group = dy_group_new (keys->pdata[k]);
          GArray *p = g_array_copy (positions->pdata[k]);
          g_autoptr (DyRowList) items = NULL;

          if (compare != NULL)
            g_qsort_with_data (p->data, (gint) p->len, sizeof (guint32), compare, NULL);
          items = dy_row_list_new (rows, p);
          dy_group_set_items (group, G_LIST_MODEL (items), g_array_index (sizes, guint64, k));
          g_list_store_append (groups, group);
        }
      want = dy_group_collect_shards (G_LIST_MODEL (groups));

      g_assert_cmpuint (g_list_model_get_n_items (built), ==, g_list_model_get_n_items (want));
      /* the shard set of T#big is there, the lone WS#a#01 flagged, M#m's keys not */
      g_assert_cmpuint (g_list_model_get_n_items (built), ==, keys->len - 12 + 1);
      for (guint i = 0; i < g_list_model_get_n_items (want); i++)
        {
          g_autoptr (DyGroup) got = g_list_model_get_item (built, i);
          g_autoptr (DyGroup) again = g_list_model_get_item (built, i);
          g_autoptr (DyGroup) w = g_list_model_get_item (want, i);

          g_assert_true (got == again);
          assert_same_group (got, w);
        }
    }
  g_rand_free (rand);
}

/* The grid's selection against a plain array of booleans, over random operations (ranges,
 * single rows, masks, rows inserted and removed), and selecting all of a large model fetches
 * no row. */
static void
test_selection (void)
{
  g_autoptr (TestCounted) rows = g_object_new (TEST_TYPE_COUNTED, NULL);
  g_autoptr (DyRowSelection) selection = NULL;
  GtkSelectionModel *model;
  GRand *rand = g_rand_new_with_seed (25);
  GArray *want = g_array_new (FALSE, TRUE, sizeof (gboolean));
  Announced a = { 0 };

  rows->n = 2000;
  g_array_set_size (want, rows->n);
  selection = dy_row_selection_new (G_LIST_MODEL (rows));
  model = GTK_SELECTION_MODEL (selection);
  g_signal_connect (model, "selection-changed", G_CALLBACK (selection_changed), &a);
  for (guint step = 0; step < 3000; step++)
    {
      guint n = rows->n;
      guint op = g_rand_int_range (rand, 0, 6);
      guint p = n > 0 ? g_rand_int_range (rand, 0, n) : 0;
      guint len = n > p ? g_rand_int_range (rand, 0, MIN (n - p, 50) + 1) : 0;
      GArray *before = g_array_copy (want);

      memset (&a, 0, sizeof a);
      switch (op)
        {
        case 0: /* click: that row alone */
          if (n == 0)
            break;
          gtk_selection_model_select_item (model, p, TRUE);
          for (guint i = 0; i < n; i++)
            g_array_index (want, gboolean, i) = i == p;
          break;
        case 1: /* Shift or Ctrl: a range added */
          gtk_selection_model_select_range (model, p, len, FALSE);
          for (guint i = p; i < p + len; i++)
            g_array_index (want, gboolean, i) = TRUE;
          break;
        case 2:
          gtk_selection_model_unselect_range (model, p, len);
          for (guint i = p; i < p + len; i++)
            g_array_index (want, gboolean, i) = FALSE;
          break;
        case 3: /* rows inserted or removed by the model */
          {
            guint removed = len / 2, added = g_rand_int_range (rand, 0, 20);

            counted_splice (rows, p, removed, added);
            g_array_remove_range (want, p, removed);
            for (guint i = 0; i < added; i++)
              {
                gboolean no = FALSE;

                g_array_insert_val (want, p, no);
              }
          }
          break;
        case 4:
          if (g_rand_int_range (rand, 0, 10) == 0)
            {
              gtk_selection_model_select_all (model);
              for (guint i = 0; i < n; i++)
                g_array_index (want, gboolean, i) = TRUE;
            }
          else
            {
              gtk_selection_model_unselect_all (model);
              for (guint i = 0; i < n; i++)
                g_array_index (want, gboolean, i) = FALSE;
            }
          break;
        default: /* a mask: rows in it take the new state */
          {
            g_autoptr (GtkBitset) mask = gtk_bitset_new_range (p, len);
            g_autoptr (GtkBitset) sel = gtk_bitset_new_empty ();

            for (guint i = p; i < p + len; i += 2)
              gtk_bitset_add (sel, i);
            gtk_selection_model_set_selection (model, sel, mask);
            for (guint i = p; i < p + len; i++)
              g_array_index (want, gboolean, i) = (i - p) % 2 == 0;
          }
          break;
        }
      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (selection)), ==, rows->n);
      {
        g_autoptr (GtkBitset) all = gtk_selection_model_get_selection (model);
        guint64 count = 0;

        for (guint i = 0; i < rows->n; i++)
          {
            gboolean on = g_array_index (want, gboolean, i);

            g_assert_cmpint (gtk_selection_model_is_selected (model, i), ==, on);
            g_assert_cmpint (gtk_bitset_contains (all, i), ==, on);
            count += on;
          }
        g_assert_cmpuint (gtk_bitset_get_size (all), ==, count);
        g_assert_cmpuint (dy_row_selection_get_n_selected (selection), ==, count);
      }
      /* a change of state (not of rows) is announced over a range covering every changed row */
      if (op != 3)
        for (guint i = 0; i < rows->n; i++)
          if (g_array_index (want, gboolean, i) != g_array_index (before, gboolean, i))
            {
              g_assert_cmpuint (a.calls, >, 0);
              g_assert_cmpuint (i, >=, a.first);
              g_assert_cmpuint (i, <, a.last);
            }
      g_array_unref (before);
    }

  /* a million rows: selecting all of them asks for none */
  rows->fetched = 0;
  counted_splice (rows, 0, rows->n, 1000000);
  gtk_selection_model_select_all (model);
  {
    g_autoptr (GtkBitset) all = gtk_selection_model_get_selection (model);

    g_assert_cmpuint (gtk_bitset_get_size (all), ==, 1000000);
  }
  g_assert_cmpuint (rows->fetched, ==, 0);
  /* a new model: nothing selected */
  dy_row_selection_set_model (selection, NULL);
  g_assert_cmpuint (dy_row_selection_get_n_selected (selection), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (selection)), ==, 0);
  g_array_unref (want);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = g_dir_make_tmp ("test-rows-XXXXXX", NULL);
  g_autofree char *spill_dir = NULL;
  int status;

  /* The spill files go to an unlinked file in the cache folder: a private one. */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rows/page-round-trip", test_page_round_trip);
  g_test_add_func ("/rows/fit-widths", test_fit_widths);
  g_test_add_func ("/rows/bad-item", test_bad_item);
  g_test_add_func ("/rows/many-rows", test_many_rows);
  g_test_add_func ("/rows/clear-drops-old-pages", test_clear_drops_old_pages);
  g_test_add_func ("/rows/snapshot-on-thread", test_snapshot_on_thread);
  g_test_add_func ("/rows/row-list", test_row_list);
  g_test_add_func ("/rows/selection", test_selection);
  g_test_add_func ("/rows/collections", test_collections);
  status = g_test_run ();
  spill_dir = g_build_filename (cache, "dynoscope", NULL);
  g_rmdir (spill_dir);
  g_rmdir (cache);
  return status;
}
