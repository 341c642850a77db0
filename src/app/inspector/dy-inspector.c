/* dy-inspector.c: the item inspector: typed tree, DynamoDB JSON editor, plain JSON view; what
 * it shows, validation, drafts and the stage actions. The tree's columns are
 * dy-inspector-tree.c, the key checks and drafts' parsing dy-inspector-key.c. */
#define G_LOG_DOMAIN "dynoscope-inspector"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "app/common/dy-format.h"
#include "app/inspector/dy-inspector-private.h"
#include "app/inspector/dy-node.h"
#include "core/ddbjson.h"
#include "core/error.h"
#include "core/itemsize.h"
#include "core/plainjson.h"
#include "staging/diff.h"

/* Long enough not to flash errors at every keystroke, short enough to feel immediate. */
#define VALIDATE_DELAY_MS 250

G_DEFINE_FINAL_TYPE (DyInspector, dy_inspector, GTK_TYPE_BOX)

enum { SIGNAL_STAGE, SIGNAL_ITEM_CHANGED, SIGNAL_DRAFT, N_SIGNALS };

static guint signals[N_SIGNALS];

static void validate (DyInspector *self);

/* What the panes show. */

static GtkTextBuffer *
json_buffer (DyInspector *self)
{
  return gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));
}

static void
update_scheme (DyInspector *self)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  const char *id = adw_style_manager_get_dark (manager) ? "Adwaita-dark" : "Adwaita";
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (schemes, id);
  GtkSourceView *views[] = { self->json_view, self->plain_view };

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    gtk_source_buffer_set_style_scheme (
        GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (views[i]))), scheme);
}

/* The tree and the size meter for ITEM (the valid edited item, else the base). */
static void
show_item (DyInspector *self, const DdbValue *item)
{
  g_autoptr (DyItem) shown = dy_item_new (ddb_value_copy (item));
  GtkTreeListModel *tree;
  gsize size = dy_item_get_size (shown);
  g_autofree char *size_text = dy_format_size (size);
  g_autofree char *limit_text = dy_format_size (DDB_MAX_ITEM_SIZE);
  g_autofree char *label = NULL;
  g_autofree char *plain = NULL;
  g_autoptr (GError) error = NULL;

  tree = dy_inspector_tree_model_new (shown);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (tree));
  g_object_unref (tree);

  /* TRANSLATORS: item size against DynamoDB's limit, e.g. "1.2 KB of 400.0 KB (0.3 %)" */
  label = g_strdup_printf (_ ("%s of %s (%.1f %%)"), size_text, limit_text,
                           100.0 * size / DDB_MAX_ITEM_SIZE);
  gtk_label_set_text (self->size_label, label);
  gtk_level_bar_set_value (self->size_bar, MIN ((double) size, (double) DDB_MAX_ITEM_SIZE));

  plain = ddb_plain_format_item (item, DDB_PLAIN_TAGGED | DDB_PLAIN_PRETTY, &error);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->plain_view)),
                            plain != NULL ? plain : error->message, -1);
}

static void
show_message (DyInspector *self, MessageKind kind, const char *path, const char *text)
{
  static const char *const classes[] = { NULL, "error", "changes", "staged" };
  static const char *const icons[]
      = { NULL, "dialog-error-symbolic", "document-edit-symbolic", "emblem-ok-symbolic" };

  for (guint i = 1; i < G_N_ELEMENTS (classes); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (self->message_box), classes[i]);
  gtk_revealer_set_reveal_child (self->message_revealer, kind != MESSAGE_NONE);
  if (kind == MESSAGE_NONE)
    return;
  gtk_widget_add_css_class (GTK_WIDGET (self->message_box), classes[kind]);
  gtk_image_set_from_icon_name (self->message_icon, icons[kind]);
  gtk_widget_set_visible (GTK_WIDGET (self->message_path), path != NULL);
  gtk_label_set_text (self->message_path, path != NULL ? path : "");
  gtk_label_set_text (self->message_label, text);
}

static void
update_badge (DyInspector *self)
{
  const char *text = NULL;
  const char *css = NULL;

  if (self->creating)
    text = _ ("New"), css = "staged-create";
  else if (self->staged_kind == DY_INSPECTOR_STAGE_UPDATE)
    text = _ ("Staged edit"), css = "staged-update";
  else if (self->staged_kind == DY_INSPECTOR_STAGE_CREATE)
    text = _ ("Staged new"), css = "staged-create";
  else if (self->staged_kind == DY_INSPECTOR_STAGE_DELETE)
    text = _ ("Staged delete"), css = "staged-delete";
  gtk_widget_set_visible (GTK_WIDGET (self->state_badge), text != NULL);
  gtk_widget_remove_css_class (GTK_WIDGET (self->state_badge), "staged-create");
  gtk_widget_remove_css_class (GTK_WIDGET (self->state_badge), "staged-update");
  gtk_widget_remove_css_class (GTK_WIDGET (self->state_badge), "staged-delete");
  if (text != NULL)
    {
      gtk_label_set_text (self->state_badge, text);
      gtk_widget_add_css_class (GTK_WIDGET (self->state_badge), css);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->draft_badge), dy_inspector_get_has_draft (self));
}

static void
update_actions (DyInspector *self)
{
  gboolean known = self->pk_name != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "inspector.stage",
                                 dy_inspector_get_can_stage (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "inspector.revert",
                                 dy_inspector_get_has_draft (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "inspector.delete-item",
                                 known && self->item != NULL && !self->creating
                                     && self->staged_kind != DY_INSPECTOR_STAGE_DELETE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "inspector.new-item", known);
}

/* Loads VALUE into the editor as the new starting point. */
static void
load_base (DyInspector *self, DdbValue *value)
{
  json_t *json;
  g_autofree char *text = NULL;

  g_clear_handle_id (&self->validate_id, g_source_remove);
  g_clear_pointer (&self->base, ddb_value_free);
  g_clear_pointer (&self->edited, ddb_value_free);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->loaded_text, g_free);
  self->base = value;
  if (value == NULL)
    {
      self->loading = TRUE;
      gtk_text_buffer_set_text (json_buffer (self), "", 0);
      self->loading = FALSE;
      return;
    }
  self->edited = ddb_value_copy (value);
  json = ddb_item_to_json (value);
  text = json_dumps (json, JSON_INDENT (2));
  json_decref (json);
  self->loaded_text = g_strdup (text);
  self->loading = TRUE;
  gtk_text_buffer_begin_irreversible_action (json_buffer (self));
  gtk_text_buffer_set_text (json_buffer (self), text, -1);
  gtk_text_buffer_end_irreversible_action (json_buffer (self));
  self->loading = FALSE;
  show_item (self, value);
  show_message (self, MESSAGE_NONE, NULL, NULL);
}

/* Validation. */

static const DdbValue *
original (DyInspector *self)
{
  return self->item != NULL ? dy_item_get_value (self->item) : NULL;
}

static DdbValue *
parse_editor_item (DyInspector *self, const char *text, GError **error)
{
  const char *names[] = { self->pk_name, self->sk_name };
  const DdbType types[] = { self->pk_type, self->sk_type };

  return dy_inspector_parse_item (names, types, original (self), self->creating,
                     self->schema_error != NULL
                         ? self->schema_error
                         : _ ("The table’s key schema is not known yet: wait for its "
                              "description to load"),
                     text, error);
}

/* "a, b.c and 3 more" */
static char *
changed_paths_text (GPtrArray *diff)
{
  GString *text = g_string_new (NULL);
  guint shown = MIN (diff->len, 4u);

  for (guint i = 0; i < shown; i++)
    {
      DdbDiffEntry *e = g_ptr_array_index (diff, i);
      g_autofree char *path = ddb_path_to_string (&e->path);

      if (i > 0)
        g_string_append (text, ", ");
      g_string_append (text, path);
    }
  if (diff->len > shown)
    /* TRANSLATORS: after a list of changed attribute paths */
    g_string_append_printf (text, _ (" and %u more"), diff->len - shown);
  return g_string_free (text, FALSE);
}

/* The line an error is on: "(line N, column M)" of a JSON syntax error, else the line of the
 * first attribute of its path. 0 when not known. */
static int
error_line (const char *text, const char *message)
{
  const char *at = strstr (message, "(line ");
  const char *sep = strstr (message, DDB_JSON_PATH_SEPARATOR);

  if (at != NULL)
    return (int) g_ascii_strtoll (at + strlen ("(line "), NULL, 10);
  if (sep != NULL)
    {
      const char *path = sep + strlen (DDB_JSON_PATH_SEPARATOR);
      gsize n = strcspn (path, ".[");
      g_autofree char *needle = g_strdup_printf ("\"%.*s\":", (int) n, path);
      const char *found = strstr (text, needle);
      int line = 1;

      if (found == NULL)
        return 0;
      for (const char *p = text; p < found; p++)
        line += *p == '\n';
      return line;
    }
  return 0;
}

static void
mark_error_line (DyInspector *self, int line)
{
  GtkTextBuffer *buffer = json_buffer (self);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag_by_name (buffer, "dy-error", &start, &end);
  if (line <= 0 || line > gtk_text_buffer_get_line_count (buffer))
    return;
  gtk_text_buffer_get_iter_at_line (buffer, &start, line - 1);
  end = start;
  if (!gtk_text_iter_ends_line (&end))
    gtk_text_iter_forward_to_line_end (&end);
  gtk_text_buffer_apply_tag_by_name (buffer, "dy-error", &start, &end);
}

static void
validate (DyInspector *self)
{
  GtkTextIter start, end;
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  DdbValue *item;

  g_clear_handle_id (&self->validate_id, g_source_remove);
  if (self->base == NULL)
    return;
  gtk_text_buffer_get_bounds (json_buffer (self), &start, &end);
  text = gtk_text_buffer_get_text (json_buffer (self), &start, &end, FALSE);
  item = parse_editor_item (self, text, &error);
  g_clear_pointer (&self->edited, ddb_value_free);
  g_clear_pointer (&self->error, g_free);
  if (item == NULL)
    {
      const char *sep = strstr (error->message, DDB_JSON_PATH_SEPARATOR);
      g_autofree char *message = sep != NULL ? g_strndup (error->message, sep - error->message)
                                             : g_strdup (error->message);
      g_autofree char *path = NULL;

      if (sep != NULL)
        /* TRANSLATORS: where in the item an error is, e.g. "At settings.theme" */
        path = g_strdup_printf (_ ("At %s"), sep + strlen (DDB_JSON_PATH_SEPARATOR));
      self->error = g_strdup (error->message);
      show_message (self, MESSAGE_ERROR, path, message);
      mark_error_line (self, error_line (text, error->message));
    }
  else
    {
      g_autoptr (GPtrArray) diff = NULL;

      self->edited = item;
      mark_error_line (self, 0);
      show_item (self, item);
      if (ddb_value_equal (item, self->base))
        show_message (self, MESSAGE_NONE, NULL, NULL);
      else if (self->creating)
        show_message (self, MESSAGE_CHANGES, NULL,
                      _ ("A new item: stage it to review it before it is written"));
      else
        {
          g_autofree char *paths = NULL;
          g_autofree char *message = NULL;

          diff = dy_inspector_get_diff (self);
          paths = changed_paths_text (diff);
          message = diff->len == 0
                        ? g_strdup (_ ("Back to the item as stored: staging this removes the "
                                       "staged edit"))
                        : g_strdup_printf (
                            g_dngettext (NULL, "%u change: %s", "%u changes: %s", diff->len),
                            diff->len, paths);
          show_message (self, MESSAGE_CHANGES, NULL, message);
        }
    }
  update_badge (self);
  update_actions (self);
}

static gboolean
validate_timeout (gpointer data)
{
  DyInspector *self = data;

  self->validate_id = 0;
  validate (self);
  return G_SOURCE_REMOVE;
}

static void
buffer_changed (DyInspector *self)
{
  if (self->loading)
    return;
  g_clear_handle_id (&self->validate_id, g_source_remove);
  self->validate_id = g_timeout_add (VALIDATE_DELAY_MS, validate_timeout, self);
  /* Until the pause is over the old verdict would be a lie about the new text. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "inspector.stage", FALSE);
  /* typing away from the loaded text is a draft at once, not after the pause */
  gtk_widget_set_visible (GTK_WIDGET (self->draft_badge), self->base != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "inspector.revert", self->base != NULL);
}

/* Actions. */

static DdbValue *
key_of (DyInspector *self, const DdbValue *item)
{
  DdbValue *key = ddb_value_new_m ();
  const char *names[] = { self->pk_name, self->sk_name };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const DdbValue *v = names[i] != NULL ? ddb_value_map_get (item, names[i]) : NULL;

      if (v != NULL)
        ddb_value_map_set (key, names[i], ddb_value_copy (v));
    }
  return key;
}

/* Drafts. */

/* The editor's unstaged edit, or NULL when its text is the one it loaded. */
static DyInspectorDraft *
dup_draft (DyInspector *self)
{
  DyInspectorDraft *draft;
  char *text;

  if (self->base == NULL || self->pk_name == NULL || (self->item == NULL && !self->creating))
    return NULL;
  text = dy_inspector_dup_json_text (self);
  if (g_strcmp0 (text, self->loaded_text) == 0)
    {
      g_free (text);
      return NULL;
    }
  draft = g_new0 (DyInspectorDraft, 1);
  draft->title = g_strdup (self->creating ? _ ("New Item") : self->title);
  draft->text = text;
  draft->key = self->creating ? NULL : key_of (self, original (self));
  draft->base = ddb_value_copy (self->base);
  draft->original = self->creating ? NULL : ddb_value_copy (original (self));
  draft->staged_kind = self->staged_kind;
  draft->pk_name = g_strdup (self->pk_name);
  draft->pk_type = self->pk_type;
  draft->sk_name = g_strdup (self->sk_name);
  draft->sk_type = self->sk_type;
  return draft;
}

/* Hands the shown item's draft (or that it has none) to whoever keeps drafts. Without the key
 * schema an item has no key to keep a draft under; nothing can be staged then either. */
static void
emit_draft (DyInspector *self)
{
  g_autoptr (DyInspectorDraft) draft = NULL;
  g_autoptr (DdbValue) key = NULL;

  if (self->base == NULL || self->pk_name == NULL || (self->item == NULL && !self->creating))
    return;
  draft = dup_draft (self);
  if (!self->creating)
    key = key_of (self, original (self));
  g_signal_emit (self, signals[SIGNAL_DRAFT], 0, key, draft);
}

static void
emit_stage (DyInspector *self, DyInspectorStage kind, const DdbValue *from, const DdbValue *to)
{
  g_autoptr (DdbValue) key = key_of (self, to != NULL ? to : from);
  gboolean handled = FALSE;

  g_signal_emit (self, signals[SIGNAL_STAGE], 0, (int) kind, key, from, to, &handled);
  if (!handled)
    {
      g_autoptr (GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                                      _ ("There is no staging area to stage to"));

      dy_inspector_report_staged (self, kind, error);
    }
}

static void
stage_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyInspector *self = DY_INSPECTOR (widget);
  g_autoptr (DdbValue) edited = NULL;

  validate (self);
  if (!dy_inspector_get_can_stage (self))
    return;
  edited = ddb_value_copy (self->edited);
  if (self->creating)
    emit_stage (self, DY_INSPECTOR_STAGE_CREATE, NULL, edited);
  else if (self->staged_kind == DY_INSPECTOR_STAGE_CREATE)
    /* an edit of an item staged as new updates the staged create */
    emit_stage (self, DY_INSPECTOR_STAGE_UPDATE, self->base, edited);
  else
    /* the base (the staged version when there is one) so that undoing a staged edit in the
     * editor is itself part of the diff */
    emit_stage (self, DY_INSPECTOR_STAGE_UPDATE, self->base, edited);
}

static void
revert_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyInspector *self = DY_INSPECTOR (widget);

  if (self->base != NULL)
    load_base (self, ddb_value_copy (self->base));
  update_badge (self);
  update_actions (self);
}

static void
delete_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyInspector *self = DY_INSPECTOR (widget);

  if (self->item == NULL || self->creating)
    return;
  emit_stage (self, DY_INSPECTOR_STAGE_DELETE, original (self), NULL);
}

static void
new_item_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_inspector_new_item (DY_INSPECTOR (widget));
}

/* GObject. */

static void
dy_inspector_dispose (GObject *object)
{
  DyInspector *self = DY_INSPECTOR (object);

  /* closing a tab keeps its unstaged edits for when the table is opened again */
  emit_draft (self);
  g_clear_handle_id (&self->validate_id, g_source_remove);
  g_clear_object (&self->item);
  g_clear_object (&self->selection);
  /* without a base nothing validates, so a late key schema touches no disposed widget */
  g_clear_pointer (&self->base, ddb_value_free);
  g_clear_pointer (&self->edited, ddb_value_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_INSPECTOR);
  G_OBJECT_CLASS (dy_inspector_parent_class)->dispose (object);
}

static void
dy_inspector_finalize (GObject *object)
{
  DyInspector *self = DY_INSPECTOR (object);

  g_free (self->title);
  g_clear_pointer (&self->base, ddb_value_free);
  g_clear_pointer (&self->edited, ddb_value_free);
  g_free (self->error);
  g_free (self->loaded_text);
  g_free (self->pk_name);
  g_free (self->sk_name);
  g_free (self->schema_error);
  g_free (self->ttl_attribute);
  G_OBJECT_CLASS (dy_inspector_parent_class)->finalize (object);
}

static void
dy_inspector_class_init (DyInspectorClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = dy_inspector_dispose;
  G_OBJECT_CLASS (klass)->finalize = dy_inspector_finalize;
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dy-inspector.ui");
  gtk_widget_class_bind_template_child (widget_class, DyInspector, main_stack);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, title_label);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, state_badge);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, draft_badge);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, size_bar);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, size_label);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, view_stack);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, tree_view);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, json_view);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, plain_view);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, message_revealer);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, message_box);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, message_icon);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, message_path);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, message_label);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, delete_button);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, revert_button);

  gtk_widget_class_install_action (widget_class, "inspector.stage", NULL, stage_action);
  gtk_widget_class_install_action (widget_class, "inspector.revert", NULL, revert_action);
  gtk_widget_class_install_action (widget_class, "inspector.delete-item", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "inspector.new-item", NULL, new_item_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "inspector.stage",
                                       NULL);

  signals[SIGNAL_STAGE] = g_signal_new (
      "stage", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, g_signal_accumulator_true_handled,
      NULL, NULL, G_TYPE_BOOLEAN, 4, G_TYPE_INT, G_TYPE_POINTER, G_TYPE_POINTER, G_TYPE_POINTER);
  signals[SIGNAL_ITEM_CHANGED]
      = g_signal_new ("item-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_DRAFT]
      = g_signal_new ("draft", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                      G_TYPE_NONE, 2, G_TYPE_POINTER, G_TYPE_POINTER);
}

/* A text view's JSON highlighting, set when it is first shown: reading GtkSourceView's language
 * definitions (an XML file validated against its schema) takes about 100 ms, which a new table
 * tab would otherwise spend before its first rows are drawn. */
static void
set_json_language (GtkWidget *view)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();

  g_signal_handlers_disconnect_by_func (view, set_json_language, NULL);
  gtk_source_buffer_set_language (
      GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view))),
      gtk_source_language_manager_get_language (languages, "json"));
}

static void
dy_inspector_init (DyInspector *self)
{
  GtkSourceView *views[2];

  gtk_widget_init_template (GTK_WIDGET (self));
  self->staged_kind = -1;
  dy_inspector_tree_init (self);

  views[0] = self->json_view;
  views[1] = self->plain_view;
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    g_signal_connect (views[i], "map", G_CALLBACK (set_json_language), NULL);
  g_signal_connect_object (json_buffer (self), "changed", G_CALLBACK (buffer_changed), self,
                           G_CONNECT_SWAPPED);
  /* the line an error is on: a wavy underline and a faint red, readable in both modes */
  gtk_text_buffer_create_tag (json_buffer (self), "dy-error", "underline", PANGO_UNDERLINE_ERROR,
                              "paragraph-background", "rgba(224,27,36,0.14)", NULL);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (update_scheme), self, G_CONNECT_SWAPPED);
  update_scheme (self);
  dy_inspector_set_item (self, NULL, NULL);
}

GtkWidget *
dy_inspector_new (void)
{
  return g_object_new (DY_TYPE_INSPECTOR, NULL);
}

void
dy_inspector_set_item (DyInspector *self, DyItem *item, const char *title)
{
  g_return_if_fail (DY_IS_INSPECTOR (self));
  if (item != NULL && item == self->item && !self->creating)
    return;
  emit_draft (self);
  g_set_object (&self->item, item);
  self->creating = FALSE;
  self->staged_kind = -1;
  g_free (self->title);
  self->title = g_strdup (title);
  if (item == NULL)
    {
      gtk_single_selection_set_model (self->selection, NULL);
      load_base (self, NULL);
      show_message (self, MESSAGE_NONE, NULL, NULL);
      gtk_stack_set_visible_child_name (self->main_stack, "empty");
    }
  else
    {
      load_base (self, ddb_value_copy (dy_item_get_value (item)));
      gtk_label_set_text (self->title_label, title != NULL ? title : _ ("Item"));
      gtk_stack_set_visible_child_name (self->main_stack, "item");
    }
  update_badge (self);
  update_actions (self);
  g_signal_emit (self, signals[SIGNAL_ITEM_CHANGED], 0);
}

void
dy_inspector_set_ttl_attribute (DyInspector *self, const char *name)
{
  g_return_if_fail (DY_IS_INSPECTOR (self));
  if (g_strcmp0 (self->ttl_attribute, name) == 0)
    return;
  g_free (self->ttl_attribute);
  self->ttl_attribute = g_strdup (name);
  /* the rows shown say it from now on */
  if (self->base != NULL)
    show_item (self, self->edited != NULL ? self->edited : self->base);
}

DyItem *
dy_inspector_get_item (DyInspector *self)
{
  return self->item;
}

void
dy_inspector_set_key_schema (DyInspector *self, const char *pk_name, DdbType pk_type,
                             const char *sk_name, DdbType sk_type)
{
  g_return_if_fail (DY_IS_INSPECTOR (self));
  g_free (self->pk_name);
  g_free (self->sk_name);
  self->pk_name = g_strdup (pk_name);
  self->pk_type = pk_type;
  self->sk_name = g_strdup (sk_name);
  self->sk_type = sk_type;
  if (self->base != NULL)
    validate (self);
  update_actions (self);
}

static DdbValue *
empty_key_value (DdbType type)
{
  if (type == DDB_TYPE_N)
    {
      DdbNumber zero;

      ddb_number_parse (&zero, "0", 1, NULL);
      return ddb_value_new_n (&zero);
    }
  if (type == DDB_TYPE_B)
    return ddb_value_new_b ("", 0);
  return ddb_value_new_s ("", 0);
}

void
dy_inspector_new_item (DyInspector *self)
{
  DdbValue *skeleton;

  g_return_if_fail (DY_IS_INSPECTOR (self));
  if (self->pk_name == NULL)
    return;
  emit_draft (self);
  skeleton = ddb_value_new_m ();
  ddb_value_map_set (skeleton, self->pk_name, empty_key_value (self->pk_type));
  if (self->sk_name != NULL)
    ddb_value_map_set (skeleton, self->sk_name, empty_key_value (self->sk_type));
  g_clear_object (&self->item);
  self->creating = TRUE;
  self->staged_kind = -1;
  load_base (self, skeleton);
  gtk_label_set_text (self->title_label, _ ("New Item"));
  gtk_stack_set_visible_child_name (self->main_stack, "item");
  gtk_stack_set_visible_child_name (self->view_stack, "json");
  validate (self);
  update_badge (self);
  update_actions (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->json_view));
  g_signal_emit (self, signals[SIGNAL_ITEM_CHANGED], 0);
}

gboolean
dy_inspector_get_has_key_schema (DyInspector *self)
{
  return self->pk_name != NULL;
}

gboolean
dy_inspector_get_creating (DyInspector *self)
{
  return self->creating;
}

GListModel *
dy_inspector_get_tree_model (DyInspector *self)
{
  return G_LIST_MODEL (self->selection);
}

char *
dy_inspector_dup_json_text (DyInspector *self)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (json_buffer (self), &start, &end);
  return gtk_text_buffer_get_text (json_buffer (self), &start, &end, FALSE);
}

void
dy_inspector_set_json_text (DyInspector *self, const char *text)
{
  gtk_text_buffer_set_text (json_buffer (self), text, -1);
}

char *
dy_inspector_dup_plain_text (DyInspector *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->plain_view));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

void
dy_inspector_validate_now (DyInspector *self)
{
  validate (self);
}

const char *
dy_inspector_get_error (DyInspector *self)
{
  return self->error;
}

gboolean
dy_inspector_get_can_stage (DyInspector *self)
{
  return self->pk_name != NULL && self->edited != NULL && self->base != NULL
         && self->validate_id == 0 && (self->creating || self->item != NULL)
         && !ddb_value_equal (self->edited, self->base);
}

GPtrArray *
dy_inspector_get_diff (DyInspector *self)
{
  const DdbValue *from = original (self);
  g_autoptr (DdbValue) empty = ddb_value_new_m ();

  if (self->edited == NULL)
    return g_ptr_array_new ();
  return ddb_diff_items (from != NULL ? from : empty, self->edited);
}

void
dy_inspector_report_staged (DyInspector *self, DyInspectorStage kind, const GError *error)
{
  if (error != NULL)
    {
      g_autofree char *text = g_strdup_printf (_ ("Could not stage: %s"), error->message);

      show_message (self, MESSAGE_ERROR, NULL, text);
      return;
    }
  switch (kind)
    {
    case DY_INSPECTOR_STAGE_CREATE:
      self->creating = FALSE;
      self->staged_kind = DY_INSPECTOR_STAGE_CREATE;
      load_base (self, ddb_value_copy (self->edited));
      show_message (self, MESSAGE_STAGED, NULL,
                    _ ("New item staged: review and commit it in the staging panel "
                       "(Ctrl+Shift+S)"));
      break;
    case DY_INSPECTOR_STAGE_UPDATE:
      if (self->staged_kind != DY_INSPECTOR_STAGE_CREATE)
        self->staged_kind = DY_INSPECTOR_STAGE_UPDATE;
      load_base (self, ddb_value_copy (self->edited));
      show_message (self, MESSAGE_STAGED, NULL,
                    _ ("Edit staged: review and commit it in the staging panel (Ctrl+Shift+S)"));
      break;
    case DY_INSPECTOR_STAGE_DELETE:
      self->staged_kind = DY_INSPECTOR_STAGE_DELETE;
      show_message (self, MESSAGE_STAGED, NULL,
                    _ ("Delete staged: the item goes when the staging panel commits it"));
      break;
    }
  update_badge (self);
  update_actions (self);
}

void
dy_inspector_show_staged (DyInspector *self, int kind, const DdbValue *target)
{
  /* unsaved typing is never replaced: only the badge follows */
  gboolean untouched = self->base != NULL && !dy_inspector_get_has_draft (self);
  const DdbValue *shown = target != NULL ? target : original (self);

  if (self->creating || (kind == self->staged_kind && kind < 0))
    return;
  self->staged_kind = kind;
  if (untouched && shown != NULL && !ddb_value_equal (shown, self->base))
    load_base (self, ddb_value_copy (shown));
  update_badge (self);
  update_actions (self);
}

gboolean
dy_inspector_get_has_draft (DyInspector *self)
{
  g_autofree char *text = NULL;

  if (self->base == NULL || self->loaded_text == NULL)
    return FALSE;
  text = dy_inspector_dup_json_text (self);
  return g_strcmp0 (text, self->loaded_text) != 0;
}

void
dy_inspector_save_draft (DyInspector *self)
{
  g_return_if_fail (DY_IS_INSPECTOR (self));
  emit_draft (self);
}

void
dy_inspector_restore_draft (DyInspector *self, const DyInspectorDraft *draft)
{
  g_return_if_fail (DY_IS_INSPECTOR (self));
  if (draft == NULL || self->base == NULL || (draft->key == NULL) != self->creating)
    return;
  /* the diff stays the one the user typed: from what the editor had started from */
  load_base (self, ddb_value_copy (draft->base));
  gtk_text_buffer_set_text (json_buffer (self), draft->text, -1);
  validate (self);
}

DdbValue *
dy_inspector_dup_key (DyInspector *self)
{
  if (self->item == NULL || self->creating || self->pk_name == NULL)
    return NULL;
  return key_of (self, original (self));
}

void
dy_inspector_set_key_schema_error (DyInspector *self, const char *message)
{
  g_return_if_fail (DY_IS_INSPECTOR (self));
  g_free (self->schema_error);
  self->schema_error = g_strdup (message);
  if (self->base != NULL)
    validate (self);
}
