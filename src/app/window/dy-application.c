/* dy-application.c: the application object: actions, accelerators, the window. */
#define G_LOG_DOMAIN "dynoscope-application"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "app/window/dy-application.h"
#include "app/model/dy-model-window.h"
#include "app/window/dy-preferences.h"
#include "app/window/dy-window.h"
#include "net/hash.h"
#include "dynoscope-resources.h"

#ifdef DYNOSCOPE_DEVELOPMENT
#define APPLICATION_ID "io.github.dynoscope.Dynoscope.Devel"
#else
#define APPLICATION_ID "io.github.dynoscope.Dynoscope"
#endif

struct _DyApplication {
  AdwApplication parent_instance;
  char *model_path; /* --model FILE, opened once the window is up */
};

G_DEFINE_FINAL_TYPE (DyApplication, dy_application, ADW_TYPE_APPLICATION)

static DyWindow *
get_window (DyApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    {
      window = GTK_WINDOW (dy_window_new (ADW_APPLICATION (self)));
      /* DYNOSCOPE_NO_DEMO: for people who know the demo and for tests of other databases. */
      if (g_getenv ("DYNOSCOPE_NO_DEMO") == NULL)
        dy_window_open_demo (DY_WINDOW (window));
    }
  return DY_WINDOW (window);
}

static void
dy_application_activate (GApplication *app)
{
  DyApplication *self = DY_APPLICATION (app);

  gtk_window_present (GTK_WINDOW (get_window (self)));
  if (self->model_path != NULL)
    {
      g_autofree char *path = g_steal_pointer (&self->model_path);

      dy_model_window_open (GTK_APPLICATION (app), path);
    }
}

/* --model FILE: a Model window on FILE, in the running instance if there is one. */
static int
dy_application_handle_local_options (GApplication *app, GVariantDict *options)
{
  DyApplication *self = DY_APPLICATION (app);
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = NULL;
  const char *arg;

  if (!g_variant_dict_lookup (options, "model", "^&ay", &arg))
    return -1;
  file = g_file_new_for_commandline_arg (arg);
  g_free (self->model_path);
  self->model_path = g_file_get_path (file);
  if (!g_application_register (app, NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  if (!g_application_get_is_remote (app))
    return -1;
  g_action_group_activate_action (G_ACTION_GROUP (app), "open-model",
                                  g_variant_new_string (self->model_path));
  return 0;
}

static void
open_model_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  dy_model_window_open (GTK_APPLICATION (user_data), g_variant_get_string (parameter, NULL));
}

static void
dy_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  DyWindow *window = get_window (DY_APPLICATION (app));

  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_file_get_path (files[i]);

      if (path != NULL)
        dy_window_open_database (window, path, TRUE);
    }
  gtk_window_present (GTK_WINDOW (window));
}

/* Each window is asked to close as its close button does, so that one holding unstaged edits
 * asks first (and may stay open); the application ends with its last window. */
static void
quit_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (user_data)));

  /* closing one may destroy it, and change the application's list */
  for (GList *l = windows; l != NULL; l = l->next)
    g_object_ref (l->data);
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free_full (windows, g_object_unref);
}

static void
about_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  static const char *developers[] = { "The Dynoscope authors", NULL };

  adw_show_about_window (gtk_application_get_active_window (app),
                         "application-name", _("Dynoscope"),
                         "application-icon", APPLICATION_ID,
                         "version", PACKAGE_VERSION,
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "comments", _("Browse DynamoDB tables and their item collections"),
                         "developers", developers,
                         NULL);
}

static void
preferences_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  DyWindow *window = get_window (DY_APPLICATION (user_data));

  gtk_window_present (GTK_WINDOW (dy_preferences_new (window)));
}

static const GActionEntry app_actions[] = {
  { .name = "preferences", .activate = preferences_action },
  { .name = "quit", .activate = quit_action },
  { .name = "about", .activate = about_action },
  { .name = "open-model", .activate = open_model_action, .parameter_type = "s" },
};

static void
dy_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *preferences_accels[] = { "<Control>comma", NULL };
  static const char *help_accels[] = { "<Control>question", NULL };

  G_APPLICATION_CLASS (dy_application_parent_class)->startup (app);
  gtk_source_init ();
  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions),
                                   app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.preferences",
                                         preferences_accels);
  /* GtkApplication's own binding for a gtk/help-overlay.ui; the window builds ours lazily */
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.show-help-overlay",
                                         help_accels);
}

static void
dy_application_finalize (GObject *object)
{
  g_free (DY_APPLICATION (object)->model_path);
  G_OBJECT_CLASS (dy_application_parent_class)->finalize (object);
}

static void
dy_application_class_init (DyApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = dy_application_activate;
  app_class->open = dy_application_open;
  app_class->startup = dy_application_startup;
  app_class->handle_local_options = dy_application_handle_local_options;
  G_OBJECT_CLASS (klass)->finalize = dy_application_finalize;
  dynoscope_register_resource ();
}

static void
dy_application_init (DyApplication *self)
{
  /* The files on the command line are opened as databases (dy_application_open). */
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[DATABASE…]"));
  g_application_add_main_option (G_APPLICATION (self), "model", 0, G_OPTION_FLAG_NONE,
                                 G_OPTION_ARG_FILENAME, _("Open a key design model (a NoSQL "
                                                          "Workbench data model)"),
                                 _("FILE"));
}

void
dy_application_prepare_environment (void)
{
  /* The keys of the environment's connection out of the process environment, which GTK and
   * GIO copy (launching a browser) and free unwiped. */
  ddb_environ_hide_secrets ();
  /* With the cairo renderer (chosen for remote X, or where GL is broken) GTK never draws with
   * GL, but GDK still loads the whole GL stack at start to pick visuals: with Mesa's software
   * driver that is libLLVM, some 45 MB and a good part of the start time. */
  if (g_strcmp0 (g_getenv ("GSK_RENDERER"), "cairo") == 0 && g_getenv ("GDK_DEBUG") == NULL)
    g_setenv ("GDK_DEBUG", "gl-disable", TRUE);
}

DyApplication *
dy_application_new (void)
{
  return g_object_new (DY_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       /* The Devel build shares the resources of the released one. */
                       "resource-base-path", "/io/github/dynoscope/Dynoscope",
                       NULL);
}
