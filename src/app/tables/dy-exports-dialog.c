/* dy-exports-dialog.c: a live table's exports to S3 (see dy-exports-dialog.h): point-in-time
 * recovery, the list of exports, a new export started (and opened when done); the incremental
 * export's form and opening are in dy-exports-dialog-incremental.c. Every call goes through the
 * connection (its credentials, its read-only guard); while an export is in progress the list is
 * read again every few seconds (DYNOSCOPE_EXPORT_POLL_MS overrides). */
#define G_LOG_DOMAIN "dynoscope-exports"

#include <glib/gi18n.h>

#include "app/common/dy-describe.h"
#include "app/tables/dy-exports-dialog-private.h"

#define DEFAULT_POLL_MS 5000

G_DEFINE_FINAL_TYPE (DyExportsDialog, dy_exports_dialog, ADW_TYPE_WINDOW)

static guint open_signal;

static void refresh (DyExportsDialog *self);
static void form_changed (DyExportsDialog *self);

/* A DynamoDB time (JSON epoch seconds, maybe with a fraction) as the local "2026-12-06
 * 07:12:03", or NULL when it is not a number. */
static char *
local_time (json_t *seconds)
{
  g_autoptr (GDateTime) t = json_is_number (seconds)
                                ? g_date_time_new_from_unix_local ((gint64) json_number_value (seconds))
                                : NULL;

  return t != NULL ? g_date_time_format (t, "%Y-%m-%d %H:%M:%S") : NULL;
}

void
dy_exports_dialog_show_error (DyExportsDialog *self, const char *message)
{
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_revealer_set_reveal_child (self->error_revealer, message != NULL);
}

/* The settings' remembered location of this connection's exports: "BUCKET\tPREFIX\tFORMAT". */
static char *
location_key (DyExportsDialog *self)
{
  return dy_connection_dup_key (self->connection);
}

static void
load_location (DyExportsDialog *self)
{
  g_autoptr (GVariant) all = NULL;
  g_autofree char *key = location_key (self);
  const char *value = NULL;
  g_auto (GStrv) parts = NULL;

  if (self->settings == NULL)
    return;
  all = g_settings_get_value (self->settings, "export-locations");
  if (!g_variant_lookup (all, key, "&s", &value))
    return;
  parts = g_strsplit (value, "\t", 3);
  if (parts[0] != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->bucket_row), parts[0]);
  if (parts[0] != NULL && parts[1] != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->prefix_row), parts[1]);
  if (parts[0] != NULL && parts[1] != NULL && parts[2] != NULL)
    adw_combo_row_set_selected (self->format_row, g_str_equal (parts[2], "ION") ? 1 : 0);
}

static void
save_location (DyExportsDialog *self, const char *bucket, const char *prefix, const char *format)
{
  g_autoptr (GVariant) all = NULL;
  g_autofree char *key = location_key (self);
  g_autofree char *value = g_strjoin ("\t", bucket, prefix, format, NULL);
  GVariantBuilder b;
  GVariantIter it;
  const char *k, *v;

  if (self->settings == NULL)
    return;
  all = g_settings_get_value (self->settings, "export-locations");
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{ss}"));
  g_variant_builder_add (&b, "{ss}", key, value);
  g_variant_iter_init (&it, all);
  while (g_variant_iter_next (&it, "{&s&s}", &k, &v))
    if (!g_str_equal (k, key))
      g_variant_builder_add (&b, "{ss}", k, v);
  g_settings_set_value (self->settings, "export-locations", g_variant_builder_end (&b));
}

/* ---- Point-in-time recovery ---- */

static void
pitr_described (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyExportsDialog) self = user_data;
  g_autoptr (GError) error = NULL;
  json_auto_t *resp = dy_connection_call_finish (DY_CONNECTION (source), result, &error);
  json_t *pitr;
  gboolean on;

  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  g_clear_pointer (&self->pitr_text, g_free);
  if (resp == NULL)
    {
      self->pitr_text = g_strdup (error->message);
      adw_action_row_set_subtitle (self->pitr_row, self->pitr_text);
      return;
    }
  pitr = json_object_get (json_object_get (resp, "ContinuousBackupsDescription"),
                          "PointInTimeRecoveryDescription");
  on = g_strcmp0 (json_string_value (json_object_get (pitr, "PointInTimeRecoveryStatus")),
                  "ENABLED")
       == 0;
  if (on)
    {
      json_t *earliest = json_object_get (pitr, "EarliestRestorableDateTime");
      g_autofree char *when = local_time (earliest);

      self->earliest_s = json_is_number (earliest) ? json_number_value (earliest) : -1;
      dy_exports_dialog_update_from (self);

      /* TRANSLATORS: %s is a date and time */
      self->pitr_text = g_strdup_printf (_ ("On: exports can be made of any time since %s"),
                                         when != NULL ? when : "?");
    }
  else
    self->pitr_text = g_strdup (_ ("Off: DynamoDB exports a table only when it is on"));
  adw_action_row_set_subtitle (self->pitr_row, self->pitr_text);
  gtk_widget_set_visible (GTK_WIDGET (self->pitr_button), !on);
}

static void
pitr_updated (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyExportsDialog) self = user_data;
  g_autoptr (GError) error = NULL;
  json_auto_t *resp = dy_connection_call_finish (DY_CONNECTION (source), result, &error);

  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  gtk_widget_set_sensitive (GTK_WIDGET (self->pitr_button), TRUE);
  dy_exports_dialog_show_error (self, resp == NULL ? error->message : NULL);
  refresh (self);
}

static void
pitr_confirmed (AdwMessageDialog *dialog, const char *response, DyExportsDialog *self)
{
  json_auto_t *req = NULL;

  if (!g_str_equal (response, "enable"))
    return;
  req = json_pack ("{ss s{sb}}", "TableName", self->table, "PointInTimeRecoverySpecification",
                   "PointInTimeRecoveryEnabled", 1);
  gtk_widget_set_sensitive (GTK_WIDGET (self->pitr_button), FALSE);
  dy_connection_call_async (self->connection, "UpdateContinuousBackups", req, self->cancellable,
                            pitr_updated, g_object_ref (self));
}

static void
pitr_clicked (DyExportsDialog *self)
{
  GtkWidget *dialog;
  g_autofree char *heading
      = g_strdup_printf (_ ("Turn On Point-in-Time Recovery for “%s”?"), self->table);

  dialog = adw_message_dialog_new (
      GTK_WINDOW (self), heading,
      _ ("DynamoDB then keeps the table’s changes for 35 days, so that it can be exported or "
         "restored as of any time in them. AWS charges for it by the table’s size."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"),
                                    "enable", _ ("_Turn On"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "enable",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (pitr_confirmed), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ---- The exports ---- */

void
dy_exports_dialog_emit_open (DyExportsDialog *self, const char *url,
                             const char *const *incrementals)
{
  g_signal_emit (self, open_signal, 0, url, self->key_spec, incrementals);
}

gboolean
dy_export_is_completed (json_t *d)
{
  return g_strcmp0 (json_string_value (json_object_get (d, "ExportStatus")), "COMPLETED") == 0;
}

gboolean
dy_export_is_incremental (json_t *d)
{
  return g_strcmp0 (json_string_value (json_object_get (d, "ExportType")), "INCREMENTAL_EXPORT")
         == 0;
}

char *
dy_export_manifest_url (json_t *d)
{
  return g_strdup_printf ("s3://%s/%s", json_string_value (json_object_get (d, "S3Bucket")),
                          json_string_value (json_object_get (d, "ExportManifest")));
}

static void
open_clicked (GtkButton *button, DyExportsDialog *self)
{
  dy_exports_dialog_emit_open (self, g_object_get_data (G_OBJECT (button), "url"), NULL);
}

/* One export's row from its ExportDescription. */
static GtkWidget *
export_row (DyExportsDialog *self, json_t *d)
{
  const char *status = json_string_value (json_object_get (d, "ExportStatus"));
  const char *format = json_string_value (json_object_get (d, "ExportFormat"));
  const char *bucket = json_string_value (json_object_get (d, "S3Bucket"));
  const char *manifest = json_string_value (json_object_get (d, "ExportManifest"));
  json_t *items = json_object_get (d, "ItemCount");
  json_t *size = json_object_get (d, "BilledSizeBytes");
  g_autofree char *when = local_time (json_object_get (d, "ExportTime"));
  GString *sub = g_string_new (NULL);
  GtkWidget *row = adw_action_row_new ();
  gboolean incremental = dy_export_is_incremental (d);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                 when != NULL ? when : _ ("Time not known yet"));
  g_string_append (sub, g_strcmp0 (status, "COMPLETED") == 0    ? _ ("Completed")
                        : g_strcmp0 (status, "IN_PROGRESS") == 0 ? _ ("In progress")
                        : g_strcmp0 (status, "FAILED") == 0      ? _ ("Failed")
                                                                 : status != NULL ? status : "?");
  g_string_append (sub, " · ");
  g_string_append (sub, incremental ? _ ("Incremental") : _ ("Full"));
  g_string_append (sub, " · ");
  g_string_append (sub, g_strcmp0 (format, "ION") == 0 ? _ ("Amazon Ion") : _ ("DynamoDB JSON"));
  if (json_is_integer (items))
    {
      g_autofree char *n = g_strdup_printf ("%" JSON_INTEGER_FORMAT, json_integer_value (items));

      g_string_append (sub, " · ");
      /* TRANSLATORS: %s is a number of items */
      g_string_append_printf (sub, ngettext ("%s item", "%s items",
                                             (gulong) json_integer_value (items)),
                              n);
    }
  if (json_is_integer (size))
    {
      g_autofree char *s = g_format_size ((guint64) json_integer_value (size));

      g_string_append_printf (sub, " · %s", s);
    }
  if (g_strcmp0 (status, "FAILED") == 0 && json_is_string (json_object_get (d, "FailureMessage")))
    g_string_append_printf (sub, "\n%s: %s",
                            json_string_value (json_object_get (d, "FailureCode")),
                            json_string_value (json_object_get (d, "FailureMessage")));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), sub->str);
  g_string_free (sub, TRUE);
  gtk_widget_set_tooltip_text (row, json_string_value (json_object_get (d, "ExportArn")));
  if (g_strcmp0 (status, "IN_PROGRESS") == 0)
    {
      GtkWidget *spinner = gtk_spinner_new ();

      gtk_spinner_start (GTK_SPINNER (spinner));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), spinner);
    }
  else if (g_strcmp0 (status, "COMPLETED") == 0 && bucket != NULL && manifest != NULL)
    {
      GtkWidget *button = gtk_button_new_with_mnemonic (_ ("_Open"));

      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      if (incremental)
        {
          gtk_widget_set_tooltip_text (button, _ ("Open the table as of this export’s end: the "
                                                  "full export before it, with the incremental "
                                                  "exports since, as a snapshot in a database"));
          g_object_set_data_full (G_OBJECT (button), "arn",
                                  g_strdup (json_string_value (json_object_get (d, "ExportArn"))),
                                  g_free);
          g_signal_connect_object (button, "clicked",
                                   G_CALLBACK (dy_exports_dialog_open_incremental), self, 0);
        }
      else
        {
          gtk_widget_set_tooltip_text (button, _ ("Open the export as a snapshot in a database"));
          g_object_set_data_full (G_OBJECT (button), "url", dy_export_manifest_url (d), g_free);
          g_signal_connect_object (button, "clicked", G_CALLBACK (open_clicked), self, 0);
        }
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
    }
  return row;
}

/* The export Export and Open started, once D shows it done: opened as a snapshot (the signal
 * "open", as its row's Open does), or its failure shown. */
static void
open_if_awaited (DyExportsDialog *self, json_t *d)
{
  const char *status = json_string_value (json_object_get (d, "ExportStatus"));

  if (self->open_when_done == NULL
      || g_strcmp0 (json_string_value (json_object_get (d, "ExportArn")), self->open_when_done)
             != 0)
    return;
  if (dy_export_is_completed (d) && json_is_string (json_object_get (d, "S3Bucket"))
      && json_is_string (json_object_get (d, "ExportManifest")))
    {
      g_autofree char *url = dy_export_manifest_url (d);

      g_clear_pointer (&self->open_when_done, g_free);
      dy_exports_dialog_emit_open (self, url, NULL);
    }
  else if (g_strcmp0 (status, "FAILED") == 0)
    {
      g_autofree char *why
          = g_strdup_printf (_ ("The export failed, so there is nothing to open: %s"),
                             json_is_string (json_object_get (d, "FailureMessage"))
                                 ? json_string_value (json_object_get (d, "FailureMessage"))
                                 : status);

      g_clear_pointer (&self->open_when_done, g_free);
      dy_exports_dialog_show_error (self, why);
    }
}

static gboolean
poll_again (gpointer user_data)
{
  DyExportsDialog *self = user_data;

  self->poll_source = 0;
  refresh (self);
  return G_SOURCE_REMOVE;
}

static void
schedule_poll (DyExportsDialog *self)
{
  const char *env = g_getenv ("DYNOSCOPE_EXPORT_POLL_MS");
  guint ms = env != NULL ? (guint) g_ascii_strtoull (env, NULL, 10) : DEFAULT_POLL_MS;

  if (self->poll_source == 0)
    self->poll_source = g_timeout_add (MAX (ms, 10), poll_again, self);
}

static void
export_described (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GtkWidget *placeholder = user_data;
  /* The dialog whose list still holds the row: none once the dialog is closed (its list then
   * lets its rows go) or the list refreshed. Never a pointer kept from when the call was sent:
   * the dialog may be gone by the answer. */
  GtkWidget *list = gtk_widget_get_parent (placeholder);
  DyExportsDialog *self
      = list != NULL ? (DyExportsDialog *) gtk_widget_get_ancestor (list, DY_TYPE_EXPORTS_DIALOG)
                     : NULL;
  g_autoptr (GError) error = NULL;
  json_auto_t *resp = dy_connection_call_finish (DY_CONNECTION (source), result, &error);
  json_t *d = resp != NULL ? json_object_get (resp, "ExportDescription") : NULL;

  if (self != NULL && list == GTK_WIDGET (self->list))
    {
      GtkWidget *row = d != NULL ? export_row (self, d) : NULL;
      int index = gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (placeholder));

      if (d != NULL && json_is_string (json_object_get (d, "ExportArn")))
        {
          g_hash_table_replace (self->described,
                                g_strdup (json_string_value (json_object_get (d, "ExportArn"))),
                                json_incref (d));
          dy_exports_dialog_update_from (
              self); /* a newer export may be where an incremental one starts */
        }
      if (row != NULL)
        {
          gtk_list_box_remove (self->list, placeholder);
          gtk_list_box_insert (self->list, row, index);
          open_if_awaited (self, d);
        }
      else
        adw_action_row_set_subtitle (ADW_ACTION_ROW (placeholder), error->message);
      if (d != NULL
          && g_strcmp0 (json_string_value (json_object_get (d, "ExportStatus")), "IN_PROGRESS")
                 == 0)
        schedule_poll (self);
    }
  g_object_unref (placeholder);
}

static void
clear_list (DyExportsDialog *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
}

/* ListExports answers 25 at most a page, in no order AWS promises: every page is read (at most
 * LIST_PAGES of them), and the newest SHOWN exports are listed and described. A refresh while
 * pages are still being read makes the listing under way obsolete. */
#define LIST_PAGES 40
#define SHOWN 100

typedef struct {
  DyExportsDialog *self; /* a reference */
  json_t *summaries;     /* ExportSummaries of the pages read so far */
  guint pages;
  guint serial;
} Listing;

static void
listing_free (Listing *l)
{
  g_object_unref (l->self);
  json_decref (l->summaries);
  g_free (l);
}

static void list_page (Listing *l, const char *next_token);

/* Newest first: an export's id (after "/export/") begins with its time. */
static const char *
export_id (json_t *summary)
{
  const char *arn = json_string_value (json_object_get (summary, "ExportArn"));
  const char *id = arn != NULL ? strstr (arn, "/export/") : NULL;

  return id != NULL ? id : "";
}

static int
compare_newest_first (gconstpointer a, gconstpointer b)
{
  return -strcmp (export_id (*(json_t **) a), export_id (*(json_t **) b));
}

static void
show_listing (DyExportsDialog *self, json_t *listing)
{
  g_autoptr (GPtrArray) summaries = g_ptr_array_new ();
  json_t *s;
  gsize i;

  json_array_foreach (listing, i, s)
    g_ptr_array_add (summaries, s);
  g_ptr_array_sort (summaries, compare_newest_first);
  clear_list (self);
  for (guint k = 0; k < summaries->len && k < SHOWN; k++)
    {
      json_t *summary = g_ptr_array_index (summaries, k);
      const char *arn = json_string_value (json_object_get (summary, "ExportArn"));
      GtkWidget *placeholder = adw_action_row_new ();
      json_auto_t *req = json_pack ("{ss}", "ExportArn", arn != NULL ? arn : "");

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (placeholder), arn != NULL ? arn : "?");
      adw_action_row_set_subtitle (ADW_ACTION_ROW (placeholder), _ ("Reading the export…"));
      gtk_list_box_append (self->list, placeholder);
      dy_connection_call_async (self->connection, "DescribeExport", req, self->cancellable,
                                export_described, g_object_ref (placeholder));
    }
  gtk_widget_set_visible (GTK_WIDGET (self->empty_label), summaries->len == 0);
  gtk_widget_set_visible (GTK_WIDGET (self->list), summaries->len > 0);
}

static void
exports_listed (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Listing *l = user_data;
  DyExportsDialog *self = l->self;
  g_autoptr (GError) error = NULL;
  json_auto_t *resp = dy_connection_call_finish (DY_CONNECTION (source), result, &error);
  const char *next;
  json_t *s;
  gsize i;

  if (g_cancellable_is_cancelled (self->cancellable) || l->serial != self->list_serial)
    {
      listing_free (l);
      return;
    }
  if (resp == NULL)
    {
      dy_exports_dialog_show_error (self, error->message);
      listing_free (l);
      return;
    }
  json_array_foreach (json_object_get (resp, "ExportSummaries"), i, s)
    json_array_append (l->summaries, s);
  next = json_string_value (json_object_get (resp, "NextToken"));
  if (next != NULL && *next != '\0' && ++l->pages < LIST_PAGES)
    {
      list_page (l, next);
      return;
    }
  show_listing (self, l->summaries);
  listing_free (l);
}

static void
list_page (Listing *l, const char *next_token)
{
  json_auto_t *req = json_pack ("{sssi}", "TableArn", l->self->table_arn, "MaxResults", 25);

  if (next_token != NULL)
    json_object_set_new (req, "NextToken", json_string (next_token));
  dy_connection_call_async (l->self->connection, "ListExports", req, l->self->cancellable,
                            exports_listed, l);
}

static void
refresh (DyExportsDialog *self)
{
  json_auto_t *pitr = json_pack ("{ss}", "TableName", self->table);

  dy_connection_call_async (self->connection, "DescribeContinuousBackups", pitr,
                            self->cancellable, pitr_described, g_object_ref (self));
  if (self->table_arn != NULL)
    {
      Listing *l = g_new0 (Listing, 1);

      l->self = g_object_ref (self);
      l->summaries = json_array ();
      l->serial = ++self->list_serial;
      list_page (l, NULL);
    }
}

static void
export_started (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyExportsDialog) self = user_data;
  g_autoptr (GError) error = NULL;
  json_auto_t *resp = dy_connection_call_finish (DY_CONNECTION (source), result, &error);

  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  if (self->open_pending && resp != NULL)
    {
      g_free (self->open_when_done);
      self->open_when_done = g_strdup (json_string_value (
          json_object_get (json_object_get (resp, "ExportDescription"), "ExportArn")));
    }
  self->open_pending = FALSE;
  form_changed (self);
  dy_exports_dialog_show_error (self, resp == NULL ? error->message : NULL);
  refresh (self);
}

/* Starts an export to the bucket, prefix and format of the form; OPEN: opened as a snapshot
 * once completed. */
static void
start_export (DyExportsDialog *self, gboolean open)
{
  const char *bucket = gtk_editable_get_text (GTK_EDITABLE (self->bucket_row));
  const char *prefix = gtk_editable_get_text (GTK_EDITABLE (self->prefix_row));
  const char *format = adw_combo_row_get_selected (self->format_row) == 1 ? "ION"
                                                                          : "DYNAMODB_JSON";
  json_auto_t *req = NULL;

  if (*bucket == '\0' || self->table_arn == NULL)
    {
      dy_exports_dialog_show_error (self, *bucket == '\0'
                                              ? _ ("Name the S3 bucket the export goes to")
                                              : _ ("The table is still being read"));
      return;
    }
  req = json_pack ("{ss ss ss}", "TableArn", self->table_arn, "S3Bucket", bucket, "ExportFormat",
                   format);
  if (*prefix != '\0')
    json_object_set_new (req, "S3Prefix", json_string (prefix));
  if (!dy_exports_dialog_add_incremental (self, req))
    return;
  {
    /* a token of its own, so that a request the client sends again starts one export only */
    g_autofree char *token = g_uuid_string_random ();

    json_object_set_new (req, "ClientToken", json_string (token));
  }
  save_location (self, bucket, prefix, format);
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_open_button), FALSE);
  dy_exports_dialog_show_error (self, NULL);
  self->open_pending = open;
  dy_connection_call_async (self->connection, "ExportTableToPointInTime", req, self->cancellable,
                            export_started, g_object_ref (self));
}

static void
export_clicked (DyExportsDialog *self)
{
  start_export (self, FALSE);
}

static void
export_open_clicked (DyExportsDialog *self)
{
  start_export (self, TRUE);
}

static void
form_changed (DyExportsDialog *self)
{
  gboolean read_only = dy_connection_get_read_only (self->connection);
  g_autofree char *reason = read_only ? dy_connection_dup_read_only_reason (self->connection)
                                      : NULL;

  gboolean can = !read_only && self->table_arn != NULL && !self->open_pending
                 && *gtk_editable_get_text (GTK_EDITABLE (self->bucket_row)) != '\0';

  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), can);
  /* an incremental export alone is no snapshot */
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_open_button),
                            can && !dy_exports_dialog_is_incremental (self));
  gtk_widget_set_visible (GTK_WIDGET (self->from_row), dy_exports_dialog_is_incremental (self));
  gtk_widget_set_visible (GTK_WIDGET (self->to_row), dy_exports_dialog_is_incremental (self));
  gtk_widget_set_visible (GTK_WIDGET (self->view_row), dy_exports_dialog_is_incremental (self));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->button_row),
                                 dy_exports_dialog_is_incremental (self)
                                     ? _ ("The changes of that period, written by DynamoDB")
                                     : _ ("The table as it is now, written by DynamoDB"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->pitr_button), !read_only);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->export_button), reason);
  if (reason != NULL)
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->export_open_button), reason);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->pitr_button), reason);
}

/* The table's ARN and key schema. */
static void
table_described (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyExportsDialog) self = user_data;
  g_autoptr (GError) error = NULL;
  json_auto_t *resp = dy_connection_call_finish (DY_CONNECTION (source), result, &error);
  json_t *table = resp != NULL ? json_object_get (resp, "Table") : NULL;
  json_t *schema = json_object_get (table, "KeySchema");
  json_t *defs = json_object_get (table, "AttributeDefinitions");
  GString *spec = g_string_new (NULL);
  static const char *const kinds[] = { "HASH", "RANGE" };

  if (g_cancellable_is_cancelled (self->cancellable))
    {
      g_string_free (spec, TRUE);
      return;
    }
  if (table == NULL)
    {
      dy_exports_dialog_show_error (self, error != NULL ? error->message : NULL);
      g_string_free (spec, TRUE);
      return;
    }
  self->table_arn = g_strdup (json_string_value (json_object_get (table, "TableArn")));
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      const char *name = dy_describe_key_name (schema, kinds[k]);
      const char *type = "S";
      gsize i;
      json_t *d;

      if (name == NULL)
        continue;
      json_array_foreach (defs, i, d)
        if (g_strcmp0 (json_string_value (json_object_get (d, "AttributeName")), name) == 0)
          type = json_string_value (json_object_get (d, "AttributeType"));
      g_string_append_printf (spec, "%s%s:%s", spec->len > 0 ? "," : "", name, type);
    }
  self->key_spec = g_string_free (spec, FALSE);
  form_changed (self);
  if (self->start_when_described)
    {
      self->start_when_described = FALSE;
      dy_exports_dialog_export_and_open (self);
    }
  refresh (self);
}

static void
dy_exports_dialog_dispose (GObject *object)
{
  DyExportsDialog *self = DY_EXPORTS_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->poll_source, g_source_remove);
  G_OBJECT_CLASS (dy_exports_dialog_parent_class)->dispose (object);
}

static void
dy_exports_dialog_finalize (GObject *object)
{
  DyExportsDialog *self = DY_EXPORTS_DIALOG (object);

  g_clear_object (&self->connection);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);
  g_free (self->table);
  g_free (self->table_arn);
  g_free (self->key_spec);
  g_free (self->pitr_text);
  g_free (self->open_when_done);
  g_hash_table_unref (self->described);
  g_free (self->from_default);
  G_OBJECT_CLASS (dy_exports_dialog_parent_class)->finalize (object);
}

static void
dy_exports_dialog_class_init (DyExportsDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dy_exports_dialog_dispose;
  object_class->finalize = dy_exports_dialog_finalize;
  /* (manifest URL, key spec, incremental exports' manifest URLs: NULL-terminated, or NULL) */
  open_signal = g_signal_new ("open", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                              NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRV);
}

static void
dy_exports_dialog_init (DyExportsDialog *self)
{
  GtkWidget *toolbar = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *page = adw_preferences_page_new ();
  GtkWidget *pitr_group = adw_preferences_group_new ();
  GtkWidget *new_group = adw_preferences_group_new ();
  GtkWidget *list_group = adw_preferences_group_new ();
  GtkWidget *refresh_button = gtk_button_new_from_icon_name ("view-refresh-symbolic");
  g_autoptr (GtkStringList) formats = gtk_string_list_new (NULL);
  GtkWidget *button_row = adw_action_row_new ();

  self->cancellable = g_cancellable_new ();
  self->described
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) json_decref);
  self->earliest_s = -1;
  gtk_window_set_default_size (GTK_WINDOW (self), 560, 640);
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  adw_window_set_content (ADW_WINDOW (self), toolbar);
  gtk_box_append (GTK_BOX (toolbar), header);

  self->error_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->error_label, TRUE);
  gtk_label_set_selectable (self->error_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "error");
  gtk_widget_set_margin_start (GTK_WIDGET (self->error_label), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->error_label), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self->error_label), 6);
  self->error_revealer = GTK_REVEALER (gtk_revealer_new ());
  gtk_revealer_set_child (self->error_revealer, GTK_WIDGET (self->error_label));
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->error_revealer));
  gtk_widget_set_vexpand (page, TRUE);
  gtk_box_append (GTK_BOX (toolbar), page);

  self->pitr_row = ADW_ACTION_ROW (adw_action_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->pitr_row),
                                 _ ("Point-in-Time Recovery"));
  adw_action_row_set_subtitle (self->pitr_row, _ ("Reading…"));
  self->pitr_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_ ("_Turn On…")));
  gtk_widget_set_valign (GTK_WIDGET (self->pitr_button), GTK_ALIGN_CENTER);
  gtk_widget_set_visible (GTK_WIDGET (self->pitr_button), FALSE);
  g_signal_connect_swapped (self->pitr_button, "clicked", G_CALLBACK (pitr_clicked), self);
  adw_action_row_add_suffix (self->pitr_row, GTK_WIDGET (self->pitr_button));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (pitr_group), GTK_WIDGET (self->pitr_row));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (pitr_group));

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (new_group), _ ("New Export to S3"));
  self->bucket_row = ADW_ENTRY_ROW (adw_entry_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->bucket_row), _ ("Bucket"));
  self->prefix_row = ADW_ENTRY_ROW (adw_entry_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->prefix_row), _ ("Prefix (optional)"));
  self->format_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->format_row), _ ("Format"));
  gtk_string_list_append (formats, _ ("DynamoDB JSON"));
  gtk_string_list_append (formats, _ ("Amazon Ion"));
  adw_combo_row_set_model (self->format_row, G_LIST_MODEL (formats));
  self->export_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_ ("_Export Now")));
  gtk_widget_add_css_class (GTK_WIDGET (self->export_button), "suggested-action");
  gtk_widget_set_valign (GTK_WIDGET (self->export_button), GTK_ALIGN_CENTER);
  g_signal_connect_swapped (self->export_button, "clicked", G_CALLBACK (export_clicked), self);
  self->export_open_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_ ("Export _and Open")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->export_open_button),
                               _ ("Export the table now and open the export as a snapshot in a "
                                  "database once it is complete"));
  gtk_widget_set_valign (GTK_WIDGET (self->export_open_button), GTK_ALIGN_CENTER);
  g_signal_connect_swapped (self->export_open_button, "clicked", G_CALLBACK (export_open_clicked),
                            self);
  self->button_row = ADW_ACTION_ROW (button_row);
  adw_action_row_add_suffix (ADW_ACTION_ROW (button_row), GTK_WIDGET (self->export_open_button));
  adw_action_row_add_suffix (ADW_ACTION_ROW (button_row), GTK_WIDGET (self->export_button));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (new_group), GTK_WIDGET (self->bucket_row));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (new_group), GTK_WIDGET (self->prefix_row));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (new_group), GTK_WIDGET (self->format_row));
  dy_exports_dialog_incremental_init (self, ADW_PREFERENCES_GROUP (new_group));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (new_group), button_row);
  g_signal_connect_swapped (self->bucket_row, "changed", G_CALLBACK (form_changed), self);
  g_signal_connect_swapped (self->type_row, "notify::selected", G_CALLBACK (form_changed), self);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (new_group));

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (list_group), _ ("Exports"));
  gtk_widget_set_tooltip_text (refresh_button, _ ("Read the exports again"));
  gtk_widget_add_css_class (refresh_button, "flat");
  g_signal_connect_swapped (refresh_button, "clicked", G_CALLBACK (refresh), self);
  adw_preferences_group_set_header_suffix (ADW_PREFERENCES_GROUP (list_group), refresh_button);
  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  self->empty_label = GTK_LABEL (gtk_label_new (_ ("No exports of this table yet")));
  gtk_widget_add_css_class (GTK_WIDGET (self->empty_label), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->empty_label), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->list), FALSE);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (list_group), GTK_WIDGET (self->list));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (list_group), GTK_WIDGET (self->empty_label));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (list_group));
}

DyExportsDialog *
dy_exports_dialog_new (GtkWindow *parent, DyConnection *connection, const char *table,
                       GSettings *settings)
{
  DyExportsDialog *self = g_object_new (DY_TYPE_EXPORTS_DIALOG, "transient-for", parent, NULL);
  g_autofree char *title = g_strdup_printf (_ ("Exports of %s"), table);
  json_auto_t *req = json_pack ("{ss}", "TableName", table);

  self->connection = g_object_ref (connection);
  self->table = g_strdup (table);
  self->settings = settings != NULL ? g_object_ref (settings) : NULL;
  gtk_window_set_title (GTK_WINDOW (self), title);
  load_location (self);
  form_changed (self);
  dy_connection_call_async (connection, "DescribeTable", req, self->cancellable, table_described,
                            g_object_ref (self));
  return self;
}

DyConnection *
dy_exports_dialog_get_connection (DyExportsDialog *self)
{
  return self->connection;
}

GtkListBox *
dy_exports_dialog_get_list (DyExportsDialog *self)
{
  return self->list;
}

void
dy_exports_dialog_export_and_open (DyExportsDialog *self)
{
  g_return_if_fail (DY_IS_EXPORTS_DIALOG (self));
  if (self->table_arn == NULL)
    {
      self->start_when_described = TRUE; /* once the table is read */
      return;
    }
  if (*gtk_editable_get_text (GTK_EDITABLE (self->bucket_row)) == '\0')
    {
      dy_exports_dialog_show_error (
          self, _ ("Name the S3 bucket the export goes to, then Export and Open"));
      gtk_widget_grab_focus (GTK_WIDGET (self->bucket_row));
      return;
    }
  if (gtk_widget_get_sensitive (GTK_WIDGET (self->export_open_button)))
    start_export (self, TRUE);
}

const char *
dy_exports_dialog_get_error (DyExportsDialog *self)
{
  return gtk_revealer_get_reveal_child (self->error_revealer)
             ? gtk_label_get_text (self->error_label)
             : NULL;
}

const char *
dy_exports_dialog_get_pitr_text (DyExportsDialog *self)
{
  return self->pitr_text;
}
