/* test-signin-gui.c: signing in from the app, under Xvfb: the MFA dialog of a role with
 * mfa_serial (Cancel cancels cleanly, a code continues), the Environment connection made from
 * AWS_ACCESS_KEY_ID, who each AWS connection is signed in as (GetCallerIdentity, or "identity
 * unknown" when STS refuses), and Sign In for IAM Identity Center through the device flow.
 * DynamoDB is `dynoscope-cli serve`; STS, SSO and SSO-OIDC are the fakes of
 * tests/lib/aws_fakes.py on loopback. */
#define G_LOG_DOMAIN "test-signin-gui"

#include <glib/gstdio.h>
#include <jansson.h>
#include <signal.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "app/connections/dy-identity.h"
#include "app/connections/dy-mfa-dialog.h"
#include "app/connections/dy-sign-in.h"
#include "app/tables/dy-import.h"
#include "gui-util.h"
#include "net/hash.h"
#include "net/secret-json.h"

#include <adwaita.h>

/* Spawned without GSubprocess, whose child watch starts a thread: the environment is set after
 * they start (it names their ports), and setenv is not thread-safe. */
static GPid server = -1;
static GPid fakes = -1;
static char *server_url;
static char *control_url; /* the fakes' control endpoint */
static char *env_key_id;  /* the static keys given to the Environment connection */
static char *env_secret;

/* ---- Helpers ---- */

static void
collect_labels (GtkWidget *widget, GString *out)
{
  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (out, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    collect_labels (c, out);
}

static GtkWidget *
sidebar_list (void)
{
  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (gui_window), DY_TYPE_WINDOW,
                                                    "sidebar_list"));
}

static char *
widget_text (GtkWidget *widget)
{
  GString *out = g_string_new (NULL);

  gui_settle ();
  collect_labels (widget, out);
  return g_string_free (out, FALSE);
}

static gboolean
connection_loaded (gpointer data)
{
  return dy_connection_get_loaded (data) && !dy_connection_get_loading (data);
}

static gboolean
identity_known (gpointer data)
{
  return dy_connection_get_identity (data) != NULL;
}

static gboolean
profiles_loaded (gpointer data)
{
  return dy_window_get_profiles_loaded (gui_window);
}

static gboolean
mfa_dialog_open (gpointer data)
{
  return dy_mfa_dialog_get_current () != NULL;
}

static gboolean
mfa_dialog_closed (gpointer data)
{
  return dy_mfa_dialog_get_current () == NULL;
}

static gboolean
sign_in_code_shown (gpointer data)
{
  GtkWidget *dialog = dy_sign_in_get_current ();

  return dialog != NULL && dy_sign_in_get_user_code (dialog) != NULL;
}

static gboolean
tab_failed (gpointer data)
{
  return gtk_revealer_get_reveal_child (GTK_REVEALER (gui_child (data, "error_revealer")));
}

static gboolean
view_ready (gpointer data)
{
  return dy_table_view_get_ready (data);
}

static gboolean
table_described (gpointer data)
{
  return dy_connection_get_table_description (data, "Signin001", NULL) != NULL;
}

static gboolean
sign_in_closed (gpointer data)
{
  return dy_sign_in_get_current () == NULL;
}

static DyConnection *
profile (const char *name)
{
  DyConnection *c;

  gui_wait_for (profiles_loaded, NULL, "the AWS profiles");
  c = dy_window_find_connection (gui_window, DY_CONNECTION_PROFILE, name);
  g_assert_nonnull (c);
  return c;
}

/* POSTs PATH to the fakes' control endpoint (with the Python the fakes need anyway). */
static void
control_post (const char *path)
{
  g_autofree char *url = g_strconcat (control_url, path, NULL);
  const char *argv[] = { "/usr/bin/python3", "-c",
                         "import sys, urllib.request; urllib.request.urlopen("
                         "urllib.request.Request(sys.argv[1], data=b'{}', method='POST'))",
                         url, NULL };
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH
                               | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status,
                               &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* ---- Tests ---- */

static void
test_environment (void)
{
  DyConnection *c;
  g_autofree char *text = NULL;
  g_autofree char *tail = NULL;
  char **envp = NULL;
  g_autoptr (DyConnection) none = NULL;
  g_autoptr (DyConnection) some = NULL;

  if (server_url == NULL)
    {
      g_test_skip ("DYNOSCOPE_CLI is not set");
      return;
    }
  /* Without AWS_ACCESS_KEY_ID there is none; with it, one that never shows the secret. */
  envp = g_environ_setenv (envp, "AWS_SECRET_ACCESS_KEY", "abc", TRUE);
  none = dy_connection_new_environment ((const char *const *) envp);
  g_assert_null (none);
  envp = g_environ_setenv (envp, "AWS_ACCESS_KEY_ID", "AKIAEXAMPLEWXYZ", TRUE);
  envp = g_environ_setenv (envp, "AWS_DEFAULT_REGION", "eu-central-1", TRUE);
  some = dy_connection_new_environment ((const char *const *) envp);
  g_strfreev (envp);
  g_assert_nonnull (some);
  g_assert_true (dy_connection_is_environment (some));
  g_assert_null (dy_connection_get_profile (some));
  g_assert_cmpstr (dy_connection_get_title (some), ==, "Environment");
  g_assert_cmpstr (dy_connection_get_subtitle (some), ==, "eu-central-1 · key …WXYZ");

  /* The window's: the keys this process was started with (the fake's alice). */
  c = dy_window_find_connection (gui_window, DY_CONNECTION_PROFILE, NULL);
  g_assert_nonnull (c);
  g_assert_true (dy_connection_is_environment (c));
  tail = g_strdup (env_key_id + strlen (env_key_id) - 4);
  g_assert_nonnull (strstr (dy_connection_get_subtitle (c), tail));
  dy_window_expand_connection (gui_window, c);
  gui_wait_for (connection_loaded, c, "the Environment connection");
  g_assert_null (dy_connection_get_error (c));
  g_assert_cmpuint (g_list_model_get_n_items (dy_connection_get_tables (c)), ==, 1);
  gui_wait_for (identity_known, c, "the Environment's identity");
  g_assert_cmpstr (dy_connection_get_identity (c), ==, "as alice · environment");
  g_assert_cmpstr (dy_connection_get_identity_tooltip (c), ==,
                   "arn:aws:iam::111122223333:user/alice");
  text = widget_text (sidebar_list ());
  g_assert_nonnull (strstr (text, "Environment\n"));
  g_assert_nonnull (strstr (text, "as alice · environment"));
  g_assert_null (strstr (text, env_secret));
}

static void
test_identity_unknown (void)
{
  DyConnection *c;
  g_autofree char *text = NULL;

  if (server_url == NULL)
    {
      g_test_skip ("DYNOSCOPE_CLI is not set");
      return;
    }
  /* `serve` takes any keys; STS does not know these, so who they are stays unknown. */
  c = profile ("local");
  dy_window_expand_connection (gui_window, c);
  gui_wait_for (connection_loaded, c, "the local profile");
  g_assert_null (dy_connection_get_error (c));
  gui_wait_for (identity_known, c, "the local profile's identity");
  g_assert_cmpstr (dy_connection_get_identity (c), ==, "identity unknown · credentials file");
  text = widget_text (sidebar_list ());
  g_assert_nonnull (strstr (text, "identity unknown · credentials file"));
}

static gboolean
import_inspected (gpointer data)
{
  return dy_import_dialog_get_inspected (data);
}

/* An export in S3 opened with a profile whose role needs an MFA code: the import dialog's look
 * at the bucket asks for it too (a cancelled code says so), as the connection's requests do. */
static void
test_mfa_s3_import (void)
{
  DyImportDialog *import;
  GtkWidget *dialog;
  g_autofree char *text = NULL;
  g_autofree char *said = NULL;

  if (server_url == NULL)
    {
      g_test_skip ("DYNOSCOPE_CLI is not set");
      return;
    }
  import = dy_import_dialog_new_for_export (gui_window, "s3://exports-bucket/AWSDynamoDB/x",
                                            profile ("admin"), NULL);
  gui_wait_for (mfa_dialog_open, NULL, "the MFA dialog of the S3 export's look");
  dialog = dy_mfa_dialog_get_current ();
  text = widget_text (dialog);
  g_assert_nonnull (strstr (text, "(profile admin)"));
  gtk_widget_activate (gui_find_button (dialog, "_Cancel"));
  gui_wait_for (import_inspected, import, "the look at the export to end");
  g_assert_null (dy_mfa_dialog_get_current ());
  said = widget_text (GTK_WIDGET (import));
  g_assert_nonnull (strstr (said, "No MFA code was given"));
  gtk_window_destroy (GTK_WINDOW (import));
}

static void
test_mfa (void)
{
  DyConnection *c;
  GtkWidget *dialog;
  GtkEditable *entry;
  g_autofree char *text = NULL;
  const char *identity;

  if (server_url == NULL)
    {
      g_test_skip ("DYNOSCOPE_CLI is not set");
      return;
    }
  c = profile ("admin");
  dy_window_expand_connection (gui_window, c);
  gui_wait_for (mfa_dialog_open, NULL, "the MFA dialog");
  dialog = dy_mfa_dialog_get_current ();
  g_assert_true (gtk_widget_get_visible (dialog));
  text = widget_text (dialog);
  g_assert_nonnull (strstr (text, "Enter the MFA code for arn:aws:iam::111122223333:mfa/alice "
                                  "(profile admin)"));
  entry = dy_mfa_dialog_get_entry (dialog);
  /* Only six digits make a code. */
  g_assert_false (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "ok"));
  gtk_editable_set_text (entry, "12a3");
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "123");
  g_assert_false (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "ok"));

  /* Cancel: the dialog goes, the listing fails as cancelled and says so; nothing else. */
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  gtk_widget_activate (gui_find_button (dialog, "_Cancel"));
  gui_wait_for (connection_loaded, c, "the cancelled listing");
  g_assert_null (dy_mfa_dialog_get_current ());
  g_assert_true (dialog == NULL || !gtk_widget_get_visible (dialog));
  if (dialog != NULL)
    g_object_remove_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  g_assert_nonnull (dy_connection_get_error (c));
  g_assert_nonnull (strstr (dy_connection_get_error (c), "No MFA code was given"));
  g_assert_cmpuint (g_list_model_get_n_items (dy_connection_get_tables (c)), ==, 0);

  /* Retry (as a click on the connection does): asked again; a code continues. */
  dy_connection_retry (c);
  gui_wait_for (mfa_dialog_open, NULL, "the MFA dialog again");
  dialog = dy_mfa_dialog_get_current ();
  entry = dy_mfa_dialog_get_entry (dialog);
  gtk_editable_set_text (entry, "123 456");
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "123456");
  g_assert_true (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "ok"));
  gui_screenshot ("signin-mfa-dialog.png");
  /* Enter in the entry answers OK, and the dialog goes. */
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  g_signal_emit_by_name (entry, "activate");
  gui_wait_for (mfa_dialog_closed, NULL, "the MFA dialog to close");
  g_assert_true (dialog == NULL || !gtk_widget_get_visible (dialog));
  if (dialog != NULL)
    g_object_remove_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  gui_wait_for (connection_loaded, c, "the listing after the code");
  g_assert_null (dy_connection_get_error (c));
  g_assert_cmpuint (g_list_model_get_n_items (dy_connection_get_tables (c)), ==, 1);
  gui_wait_for (identity_known, c, "the role's identity");
  identity = dy_connection_get_identity (c);
  g_assert_true (g_str_has_prefix (identity, "as DynoscopeAdmin/"));
  g_assert_nonnull (strstr (identity, " · until "));
  g_assert_true (g_str_has_suffix (identity, " · assumed role"));
  g_assert_true (g_str_has_prefix (dy_connection_get_identity_tooltip (c),
                                   "arn:aws:sts::111122223333:assumed-role/DynoscopeAdmin/"));
  gui_screenshot ("signin-identity.png");
}

static void
test_sso_sign_in (void)
{
  DyConnection *c;
  GtkWidget *button;
  GtkWidget *dialog;
  g_autofree char *text = NULL;
  g_autofree char *command = NULL;
  DyTableView *view;

  if (server_url == NULL)
    {
      g_test_skip ("DYNOSCOPE_CLI is not set");
      return;
    }
  /* No token yet: the listing fails, asking to sign in, with a Sign In button. */
  c = profile ("sso");
  dy_window_expand_connection (gui_window, c);
  gui_wait_for (connection_loaded, c, "the SSO profile");
  g_assert_nonnull (dy_connection_get_error (c));
  g_assert_cmpint (dy_connection_get_sign_in (c, &command), ==, DDB_AWS_SIGN_IN_SSO);
  g_assert_cmpstr (command, ==, "aws sso login --profile sso");
  g_assert_nonnull (strstr (dy_connection_get_error (c),
                            "Click Sign In, or run aws sso login --profile sso in a terminal"));
  button = gui_find_button (sidebar_list (), "Sign In…");
  g_assert_nonnull (button);
  /* A tab opened meanwhile fails too (its DescribeTable): it runs again once signed in. */
  view = dy_window_open_table (gui_window, c, "Signin001");
  g_object_add_weak_pointer (G_OBJECT (view), (gpointer *) &view);
  gui_wait_for (tab_failed, view, "the tab's DescribeTable to fail");
  g_assert_false (dy_table_view_get_ready (view));
  /* a session's failure is one Retry may cure (signed in elsewhere): the tab offers it */
  g_assert_true (gtk_widget_get_visible (gui_action_button (GTK_WIDGET (view), "view.retry")));
  gui_screenshot ("signin-sidebar-sign-in.png");

  gtk_widget_activate (button);
  gui_wait_for (sign_in_code_shown, NULL, "the device code");
  dialog = dy_sign_in_get_current ();
  text = widget_text (dialog);
  g_assert_nonnull (strstr (text, dy_sign_in_get_user_code (dialog)));
  gui_screenshot ("signin-sso-dialog.png");

  /* The person approves in the browser: the dialog closes and the tables come. */
  control_post ("/approve");
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  gui_wait_for (sign_in_closed, NULL, "the approval");
  gui_settle ();
  g_assert_true (dialog == NULL || !gtk_widget_get_visible (dialog));
  if (dialog != NULL)
    g_object_remove_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  gui_wait_for (connection_loaded, c, "the listing after signing in");
  g_assert_null (dy_connection_get_error (c));
  g_assert_cmpint (dy_connection_get_sign_in (c, NULL), ==, DDB_AWS_SIGN_IN_NONE);
  g_assert_cmpuint (g_list_model_get_n_items (dy_connection_get_tables (c)), ==, 1);
  gui_wait_for (identity_known, c, "the SSO identity");
  g_assert_true (g_str_has_suffix (dy_connection_get_identity (c), " · IAM Identity Center"));
  /* The tab that failed got its description with the new session, without a click. */
  g_assert_nonnull (view);
  gui_wait_for (view_ready, view, "the tab's DescribeTable after signing in");
  g_assert_false (gtk_revealer_get_reveal_child (
      GTK_REVEALER (gui_child (view, "error_revealer"))));
  /* The listing described the table for the sidebar. */
  gui_wait_for (table_described, c, "the sidebar's DescribeTable of Signin001");
  g_assert_cmpstr (json_string_value (json_object_get (
                       dy_connection_get_table_description (c, "Signin001", NULL), "TableName")),
                   ==, "Signin001");
  g_object_remove_weak_pointer (G_OBJECT (view), (gpointer *) &view);
}

/* The row widget (the tree expander) that shows C in the sidebar. */
static GtkWidget *
sidebar_row_widget (DyConnection *c)
{
  GtkWidget *list = sidebar_list ();

  gui_settle ();
  for (GtkWidget *child = gtk_widget_get_first_child (list); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *expander = gtk_widget_get_first_child (child);
      GtkTreeListRow *row;
      g_autoptr (GObject) item = NULL;

      if (!GTK_IS_TREE_EXPANDER (expander))
        continue;
      row = gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (expander));
      item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
      if (item == G_OBJECT (c))
        return expander;
    }
  g_error ("no sidebar row shows the connection");
  return NULL;
}

static GtkWidget *
find_type (GtkWidget *widget, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_type (c, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_region_menu (void)
{
  DyConnection *alice;
  DyConnection *moved;
  GtkWidget *button;
  GtkWidget *popover;
  GtkWidget *list;
  GtkListBoxRow *row = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = NULL;
  guint n;

  if (server_url == NULL)
    {
      g_test_skip ("DYNOSCOPE_CLI is not set");
      return;
    }
  alice = profile ("alice");
  n = g_list_model_get_n_items (dy_window_get_connections (gui_window));
  button = find_type (sidebar_row_widget (alice), GTK_TYPE_MENU_BUTTON);
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_visible (button));
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  gui_settle ();
  popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  g_assert_nonnull (popover);
  g_assert_true (gtk_widget_get_mapped (popover));
  gui_screenshot ("signin-region-menu.png");
  list = find_type (popover, GTK_TYPE_LIST_BOX);
  for (int i = 0; (row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), i)) != NULL; i++)
    if (g_strcmp0 (g_object_get_data (G_OBJECT (row), "region"), "eu-west-1") == 0)
      break;
  g_assert_nonnull (row);
  gtk_widget_activate (GTK_WIDGET (row));
  gui_settle ();
  g_assert_false (gtk_widget_get_mapped (popover));

  /* A connection of its own, the same profile signed for the region picked. */
  g_assert_cmpuint (g_list_model_get_n_items (dy_window_get_connections (gui_window)), ==, n + 1);
  moved = g_list_model_get_item (dy_window_get_connections (gui_window), n);
  g_object_unref (moved); /* the window's list keeps it */
  g_assert_cmpstr (dy_connection_get_title (moved), ==, "alice (eu-west-1)");
  g_assert_cmpstr (dy_connection_get_profile (moved), ==, "alice");
  g_assert_cmpstr (dy_connection_get_region (moved), ==, "eu-west-1");
  gui_wait_for (connection_loaded, moved, "the profile in another region");
  g_assert_null (dy_connection_get_error (moved));
  backend = dy_connection_open_backend (moved, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ddb_client_get_signing_region (ddb_backend_get_client (backend)), ==,
                   "eu-west-1");
}

static void
test_identity_words (void)
{
  DyIdentity id = { 0 };
  g_autofree char *a = dy_identity_short_arn ("arn:aws:sts::1:assumed-role/Admin/alice@x");
  g_autofree char *b = dy_identity_short_arn ("arn:aws:iam::1:user/team/bob");
  g_autofree char *r = dy_identity_short_arn ("arn:aws:iam::1:root");
  g_autofree char *sso = dy_identity_short_arn (
    "arn:aws:sts::1:assumed-role/AWSReservedSSO_ReadOnly_0123456789abcdef/alice");
  g_autofree char *odd = dy_identity_short_arn ("arn:aws:sts::1:assumed-role/AWSReservedSSO_x/s");
  g_autofree char *text = NULL;

  g_assert_cmpstr (a, ==, "Admin/alice@x");
  g_assert_cmpstr (b, ==, "bob");
  g_assert_cmpstr (r, ==, "root");
  g_assert_cmpstr (sso, ==, "ReadOnly/alice");
  g_assert_cmpstr (odd, ==, "AWSReservedSSO_x/s");
  id.method = (char *) "sso";
  text = dy_identity_describe (&id);
  g_assert_cmpstr (text, ==, "identity unknown · IAM Identity Center");
}

/* ---- The world: serve, the fakes, the config files ---- */

static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

/* Starts ARGV with its standard output on a pipe, and returns its first line. */
static char *
spawn_first_line (const char *const *argv, GPid *pid)
{
  g_autoptr (GError) error = NULL;
  int out = -1;
  FILE *stream;
  char *line = NULL;
  size_t size = 0;
  ssize_t len;

  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                           die_with_parent, NULL, pid, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  stream = fdopen (out, "r");
  g_assert_nonnull (stream);
  len = getline (&line, &size, stream);
  g_assert_cmpint (len, >, 0);
  if (line[len - 1] == '\n')
    line[len - 1] = '\0';
  /* The pipe stays open for the child's later output, which nobody reads: it is little. */
  return line;
}

static void
start_world (const char *dir)
{
  const char *cli = g_getenv ("DYNOSCOPE_CLI");
  g_autofree char *db = g_build_filename (dir, "signin.db", NULL);
  g_autofree char *home = g_build_filename (dir, "home", NULL);
  g_autofree char *aws = g_build_filename (home, ".aws", NULL);
  g_autofree char *state = g_build_filename (dir, "fakes", NULL);
  g_autofree char *fakes_py = g_build_filename (DYNOSCOPE_SOURCE_DIR, "tests", "lib",
                                                "aws_fakes.py", NULL);
  g_autofree char *config = g_build_filename (aws, "config", NULL);
  g_autofree char *credentials = g_build_filename (aws, "credentials", NULL);
  char *line = NULL;
  g_autofree char *config_text = NULL;
  GString *credentials_text;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = NULL;
  json_t *described;
  char *state_text = NULL;
  gsize state_len = 0;
  g_autoptr (DdbSecretJson) saved = NULL;
  json_t *request, *response = NULL;
  json_error_t json_error;

  if (cli == NULL || !g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE))
    return;
  g_mkdir_with_parents (aws, 0700);
  backend = ddb_backend_open_database (db, &error);
  g_assert_no_error (error);
  request = json_pack ("{ss s[{ssss}] s[{ssss}] ss}", "TableName", "Signin001",
                       "AttributeDefinitions", "AttributeName", "pk", "AttributeType", "S",
                       "KeySchema", "AttributeName", "pk", "KeyType", "HASH", "BillingMode",
                       "PAY_PER_REQUEST");
  g_assert_true (ddb_backend_call (backend, "CreateTable", request, NULL, &response, &error));
  json_decref (request);
  json_decref (response);
  g_clear_pointer (&backend, ddb_backend_free);

  {
    const char *argv[] = { cli, "--db", db, "serve", "--port", "0", NULL };

    line = spawn_first_line (argv, &server);
    g_assert_true (g_str_has_prefix (line, "Listening on http://"));
    server_url = g_strdup (line + strlen ("Listening on "));
    free (line);
  }
  {
    const char *argv[] = { "/usr/bin/python3", fakes_py, "--state", state, "--forward",
                           server_url, NULL };

    line = spawn_first_line (argv, &fakes);
    described = json_loads (line, 0, &json_error);
    free (line);
  }
  g_assert_nonnull (described);
  /* The fakes' state holds secrets: read by the wiping reader (tests/auth/wipecheck.c may be
   * watching this process, see run_wipechecked), and so is every copy made of one here. */
  g_assert_true (g_file_get_contents (
    json_string_value (json_object_get (described, "state_file")), &state_text, &state_len, NULL));
  saved = ddb_secret_json_parse (state_text, state_len, NULL);
  ddb_secure_zero (state_text, state_len);
  g_free (state_text);
  g_assert_nonnull (saved);
  control_url = g_strdup (json_string_value (json_object_get (described, "control")));
  env_key_id = g_strdup (ddb_secret_json_get_string (saved, "seed.static_keys.AccessKeyId"));
  env_secret = g_strdup (ddb_secret_json_get_string (saved, "seed.static_keys.SecretAccessKey"));
  g_assert_nonnull (env_key_id);
  g_assert_nonnull (env_secret);

  /* alice's keys; a role that needs her MFA code; an SSO profile; keys STS does not know. */
  config_text = g_strdup_printf (
    "[default]\nregion = us-east-1\n\n"
    "[profile admin]\nregion = us-east-1\nendpoint_url = %s\nrole_arn = %s\nexternal_id = %s\n"
    "mfa_serial = %s\nsource_profile = alice\n\n"
    "[profile alice]\nregion = us-east-1\nendpoint_url = %s\n\n"
    "[profile local]\nregion = us-east-1\nendpoint_url = %s\n\n"
    "[profile sso]\nregion = us-east-1\nendpoint_url = %s\nsso_session = fake\n"
    "sso_account_id = %s\nsso_role_name = ReadOnly\n\n"
    "[sso-session fake]\nsso_start_url = %s\nsso_region = %s\n"
    "sso_registration_scopes = sso:account:access\n",
    server_url,
    ddb_secret_json_get_string (saved, "seed.admin_role.role_arn"),
    ddb_secret_json_get_string (saved, "seed.admin_role.external_id"),
    ddb_secret_json_get_string (saved, "seed.admin_role.mfa_serial"),
    server_url, server_url, server_url,
    ddb_secret_json_get_string (saved, "seed.sso_account_id"),
    ddb_secret_json_get_string (saved, "seed.sso_start_url"),
    ddb_secret_json_get_string (saved, "seed.sso_region"));
  credentials_text = ddb_secret_string_new (512);
  ddb_secret_string_append (credentials_text, "[alice]\naws_access_key_id = ");
  ddb_secret_string_append (credentials_text, env_key_id);
  ddb_secret_string_append (credentials_text, "\naws_secret_access_key = ");
  ddb_secret_string_append (credentials_text, env_secret);
  ddb_secret_string_append (credentials_text,
                            "\n\n[local]\naws_access_key_id = AKIDUNKNOWNTOSTS\n"
                            "aws_secret_access_key = local-secret\n");
  g_assert_true (g_file_set_contents (config, config_text, -1, NULL));
  g_assert_true (g_file_set_contents (credentials, credentials_text->str, credentials_text->len,
                                      NULL));
  ddb_secret_string_free (credentials_text);
  g_chmod (credentials, 0600);

  /* Before any thread starts: setenv is not thread-safe. */
  g_setenv ("HOME", home, TRUE);
  g_unsetenv ("AWS_CONFIG_FILE");
  g_unsetenv ("AWS_SHARED_CREDENTIALS_FILE");
  g_unsetenv ("AWS_PROFILE");
  g_unsetenv ("AWS_DEFAULT_PROFILE");
  g_unsetenv ("AWS_SESSION_TOKEN");
  g_unsetenv ("AWS_ENDPOINT_URL");
  g_setenv ("AWS_ACCESS_KEY_ID", env_key_id, TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", env_secret, TRUE);
  g_setenv ("AWS_REGION", "us-east-1", TRUE);
  g_setenv ("AWS_ENDPOINT_URL_DYNAMODB", server_url, TRUE);
  g_setenv ("AWS_ENDPOINT_URL_STS",
            json_string_value (json_object_get (described, "sts")), TRUE);
  g_setenv ("AWS_ENDPOINT_URL_SSO",
            json_string_value (json_object_get (described, "sso")), TRUE);
  g_setenv ("AWS_ENDPOINT_URL_SSO_OIDC",
            json_string_value (json_object_get (described, "sso_oidc")), TRUE);
  g_setenv ("AWS_EC2_METADATA_DISABLED", "true", TRUE);
  /* as the app does at its start (dy_application_prepare_environment) */
  ddb_environ_hide_secrets ();
  json_decref (described);
}

/* ---- tests/auth/wipecheck.c ---- */

/* The mark every secret of the fakes holds (aws_fakes.SECRET_MARK), read from their source.
 * Newly allocated. */
static char *
secret_mark (void)
{
  g_autofree char *path = g_build_filename (DYNOSCOPE_SOURCE_DIR, "tests", "lib", "aws_fakes.py",
                                            NULL);
  g_autofree char *source = NULL;
  g_autoptr (GRegex) regex = g_regex_new ("^SECRET_MARK = \"([^\"]+)\"$", G_REGEX_MULTILINE, 0,
                                          NULL);
  g_autoptr (GMatchInfo) match = NULL;

  g_assert_true (g_file_get_contents (path, &source, NULL, NULL));
  g_assert_true (g_regex_match (regex, source, 0, &match));
  return g_match_info_fetch (match, 1);
}

/* Outside the sanitizer builds meson names tests/auth/wipecheck.c's library in WIPECHECK_LIB, as
 * for the CLI's sign-in tests (tests/auth): the program then runs itself again with the library
 * preloaded, its output the test's, and fails when that process (the app and the test in it,
 * from start to exit) freed a heap block still holding a secret of the fakes. Its children
 * (serve, the fakes in Python) are not checked: the library is taken out of their environment.
 * Returns the exit status, or -1 when the program is to run the tests itself. */
static int
run_wipechecked (char **argv)
{
  const char *lib = g_getenv ("WIPECHECK_LIB");
  g_autofree char *dir = NULL;
  g_autofree char *secrets = NULL;
  g_autofree char *log = NULL;
  g_autofree char *mark = NULL;
  g_autofree char *found = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) envp = NULL;
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  int wait_status = 0;

  if (lib == NULL || *lib == '\0')
    return -1;
  if (g_getenv ("WIPECHECK_LOG") != NULL)
    {
      /* the checked run: the children go unchecked */
      g_unsetenv ("LD_PRELOAD");
      return -1;
    }
  dir = g_dir_make_tmp ("dynoscope-wipecheck-XXXXXX", &error);
  g_assert_no_error (error);
  secrets = g_build_filename (dir, "secrets", NULL);
  log = g_build_filename (dir, "log", NULL);
  mark = secret_mark ();
  g_assert_true (g_file_set_contents (secrets, mark, -1, NULL));
  g_assert_true (g_file_set_contents (log, "", 0, NULL));
  envp = g_get_environ ();
  envp = g_environ_setenv (envp, "LD_PRELOAD", lib, TRUE);
  envp = g_environ_setenv (envp, "WIPECHECK_SECRETS", secrets, TRUE);
  envp = g_environ_setenv (envp, "WIPECHECK_LOG", log, TRUE);
  g_ptr_array_add (args, (gpointer) "/proc/self/exe");
  for (int i = 1; argv[i] != NULL; i++)
    g_ptr_array_add (args, argv[i]);
  g_ptr_array_add (args, NULL);
  /* its standard streams are this one's */
  g_assert_true (g_spawn_sync (NULL, (char **) args->pdata, envp, G_SPAWN_CHILD_INHERITS_STDIN,
                               NULL, NULL, NULL, NULL, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (log, &found, NULL, NULL));
  g_unlink (log);
  g_unlink (secrets);
  g_rmdir (dir);
  if (*found != '\0')
    {
      printf ("Bail out! the app freed heap blocks holding a secret (tests/auth/wipecheck.c)\n");
      fflush (stdout);
      g_printerr ("blocks freed holding a secret:\n%.6000s\n", found);
      return 1;
    }
  g_printerr ("wipecheck: no heap block freed holding a secret\n");
  if (WIFEXITED (wait_status))
    return WEXITSTATUS (wait_status);
  return 128 + (WIFSIGNALED (wait_status) ? WTERMSIG (wait_status) : 0);
}

static void
stop (GPid *pid)
{
  if (*pid <= 0)
    return;
  kill (*pid, SIGTERM);
  waitpid (*pid, NULL, 0);
  g_spawn_close_pid (*pid);
  *pid = -1;
}

int
main (int argc, char **argv)
{
  int status = run_wipechecked (argv);

  if (status >= 0)
    return status;
  start_world (gui_init (&argc, &argv));

  g_test_add_func ("/signin/identity-words", test_identity_words);
  g_test_add_func ("/signin/environment", test_environment);
  g_test_add_func ("/signin/identity-unknown", test_identity_unknown);
  g_test_add_func ("/signin/mfa-s3-import", test_mfa_s3_import);
  g_test_add_func ("/signin/mfa", test_mfa);
  g_test_add_func ("/signin/sso", test_sso_sign_in);
  g_test_add_func ("/signin/region-menu", test_region_menu);

  status = gui_run_tests ();
  stop (&fakes);
  stop (&server);
  g_free (server_url);
  g_free (control_url);
  g_free (env_key_id);
  ddb_secure_zero (env_secret, env_secret != NULL ? strlen (env_secret) : 0);
  g_free (env_secret);
  return status;
}
