/* test-row-feed.c: the grid's feed of slots (dy-row-feed.h), watched by a stand-in for GTK's
 * list view: a window of positions holds slots as GTK's row widgets do, follows its first row
 * through changes as GTK's anchor does, and counts the slots it had to ask for anew (widgets
 * made). Checked: what the feed says is always true of what it shows, the rows with widgets
 * are given new rows in place, and once settled the feed shows its source exactly. */
#include <gio/gio.h>
#include <string.h>

#include "app/browser/dy-row-feed.h"
#include "app/browser/dy-row-selection.h"
#include "app/common/dy-item.h"

static DyItem *
make_row (guint i)
{
  DdbValue *map = ddb_value_new_m ();
  g_autofree char *text = g_strdup_printf ("%u", i);

  ddb_value_map_set (map, "n", ddb_value_new_s (text, -1));
  return dy_item_new (map);
}

/* A store of NEW rows numbered FROM .. FROM+N-1. */
static GListStore *
make_store (guint from, guint n)
{
  GListStore *store = g_list_store_new (DY_TYPE_ITEM);

  for (guint i = from; i < from + n; i++)
    {
      g_autoptr (DyItem) row = make_row (i);

      g_list_store_append (store, row);
    }
  return store;
}

/* A store of the rows of STORE at random positions (some left out, some taken twice). */
static GListStore *
shuffled (GListModel *store, guint n, GRand *rand)
{
  GListStore *out = g_list_store_new (DY_TYPE_ITEM);
  guint have = g_list_model_get_n_items (store);

  for (guint i = 0; i < n && have > 0; i++)
    {
      g_autoptr (GObject) row = g_list_model_get_item (store, g_rand_int_range (rand, 0, have));

      g_list_store_append (out, row);
    }
  return out;
}

static void
unref_or_null (gpointer object)
{
  if (object != NULL)
    g_object_unref (object);
}

typedef struct {
  DyRowFeed *feed;
  GPtrArray *mirror; /* per position: the slot held (a row's widgets), or NULL */
  guint window;      /* the positions with widgets: WINDOW .. WINDOW+SIZE-1 */
  guint size;
  guint made; /* slots asked for at positions without one: widgets made */
  guint changes;
} FakeGrid;

/* Widgets for the window's rows, none for the others; the window shows the last rows when it
 * would pass the end, as GTK's does. */
static void
grid_fill (FakeGrid *g)
{
  guint n = g->mirror->len;

  if (g->window + g->size > n)
    g->window = n > g->size ? n - g->size : 0;
  for (guint p = 0; p < n; p++)
    {
      gboolean inside = p >= g->window && p < g->window + g->size;

      if (inside && g->mirror->pdata[p] == NULL)
        {
          g->mirror->pdata[p] = g_list_model_get_item (G_LIST_MODEL (g->feed), p);
          g_assert_true (DY_IS_ROW_SLOT (g->mirror->pdata[p]));
          g->made++;
        }
      else if (!inside && g->mirror->pdata[p] != NULL)
        g_clear_object ((GObject **) &g->mirror->pdata[p]);
    }
}

static void
grid_changed (GListModel *model, guint position, guint removed, guint added, FakeGrid *g)
{
  guint before = g->mirror->len;

  g->changes++;
  g_assert_cmpuint (position + removed, <=, before);
  /* The window keeps to its first row, as GTK's anchor does. */
  if (position + removed <= g->window)
    g->window = g->window - removed + added;
  else if (position < g->window)
    g->window = position;
  g_ptr_array_remove_range (g->mirror, position, removed);
  before -= removed;
  g_ptr_array_set_size (g->mirror, before + added);
  memmove (g->mirror->pdata + position + added, g->mirror->pdata + position,
           (before - position) * sizeof (gpointer));
  memset (g->mirror->pdata + position, 0, added * sizeof (gpointer));
  g_assert_cmpuint (g->mirror->len, ==, g_list_model_get_n_items (model));
  grid_fill (g);
}

static FakeGrid *
grid_new (GListModel *source, guint window, guint size)
{
  FakeGrid *g = g_new0 (FakeGrid, 1);

  g->feed = dy_row_feed_new (source);
  g->mirror = g_ptr_array_new_with_free_func (unref_or_null);
  g->window = window;
  g->size = size;
  g_ptr_array_set_size (g->mirror, g_list_model_get_n_items (G_LIST_MODEL (g->feed)));
  g_signal_connect (g->feed, "items-changed", G_CALLBACK (grid_changed), g);
  grid_fill (g);
  return g;
}

static void
grid_free (FakeGrid *g)
{
  g_ptr_array_unref (g->mirror);
  g_object_unref (g->feed);
  g_free (g);
}

/* Scrolls the window to POSITION. */
static void
grid_scroll (FakeGrid *g, guint position)
{
  g->window = position;
  grid_fill (g);
}

static void
run_feed (DyRowFeed *feed)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (dy_row_feed_get_pending (feed))
    {
      g_main_context_iteration (NULL, FALSE);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    }
}

/* What the feed says is true of what it shows: its slots stay the ones at their positions,
 * and each shows the row the feed says is there. Once settled (SOURCE given), it shows SOURCE
 * exactly. */
static void
grid_check (FakeGrid *g, GListModel *source)
{
  GListModel *model = G_LIST_MODEL (g->feed);
  guint n = g_list_model_get_n_items (model);

  g_assert_cmpuint (n, ==, g->mirror->len);
  for (guint p = 0; p < n; p++)
    {
      DyRowSlot *slot = g->mirror->pdata[p];

      if (slot != NULL)
        {
          g_autoptr (GObject) again = g_list_model_get_item (model, p);
          g_autoptr (GObject) row = dy_row_feed_get_row (g->feed, p);

          g_assert_true (again == G_OBJECT (slot));
          g_assert_true (row == dy_row_slot_get_row (slot));
        }
    }
  if (source == NULL)
    return;
  g_assert_false (dy_row_feed_get_pending (g->feed));
  g_assert_cmpuint (n, ==, g_list_model_get_n_items (source));
  for (guint p = 0; p < n; p++)
    {
      g_autoptr (GObject) row = dy_row_feed_get_row (g->feed, p);
      g_autoptr (GObject) want = g_list_model_get_item (source, p);

      g_assert_true (row == want);
    }
  g_assert_null (dy_row_feed_get_row (g->feed, n));
}

/* A source's first rows come at once, the rest over later iterations. */
static void
test_grows (void)
{
  g_autoptr (GListStore) store = make_store (0, 5000);
  FakeGrid *g = grid_new (G_LIST_MODEL (store), 0, 50);
  guint first = g_list_model_get_n_items (G_LIST_MODEL (g->feed));

  g_assert_cmpuint (first, >, 0);
  g_assert_cmpuint (first, <, 50);
  g_assert_true (dy_row_feed_get_pending (g->feed));
  run_feed (g->feed);
  grid_check (g, G_LIST_MODEL (store));
  g_assert_cmpuint (g->made, ==, 50);
  grid_free (g);
}

static void
count_changed (DyRowSlot *slot, guint *n)
{
  (*n)++;
}

/* Another order of the rows: the slots with widgets show the new first rows in place (no
 * widget made, each told once), wherever the grid was scrolled to. */
static void
test_rearranged_in_place (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (3);
  g_autoptr (GListStore) store = make_store (0, 1000);
  g_autoptr (GListStore) order = shuffled (G_LIST_MODEL (store), 1000, rand);
  g_autoptr (GListStore) other = shuffled (G_LIST_MODEL (store), 800, rand);
  FakeGrid *g = grid_new (G_LIST_MODEL (store), 0, 50);
  guint told[50] = { 0 }, first = 0, all = 0;
  guint made;

  run_feed (g->feed);
  for (guint p = 0; p < 50; p++)
    g_signal_connect (g->mirror->pdata[p], "changed", G_CALLBACK (count_changed), &told[p]);
  made = g->made;
  dy_row_feed_set_source (g->feed, G_LIST_MODEL (order));
  /* at once: the window's slots show the order's first rows; those at the top are told */
  g_assert_cmpuint (g->made, ==, made);
  for (guint p = 0; p < 50; p++)
    {
      g_autoptr (GObject) want = g_list_model_get_item (G_LIST_MODEL (order), p);

      g_assert_true (dy_row_slot_get_row (g->mirror->pdata[p]) == want);
      g_assert_cmpuint (told[p], <=, 1);
      if (p < 40)
        first += told[p];
      else
        g_assert_cmpuint (told[p], ==, 0);
    }
  g_assert_cmpuint (first, >=, 35); /* a row may be drawn where it was */
  grid_check (g, NULL);
  run_feed (g->feed);
  grid_check (g, G_LIST_MODEL (order));
  g_assert_cmpuint (g->made, ==, made);
  /* then the others, each once */
  for (guint p = 0; p < 50; p++)
    {
      g_assert_cmpuint (told[p], <=, 1);
      all += told[p];
    }
  g_assert_cmpuint (all, >=, 45);

  /* Scrolled down: the rows with widgets move up to the top and show the first rows. */
  grid_scroll (g, 500);
  made = g->made;
  dy_row_feed_set_source (g->feed, G_LIST_MODEL (other));
  g_assert_cmpuint (g->window, ==, 0);
  g_assert_cmpuint (g->made, ==, made);
  grid_check (g, NULL);
  run_feed (g->feed);
  grid_check (g, G_LIST_MODEL (other));
  g_assert_cmpuint (g->made, ==, made);
  grid_free (g);
}

/* The source emptied (a new Run) and filled again: the rows with widgets stay until new rows
 * take their places; those past the new rows go a few at a time. */
static void
test_cleared_and_refilled (void)
{
  g_autoptr (GListStore) store = make_store (0, 3000);
  g_autoptr (GListStore) page = make_store (9000, 30);
  g_autoptr (GListStore) next = make_store (9030, 100);
  FakeGrid *g = grid_new (G_LIST_MODEL (store), 0, 50);
  guint made;

  run_feed (g->feed);
  grid_scroll (g, 2000);
  made = g->made;
  g_list_store_remove_all (store);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (g->feed)), ==, 50);
  g_assert_cmpuint (g->window, ==, 0);
  g_assert_cmpuint (dy_row_feed_get_source_position (g->feed, 0), ==, G_MAXUINT);
  grid_check (g, NULL);
  /* the first page takes the first places, in place */
  for (guint i = 0; i < 30; i++)
    {
      g_autoptr (GObject) row = g_list_model_get_item (G_LIST_MODEL (page), i);

      g_list_store_append (store, row);
    }
  g_assert_cmpuint (g->made, ==, made);
  {
    g_autoptr (GObject) want = g_list_model_get_item (G_LIST_MODEL (page), 29);

    g_assert_true (dy_row_slot_get_row (g->mirror->pdata[29]) == want);
  }
  g_assert_cmpuint (dy_row_feed_get_source_position (g->feed, 29), ==, G_MAXUINT); /* a store */
  grid_check (g, NULL);
  run_feed (g->feed);
  grid_check (g, G_LIST_MODEL (store));
  /* the next page comes as usual */
  for (guint i = 0; i < 100; i++)
    {
      g_autoptr (GObject) row = g_list_model_get_item (G_LIST_MODEL (next), i);

      g_list_store_append (store, row);
    }
  run_feed (g->feed);
  grid_check (g, G_LIST_MODEL (store));
  grid_free (g);
}

typedef struct {
  guint position, removed, added, count;
} LastChange;

static void
note_last (GListModel *model, guint position, guint removed, guint added, LastChange *last)
{
  last->position = position;
  last->removed = removed;
  last->added = added;
  last->count++;
}

/* Out of the grid (no slot held): everything shown goes at once. */
static void
test_without_widgets (void)
{
  g_autoptr (GListStore) store = make_store (0, 3000);
  g_autoptr (GListStore) few = make_store (5000, 10);
  g_autoptr (DyRowFeed) feed = dy_row_feed_new (G_LIST_MODEL (store));
  LastChange last = { 0 };

  run_feed (feed);
  g_signal_connect (feed, "items-changed", G_CALLBACK (note_last), &last);
  dy_row_feed_set_source (feed, G_LIST_MODEL (few));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (feed)), ==, 10);
  g_assert_false (dy_row_feed_get_pending (feed));
  g_assert_cmpuint (last.count, ==, 2); /* all out, ten in */
}

static void
note_replaced (DyRowFeed *feed, guint position, guint n, LastChange *last)
{
  last->position = position;
  last->added = n;
  last->count++;
}

/* A change within the rows shown (a collection opened or closed) is passed on as it is; a
 * row replaced keeps its slot, which shows the new row. */
static void
test_passes_changes (void)
{
  g_autoptr (GListStore) store = make_store (0, 30);
  FakeGrid *g = grid_new (G_LIST_MODEL (store), 0, 40);
  LastChange last = { 0 }, replaced = { 0 };
  g_autoptr (DyItem) a = make_row (100);
  g_autoptr (DyItem) b = make_row (101);
  gpointer two[] = { a, b };
  guint told = 0;
  DyRowSlot *slot;

  run_feed (g->feed);
  g_signal_connect (g->feed, "items-changed", G_CALLBACK (note_last), &last);
  g_signal_connect (g->feed, "rows-replaced", G_CALLBACK (note_replaced), &replaced);
  g_list_store_splice (G_LIST_STORE (store), 5, 0, two, 2);
  g_assert_cmpuint (last.count, ==, 1);
  g_assert_cmpuint (last.position, ==, 5);
  g_assert_cmpuint (last.removed, ==, 0);
  g_assert_cmpuint (last.added, ==, 2);
  g_assert_true (dy_row_slot_get_row (g->mirror->pdata[6]) == G_OBJECT (b));
  g_list_store_splice (G_LIST_STORE (store), 10, 3, NULL, 0);
  g_assert_cmpuint (last.count, ==, 2);
  g_assert_cmpuint (last.position, ==, 10);
  g_assert_cmpuint (last.removed, ==, 3);
  g_assert_cmpuint (last.added, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (g->feed)), ==, 29);
  grid_check (g, G_LIST_MODEL (store));

  slot = g->mirror->pdata[7];
  g_signal_connect (slot, "changed", G_CALLBACK (count_changed), &told);
  {
    g_autoptr (DyItem) c = make_row (102);
    gpointer one[] = { c };

    g_list_store_splice (G_LIST_STORE (store), 7, 1, one, 1);
    g_assert_cmpuint (last.count, ==, 2); /* no change the grid hears of */
    g_assert_cmpuint (told, ==, 1);
    g_assert_true (g->mirror->pdata[7] == slot);
    g_assert_true (dy_row_slot_get_row (slot) == G_OBJECT (c));
    g_assert_cmpuint (replaced.count, ==, 1);
    g_assert_cmpuint (replaced.position, ==, 7);
    g_assert_cmpuint (replaced.added, ==, 1);
  }
  grid_check (g, G_LIST_MODEL (store));
  grid_free (g);
}

/* A selection over the feed drops the rows that show other rows now. */
static void
test_selection (void)
{
  g_autoptr (GListStore) store = make_store (0, 300);
  g_autoptr (GListStore) order = make_store (1000, 300);
  FakeGrid *g = grid_new (G_LIST_MODEL (store), 0, 50);
  g_autoptr (DyRowSelection) selection = dy_row_selection_new (G_LIST_MODEL (g->feed));
  GtkSelectionModel *model = GTK_SELECTION_MODEL (selection);

  run_feed (g->feed);
  gtk_selection_model_select_range (model, 0, 10, TRUE);
  gtk_selection_model_select_item (model, 200, FALSE);
  g_assert_cmpuint (dy_row_selection_get_n_selected (selection), ==, 11);
  {
    g_autoptr (DyItem) c = make_row (5000);
    gpointer one[] = { c };

    g_list_store_splice (G_LIST_STORE (store), 3, 1, one, 1);
  }
  g_assert_false (gtk_selection_model_is_selected (model, 3));
  g_assert_true (gtk_selection_model_is_selected (model, 4));
  g_assert_cmpuint (dy_row_selection_get_n_selected (selection), ==, 10);
  dy_row_feed_set_source (g->feed, G_LIST_MODEL (order));
  g_assert_cmpuint (dy_row_selection_get_n_selected (selection), ==, 0);
  run_feed (g->feed);
  grid_check (g, G_LIST_MODEL (order));
  grid_free (g);
}

/* Any sequence of sources, changes of the source, scrolls and steps: what the feed says stays
 * true at every step, and once settled it shows its source. */
static void
test_random (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (11);
  g_autoptr (GListStore) all = make_store (0, 600);
  GListStore *source = shuffled (G_LIST_MODEL (all), 300, rand);
  FakeGrid *g = grid_new (G_LIST_MODEL (source), 0, 40);
  guint next = 10000;

  for (guint step = 0; step < 4000; step++)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (source));
      guint op = g_rand_int_range (rand, 0, 7);

      switch (op)
        {
          case 0: {
            GListStore *other
                = shuffled (G_LIST_MODEL (all), g_rand_int_range (rand, 0, 500), rand);

            dy_row_feed_set_source (g->feed, G_LIST_MODEL (other));
            g_object_unref (source);
            source = other;
            break;
          }
          case 1: {
            guint at = g_rand_int_range (rand, 0, n + 1);
            guint removed = g_rand_int_range (rand, 0, MIN (n - at, 80) + 1);
            guint added = g_rand_int_range (rand, 0, 80);
            GPtrArray *rows = g_ptr_array_new_with_free_func (g_object_unref);

            if (g_rand_boolean (rand))
              added = MIN (added, removed); /* a sort's step, a row replaced */
            for (guint i = 0; i < added; i++)
              g_ptr_array_add (rows, make_row (next++));
            g_list_store_splice (source, at, removed, rows->pdata, added);
            g_ptr_array_unref (rows);
            break;
          }
        case 2:
          g_list_store_remove_all (source);
          break;
        case 3:
          grid_scroll (g, g_rand_int_range (rand, 0, n + 1));
          break;
        case 4:
        case 5:
          g_main_context_iteration (NULL, FALSE);
          break;
        default:
          run_feed (g->feed);
          grid_check (g, G_LIST_MODEL (source));
          break;
        }
      grid_check (g, NULL);
    }
  run_feed (g->feed);
  grid_check (g, G_LIST_MODEL (source));
  grid_free (g);
  g_object_unref (source);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/row-feed/grows", test_grows);
  g_test_add_func ("/row-feed/rearranged-in-place", test_rearranged_in_place);
  g_test_add_func ("/row-feed/cleared-and-refilled", test_cleared_and_refilled);
  g_test_add_func ("/row-feed/without-widgets", test_without_widgets);
  g_test_add_func ("/row-feed/passes-changes", test_passes_changes);
  g_test_add_func ("/row-feed/selection", test_selection);
  g_test_add_func ("/row-feed/random", test_random);
  return g_test_run ();
}
