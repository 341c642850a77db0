/* dy-model-window.c: the Model window itself: the model read from and written to Workbench
 * files (Open, Save, Save As, the question on closing with unsaved changes), the sidebar of
 * tables, entities, access patterns (each with what it resolves to) and flags, and the checks
 * run again whenever the model changes. The detail pages are dy-model-window-pages.c's. */
#define G_LOG_DOMAIN "dynoscope-model-window"

#include <glib/gi18n.h>

#include "app/model/dy-model-window-private.h"
#include "model/workbench.h"

G_DEFINE_FINAL_TYPE (DyModelWindow, dy_model_window, ADW_TYPE_WINDOW)

void
dy_model_window_toast (DyModelWindow *self, const char *text)
{
  AdwToast *toast = adw_toast_new (text);

  adw_toast_set_timeout (toast, 6);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
update_title (DyModelWindow *self)
{
  g_autofree char *subtitle = NULL;
  g_autofree char *base = self->path != NULL ? g_path_get_basename (self->path) : NULL;

  adw_window_title_set_title (self->window_title, self->model != NULL && self->model->name != NULL
                                                      ? self->model->name
                                                      : _ ("Key Design Model"));
  if (self->model == NULL)
    subtitle = g_strdup ("");
  else if (base == NULL)
    subtitle = g_strdup (self->modified ? _ ("Not saved") : "");
  else if (self->modified)
    /* TRANSLATORS: the Model window's subtitle: the file's name, with unsaved changes */
    subtitle = g_strdup_printf (_ ("%s (unsaved changes)"), base);
  else
    subtitle = g_strdup (base);
  adw_window_title_set_subtitle (self->window_title, subtitle);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "model.save", self->model != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "model.save-as", self->model != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "model.add-pattern",
                                 self->model != NULL && self->model->entities->len > 0);
}

/* ---- Sidebar ---- */

static GtkWidget *
sidebar_row (const char *title, const char *subtitle, const char *icon)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *labels = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *label = gtk_label_new (title);
  GtkWidget *sub = gtk_label_new (subtitle);

  if (icon != NULL)
    {
      GtkWidget *image = gtk_image_new_from_icon_name (icon);

      gtk_widget_set_valign (image, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (box), image);
      g_object_set_data (G_OBJECT (box), "icon", image);
    }
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (sub), 0);
  gtk_label_set_ellipsize (GTK_LABEL (sub), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (sub, "caption");
  gtk_widget_add_css_class (sub, "dim-label");
  gtk_widget_set_visible (sub, subtitle != NULL && *subtitle != '\0');
  gtk_box_append (GTK_BOX (labels), label);
  gtk_box_append (GTK_BOX (labels), sub);
  gtk_widget_set_hexpand (labels, TRUE);
  gtk_box_append (GTK_BOX (box), labels);
  g_object_set_data (G_OBJECT (box), "title", label);
  g_object_set_data (G_OBJECT (box), "subtitle", sub);
  return box;
}

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

static GtkListBox *
list_of_kind (DyModelWindow *self, DyModelSelectKind kind)
{
  switch (kind)
    {
    case DY_MODEL_SELECT_TABLE:
      return self->tables_list;
    case DY_MODEL_SELECT_ENTITY:
      return self->entities_list;
    case DY_MODEL_SELECT_PATTERN:
    default:
      return self->patterns_list;
    }
}

/* Marks the selection's row selected (and no other list's). */
static void
select_row (DyModelWindow *self)
{
  static const DyModelSelectKind kinds[]
      = { DY_MODEL_SELECT_TABLE, DY_MODEL_SELECT_ENTITY, DY_MODEL_SELECT_PATTERN };

  self->selecting = TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      GtkListBox *list = list_of_kind (self, kinds[i]);
      GtkListBoxRow *row = kinds[i] == self->kind && self->index != G_MAXUINT
                               ? gtk_list_box_get_row_at_index (list, (int) self->index)
                               : NULL;

      if (row != NULL)
        gtk_list_box_select_row (list, row);
      else
        gtk_list_box_unselect_all (list);
    }
  self->selecting = FALSE;
}

/* The status of each pattern row: its name, what it resolves to, and an icon. */
static void
update_pattern_rows (DyModelWindow *self)
{
  for (guint i = 0; self->model != NULL && i < self->model->patterns->len; i++)
    {
      DyModelPattern *pattern = self->model->patterns->pdata[i];
      const DyResolution *resolution = self->report->resolutions->pdata[i];
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->patterns_list, (int) i);
      GtkWidget *box = row != NULL ? gtk_list_box_row_get_child (row) : NULL;
      g_autofree char *summary = dy_model_window_resolution_summary (resolution);
      gboolean flagged = resolution->kind == DY_RESOLVED_FLAGGED;
      GtkWidget *icon;

      if (box == NULL)
        continue;
      icon = g_object_get_data (G_OBJECT (box), "icon");
      gtk_label_set_text (g_object_get_data (G_OBJECT (box), "title"), pattern->name);
      gtk_label_set_text (g_object_get_data (G_OBJECT (box), "subtitle"), summary);
      gtk_widget_set_visible (g_object_get_data (G_OBJECT (box), "subtitle"), TRUE);
      gtk_image_set_from_icon_name (GTK_IMAGE (icon),
                                    flagged ? "dialog-warning-symbolic" : "emblem-ok-symbolic");
      gtk_widget_set_tooltip_text (icon, flagged ? _ ("Flagged: no single request serves it")
                                                 : _ ("Resolves to one request"));
      if (flagged)
        {
          gtk_widget_add_css_class (icon, "warning");
          gtk_widget_remove_css_class (icon, "success");
        }
      else
        {
          gtk_widget_add_css_class (icon, "success");
          gtk_widget_remove_css_class (icon, "warning");
        }
    }
}

/* One flag, or one check that could not run: its kind above its message. */
static GtkWidget *
flag_row (const DyFlag *flag, const char *kind_class)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *kind = gtk_label_new (dy_flag_kind_name (flag->kind));
  GtkWidget *message = gtk_label_new (flag->message);

  gtk_label_set_xalign (GTK_LABEL (kind), 0);
  gtk_widget_add_css_class (kind, "caption-heading");
  gtk_widget_add_css_class (kind, kind_class);
  gtk_label_set_xalign (GTK_LABEL (message), 0);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (message), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (message), TRUE);
  gtk_widget_add_css_class (message, "caption");
  gtk_box_append (GTK_BOX (box), kind);
  gtk_box_append (GTK_BOX (box), message);
  return box;
}

static GtkWidget *
note_label (const char *text, const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, css_class);
  return label;
}

/* The flags, then the checks that could not run (a plain Workbench model has no templates or
 * patterns), so that what was not checked never passes for "no flags". */
static void
update_flags (DyModelWindow *self)
{
  guint n = self->report != NULL ? self->report->flags->len : 0;
  guint n_skipped = self->report != NULL ? self->report->skipped->len : 0;
  g_autofree char *title = NULL;

  clear_list (self->flags_list);
  /* TRANSLATORS: the heading of the model's flags in the Model window's sidebar */
  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u Flag", "%u Flags", n), n);
  gtk_label_set_text (self->flags_title, title);
  if (n == 0)
    gtk_list_box_append (self->flags_list,
                         note_label (n_skipped > 0 ? _ ("No flags.")
                                                   : _ ("No flags: every pattern resolves to one "
                                                        "request and no key is at fault."),
                                     "dim-label"));
  for (guint i = 0; i < n; i++)
    gtk_list_box_append (self->flags_list, flag_row (self->report->flags->pdata[i], "warning"));
  if (n_skipped == 0)
    return;
  /* TRANSLATORS: the heading, in the Model window's sidebar, of the checks that could not run
   * on this model (for want of key templates, access patterns or sample data) */
  gtk_list_box_append (self->flags_list, note_label (_ ("Not checked"), "heading"));
  for (guint i = 0; i < n_skipped; i++)
    gtk_list_box_append (self->flags_list,
                         flag_row (self->report->skipped->pdata[i], "dim-label"));
}

void
dy_model_window_fill_sidebar (DyModelWindow *self)
{
  clear_list (self->tables_list);
  clear_list (self->entities_list);
  clear_list (self->patterns_list);
  for (guint i = 0; self->model != NULL && i < self->model->tables->len; i++)
    {
      DyModelTable *table = self->model->tables->pdata[i];
      guint n = (guint) json_array_size (table->items);
      g_autofree char *sub = g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE, "%u sample item", "%u sample items", n), n);

      gtk_list_box_append (self->tables_list, sidebar_row (table->name, sub, NULL));
    }
  for (guint i = 0; self->model != NULL && i < self->model->entities->len; i++)
    {
      DyModelEntity *entity = self->model->entities->pdata[i];

      gtk_list_box_append (self->entities_list, sidebar_row (entity->name, entity->table, NULL));
    }
  for (guint i = 0; self->model != NULL && i < self->model->patterns->len; i++)
    {
      DyModelPattern *pattern = self->model->patterns->pdata[i];

      gtk_list_box_append (self->patterns_list,
                           sidebar_row (pattern->name, NULL, "emblem-ok-symbolic"));
    }
  update_pattern_rows (self);
  update_flags (self);
  select_row (self);
}

void
dy_model_window_changed (DyModelWindow *self)
{
  g_clear_pointer (&self->report, dy_check_report_free);
  if (self->model != NULL)
    self->report = dy_model_check (self->model);
  self->modified = TRUE;
  update_pattern_rows (self);
  update_flags (self);
  dy_model_window_update_resolution (self);
  if (self->kind == DY_MODEL_SELECT_PATTERN)
    dy_model_window_pattern_items (self);
  update_title (self);
}

static void
row_selected (GtkListBox *list, GtkListBoxRow *row, DyModelWindow *self)
{
  if (self->selecting || row == NULL)
    return;
  dy_model_window_select (self,
                          list == self->tables_list     ? DY_MODEL_SELECT_TABLE
                          : list == self->entities_list ? DY_MODEL_SELECT_ENTITY
                                                        : DY_MODEL_SELECT_PATTERN,
                          (guint) gtk_list_box_row_get_index (row));
}

void
dy_model_window_select (DyModelWindow *self, DyModelSelectKind kind, guint index)
{
  self->kind = kind;
  self->index = index;
  select_row (self);
  dy_model_window_show_detail (self);
}

/* ---- Model in and out ---- */

void
dy_model_window_set_model (DyModelWindow *self, DyModel *model, const char *path, gboolean modified)
{
  g_clear_pointer (&self->model, dy_model_free);
  g_clear_pointer (&self->report, dy_check_report_free);
  self->model = model;
  self->report = dy_model_check (model);
  g_free (self->path);
  self->path = g_strdup (path);
  self->modified = modified;
  g_clear_pointer (&self->items_table, g_free);
  self->kind = DY_MODEL_SELECT_TABLE;
  self->index = model->tables->len > 0 ? 0 : G_MAXUINT;
  gtk_stack_set_visible_child_name (self->main_stack, "model");
  dy_model_window_fill_sidebar (self);
  dy_model_window_show_detail (self);
  update_title (self);
}

gboolean
dy_model_window_load (DyModelWindow *self, const char *path, GError **error)
{
  DyModel *model = dy_workbench_read_file (path, error);

  if (model == NULL)
    return FALSE;
  dy_model_window_set_model (self, model, path, FALSE);
  return TRUE;
}

gboolean
dy_model_window_save_to (DyModelWindow *self, const char *path, GError **error)
{
  json_t *json;
  g_autofree char *text = NULL;

  g_return_val_if_fail (self->model != NULL, FALSE);
  json = dy_workbench_write (self->model);
  text = json_dumps (json, JSON_INDENT (2) | JSON_ENSURE_ASCII);
  json_decref (json);
  if (text == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _ ("The model could not be written as JSON"));
      return FALSE;
    }
  if (!g_file_set_contents (path, text, -1, error))
    return FALSE;
  if (self->path != path)
    {
      g_free (self->path);
      self->path = g_strdup (path);
    }
  self->modified = FALSE;
  update_title (self);
  return TRUE;
}

static GtkFileFilter *
json_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _ ("Data models (Dynoscope, NoSQL Workbench)"));
  gtk_file_filter_add_suffix (filter, "json");
  return filter;
}

static void
open_response (GtkNativeDialog *dialog, int response, DyModelWindow *self)
{
  g_autoptr (GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  path = file != NULL ? g_file_get_path (file) : NULL;
  if (path != NULL)
    {
      /* unsaved changes are not dropped: the model opens in a window of its own */
      if (self->model != NULL && self->modified)
        dy_model_window_open (gtk_window_get_application (GTK_WINDOW (self)), path);
      else
        {
          g_autoptr (GError) error = NULL;

          if (!dy_model_window_load (self, path, &error))
            dy_model_window_toast (self, error->message);
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
open_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyModelWindow *self = DY_MODEL_WINDOW (widget);
  GtkFileChooserNative *chooser
      = gtk_file_chooser_native_new (_ ("Open Model"), GTK_WINDOW (self),
                                     GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Open"), _ ("_Cancel"));
  g_autoptr (GtkFileFilter) filter = json_filter ();

  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (open_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
save_as_response (GtkNativeDialog *dialog, int response, DyModelWindow *self)
{
  g_autoptr (GFile) file = NULL;
  g_autofree char *path = NULL;
  gboolean close = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "close"));

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  path = file != NULL ? g_file_get_path (file) : NULL;
  if (path != NULL)
    {
      g_autoptr (GError) error = NULL;

      if (!dy_model_window_save_to (self, path, &error))
        dy_model_window_toast (self, error->message);
      else if (close)
        {
          self->close_confirmed = TRUE;
          gtk_window_close (GTK_WINDOW (self));
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

/* Save As; with CLOSE, the window closes once saved. */
static void
save_as (DyModelWindow *self, gboolean close)
{
  GtkFileChooserNative *chooser
      = gtk_file_chooser_native_new (_ ("Save Model"), GTK_WINDOW (self),
                                     GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Save"), _ ("_Cancel"));
  g_autoptr (GtkFileFilter) filter = json_filter ();
  g_autofree char *name
      = g_strdup_printf ("%s.json", self->model->name != NULL ? self->model->name : "model");

  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  if (self->path != NULL)
    {
      g_autoptr (GFile) file = g_file_new_for_path (self->path);

      gtk_file_chooser_set_file (GTK_FILE_CHOOSER (chooser), file, NULL);
    }
  else
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_object_set_data (G_OBJECT (chooser), "close", GINT_TO_POINTER (close));
  g_signal_connect (chooser, "response", G_CALLBACK (save_as_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* Saves to the window's file (Save As without one); TRUE once saved there. */
static gboolean
save (DyModelWindow *self, gboolean close)
{
  g_autoptr (GError) error = NULL;

  if (self->path == NULL)
    {
      save_as (self, close);
      return FALSE;
    }
  if (!dy_model_window_save_to (self, self->path, &error))
    {
      dy_model_window_toast (self, error->message);
      return FALSE;
    }
  return TRUE;
}

static void
save_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyModelWindow *self = DY_MODEL_WINDOW (widget);

  if (self->model == NULL)
    return;
  if (g_str_equal (action_name, "model.save-as"))
    save_as (self, FALSE);
  else if (save (self, FALSE))
    dy_model_window_toast (self, _ ("Model saved"));
}

static gboolean
close_idle (gpointer data)
{
  gtk_window_close (data);
  return G_SOURCE_REMOVE;
}

/* The window closes once the question (transient for it) has gone. */
static void
close_response (AdwMessageDialog *dialog, const char *response, DyModelWindow *self)
{
  if (g_str_equal (response, "discard") || (g_str_equal (response, "save") && save (self, TRUE)))
    {
      self->close_confirmed = TRUE;
      g_idle_add_full (G_PRIORITY_DEFAULT, close_idle, g_object_ref (self), g_object_unref);
    }
}

static gboolean
dy_model_window_close_request (GtkWindow *window)
{
  DyModelWindow *self = DY_MODEL_WINDOW (window);
  GtkWidget *dialog;

  if (self->model == NULL || !self->modified || self->close_confirmed)
    return GTK_WINDOW_CLASS (dy_model_window_parent_class)->close_request (window);
  dialog = adw_message_dialog_new (window, _ ("Save Changes to the Model?"),
                                   _ ("The model has changes that are not saved. Closing without "
                                      "saving loses them."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "discard",
                                    _ ("_Discard"), "save", _ ("_Save"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (close_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

/* ---- Editing ---- */

static void
add_pattern_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyModelWindow *self = DY_MODEL_WINDOW (widget);
  const DyModelEntity *entity = NULL;
  DyModelPattern *pattern;

  if (self->model == NULL || self->model->entities->len == 0)
    return;
  /* for the entity shown, or that of the pattern shown, else the first */
  if (self->kind == DY_MODEL_SELECT_ENTITY && self->index < self->model->entities->len)
    entity = self->model->entities->pdata[self->index];
  else if (self->kind == DY_MODEL_SELECT_PATTERN && self->index < self->model->patterns->len)
    entity = dy_model_find_entity (
        self->model, ((DyModelPattern *) self->model->patterns->pdata[self->index])->entity);
  if (entity == NULL)
    entity = self->model->entities->pdata[0];
  pattern = dy_model_pattern_new (_ ("new access pattern"), entity->name);
  pattern->many = TRUE;
  g_ptr_array_add (self->model->patterns, pattern);
  dy_model_window_changed (self);
  self->kind = DY_MODEL_SELECT_PATTERN;
  self->index = self->model->patterns->len - 1;
  dy_model_window_fill_sidebar (self);
  dy_model_window_show_detail (self);
}

static void
remove_pattern_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyModelWindow *self = DY_MODEL_WINDOW (widget);

  if (self->model == NULL || self->kind != DY_MODEL_SELECT_PATTERN
      || self->index >= self->model->patterns->len)
    return;
  g_ptr_array_remove_index (self->model->patterns, self->index);
  dy_model_window_changed (self);
  if (self->index >= self->model->patterns->len)
    self->index = self->model->patterns->len > 0 ? self->model->patterns->len - 1 : G_MAXUINT;
  dy_model_window_fill_sidebar (self);
  dy_model_window_show_detail (self);
}

static void
copy_as_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_model_window_copy_as (DY_MODEL_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

/* ---- Accessors ---- */

DyModel *
dy_model_window_get_model (DyModelWindow *self)
{
  return self->model;
}

const DyCheckReport *
dy_model_window_get_report (DyModelWindow *self)
{
  return self->report;
}

const char *
dy_model_window_get_path (DyModelWindow *self)
{
  return self->path;
}

gboolean
dy_model_window_get_modified (DyModelWindow *self)
{
  return self->modified;
}

GtkWidget *
dy_model_window_get_field (DyModelWindow *self, const char *name)
{
  return g_hash_table_lookup (self->fields, name);
}

GListModel *
dy_model_window_get_item_rows (DyModelWindow *self)
{
  return G_LIST_MODEL (gtk_column_view_get_model (self->items_view));
}

GtkListBox *
dy_model_window_get_flags_list (DyModelWindow *self)
{
  return self->flags_list;
}

/* ---- GObject ---- */

static void
dy_model_window_dispose (GObject *object)
{
  DyModelWindow *self = DY_MODEL_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_MODEL_WINDOW);
  G_OBJECT_CLASS (dy_model_window_parent_class)->dispose (object);
}

static void
dy_model_window_finalize (GObject *object)
{
  DyModelWindow *self = DY_MODEL_WINDOW (object);

  g_clear_pointer (&self->report, dy_check_report_free);
  g_clear_pointer (&self->model, dy_model_free);
  g_clear_pointer (&self->fields, g_hash_table_unref);
  g_free (self->path);
  g_free (self->items_table);
  g_free (self->items_index);
  g_free (self->apply_message);
  G_OBJECT_CLASS (dy_model_window_parent_class)->finalize (object);
}

static void
dy_model_window_class_init (DyModelWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dy_model_window_dispose;
  object_class->finalize = dy_model_window_finalize;
  GTK_WINDOW_CLASS (klass)->close_request = dy_model_window_close_request;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dy-model-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DyModelWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, DyModelWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, DyModelWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, DyModelWindow, tables_list);
  gtk_widget_class_bind_template_child (widget_class, DyModelWindow, entities_list);
  gtk_widget_class_bind_template_child (widget_class, DyModelWindow, patterns_list);
  gtk_widget_class_bind_template_child (widget_class, DyModelWindow, flags_list);
  gtk_widget_class_bind_template_child (widget_class, DyModelWindow, flags_title);
  gtk_widget_class_bind_template_child (widget_class, DyModelWindow, detail_box);
  gtk_widget_class_bind_template_child (widget_class, DyModelWindow, items_title);
  gtk_widget_class_bind_template_child (widget_class, DyModelWindow, items_view);
  gtk_widget_class_bind_template_child (widget_class, DyModelWindow, create_on_button);
  gtk_widget_class_bind_template_child (widget_class, DyModelWindow, infer_button);

  gtk_widget_class_install_action (widget_class, "model.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "model.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "model.save-as", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "model.add-pattern", NULL, add_pattern_action);
  gtk_widget_class_install_action (widget_class, "model.remove-pattern", NULL,
                                   remove_pattern_action);
  gtk_widget_class_install_action (widget_class, "model.copy-as", "s", copy_as_action);
  gtk_widget_class_install_action (widget_class, "model.create-on", NULL,
                                   dy_model_window_create_on_action);
  gtk_widget_class_install_action (widget_class, "model.infer", NULL,
                                   dy_model_window_infer_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "model.open",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "model.save",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "model.save-as", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close",
                                       NULL);
}

static void
dy_model_window_init (DyModelWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
#ifdef DYNOSCOPE_DEVELOPMENT
  gtk_widget_add_css_class (GTK_WIDGET (self), "devel");
#endif
  self->index = G_MAXUINT;
  self->fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_signal_connect (self->tables_list, "row-selected", G_CALLBACK (row_selected), self);
  g_signal_connect (self->entities_list, "row-selected", G_CALLBACK (row_selected), self);
  g_signal_connect (self->patterns_list, "row-selected", G_CALLBACK (row_selected), self);
  gtk_stack_set_visible_child_name (self->main_stack, "empty");
  update_title (self);
}

DyModelWindow *
dy_model_window_new (GtkApplication *application)
{
  return g_object_new (DY_TYPE_MODEL_WINDOW, "application", application, NULL);
}

DyModelWindow *
dy_model_window_open (GtkApplication *application, const char *path)
{
  DyModelWindow *self = dy_model_window_new (application);
  g_autoptr (GError) error = NULL;

  if (path != NULL && !dy_model_window_load (self, path, &error))
    {
      /* TRANSLATORS: a model file that could not be read, and why */
      g_autofree char *text = g_strdup_printf (_ ("Could not open the model: %s"), error->message);

      dy_model_window_toast (self, text);
    }
  gtk_window_present (GTK_WINDOW (self));
  return self;
}
