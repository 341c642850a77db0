/* dy-staging-panel-cards.c: the staging panel's change cards: a card per staged change with its
 * key, kind and per-path old -> new (long strings as a word diff), built a few at a time so
 * that a big fan-out does not stall a frame, and kept when the change is the same. */
#define G_LOG_DOMAIN "dynoscope-staging-panel"

#include <glib/gi18n.h>

#include "app/common/dy-diff-markup.h"
#include "app/staging/dy-staging-panel-private.h"
#include "core/expr.h"
#include "staging/diff.h"

/* Cards. */

GtkWidget *
dy_staging_panel_label_new (const char *text, const char *css)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (css != NULL)
    gtk_widget_add_css_class (label, css);
  return label;
}

static GtkWidget *
icon_button (const char *icon, const char *tooltip, const char *action, GVariant *target)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), target);
  return button;
}

static GtkWidget *
kind_badge (DdbChangeKind kind)
{
  static const char *const css[] = { "staged-create", "staged-update", "staged-delete" };
  const char *text[]
      = { C_ ("change", "Create"), C_ ("change", "Update"), C_ ("change", "Delete") };
  GtkWidget *badge = dy_staging_panel_label_new (text[kind], "staged-badge");

  gtk_widget_add_css_class (badge, css[kind]);
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  return badge;
}

static void
add_entry_row (GtkGrid *grid, int row, const DdbChange *change, const DdbDiffEntry *e)
{
  g_autofree char *path = ddb_path_to_string (&e->path);
  g_autofree char *markup = dy_diff_change_markup (e->old_value, e->new_value);
  GtkWidget *path_label = dy_staging_panel_label_new (path, "monospace");
  GtkWidget *value = dy_staging_panel_label_new (NULL, NULL);
  gboolean is_key = ddb_value_map_get (change->key, path) != NULL;

  gtk_widget_add_css_class (path_label, "staged-path");
  /* first lines level with the middle of the Reject button beside them */
  gtk_widget_set_valign (path_label, GTK_ALIGN_START);
  gtk_widget_set_margin_top (path_label, 8);
  gtk_widget_set_valign (value, GTK_ALIGN_START);
  gtk_widget_set_margin_top (value, 7);
  gtk_label_set_selectable (GTK_LABEL (path_label), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (path_label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (path_label), 16);
  gtk_widget_set_tooltip_text (path_label, path);
  gtk_label_set_markup (GTK_LABEL (value), markup);
  gtk_label_set_wrap (GTK_LABEL (value), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_WORD_CHAR);
  /* wrapped within the panel's width rather than widening it */
  gtk_label_set_max_width_chars (GTK_LABEL (value), 30);
  gtk_label_set_selectable (GTK_LABEL (value), TRUE);
  gtk_widget_set_hexpand (value, TRUE);
  gtk_grid_attach (grid, path_label, 0, row, 1, 1);
  gtk_grid_attach (grid, value, 1, row, 1, 1);
  /* a renamed fact (a top-level string or number changed) is what copies are made of */
  if (change->kind == DDB_CHANGE_UPDATE && e->path.n == 1 && e->old_value != NULL
      && e->new_value != NULL && e->old_value->type == e->new_value->type
      && (e->old_value->type == DDB_TYPE_S || e->old_value->type == DDB_TYPE_N))
    {
      GtkWidget *fanout = icon_button ("emblem-shared-symbolic",
                                       _ ("Fan Out: Stage the Same Change in Its Copies…"),
                                       "panel.fanout", g_variant_new ("(xs)", change->id, path));

      gtk_widget_add_css_class (fanout, "circular");
      gtk_widget_set_valign (fanout, GTK_ALIGN_START);
      gtk_grid_attach (grid, fanout, 3, row, 1, 1);
    }
  if (change->kind != DDB_CHANGE_DELETE && !is_key && change->state != DDB_CHANGE_SENDING)
    {
      GtkWidget *reject = icon_button ("edit-undo-symbolic", _ ("Reject: Put Back the Old Value"),
                                       "panel.reject", g_variant_new ("(xs)", change->id, path));

      gtk_widget_add_css_class (reject, "circular");
      gtk_widget_set_valign (reject, GTK_ALIGN_START);
      gtk_grid_attach (grid, reject, 2, row, 1, 1);
    }
}

void
dy_staging_panel_tint_card (DyStagingPanel *self, GtkWidget *card)
{
  DyConnectionMark mark = self->connection != NULL ? dy_connection_get_mark (self->connection)
                                                   : DY_CONNECTION_MARK_NORMAL;
  GtkWidget *commit;

  if (mark == DY_CONNECTION_MARK_PRODUCTION)
    gtk_widget_add_css_class (card, "production-connection");
  else
    gtk_widget_remove_css_class (card, "production-connection");
  if (mark == DY_CONNECTION_MARK_READ_ONLY)
    gtk_widget_add_css_class (card, "read-only-connection");
  else
    gtk_widget_remove_css_class (card, "read-only-connection");
  commit = g_object_get_data (G_OBJECT (card), "dy-commit-button");
  if (commit != NULL)
    {
      /* the button is insensitive on a read-only connection: its tooltip says why */
      g_autofree char *reason = mark == DY_CONNECTION_MARK_READ_ONLY
                                    ? dy_connection_dup_read_only_reason (self->connection)
                                    : NULL;

      gtk_widget_set_tooltip_text (commit, reason != NULL ? reason : _ ("Commit This Change"));
    }
}

static GtkWidget *
build_card (DyStagingPanel *self, const DdbChange *change)
{
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *titles = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  g_autofree char *title = dy_diff_key_title (change->key);
  GtkWidget *title_label = dy_staging_panel_label_new (title, "heading");
  GtkWidget *grid = gtk_grid_new ();
  g_autoptr (GPtrArray) diff = ddb_change_diff (change);
  gboolean busy = change->state == DDB_CHANGE_SENDING;

  gtk_widget_add_css_class (card, "card");
  gtk_widget_add_css_class (card, "staged-card");
  gtk_label_set_ellipsize (GTK_LABEL (title_label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (title_label), 24);
  gtk_widget_set_tooltip_text (title_label, title);
  gtk_box_append (GTK_BOX (titles), title_label);
  gtk_box_append (GTK_BOX (titles), dy_staging_panel_label_new (change->table, "caption"));
  gtk_widget_add_css_class (gtk_widget_get_last_child (titles), "dim-label");
  gtk_widget_set_hexpand (titles, TRUE);
  gtk_box_append (GTK_BOX (header), kind_badge (change->kind));
  gtk_box_append (GTK_BOX (header), titles);
  if (!busy)
    {
      /* a conflict or a failure is not sent again until it is put back (Compare, Retry) */
      if (change->state == DDB_CHANGE_STAGED)
        {
          GtkWidget *commit = icon_button ("document-send-symbolic", _ ("Commit This Change"),
                                           "panel.commit-one",
                                           g_variant_new_int64 (change->id));

          g_object_set_data (G_OBJECT (card), "dy-commit-button", commit);
          gtk_box_append (GTK_BOX (header), commit);
        }
      gtk_box_append (GTK_BOX (header),
                      icon_button ("user-trash-symbolic", _ ("Discard This Change"),
                                   "panel.discard", g_variant_new_int64 (change->id)));
    }
  gtk_box_append (GTK_BOX (card), header);

  if (change->state == DDB_CHANGE_CONFLICT || change->state == DDB_CHANGE_FAILED || busy)
    {
      GtkWidget *state = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *text;

      gtk_widget_add_css_class (state, "staged-state");
      if (change->state == DDB_CHANGE_CONFLICT)
        {
          gtk_widget_add_css_class (state, "conflict");
          text = dy_staging_panel_label_new (
              _ ("Conflict: the item changed since it was staged. Nothing was "
                 "written."),
              NULL);
        }
      else if (busy)
        text = dy_staging_panel_label_new (_ ("Sent: its outcome is checked at the next commit"),
                                           NULL);
      else
        {
          g_autofree char *message = g_strdup_printf (_ ("Failed: %s"), change->message);

          gtk_widget_add_css_class (state, "failed");
          text = dy_staging_panel_label_new (message, NULL);
        }
      gtk_label_set_wrap (GTK_LABEL (text), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (text), 30);
      gtk_widget_set_hexpand (text, TRUE);
      gtk_box_append (GTK_BOX (state), text);
      if (change->state == DDB_CHANGE_CONFLICT)
        {
          GtkWidget *open = gtk_button_new_with_mnemonic (_ ("_Compare…"));

          gtk_widget_set_valign (open, GTK_ALIGN_CENTER);
          gtk_actionable_set_action_name (GTK_ACTIONABLE (open), "panel.show-conflict");
          gtk_actionable_set_action_target_value (GTK_ACTIONABLE (open),
                                                  g_variant_new_int64 (change->id));
          gtk_box_append (GTK_BOX (state), open);
        }
      else if (change->state == DDB_CHANGE_FAILED)
        {
          GtkWidget *retry = gtk_button_new_with_mnemonic (_ ("_Retry"));

          gtk_widget_set_valign (retry, GTK_ALIGN_CENTER);
          gtk_widget_set_tooltip_text (retry, _ ("Send It Again at the Next Commit"));
          gtk_actionable_set_action_name (GTK_ACTIONABLE (retry), "panel.requeue");
          gtk_actionable_set_action_target_value (GTK_ACTIONABLE (retry),
                                                  g_variant_new_int64 (change->id));
          gtk_box_append (GTK_BOX (state), retry);
        }
      gtk_box_append (GTK_BOX (card), state);
    }

  gtk_grid_set_column_spacing (GTK_GRID (grid), 10);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  for (guint i = 0; i < MIN (diff->len, (guint) MAX_ENTRIES); i++)
    add_entry_row (GTK_GRID (grid), (int) i, change, g_ptr_array_index (diff, i));
  if (diff->len > MAX_ENTRIES)
    {
      g_autofree char *more = g_strdup_printf (
          g_dngettext (NULL, "and %u more path", "and %u more paths", diff->len - MAX_ENTRIES),
          diff->len - MAX_ENTRIES);

      gtk_grid_attach (GTK_GRID (grid), dy_staging_panel_label_new (more, "dim-label"), 0,
                       MAX_ENTRIES, 3, 1);
    }
  gtk_box_append (GTK_BOX (card), grid);
  dy_staging_panel_tint_card (self, card);
  return card;
}

void
dy_staging_panel_clear_cards (DyStagingPanel *self)
{
  GtkWidget *child;

  g_clear_handle_id (&self->build_id, g_source_remove);
  g_clear_pointer (&self->building, g_ptr_array_unref);
  self->build_prev = NULL;
  self->more_label = NULL;
  g_hash_table_remove_all (self->cards);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->card_box))) != NULL)
    gtk_box_remove (self->card_box, child);
}

static DdbValue *
copy_value (const DdbValue *v)
{
  return v != NULL ? ddb_value_copy (v) : NULL;
}

DdbChange *
dy_staging_panel_copy_change (const DdbChange *change)
{
  DdbChange *copy = g_new0 (DdbChange, 1);

  copy->id = change->id;
  copy->connection = g_strdup (change->connection);
  copy->table = g_strdup (change->table);
  copy->kind = change->kind;
  copy->state = change->state;
  copy->key = copy_value (change->key);
  copy->original = copy_value (change->original);
  copy->target = copy_value (change->target);
  copy->current = copy_value (change->current);
  copy->message = g_strdup (change->message);
  copy->batch = g_strdup (change->batch);
  return copy;
}

/* Whether a card drawn for A shows B as well. */
static gboolean
same_change (const DdbChange *a, const DdbChange *b)
{
  return a->id == b->id && a->kind == b->kind && a->state == b->state
         && g_strcmp0 (a->message, b->message) == 0 && dy_diff_same_value (a->target, b->target)
         && dy_diff_same_value (a->original, b->original) && dy_diff_same_value (a->current, b->current);
}

/* Builds up to BUDGET new cards in order; TRUE when all are there. */
static gboolean
build_step (DyStagingPanel *self, guint budget)
{
  guint n = self->building->len;

  while (self->build_index < n && budget > 0)
    {
      /* the card takes the copy */
      DdbChange *change = g_steal_pointer (&self->building->pdata[self->build_index++]);
      GtkWidget *card = g_hash_table_lookup (self->cards, &change->id);

      if (card == NULL)
        {
          card = build_card (self, change);
          gtk_box_insert_child_after (self->card_box, card, self->build_prev);
          g_hash_table_insert (self->cards, g_memdup2 (&change->id, sizeof (gint64)), card);
          budget--;
        }
      g_object_set_data_full (G_OBJECT (card), "dy-change", change,
                              (GDestroyNotify) ddb_change_free);
      self->build_prev = card;
    }
  if (self->build_index < n)
    return FALSE;
  if (self->building_total > n)
    {
      guint more = self->building_total - n;
      g_autofree char *text
          = g_strdup_printf (g_dngettext (NULL, "and %u more change, committed with the others",
                                          "and %u more changes, committed with the others", more),
                             more);

      self->more_label = dy_staging_panel_label_new (text, "dim-label");
      gtk_widget_set_halign (self->more_label, GTK_ALIGN_CENTER);
      gtk_box_append (self->card_box, self->more_label);
    }
  g_clear_pointer (&self->building, g_ptr_array_unref);
  self->build_prev = NULL;
  return TRUE;
}

static gboolean
build_idle (gpointer data)
{
  DyStagingPanel *self = data;

  if (build_step (self, CARDS_PER_STEP))
    {
      self->build_id = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

/* Tests read the cards: those still to come are built now. */
void
dy_staging_panel_finish_cards (DyStagingPanel *self)
{
  if (self->building != NULL)
    build_step (self, G_MAXUINT);
  g_clear_handle_id (&self->build_id, g_source_remove);
}

void
dy_staging_panel_show_cards (DyStagingPanel *self, GPtrArray *changes)
{
  g_autoptr (GHashTable) wanted = g_hash_table_new (g_int64_hash, g_int64_equal);
  GHashTableIter iter;
  GtkWidget *card;

  g_clear_handle_id (&self->build_id, g_source_remove);
  for (guint i = 0; i < changes->len && i < MAX_CARDS; i++)
    {
      DdbChange *change = g_ptr_array_index (changes, i);

      g_hash_table_insert (wanted, &change->id, change);
    }
  g_hash_table_iter_init (&iter, self->cards);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &card))
    {
      const DdbChange *was = g_object_get_data (G_OBJECT (card), "dy-change");
      const DdbChange *now = g_hash_table_lookup (wanted, &was->id);

      if (now == NULL || !same_change (was, now))
        {
          gtk_box_remove (self->card_box, card);
          g_hash_table_iter_remove (&iter);
        }
    }
  if (self->more_label != NULL)
    gtk_box_remove (self->card_box, self->more_label);
  self->more_label = NULL;
  g_clear_pointer (&self->building, g_ptr_array_unref);
  self->building = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_change_free);
  for (guint i = 0; i < changes->len && i < MAX_CARDS; i++)
    g_ptr_array_add (self->building, dy_staging_panel_copy_change (g_ptr_array_index (changes, i)));
  self->building_total = changes->len;
  self->build_index = 0;
  self->build_prev = NULL;
  if (!build_step (self, CARDS_PER_STEP))
    self->build_id = g_idle_add (build_idle, self);
}
