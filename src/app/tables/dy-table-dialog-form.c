/* dy-table-dialog-form.c: the table dialog's form: keys, capacity, indexes (listed with a remove
 * button, and a group to add one), stream and TTL, built for the dialog's mode and read back into
 * a DdbTableSpec. */
#define G_LOG_DOMAIN "dynoscope-table-dialog"

#include <glib/gi18n.h>

#include "app/tables/dy-table-dialog-private.h"

static const char *const key_types[] = { "S", "N", "B" };

static AdwComboRow *
combo_row (const char *title, const char *const *items)
{
  AdwComboRow *row = ADW_COMBO_ROW (adw_combo_row_new ());
  g_autoptr (GtkStringList) list = gtk_string_list_new (items);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_combo_row_set_model (row, G_LIST_MODEL (list));
  return row;
}

static AdwComboRow *
key_type_row (const char *title)
{
  const char *items[] = { _ ("String (S)"), _ ("Number (N)"), _ ("Binary (B)"), NULL };

  return combo_row (title, items);
}

static AdwEntryRow *
entry_row (const char *title)
{
  AdwEntryRow *row = ADW_ENTRY_ROW (adw_entry_row_new ());

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  return row;
}

static GtkSpinButton *
spin_row (AdwPreferencesGroup *group, const char *title)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (1, 40000, 1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
  adw_preferences_group_add (group, row);
  return GTK_SPIN_BUTTON (spin);
}

static AdwPreferencesGroup *
group_new (DyTableDialog *self, const char *title, const char *description)
{
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());

  adw_preferences_group_set_title (group, title);
  if (description != NULL)
    adw_preferences_group_set_description (group, description);
  adw_preferences_page_add (self->form_page, group);
  return group;
}

static const char *
text_or_null (AdwEntryRow *row)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (row));

  return text[0] != '\0' ? text : NULL;
}

static void
billing_changed (DyTableDialog *self)
{
  gboolean provisioned = adw_combo_row_get_selected (self->form.billing) == 1;

  gtk_widget_set_sensitive (GTK_WIDGET (self->form.rcu), provisioned);
  gtk_widget_set_sensitive (GTK_WIDGET (self->form.wcu), provisioned);
}

static void
remove_index_clicked (GtkButton *button, DyTableDialog *self)
{
  const char *name = g_object_get_data (G_OBJECT (button), "index");

  dy_table_dialog_set_error (self, NULL);
  if (!ddb_table_spec_remove_gsi (self->spec, name))
    for (guint i = 0; i < self->spec->lsis->len; i++)
      if (g_strcmp0 (((DdbIndexSpec *) self->spec->lsis->pdata[i])->name, name) == 0)
        {
          g_ptr_array_remove_index (self->spec->lsis, i);
          break;
        }
  dy_table_form_show_indexes (self);
}

static void
add_index_row (DyTableDialog *self, const DdbIndexSpec *index, gboolean global)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *keys = NULL, *subtitle = NULL;
  const char *projection = ddb_projection_name (index->projection);

  if (!global && index->sk_name != NULL)
    /* TRANSLATORS: a local index's keys: the table's partition key, its sort key (type) */
    keys = g_strdup_printf (_ ("the table’s partition key, %s (%s)"), index->sk_name,
                            index->sk_type);
  else if (!global)
    keys = g_strdup (_ ("the table’s partition key"));
  else if (index->sk_name != NULL)
    /* TRANSLATORS: an index's keys: partition key (type), sort key (type) */
    keys = g_strdup_printf (_ ("%s (%s), %s (%s)"), index->pk_name, index->pk_type, index->sk_name,
                            index->sk_type);
  else
    keys = g_strdup_printf (_ ("%s (%s)"), index->pk_name, index->pk_type);
  if (index->projection == DDB_PROJECTION_INCLUDE)
    {
      g_autoptr (GString) names = g_string_new (NULL);

      for (guint i = 0; i < index->non_key_attributes->len; i++)
        g_string_append_printf (names, "%s%s", i > 0 ? ", " : "",
                                (const char *) index->non_key_attributes->pdata[i]);
      subtitle = global
                     /* TRANSLATORS: index row: keys · INCLUDE attribute names */
                     ? g_strdup_printf (_ ("Global · %s · INCLUDE %s"), keys, names->str)
                     : g_strdup_printf (_ ("Local · %s · INCLUDE %s"), keys, names->str);
    }
  else
    /* TRANSLATORS: index row: keys · projection type (ALL, KEYS_ONLY) */
    subtitle = global ? g_strdup_printf (_ ("Global · %s · %s"), keys, projection)
                      : g_strdup_printf (_ ("Local · %s · %s"), keys, projection);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), index->name);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  /* A local index stays as long as its table: only a new table's can be removed. */
  if (global || self->mode == DY_TABLE_DIALOG_CREATE)
    {
      GtkWidget *button = gtk_button_new_from_icon_name ("user-trash-symbolic");

      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_set_tooltip_text (button, _ ("Remove Index"));
      g_object_set_data_full (G_OBJECT (button), "index", g_strdup (index->name), g_free);
      g_signal_connect (button, "clicked", G_CALLBACK (remove_index_clicked), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
      g_object_set_data (G_OBJECT (row), "remove-button", button);
    }
  adw_preferences_group_add (self->form.indexes_group, row);
  g_ptr_array_add (self->form.index_rows, row);
}

void
dy_table_form_show_indexes (DyTableDialog *self)
{
  for (guint i = 0; i < self->form.index_rows->len; i++)
    adw_preferences_group_remove (self->form.indexes_group, self->form.index_rows->pdata[i]);
  g_ptr_array_set_size (self->form.index_rows, 0);
  /* The new index's row stays last. */
  g_object_ref (self->form.new_index);
  adw_preferences_group_remove (self->form.indexes_group, GTK_WIDGET (self->form.new_index));
  for (guint i = 0; i < self->spec->gsis->len; i++)
    add_index_row (self, self->spec->gsis->pdata[i], TRUE);
  for (guint i = 0; i < self->spec->lsis->len; i++)
    add_index_row (self, self->spec->lsis->pdata[i], FALSE);
  if (self->form.index_rows->len == 0)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _ ("No secondary indexes"));
      gtk_widget_add_css_class (row, "dim-label");
      adw_preferences_group_add (self->form.indexes_group, row);
      g_ptr_array_add (self->form.index_rows, row);
    }
  adw_preferences_group_add (self->form.indexes_group, GTK_WIDGET (self->form.new_index));
  g_object_unref (self->form.new_index);
}

/* Add Index: the editor's index joins the list (checked with the table when reviewed). */
static void
add_index_clicked (DyTableDialog *self)
{
  gboolean local
      = self->form.index_kind != NULL && adw_combo_row_get_selected (self->form.index_kind) == 1;
  const char *name = text_or_null (self->form.index_name);
  const char *sk = text_or_null (self->form.index_sk_name);
  DdbIndexSpec *index;
  guint projection = adw_combo_row_get_selected (self->form.index_projection);

  dy_table_dialog_set_error (self, NULL);
  if (name == NULL)
    {
      dy_table_dialog_set_error (self, _ ("Give the new index a name"));
      return;
    }
  if (!local && text_or_null (self->form.index_pk_name) == NULL)
    {
      dy_table_dialog_set_error (self, _ ("Give the new index a partition key"));
      return;
    }
  if (ddb_table_spec_find_gsi (self->spec, name) != NULL)
    {
      dy_table_dialog_set_error (self, _ ("There is an index of that name already"));
      return;
    }
  index = ddb_index_spec_new (
      name, local ? NULL : text_or_null (self->form.index_pk_name),
      local ? NULL : key_types[adw_combo_row_get_selected (self->form.index_pk_type)], sk,
      sk != NULL ? key_types[adw_combo_row_get_selected (self->form.index_sk_type)] : NULL);
  index->projection = projection == 1   ? DDB_PROJECTION_KEYS_ONLY
                      : projection == 2 ? DDB_PROJECTION_INCLUDE
                                        : DDB_PROJECTION_ALL;
  if (index->projection == DDB_PROJECTION_INCLUDE)
    {
      g_auto (GStrv) names
          = g_strsplit (gtk_editable_get_text (GTK_EDITABLE (self->form.index_include)), ",", -1);

      for (char **n = names; *n != NULL; n++)
        {
          g_strstrip (*n);
          if (**n != '\0')
            g_ptr_array_add (index->non_key_attributes, g_strdup (*n));
        }
    }
  g_ptr_array_add (local ? self->spec->lsis : self->spec->gsis, index);
  gtk_editable_set_text (GTK_EDITABLE (self->form.index_name), "");
  gtk_editable_set_text (GTK_EDITABLE (self->form.index_pk_name), "");
  gtk_editable_set_text (GTK_EDITABLE (self->form.index_sk_name), "");
  gtk_editable_set_text (GTK_EDITABLE (self->form.index_include), "");
  dy_table_form_show_indexes (self);
}

static void
index_kind_changed (DyTableDialog *self)
{
  gboolean local = adw_combo_row_get_selected (self->form.index_kind) == 1;

  gtk_widget_set_visible (GTK_WIDGET (self->form.index_pk_name), !local);
  gtk_widget_set_visible (GTK_WIDGET (self->form.index_pk_type), !local);
}

/* A sort key's type matters only once the sort key has a name. */
static void
sort_keys_changed (DyTableDialog *self)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->form.sk_type),
                            text_or_null (self->form.sk_name) != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->form.index_sk_type),
                            text_or_null (self->form.index_sk_name) != NULL);
}

static void
projection_changed (DyTableDialog *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->form.index_include),
                          adw_combo_row_get_selected (self->form.index_projection) == 2);
}

void
dy_table_form_build (DyTableDialog *self)
{
  DyTableForm *f = &self->form;
  gboolean create = self->mode == DY_TABLE_DIALOG_CREATE;
  AdwPreferencesGroup *group;
  const char *billing[] = { _ ("On demand"), _ ("Provisioned"), NULL };
  const char *kinds[] = { _ ("Global"), _ ("Local"), NULL };
  const char *projections[] = { _ ("All attributes"), _ ("Keys only"), _ ("Include"), NULL };
  const char *streams[] = { _ ("Off"),       _ ("Keys only"),          _ ("New image"),
                            _ ("Old image"), _ ("New and old images"), NULL };
  GtkWidget *button_row;

  f->index_rows = g_ptr_array_new ();
  group = group_new (self, _ ("Table"),
                     create ? _ ("Names are 3 to 255 letters, digits, “_”, “.” or “-”. Leave the "
                                 "sort key empty for a table without one.")
                            : NULL);
  f->name = entry_row (_ ("_Name"));
  f->pk_name = entry_row (_ ("_Partition key"));
  f->pk_type = key_type_row (_ ("Partition key _type"));
  f->sk_name = entry_row (_ ("_Sort key"));
  f->sk_type = key_type_row (_ ("Sort key t_ype"));
  adw_preferences_group_add (group, GTK_WIDGET (f->name));
  adw_preferences_group_add (group, GTK_WIDGET (f->pk_name));
  adw_preferences_group_add (group, GTK_WIDGET (f->pk_type));
  adw_preferences_group_add (group, GTK_WIDGET (f->sk_name));
  adw_preferences_group_add (group, GTK_WIDGET (f->sk_type));
  if (!create)
    {
      /* Fixed once created: one line of what they are instead of the rows. */
      f->keys_row = ADW_ACTION_ROW (adw_action_row_new ());
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (f->keys_row), _ ("Keys"));
      adw_preferences_group_add (group, GTK_WIDGET (f->keys_row));
      gtk_widget_set_visible (GTK_WIDGET (f->name), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (f->pk_name), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (f->pk_type), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (f->sk_name), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (f->sk_type), FALSE);
    }

  group = group_new (self, _ ("Capacity"),
                     _ ("Provisioned capacity applies to the table and to each global index."));
  f->billing = combo_row (_ ("_Billing mode"), billing);
  adw_preferences_group_add (group, GTK_WIDGET (f->billing));
  f->rcu = spin_row (group, _ ("_Read capacity units"));
  f->wcu = spin_row (group, _ ("_Write capacity units"));
  g_signal_connect_swapped (f->billing, "notify::selected", G_CALLBACK (billing_changed), self);
  billing_changed (self);

  f->indexes_group = group_new (self, _ ("Secondary Indexes"),
                                create ? NULL
                                       : _ ("Each index added or removed is its own UpdateTable "
                                            "call, sent once the one before is done."));

  /* The new index's fields, folded under one row of the indexes' group. */
  f->new_index = ADW_EXPANDER_ROW (adw_expander_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (f->new_index), _ ("_New index"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (f->new_index), TRUE);
  adw_expander_row_set_subtitle (f->new_index, _ ("Its name, keys and projection"));
  adw_preferences_group_add (f->indexes_group, GTK_WIDGET (f->new_index));
  if (create)
    {
      f->index_kind = combo_row (_ ("_Kind"), kinds);
      adw_expander_row_add_row (f->new_index, GTK_WIDGET (f->index_kind));
      g_signal_connect_swapped (f->index_kind, "notify::selected", G_CALLBACK (index_kind_changed),
                                self);
    }
  f->index_name = entry_row (_ ("Index _name"));
  f->index_pk_name = entry_row (_ ("Index partition _key"));
  f->index_pk_type = key_type_row (_ ("Index partition key type"));
  f->index_sk_name = entry_row (_ ("Index sort key"));
  f->index_sk_type = key_type_row (_ ("Index sort key type"));
  f->index_projection = combo_row (_ ("_Projection"), projections);
  f->index_include = entry_row (_ ("_Attributes to include (comma-separated)"));
  adw_expander_row_add_row (f->new_index, GTK_WIDGET (f->index_name));
  adw_expander_row_add_row (f->new_index, GTK_WIDGET (f->index_pk_name));
  adw_expander_row_add_row (f->new_index, GTK_WIDGET (f->index_pk_type));
  adw_expander_row_add_row (f->new_index, GTK_WIDGET (f->index_sk_name));
  adw_expander_row_add_row (f->new_index, GTK_WIDGET (f->index_sk_type));
  adw_expander_row_add_row (f->new_index, GTK_WIDGET (f->index_projection));
  adw_expander_row_add_row (f->new_index, GTK_WIDGET (f->index_include));
  g_signal_connect_swapped (f->index_projection, "notify::selected",
                            G_CALLBACK (projection_changed), self);
  projection_changed (self);
  f->add_index = GTK_BUTTON (gtk_button_new_with_mnemonic (_ ("A_dd Index")));
  gtk_widget_set_valign (GTK_WIDGET (f->add_index), GTK_ALIGN_CENTER);
  g_signal_connect_swapped (f->add_index, "clicked", G_CALLBACK (add_index_clicked), self);
  button_row = adw_action_row_new ();
  adw_action_row_add_suffix (ADW_ACTION_ROW (button_row), GTK_WIDGET (f->add_index));
  adw_expander_row_add_row (f->new_index, button_row);

  g_signal_connect_swapped (f->sk_name, "changed", G_CALLBACK (sort_keys_changed), self);
  g_signal_connect_swapped (f->index_sk_name, "changed", G_CALLBACK (sort_keys_changed), self);
  sort_keys_changed (self);

  group = group_new (self, _ ("Stream and Time to Live"), NULL);
  f->stream = combo_row (_ ("_Stream"), streams);
  adw_preferences_group_add (group, GTK_WIDGET (f->stream));
  f->ttl = ADW_EXPANDER_ROW (adw_expander_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (f->ttl), _ ("_Time to live"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (f->ttl), TRUE);
  adw_expander_row_set_subtitle (f->ttl, _ ("Items expire at the epoch seconds in an attribute"));
  adw_expander_row_set_show_enable_switch (f->ttl, TRUE);
  adw_expander_row_set_enable_expansion (f->ttl, FALSE);
  f->ttl_attribute = entry_row (_ ("TTL _attribute"));
  adw_expander_row_add_row (f->ttl, GTK_WIDGET (f->ttl_attribute));
  adw_preferences_group_add (group, GTK_WIDGET (f->ttl));
}

static guint
key_type_index (const char *type)
{
  for (guint i = 0; i < G_N_ELEMENTS (key_types); i++)
    if (g_strcmp0 (key_types[i], type) == 0)
      return i;
  return 0;
}

void
dy_table_form_show (DyTableDialog *self)
{
  DyTableForm *f = &self->form;
  DdbTableSpec *spec = self->spec;

  gtk_editable_set_text (GTK_EDITABLE (f->name), spec->name != NULL ? spec->name : "");
  gtk_editable_set_text (GTK_EDITABLE (f->pk_name), spec->pk_name != NULL ? spec->pk_name : "");
  adw_combo_row_set_selected (f->pk_type, key_type_index (spec->pk_type));
  gtk_editable_set_text (GTK_EDITABLE (f->sk_name), spec->sk_name != NULL ? spec->sk_name : "");
  adw_combo_row_set_selected (f->sk_type, key_type_index (spec->sk_type));
  adw_combo_row_set_selected (f->billing, spec->billing == DDB_BILLING_PROVISIONED ? 1 : 0);
  gtk_spin_button_set_value (f->rcu, MAX (spec->rcu, 1));
  gtk_spin_button_set_value (f->wcu, MAX (spec->wcu, 1));
  adw_combo_row_set_selected (f->stream, spec->stream);
  adw_expander_row_set_enable_expansion (f->ttl, spec->ttl_attribute != NULL);
  adw_expander_row_set_expanded (f->ttl, spec->ttl_attribute != NULL);
  gtk_editable_set_text (GTK_EDITABLE (f->ttl_attribute),
                         spec->ttl_attribute != NULL ? spec->ttl_attribute : "");
  if (f->keys_row != NULL)
    {
      g_autofree char *keys
          = spec->sk_name != NULL
                /* TRANSLATORS: a table's keys: partition key (type), sort key (type) */
                ? g_strdup_printf (_ ("Partition key %s (%s), sort key %s (%s)"), spec->pk_name,
                                   spec->pk_type, spec->sk_name, spec->sk_type)
                : g_strdup_printf (_ ("Partition key %s (%s), no sort key"), spec->pk_name,
                                   spec->pk_type);

      adw_action_row_set_subtitle (f->keys_row, keys);
    }
  dy_table_form_show_indexes (self);
}

DdbTableSpec *
dy_table_form_read (DyTableDialog *self)
{
  DyTableForm *f = &self->form;
  DdbTableSpec *spec = ddb_table_spec_copy (self->spec);
  const char *sk = text_or_null (f->sk_name);

  g_free (spec->name);
  spec->name = g_strdup (gtk_editable_get_text (GTK_EDITABLE (f->name)));
  g_free (spec->pk_name);
  spec->pk_name = g_strdup (gtk_editable_get_text (GTK_EDITABLE (f->pk_name)));
  g_free (spec->pk_type);
  spec->pk_type = g_strdup (key_types[adw_combo_row_get_selected (f->pk_type)]);
  g_free (spec->sk_name);
  spec->sk_name = g_strdup (sk);
  g_free (spec->sk_type);
  spec->sk_type = sk != NULL ? g_strdup (key_types[adw_combo_row_get_selected (f->sk_type)]) : NULL;
  spec->billing = adw_combo_row_get_selected (f->billing) == 1 ? DDB_BILLING_PROVISIONED
                                                               : DDB_BILLING_PAY_PER_REQUEST;
  spec->rcu = spec->wcu = 0;
  if (spec->billing == DDB_BILLING_PROVISIONED)
    {
      spec->rcu = gtk_spin_button_get_value_as_int (f->rcu);
      spec->wcu = gtk_spin_button_get_value_as_int (f->wcu);
    }
  /* Each global index gets the table's capacity unless it has its own already. */
  for (guint i = 0; i < spec->gsis->len; i++)
    {
      DdbIndexSpec *index = spec->gsis->pdata[i];

      if (spec->billing != DDB_BILLING_PROVISIONED)
        index->rcu = index->wcu = 0;
      else if (index->rcu < 1 || index->wcu < 1)
        {
          index->rcu = spec->rcu;
          index->wcu = spec->wcu;
        }
    }
  spec->stream = adw_combo_row_get_selected (f->stream);
  g_clear_pointer (&spec->ttl_attribute, g_free);
  if (adw_expander_row_get_enable_expansion (f->ttl))
    spec->ttl_attribute = g_strdup (gtk_editable_get_text (GTK_EDITABLE (f->ttl_attribute)));
  return spec;
}

GtkWidget *
dy_table_dialog_get_field (DyTableDialog *self, const char *name)
{
  DyTableForm *f = &self->form;
  const struct {
    const char *name;
    gpointer widget;
  } fields[] = {
    { "name", f->name },
    { "pk-name", f->pk_name },
    { "pk-type", f->pk_type },
    { "sk-name", f->sk_name },
    { "sk-type", f->sk_type },
    { "billing", f->billing },
    { "rcu", f->rcu },
    { "wcu", f->wcu },
    { "index-kind", f->index_kind },
    { "index-name", f->index_name },
    { "index-pk-name", f->index_pk_name },
    { "index-pk-type", f->index_pk_type },
    { "index-sk-name", f->index_sk_name },
    { "index-sk-type", f->index_sk_type },
    { "index-projection", f->index_projection },
    { "index-include", f->index_include },
    { "add-index", f->add_index },
    { "new-index", f->new_index },
    { "stream", f->stream },
    { "ttl", f->ttl },
    { "ttl-attribute", f->ttl_attribute },
    { "confirm", self->confirm_row },
    { "primary", self->primary_button },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (fields); i++)
    if (g_strcmp0 (fields[i].name, name) == 0)
      return fields[i].widget;
  return NULL;
}

GtkWidget *
dy_table_dialog_get_remove_button (DyTableDialog *self, const char *index)
{
  for (guint i = 0; i < self->form.index_rows->len; i++)
    {
      GtkWidget *row = self->form.index_rows->pdata[i];

      if (g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), index) == 0)
        return g_object_get_data (G_OBJECT (row), "remove-button");
    }
  return NULL;
}
