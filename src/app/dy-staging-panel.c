/* dy-staging-panel.c: the staging panel: change cards, commit with progress, the report. */
#define G_LOG_DOMAIN "dynoscope-staging-panel"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "app/dy-fanout-dialog.h"
#include "app/dy-format.h"
#include "app/dy-staging-panel.h"
#include "core/expr.h"
#include "staging/diff.h"
#include "staging/worddiff.h"

/* Cards are widgets: past this many (a big fan-out) the rest are counted, not drawn. */
#define MAX_CARDS 200
/* Cards built per main loop iteration: a card costs about 2 ms to build, so a panel of 200 is
 * built over several frames rather than in one stall. */
#define CARDS_PER_STEP 16
/* Paths listed on one card before "and N more". */
#define MAX_ENTRIES 12
/* Strings at least this long (in characters) are shown as a word diff; shorter ones read
 * better whole, old -> new. */
#define LONG_STRING 32

struct _DyStagingPanel {
  GtkBox parent_instance;

  GtkLabel *summary_label;
  GtkRevealer *report_revealer;
  GtkBox *report_box;
  GtkImage *report_icon;
  GtkLabel *report_title;
  GtkLabel *report_label;
  GtkStack *list_stack;
  GtkBox *card_box;
  GtkRevealer *progress_revealer;
  GtkProgressBar *progress_bar;
  GtkLabel *progress_label;
  GtkDropDown *mode_dropdown;

  DyStaging *staging;
  DyConnection *connection;
  GHashTable *cards; /* change id -> card widget (borrowed: children of card_box) */
  guint n_changes;
  guint refresh_id;
  /* Building the cards: a card whose change is the same as before is kept, the others are
   * built a few at a time. Each card owns a copy of its change ("dy-change"): the panel holds
   * no snapshot of the staging area, whose thousands of changes are freed off the main
   * thread. */
  GPtrArray *building;  /* copies of the changes to show (each taken by its card), or NULL */
  guint building_total; /* how many changes there are in all */
  guint build_index;
  GtkWidget *build_prev; /* the card after which the next one goes */
  guint build_id;
  GtkWidget *more_label; /* "and N more changes" */

  GCancellable *cancellable; /* while committing */
  gboolean disposed;         /* a commit may finish after the widgets are gone */
  gint64 commit_started;
  gboolean has_report;
  guint report_counts[3];
  char *report_text;
};

G_DEFINE_FINAL_TYPE (DyStagingPanel, dy_staging_panel, GTK_TYPE_BOX)

enum { PROP_0, PROP_N_CHANGES, N_PROPS };

static GParamSpec *properties[N_PROPS];

static void refresh (DyStagingPanel *self);

static void
toast (DyStagingPanel *self, const char *message)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);

  if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (message));
  else
    g_message ("%s", message);
}

static void
toast_error (DyStagingPanel *self, const GError *error)
{
  toast (self, error->message);
}

/* Value text. */

static char *
value_text (const DdbValue *value)
{
  if (value == NULL)
    return NULL;
  if (value->type == DDB_TYPE_S)
    return g_strdup_printf ("“%s”", value->bytes.data);
  return dy_format_value (value);
}

static gboolean
is_long_string (const DdbValue *v)
{
  return v != NULL && v->type == DDB_TYPE_S && g_utf8_strlen (v->bytes.data, -1) >= LONG_STRING;
}

/* Removed and added text are marked by colour with an alpha, which reads on light and dark
 * backgrounds alike, and removed text is also struck through for those who cannot tell the
 * colours apart. */
#define REMOVED_SPAN "<span background=\"#e01b24\" bgalpha=\"22%\" strikethrough=\"true\">"
#define ADDED_SPAN "<span background=\"#2ec27e\" bgalpha=\"28%\">"

static char *
word_diff_markup (const char *old_text, const char *new_text)
{
  g_autoptr (GPtrArray) spans = ddb_word_diff (old_text, new_text);
  GString *markup = g_string_new (NULL);

  for (guint i = 0; i < spans->len; i++)
    {
      DdbWordSpan *s = g_ptr_array_index (spans, i);
      g_autofree char *escaped = g_markup_escape_text (s->text, -1);

      if (s->op == DDB_WORD_SAME)
        g_string_append (markup, escaped);
      else if (s->op == DDB_WORD_ADDED && i > 0
               && ((DdbWordSpan *) g_ptr_array_index (spans, i - 1))->op == DDB_WORD_REMOVED)
        /* a gap between the struck and the new words, so that they do not run together */
        g_string_append_printf (markup, " %s%s</span>", ADDED_SPAN, escaped);
      else
        g_string_append_printf (markup, "%s%s</span>",
                                s->op == DDB_WORD_REMOVED ? REMOVED_SPAN : ADDED_SPAN, escaped);
    }
  return g_string_free (markup, FALSE);
}

/* "old → new" with absent sides said in words. */
static char *
change_markup (const DdbValue *old_value, const DdbValue *new_value)
{
  g_autofree char *old_text = value_text (old_value);
  g_autofree char *new_text = value_text (new_value);
  g_autofree char *old_escaped = NULL;
  g_autofree char *new_escaped = NULL;

  if (old_value != NULL && new_value != NULL
      && (is_long_string (old_value) || is_long_string (new_value))
      && old_value->type == new_value->type)
    return word_diff_markup (old_value->bytes.data, new_value->bytes.data);
  if (old_value == NULL)
    {
      new_escaped = g_markup_escape_text (new_text, -1);
      return g_strdup_printf ("%s%s</span>", ADDED_SPAN, new_escaped);
    }
  if (new_value == NULL)
    {
      old_escaped = g_markup_escape_text (old_text, -1);
      /* TRANSLATORS: an attribute removed by a change, after its old value */
      return g_strdup_printf ("%s%s</span> <i>%s</i>", REMOVED_SPAN, old_escaped, _ ("removed"));
    }
  old_escaped = g_markup_escape_text (old_text, -1);
  new_escaped = g_markup_escape_text (new_text, -1);
  return g_strdup_printf ("%s%s</span> → %s%s</span>", REMOVED_SPAN, old_escaped, ADDED_SPAN,
                          new_escaped);
}

/* Cards. */

static GtkWidget *
label_new (const char *text, const char *css)
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

static char *
key_title (const DdbValue *key)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < ddb_value_map_size (key); i++)
    {
      g_autofree char *part = dy_format_key (ddb_value_map_nth (key, i)->value);

      if (i > 0)
        g_string_append (text, " · ");
      g_string_append (text, part);
    }
  return g_string_free (text, FALSE);
}

static GtkWidget *
kind_badge (DdbChangeKind kind)
{
  static const char *const css[] = { "staged-create", "staged-update", "staged-delete" };
  const char *text[]
      = { C_ ("change", "Create"), C_ ("change", "Update"), C_ ("change", "Delete") };
  GtkWidget *badge = label_new (text[kind], "staged-badge");

  gtk_widget_add_css_class (badge, css[kind]);
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  return badge;
}

static void
add_entry_row (GtkGrid *grid, int row, const DdbChange *change, const DdbDiffEntry *e)
{
  g_autofree char *path = ddb_path_to_string (&e->path);
  g_autofree char *markup = change_markup (e->old_value, e->new_value);
  GtkWidget *path_label = label_new (path, "monospace");
  GtkWidget *value = label_new (NULL, NULL);
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

static GtkWidget *
build_card (DyStagingPanel *self, const DdbChange *change)
{
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *titles = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  g_autofree char *title = key_title (change->key);
  GtkWidget *title_label = label_new (title, "heading");
  GtkWidget *grid = gtk_grid_new ();
  g_autoptr (GPtrArray) diff = ddb_change_diff (change);
  gboolean busy = change->state == DDB_CHANGE_SENDING;

  gtk_widget_add_css_class (card, "card");
  gtk_widget_add_css_class (card, "staged-card");
  gtk_label_set_ellipsize (GTK_LABEL (title_label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (title_label), 24);
  gtk_widget_set_tooltip_text (title_label, title);
  gtk_box_append (GTK_BOX (titles), title_label);
  gtk_box_append (GTK_BOX (titles), label_new (change->table, "caption"));
  gtk_widget_add_css_class (gtk_widget_get_last_child (titles), "dim-label");
  gtk_widget_set_hexpand (titles, TRUE);
  gtk_box_append (GTK_BOX (header), kind_badge (change->kind));
  gtk_box_append (GTK_BOX (header), titles);
  if (!busy)
    {
      /* a conflict or a failure is not sent again until it is put back (Compare, Retry) */
      if (change->state == DDB_CHANGE_STAGED)
        gtk_box_append (GTK_BOX (header),
                        icon_button ("document-send-symbolic", _ ("Commit This Change"),
                                     "panel.commit-one", g_variant_new_int64 (change->id)));
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
          text = label_new (_ ("Conflict: the item changed since it was staged. Nothing was "
                               "written."),
                            NULL);
        }
      else if (busy)
        text = label_new (_ ("Sent: its outcome is checked at the next commit"), NULL);
      else
        {
          g_autofree char *message = g_strdup_printf (_ ("Failed: %s"), change->message);

          gtk_widget_add_css_class (state, "failed");
          text = label_new (message, NULL);
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

      gtk_grid_attach (GTK_GRID (grid), label_new (more, "dim-label"), 0, MAX_ENTRIES, 3, 1);
    }
  gtk_box_append (GTK_BOX (card), grid);
  return card;
}

static void
clear_cards (DyStagingPanel *self)
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

static DdbChange *
copy_change (const DdbChange *change)
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

static gboolean
same_value (const DdbValue *a, const DdbValue *b)
{
  return a == NULL ? b == NULL : b != NULL && ddb_value_equal (a, b);
}

/* Whether a card drawn for A shows B as well. */
static gboolean
same_change (const DdbChange *a, const DdbChange *b)
{
  return a->id == b->id && a->kind == b->kind && a->state == b->state
         && g_strcmp0 (a->message, b->message) == 0 && same_value (a->target, b->target)
         && same_value (a->original, b->original) && same_value (a->current, b->current);
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

      self->more_label = label_new (text, "dim-label");
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
static void
finish_cards (DyStagingPanel *self)
{
  if (self->building != NULL)
    build_step (self, G_MAXUINT);
  g_clear_handle_id (&self->build_id, g_source_remove);
}

static void
show_cards (DyStagingPanel *self, GPtrArray *changes)
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
    g_ptr_array_add (self->building, copy_change (g_ptr_array_index (changes, i)));
  self->building_total = changes->len;
  self->build_index = 0;
  self->build_prev = NULL;
  if (!build_step (self, CARDS_PER_STEP))
    self->build_id = g_idle_add (build_idle, self);
}

static void
update_actions (DyStagingPanel *self)
{
  gboolean committing = self->cancellable != NULL;
  gboolean any = self->n_changes > 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.commit-all", any && !committing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.commit-one", !committing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.discard-all", any && !committing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.discard", !committing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.reject", !committing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.requeue", !committing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.cancel", committing);
}

static void
set_n_changes (DyStagingPanel *self, guint n)
{
  if (self->n_changes == n)
    return;
  self->n_changes = n;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_CHANGES]);
}

static void
refresh (DyStagingPanel *self)
{
  GPtrArray *changes = NULL;
  const GError *error = NULL;
  guint n_tables = 0;
  g_autofree char *summary = NULL;

  g_clear_handle_id (&self->refresh_id, g_source_remove);
  /* the store is read on a worker thread: this shows its last snapshot, and is called again
   * when a newer one is in */
  if (self->connection != NULL)
    changes = dy_staging_peek (self->staging, self->connection, &n_tables, &error);
  if (changes == NULL && self->connection != NULL && error == NULL)
    {
      /* the first read is under way: keep what is shown rather than flash an empty list */
      gtk_label_set_text (self->summary_label, _ ("Reading the staged changes…"));
      update_actions (self);
      return;
    }
  if (changes == NULL)
    {
      clear_cards (self);
      g_autofree char *described
          = error != NULL ? dy_connection_describe_error (self->connection, error, NULL) : NULL;
      g_autofree char *text
          = error != NULL
                ? g_strdup_printf (_ ("The staged changes could not be read: %s"), described)
                : g_strdup (_ ("Open a table to see its connection’s changes"));

      gtk_label_set_text (self->summary_label, text);
      gtk_stack_set_visible_child_name (self->list_stack, "empty");
      set_n_changes (self, 0);
      update_actions (self);
      return;
    }
  set_n_changes (self, changes->len);
  show_cards (self, changes);
  /* TRANSLATORS: "3 changes in 2 tables · Demo" */
  summary = g_strdup_printf (g_dngettext (NULL, "%u change in %u table · %s",
                                          "%u changes in %u tables · %s", changes->len),
                             changes->len, n_tables, dy_connection_get_title (self->connection));
  gtk_label_set_text (self->summary_label,
                      changes->len > 0 ? summary : dy_connection_get_title (self->connection));
  gtk_stack_set_visible_child_name (self->list_stack, changes->len > 0 ? "list" : "empty");
  update_actions (self);
}

static gboolean
refresh_idle (gpointer data)
{
  DyStagingPanel *self = data;

  self->refresh_id = 0;
  refresh (self);
  return G_SOURCE_REMOVE;
}

static void
staging_changed (DyStagingPanel *self)
{
  /* many changes may come at once (a fan-out): one rebuild */
  if (self->refresh_id == 0)
    self->refresh_id = g_idle_add (refresh_idle, self);
}

/* Committing. */

static void
show_report (DyStagingPanel *self, const DdbCommitReport *report, const GError *error)
{
  static const char *const classes[] = { "report-ok", "report-warning", "report-error" };
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *title = NULL;
  int severity;
  guint done = report->committed + report->conflicts + report->failed;

  self->has_report = TRUE;
  self->report_counts[0] = report->committed;
  self->report_counts[1] = report->conflicts;
  self->report_counts[2] = report->failed;
  /* TRANSLATORS: the outcome of a commit: "3 committed · 1 conflict · 0 failed" */
  g_string_append_printf (text, _ ("%u committed · %u conflicted · %u failed"), report->committed,
                          report->conflicts, report->failed);
  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      title = g_strdup (_ ("Commit cancelled"));
      g_string_append (text, _ ("\nWhat was not sent stays staged."));
      severity = 1;
    }
  else if (error != NULL)
    {
      title = g_strdup (_ ("Commit stopped"));
      g_autofree char *described
          = self->connection != NULL ? dy_connection_describe_error (self->connection, error, NULL)
                                     : g_strdup (error->message);

      g_string_append_printf (text, "\n%s", described);
      severity = 2;
    }
  else if (report->failed > 0)
    {
      title = g_strdup_printf (
          g_dngettext (NULL, "%u change failed", "%u changes failed", report->failed),
          report->failed);
      severity = 2;
    }
  else if (report->conflicts > 0)
    {
      title = g_strdup_printf (g_dngettext (NULL, "%u conflict", "%u conflicts", report->conflicts),
                               report->conflicts);
      g_string_append (text, _ ("\nConflicted changes stay staged and were not written: "
                                "compare each with the item as it is now."));
      severity = 1;
    }
  else
    {
      title = g_strdup_printf (
          g_dngettext (NULL, "%u change committed", "%u changes committed", done), done);
      severity = 0;
    }
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (self->report_box), classes[i]);
  gtk_widget_add_css_class (GTK_WIDGET (self->report_box), classes[severity]);
  gtk_image_set_from_icon_name (self->report_icon, severity == 0   ? "emblem-ok-symbolic"
                                                   : severity == 1 ? "dialog-warning-symbolic"
                                                                   : "dialog-error-symbolic");
  gtk_label_set_text (self->report_title, title);
  gtk_label_set_text (self->report_label, text->str);
  g_free (self->report_text);
  self->report_text = g_strdup_printf ("%s\n%s", title, text->str);
  gtk_revealer_set_reveal_child (self->report_revealer, TRUE);
}

static void
commit_progress (const DdbCommitProgress *progress, gpointer user_data)
{
  DyStagingPanel *self = user_data;
  guint done = progress->committed + progress->conflicts + progress->failed;
  double seconds = (g_get_monotonic_time () - self->commit_started) / (double) G_USEC_PER_SEC;
  g_autofree char *text = NULL;

  if (self->cancellable == NULL || self->disposed)
    return; /* a late report of a commit that has finished */
  gtk_progress_bar_set_fraction (self->progress_bar,
                                 progress->total > 0 ? (double) done / progress->total : 0);
  /* TRANSLATORS: commit progress: "40 of 100 · 230 changes/s" */
  text = g_strdup_printf (_ ("%u of %u · %.0f changes/s"), done, progress->total,
                          seconds > 0.05 ? done / seconds : 0.0);
  gtk_label_set_text (self->progress_label, text);
}

static void
commit_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyStagingPanel) self = user_data;
  DdbCommitReport report = { 0 };
  g_autoptr (GError) error = NULL;

  dy_staging_commit_finish (DY_STAGING (source), result, &report, &error);
  g_clear_object (&self->cancellable);
  if (self->disposed)
    {
      ddb_commit_report_clear (&report);
      return;
    }
  gtk_revealer_set_reveal_child (self->progress_revealer, FALSE);
  show_report (self, &report, error);
  ddb_commit_report_clear (&report);
  refresh (self);
}

static void
start_commit (DyStagingPanel *self, gint64 change_id)
{
  DdbCommitMode mode = gtk_drop_down_get_selected (self->mode_dropdown) == 1
                           ? DDB_COMMIT_SINGLE
                           : DDB_COMMIT_TRANSACTIONS;

  if (self->connection == NULL || self->cancellable != NULL)
    return;
  self->cancellable = g_cancellable_new ();
  self->commit_started = g_get_monotonic_time ();
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_label_set_text (self->progress_label, _ ("Starting…"));
  gtk_revealer_set_reveal_child (self->progress_revealer, TRUE);
  gtk_revealer_set_reveal_child (self->report_revealer, FALSE);
  update_actions (self);
  dy_staging_commit_async (self->staging, self->connection, NULL, change_id, mode,
                           self->cancellable, commit_progress, self, commit_done,
                           g_object_ref (self));
}

/* Change ID as its card shows it (a card is built from the last read of the store), else read
 * from the store: the store's one row, not its whole list. A copy. */
static DdbChange *
get_change (DyStagingPanel *self, gint64 id, GError **error)
{
  GtkWidget *card;
  const DdbChange *shown;

  card = g_hash_table_lookup (self->cards, &id);
  shown = card != NULL ? g_object_get_data (G_OBJECT (card), "dy-change") : NULL;
  return shown != NULL ? copy_change (shown) : dy_staging_get (self->staging, id, error);
}

/* Conflicts. */

static void
grid_cell (GtkGrid *grid, int column, int row, const char *text, const char *css)
{
  GtkWidget *label = label_new (text, css);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  gtk_widget_set_valign (label, GTK_ALIGN_START);
  gtk_grid_attach (grid, label, column, row, 1, 1);
}

static void
conflict_response (AdwMessageDialog *dialog, const char *response, gpointer user_data)
{
  DyStagingPanel *self = user_data;
  gint64 id = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (dialog), "dy-change-id"));
  g_autoptr (GError) error = NULL;
  gboolean ok = TRUE;

  if (g_str_equal (response, "discard"))
    ok = dy_staging_discard (self->staging, id, &error);
  else if (g_str_equal (response, "requeue"))
    ok = dy_staging_requeue (self->staging, id, &error);
  if (!ok)
    toast_error (self, error);
}

GtkWidget *
dy_staging_panel_show_conflict (DyStagingPanel *self, gint64 id)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbChange) change = get_change (self, id, &error);
  g_autoptr (GPtrArray) diff = NULL;
  g_autofree char *title = NULL;
  GtkWidget *dialog, *grid;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (change == NULL)
    {
      toast_error (self, error);
      return NULL;
    }
  if (change->state != DDB_CHANGE_CONFLICT)
    return NULL;
  diff = ddb_change_diff (change);
  title = key_title (change->key);
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, title,
                                   change->current == NULL
                                       ? _ ("The item no longer exists. Nothing was written.")
                                       : _ ("The item changed since this change was staged, so "
                                            "its condition failed and nothing was written. "
                                            "Compare what it expected with what the table holds "
                                            "now."));
  grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_widget_add_css_class (grid, "conflict-grid");
  /* a message dialog is narrow by default; four columns of values need room */
  gtk_widget_set_size_request (grid, 560, -1);
  grid_cell (GTK_GRID (grid), 0, 0, _ ("Attribute"), "heading");
  grid_cell (GTK_GRID (grid), 1, 0, _ ("Expected"), "heading");
  grid_cell (GTK_GRID (grid), 2, 0, _ ("Current"), "heading");
  grid_cell (GTK_GRID (grid), 3, 0, _ ("Staged"), "heading");
  for (guint i = 0; i < diff->len; i++)
    {
      DdbDiffEntry *e = g_ptr_array_index (diff, i);
      g_autofree char *path = ddb_path_to_string (&e->path);
      const DdbValue *now
          = change->current != NULL ? ddb_path_lookup (change->current, &e->path) : NULL;
      g_autofree char *expected = value_text (e->old_value);
      g_autofree char *current = value_text (now);
      g_autofree char *staged = value_text (e->new_value);
      gboolean differs = (now == NULL) != (e->old_value == NULL)
                         || (now != NULL && !ddb_value_equal (now, e->old_value));

      grid_cell (GTK_GRID (grid), 0, (int) i + 1, path, "monospace");
      grid_cell (GTK_GRID (grid), 1, (int) i + 1, expected != NULL ? expected : _ ("(absent)"),
                 NULL);
      grid_cell (GTK_GRID (grid), 2, (int) i + 1, current != NULL ? current : _ ("(absent)"),
                 differs ? "conflict-value" : NULL);
      grid_cell (GTK_GRID (grid), 3, (int) i + 1, staged != NULL ? staged : _ ("(absent)"), NULL);
    }
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), grid);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "discard", _ ("_Discard Change"),
                                    "requeue", _ ("_Overwrite at Next Commit"), "close",
                                    _ ("_Keep Staged"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "close");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "close");
  g_object_set_data (G_OBJECT (dialog), "dy-change-id", GSIZE_TO_POINTER ((gsize) id));
  g_signal_connect_object (dialog, "response", G_CALLBACK (conflict_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

/* Actions. */

static void
reject_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyStagingPanel *self = DY_STAGING_PANEL (widget);
  g_autoptr (GError) error = NULL;
  gint64 id;
  const char *path;

  g_variant_get (parameter, "(x&s)", &id, &path);
  if (!dy_staging_reject_path (self->staging, id, path, &error))
    toast_error (self, error);
}

static void
fanout_staged (DyFanoutDialog *dialog, guint n, DyStagingPanel *self)
{
  g_autofree char *text
      = g_strdup_printf (g_dngettext (NULL, "%u copy staged", "%u copies staged", n), n);

  toast (self, text);
}

/* The fan-out dialog prefilled from one changed attribute of a staged update. */
static void
fanout_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyStagingPanel *self = DY_STAGING_PANEL (widget);
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbChange) change = NULL;
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *dialog;
  const DdbValue *old_value, *new_value;
  const char *path;
  gint64 id;

  g_variant_get (parameter, "(x&s)", &id, &path);
  change = get_change (self, id, &error);
  if (change == NULL || self->connection == NULL)
    {
      if (error != NULL)
        toast_error (self, error);
      return;
    }
  /* only an update's changed top-level value has copies to fan out to */
  if (change->kind != DDB_CHANGE_UPDATE)
    return;
  old_value = ddb_value_map_get (change->original, path);
  new_value = ddb_value_map_get (change->target, path);
  if (old_value == NULL || new_value == NULL)
    return;
  dialog = dy_fanout_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, self->staging,
                                 self->connection, change->table);
  dy_fanout_dialog_set_change (DY_FANOUT_DIALOG (dialog), path, old_value, new_value);
  g_signal_connect_object (dialog, "staged", G_CALLBACK (fanout_staged), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
discard_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyStagingPanel *self = DY_STAGING_PANEL (widget);
  g_autoptr (GError) error = NULL;

  if (!dy_staging_discard (self->staging, g_variant_get_int64 (parameter), &error))
    toast_error (self, error);
}

static void
requeue_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyStagingPanel *self = DY_STAGING_PANEL (widget);
  g_autoptr (GError) error = NULL;

  if (!dy_staging_requeue (self->staging, g_variant_get_int64 (parameter), &error))
    toast_error (self, error);
}

static void
commit_one_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  start_commit (DY_STAGING_PANEL (widget), g_variant_get_int64 (parameter));
}

static void
commit_all_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  start_commit (DY_STAGING_PANEL (widget), 0);
}

static void
cancel_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyStagingPanel *self = DY_STAGING_PANEL (widget);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

static void
show_conflict_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_staging_panel_show_conflict (DY_STAGING_PANEL (widget), g_variant_get_int64 (parameter));
}

static void
discard_all_response (AdwMessageDialog *dialog, const char *response, gpointer user_data)
{
  DyStagingPanel *self = user_data;
  g_autoptr (GError) error = NULL;

  if (g_str_equal (response, "discard") && self->connection != NULL
      && !dy_staging_discard_all (self->staging, self->connection, NULL, &error))
    toast_error (self, error);
}

static void
discard_all_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyStagingPanel *self = DY_STAGING_PANEL (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autofree char *body = g_strdup_printf (
      g_dngettext (NULL, "%u staged change of %s will be lost. The tables are not touched.",
                   "%u staged changes of %s will be lost. The tables are not touched.",
                   self->n_changes),
      self->n_changes, self->connection != NULL ? dy_connection_get_title (self->connection) : "");
  GtkWidget *dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                              _ ("Discard All Staged Changes?"), body);

  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "discard",
                                    _ ("_Discard All"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (discard_all_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
dismiss_report_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  gtk_revealer_set_reveal_child (DY_STAGING_PANEL (widget)->report_revealer, FALSE);
}

/* GObject. */

static void
dy_staging_panel_dispose (GObject *object)
{
  DyStagingPanel *self = DY_STAGING_PANEL (object);

  self->disposed = TRUE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  g_clear_handle_id (&self->build_id, g_source_remove);
  if (self->staging != NULL)
    g_signal_handlers_disconnect_by_data (self->staging, self);
  g_clear_object (&self->staging);
  g_clear_object (&self->connection);
  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_STAGING_PANEL);
  G_OBJECT_CLASS (dy_staging_panel_parent_class)->dispose (object);
}

static void
dy_staging_panel_finalize (GObject *object)
{
  DyStagingPanel *self = DY_STAGING_PANEL (object);

  g_hash_table_unref (self->cards);
  g_clear_pointer (&self->building, g_ptr_array_unref);
  g_clear_object (&self->cancellable);
  g_free (self->report_text);
  G_OBJECT_CLASS (dy_staging_panel_parent_class)->finalize (object);
}

static void
dy_staging_panel_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  DyStagingPanel *self = DY_STAGING_PANEL (object);

  switch (prop_id)
    {
    case PROP_N_CHANGES:
      g_value_set_uint (value, self->n_changes);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dy_staging_panel_class_init (DyStagingPanelClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->get_property = dy_staging_panel_get_property;
  properties[PROP_N_CHANGES]
      = g_param_spec_uint ("n-changes", NULL, NULL, 0, G_MAXUINT, 0,
                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (G_OBJECT_CLASS (klass), N_PROPS, properties);
  G_OBJECT_CLASS (klass)->dispose = dy_staging_panel_dispose;
  G_OBJECT_CLASS (klass)->finalize = dy_staging_panel_finalize;
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/dynoscope/Dynoscope/dy-staging-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, summary_label);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, report_revealer);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, report_box);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, report_icon);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, report_title);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, report_label);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, list_stack);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, card_box);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, progress_revealer);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, progress_label);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, mode_dropdown);

  gtk_widget_class_install_action (widget_class, "panel.reject", "(xs)", reject_action);
  gtk_widget_class_install_action (widget_class, "panel.discard", "x", discard_action);
  gtk_widget_class_install_action (widget_class, "panel.fanout", "(xs)", fanout_action);
  gtk_widget_class_install_action (widget_class, "panel.requeue", "x", requeue_action);
  gtk_widget_class_install_action (widget_class, "panel.commit-one", "x", commit_one_action);
  gtk_widget_class_install_action (widget_class, "panel.show-conflict", "x", show_conflict_action);
  gtk_widget_class_install_action (widget_class, "panel.commit-all", NULL, commit_all_action);
  gtk_widget_class_install_action (widget_class, "panel.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "panel.discard-all", NULL, discard_all_action);
  gtk_widget_class_install_action (widget_class, "panel.dismiss-report", NULL,
                                   dismiss_report_action);
}

static void
dy_staging_panel_init (DyStagingPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cards = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}

GtkWidget *
dy_staging_panel_new (DyStaging *staging)
{
  DyStagingPanel *self = g_object_new (DY_TYPE_STAGING_PANEL, NULL);

  self->staging = g_object_ref (staging != NULL ? staging : dy_staging_get_default ());
  g_signal_connect_swapped (self->staging, "changed", G_CALLBACK (staging_changed), self);
  refresh (self);
  return GTK_WIDGET (self);
}

void
dy_staging_panel_set_connection (DyStagingPanel *self, DyConnection *connection)
{
  if (self->connection == connection)
    return;
  g_set_object (&self->connection, connection);
  /* what is shown, and the last report, were another connection's */
  clear_cards (self);
  set_n_changes (self, 0);
  gtk_stack_set_visible_child_name (self->list_stack, "empty");
  gtk_revealer_set_reveal_child (self->report_revealer, FALSE);
  if (connection != NULL)
    dy_staging_prepare (self->staging, connection);
  refresh (self);
}

DyConnection *
dy_staging_panel_get_connection (DyStagingPanel *self)
{
  return self->connection;
}

void
dy_staging_panel_set_mode (DyStagingPanel *self, DdbCommitMode mode)
{
  gtk_drop_down_set_selected (self->mode_dropdown, mode == DDB_COMMIT_SINGLE ? 1 : 0);
}

guint
dy_staging_panel_get_n_changes (DyStagingPanel *self)
{
  return self->n_changes;
}

guint
dy_staging_panel_get_n_cards (DyStagingPanel *self)
{
  if (self->refresh_id != 0)
    refresh (self);
  finish_cards (self);
  return g_hash_table_size (self->cards);
}

static void
collect_text (GtkWidget *widget, GString *out)
{
  if (GTK_IS_LABEL (widget))
    {
      g_string_append (out, gtk_label_get_text (GTK_LABEL (widget)));
      g_string_append_c (out, '\n');
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_text (child, out);
}

char *
dy_staging_panel_dup_card_text (DyStagingPanel *self, gint64 id)
{
  GtkWidget *card;
  GString *out;

  if (self->refresh_id != 0)
    refresh (self);
  finish_cards (self);
  card = g_hash_table_lookup (self->cards, &id);
  if (card == NULL)
    return NULL;
  out = g_string_new (NULL);
  collect_text (card, out);
  return g_string_free (out, FALSE);
}

gboolean
dy_staging_panel_get_committing (DyStagingPanel *self)
{
  return self->cancellable != NULL;
}

gboolean
dy_staging_panel_get_report (DyStagingPanel *self, guint *committed, guint *conflicts,
                             guint *failed)
{
  if (committed != NULL)
    *committed = self->report_counts[0];
  if (conflicts != NULL)
    *conflicts = self->report_counts[1];
  if (failed != NULL)
    *failed = self->report_counts[2];
  return self->has_report;
}

const char *
dy_staging_panel_get_report_text (DyStagingPanel *self)
{
  return self->report_text;
}
