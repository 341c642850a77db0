/* dy-keys-view-report.c: the key-distribution window's report shown (see
 * dy-keys-view-private.h): where the figures come from, the summary, the chart, the advice and
 * the lists' rows. */
#define G_LOG_DOMAIN "dynoscope-keys-view"

#include <glib/gi18n.h>

#include "app/keys/dy-keys-chart.h"
#include "app/common/dy-format.h"
#include "app/keys/dy-keys-rows.h"
#include "app/keys/dy-keys-view-private.h"
#include "codegen/quote.h"

static char *
percent_text (double share)
{
  return g_strdup_printf ("%.1f%%", 100.0 * share);
}

void
dy_keys_view_set_source_text (DyKeysView *self, char *text)
{
  g_free (self->source_text);
  self->source_text = text;
  gtk_label_set_text (self->source_label, text != NULL ? text : "");
}

static void
fill_summary (DyKeysView *self, const DdbKeysReport *r, double seconds)
{
  g_autofree char *items = dy_format_count (r->items);
  g_autofree char *bytes = g_format_size_full (r->bytes, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *cardinality = dy_format_count (r->partitions->len);
  g_autofree char *caption = NULL;
  g_autofree char *what = NULL;
  char *source;

  gtk_label_set_text (self->items_value, items);
  gtk_label_set_text (self->bytes_value, bytes);
  gtk_label_set_text (self->cardinality_value, cardinality);
  /* TRANSLATORS: under the number of distinct partition key values; %s is the key attribute */
  caption = g_strdup_printf (_ ("distinct values of %s"), r->key_name);
  gtk_label_set_text (self->cardinality_caption, caption);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->cardinality_caption), caption);

  /* TRANSLATORS: what was analyzed: "Orders" or "Blog, index ByAuthor" */
  what = r->index != NULL ? g_strdup_printf (_ ("%s, index %s"), r->table, r->index)
                          : g_strdup (r->table);
  if (r->sampled)
    /* TRANSLATORS: %s is the table (and index); then the items read and the seconds */
    source = g_strdup_printf (
        g_dngettext (NULL,
                     "%s: a sample of %s item, read in %.1f s. The figures are of the sample, "
                     "not of the whole table.",
                     "%s: a sample of %s items, read in %.1f s. The figures are of the sample, "
                     "not of the whole table.",
                     r->items),
        what, items, seconds);
  else
    source
        = g_strdup_printf (g_dngettext (NULL, "%s: a full scan, all %s item read in %.1f s.",
                                        "%s: a full scan, all %s items read in %.1f s.", r->items),
                           what, items, seconds);
  dy_keys_view_set_source_text (self, source);
}

static void
fill_advice (DyKeysView *self, const DdbKeysReport *r)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->advice_box))) != NULL)
    gtk_box_remove (self->advice_box, child);
  for (guint i = 0; i <= r->advice->len; i++)
    {
      const char *text = i < r->advice->len ? r->advice->pdata[i] : NULL;
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
      GtkWidget *icon;
      GtkWidget *label;

      if (text == NULL && r->advice->len > 0)
        break;
      icon = gtk_image_new_from_icon_name (text != NULL ? "dialog-information-symbolic"
                                                        : "emblem-ok-symbolic");
      label = gtk_label_new (text != NULL ? text
                                          : _ ("Nothing to change: the items spread well over "
                                               "the partition keys."));
      gtk_widget_set_valign (icon, GTK_ALIGN_START);
      gtk_widget_add_css_class (icon, text != NULL ? "accent" : "success");
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_box_append (GTK_BOX (row), icon);
      gtk_box_append (GTK_BOX (row), label);
      for (guint a = 0; text != NULL && a < r->shard_advice->len; a++)
        {
          const DdbKeysShardAdvice *advice = r->shard_advice->pdata[a];
          g_autoptr (GMenu) menu = NULL;
          GtkWidget *button;

          if (advice->advice != i)
            continue;
          /* each item activates keys.copy-fanout with (language, shard advice) */
          menu = g_menu_new ();
          for (int lang = 0; lang < DDB_N_LANGS; lang++)
            {
              g_autoptr (GMenuItem) item = g_menu_item_new (ddb_lang_title (lang), NULL);

              g_menu_item_set_action_and_target (item, "keys.copy-fanout", "(su)",
                                                 ddb_lang_name (lang), a);
              g_menu_append_item (menu, item);
            }
          button = gtk_menu_button_new ();
          gtk_menu_button_set_label (GTK_MENU_BUTTON (button), _ ("Fan-out Query as"));
          gtk_widget_set_tooltip_text (button, _ ("Copy the program that reads every suffix of "
                                                  "this key, one Query a suffix, merged"));
          gtk_widget_set_valign (button, GTK_ALIGN_START);
          gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), G_MENU_MODEL (menu));
          gtk_widget_set_name (button, "fanout-button");
          gtk_box_append (GTK_BOX (row), button);
        }
      gtk_box_append (self->advice_box, row);
    }
}

static void
add_row (GListStore *store, const char *key, const char *const *cells)
{
  g_autoptr (DyKeysRow) row = dy_keys_row_new (key, cells);

  g_list_store_append (store, row);
}

static void
fill_lists (DyKeysView *self, const DdbKeysReport *r)
{
  guint shown = MIN (r->partitions->len, DY_KEYS_VIEW_MAX_ROWS);
  g_autofree char *note = NULL;

  g_list_store_remove_all (self->heaviest);
  g_list_store_remove_all (self->collections);
  g_list_store_remove_all (self->families);
  g_list_store_remove_all (self->hot);

  for (guint i = 0; i < shown; i++)
    {
      const DdbKeysPartition *p = r->partitions->pdata[i];
      g_autofree char *items = dy_format_count (p->items);
      g_autofree char *bytes = g_format_size_full (p->bytes, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *si = percent_text (ddb_keys_share_items (r, p));
      g_autofree char *sb = percent_text (ddb_keys_share_bytes (r, p));
      const char *cells[] = { p->key, items, bytes, si, sb, NULL };

      add_row (self->heaviest, p->key, cells);
    }
  if (r->partitions->len > shown)
    /* TRANSLATORS: %u rows shown of %u partitions */
    note = g_strdup_printf (ngettext ("The %'u heaviest of %'u partition, by items then bytes.",
                                      "The %'u heaviest of %'u partitions, by items then bytes.",
                                      r->partitions->len),
                            shown, r->partitions->len);
  else
    note = g_strdup (_ ("Every partition, heaviest first (by items, then bytes)."));
  gtk_label_set_text (self->heaviest_note, note);
  g_clear_pointer (&note, g_free);

  for (guint i = 0; i < r->collections->len && i < DY_KEYS_VIEW_MAX_ROWS; i++)
    {
      const DdbKeysPartition *p = r->collections->pdata[i];
      g_autofree char *bytes = g_format_size_full (p->bytes, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *share = g_strdup_printf ("%.6f%%", 100.0 * (double) p->bytes
                                                              / (double) DDB_KEYS_COLLECTION_LIMIT);
      const char *cells[] = { p->key, bytes, share, NULL };

      add_row (self->collections, p->key, cells);
    }
  gtk_label_set_text (self->collections_note,
                      r->has_lsi ? _ ("The table has a local secondary index: an item collection "
                                      "(a partition key value’s items in the table and its local "
                                      "indexes) holds 10 GB at most. The largest, by size:")
                                 : _ ("No local secondary index here: item collections have no "
                                      "size limit. The largest partitions, by size:"));

  for (guint i = 0; i < r->families->len && i < DY_KEYS_VIEW_MAX_ROWS; i++)
    {
      const DdbKeysFamily *f = r->families->pdata[i];
      const DdbKeysPartition *first = f->shards->pdata[0];
      const DdbKeysPartition *last = f->shards->pdata[f->shards->len - 1];
      g_autofree char *name = g_strdup_printf ("%s*", f->prefix);
      /* TRANSLATORS: a sharded family's shards: their number, the first and the last key */
      g_autofree char *shards
          = g_strdup_printf (_ ("%u (%s … %s)"), f->shards->len, first->key, last->key);
      g_autofree char *items = dy_format_count (f->items);
      g_autofree char *share
          = percent_text (r->items ? (double) f->items / (double) r->items : 0.0);
      g_autofree char *spread = g_strdup_printf ("%'" G_GUINT64_FORMAT " – %'" G_GUINT64_FORMAT,
                                                 f->min_items, f->max_items);
      g_autofree char *ratio
          = f->min_items ? g_strdup_printf ("×%.1f", (double) f->max_items / (double) f->min_items)
                         : g_strdup ("—");
      const char *cells[] = { name, shards, items, share, spread, ratio, f->hottest->key, NULL };

      add_row (self->families, f->hottest->key, cells);
    }
  gtk_label_set_text (self->families_note,
                      r->families->len == 0
                          ? _ ("None: no keys differ only by a numeric suffix.")
                          : _ ("Keys differing only by a numeric suffix (…#01 … #NN), grouped: "
                               "the spread is the fewest and the most items a shard holds."));

  for (guint i = 0; r->has_rate && i < r->hot->len && i < DY_KEYS_VIEW_MAX_ROWS; i++)
    {
      const DdbKeysHot *h = &g_array_index (r->hot, DdbKeysHot, i);
      g_autofree char *share = percent_text (ddb_keys_share_items (r, h->partition));
      g_autofree char *rcu = g_strdup_printf (
          h->rcu > DDB_KEYS_PARTITION_RCU ? _ ("%'.0f (too many)") : "%'.0f", h->rcu);
      g_autofree char *wcu = g_strdup_printf (
          h->wcu > DDB_KEYS_PARTITION_WCU ? _ ("%'.0f (too many)") : "%'.0f", h->wcu);
      g_autofree char *suffixes = g_strdup_printf ("%u", h->suffixes);
      const char *cells[] = { h->partition->key, share, rcu, wcu, suffixes, NULL };

      add_row (self->hot, h->partition->key, cells);
    }
  if (!r->has_rate)
    note = g_strdup (_ ("Give the table’s read and write rate (RCU, WCU) above to see which "
                        "partitions it would push past a partition’s 3,000 RCU / 1,000 WCU."));
  else if (r->hot->len == 0)
    /* TRANSLATORS: the rate entered; then the per-partition ceilings */
    note = g_strdup_printf (_ ("At %'.0f RCU / %'.0f WCU, spread by share of items, no partition "
                               "goes past %'.0f RCU / %'.0f WCU."),
                            r->rate_rcu, r->rate_wcu, DDB_KEYS_PARTITION_RCU,
                            DDB_KEYS_PARTITION_WCU);
  else
    note = g_strdup_printf (
        g_dngettext (NULL,
                     "At %'.0f RCU / %'.0f WCU, spread by share of items, %'u partition goes "
                     "past %'.0f RCU / %'.0f WCU; the suffixes advised keep each shard under "
                     "both.",
                     "At %'.0f RCU / %'.0f WCU, spread by share of items, %'u partitions go "
                     "past %'.0f RCU / %'.0f WCU; the suffixes advised keep each shard under "
                     "both.",
                     r->hot->len),
        r->rate_rcu, r->rate_wcu, r->hot->len, DDB_KEYS_PARTITION_RCU, DDB_KEYS_PARTITION_WCU);
  gtk_label_set_text (self->hot_note, note);
  {
    GtkWidget *lists[] = { gtk_widget_get_first_child (GTK_WIDGET (self->heaviest_box)),
                           gtk_widget_get_first_child (GTK_WIDGET (self->collections_box)),
                           gtk_widget_get_first_child (GTK_WIDGET (self->families_box)),
                           gtk_widget_get_first_child (GTK_WIDGET (self->hot_box)) };
    GListStore *stores[] = { self->heaviest, self->collections, self->families, self->hot };

    for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
      {
        guint n = g_list_model_get_n_items (G_LIST_MODEL (stores[i]));

        dy_keys_list_fit (lists[i], n);
        gtk_widget_set_visible (lists[i], n > 0);
      }
  }
}

void
dy_keys_view_show_report (DyKeysView *self, double seconds)
{
  const DdbKeysReport *r = self->report;

  fill_summary (self, r, seconds);
  dy_keys_chart_set_buckets (self->chart, r->buckets, r->n_buckets);
  fill_advice (self, r);
  fill_lists (self, r);
  gtk_stack_set_visible_child_name (self->content_stack, "report");
}
