/* dy-connection-aws.c: what only AWS connections have: the Environment connection (keys in the
 * environment), a profile opened in another region, signing in again (how, and reloading the
 * session on retry) and who the connection is signed in as. */
#define G_LOG_DOMAIN "dynoscope-connection"

#include <glib/gi18n.h>
#include <string.h>

#include "app/connections/dy-connection-private.h"
#include "app/connections/dy-identity.h"
#include "net/hash.h"

/* The last four characters of an access key id: enough to tell keys apart, not to use one. */
static char *
key_tail (const char *key_id)
{
  size_t len = strlen (key_id);

  return g_strdup (len > 4 ? key_id + len - 4 : key_id);
}

DyConnection *
dy_connection_new_environment (const char *const *envp)
{
  char **own = envp == NULL ? ddb_environ_get () : NULL;
  const char *const *env = envp != NULL ? envp : (const char *const *) own;
  const char *key_id = g_environ_getenv ((char **) env, "AWS_ACCESS_KEY_ID");
  const char *region = g_environ_getenv ((char **) env, "AWS_REGION");
  g_autofree char *tail = NULL;
  DyConnection *self;

  if (key_id == NULL || *key_id == '\0')
    {
      ddb_environ_free (own);
      return NULL;
    }
  if (region == NULL || *region == '\0')
    region = g_environ_getenv ((char **) env, "AWS_DEFAULT_REGION");
  if (region != NULL && *region == '\0')
    region = NULL;
  tail = key_tail (key_id);
  self = g_object_new (DY_TYPE_CONNECTION, NULL);
  self->kind = DY_CONNECTION_PROFILE;
  self->environment = TRUE;
  /* TRANSLATORS: the sidebar's connection made from AWS_ACCESS_KEY_ID and friends */
  self->title = g_strdup (_("Environment"));
  self->region = g_strdup (region);
  if (region != NULL)
    /* TRANSLATORS: the Environment connection's second line: its region, then the last four
     * characters of its access key id, e.g. "us-east-1 · key …WXYZ" */
    self->subtitle = g_strdup_printf (_("%s · key …%s"), region, tail);
  else
    /* TRANSLATORS: the Environment connection's second line when no region is set in the
     * environment (the default profile's applies), with the key's last four characters */
    self->subtitle = g_strdup_printf (_("Environment keys · key …%s"), tail);
  ddb_environ_free (own);
  return self;
}

gboolean
dy_connection_is_environment (DyConnection *self)
{
  return self->environment;
}

/* AWS's commercial regions (the aws partition), as the region menu lists them. */
static const char *const aws_regions[] = {
  "us-east-1", "us-east-2", "us-west-1", "us-west-2", "af-south-1", "ap-east-1",
  "ap-south-1", "ap-south-2", "ap-southeast-1", "ap-southeast-2", "ap-southeast-3",
  "ap-southeast-4", "ap-southeast-5", "ap-southeast-7", "ap-northeast-1", "ap-northeast-2",
  "ap-northeast-3", "ca-central-1", "ca-west-1", "eu-central-1", "eu-central-2", "eu-west-1",
  "eu-west-2", "eu-west-3", "eu-south-1", "eu-south-2", "eu-north-1", "il-central-1",
  "me-south-1", "me-central-1", "mx-central-1", "sa-east-1", NULL,
};

const char *const *
dy_aws_regions (void)
{
  return aws_regions;
}

DyConnection *
dy_connection_new_in_region (DyConnection *base, const char *region)
{
  DyConnection *self;

  g_return_val_if_fail (base->kind == DY_CONNECTION_PROFILE, NULL);
  self = g_object_new (DY_TYPE_CONNECTION, NULL);
  self->kind = DY_CONNECTION_PROFILE;
  self->environment = base->environment;
  self->profile = g_strdup (base->profile);
  self->region = g_strdup (region);
  self->region_chosen = TRUE;
  /* TRANSLATORS: a profile (or "Environment") opened in another region: "dev (eu-west-1)" */
  self->title = g_strdup_printf (_("%s (%s)"), base->title, region);
  /* TRANSLATORS: the second line of a profile opened in a region picked from its menu */
  self->subtitle = g_strdup_printf (_("AWS profile · %s, chosen"), region);
  return self;
}

gboolean
dy_connection_get_region_chosen (DyConnection *self)
{
  return self->region_chosen;
}

/* A retry: the session resolves again from the files as they are now (a token that `aws sso
 * login` wrote, new keys), so that signing in elsewhere needs no restart. */
void
dy_connection_reload_session (DyConnection *self)
{
  DdbBackend *backend;
  g_autoptr (GError) error = NULL;

  g_mutex_lock (&self->lock);
  backend = self->backend;
  g_mutex_unlock (&self->lock);
  if (backend == NULL || ddb_backend_get_client (backend) == NULL)
    return; /* not opened yet: the first call opens it from the files anyway */
  /* A failure is reported by the call that follows, with the same cause. */
  if (!ddb_aws_session_reload (ddb_client_get_session (ddb_backend_get_client (backend)), &error))
    g_debug ("The session could not be reloaded: %s", error->message);
}

DdbAwsSignInKind
dy_connection_get_sign_in (DyConnection *self, char **command)
{
  DdbAwsSignInKind kind;

  g_mutex_lock (&self->lock);
  kind = self->error != NULL ? self->sign_in : DDB_AWS_SIGN_IN_NONE;
  if (command != NULL)
    *command = kind != DDB_AWS_SIGN_IN_NONE ? g_strdup (self->sign_in_command) : NULL;
  g_mutex_unlock (&self->lock);
  return kind;
}

DdbAwsSession *
dy_connection_get_session (DyConnection *self)
{
  DdbAwsSession *session = NULL;

  g_mutex_lock (&self->lock);
  if (self->backend != NULL && ddb_backend_get_client (self->backend) != NULL)
    session = ddb_client_get_session (ddb_backend_get_client (self->backend));
  g_mutex_unlock (&self->lock);
  return session;
}

/* ---- Who am I ---- */

const char *
dy_connection_get_identity (DyConnection *self)
{
  return self->identity;
}

const char *
dy_connection_get_account (DyConnection *self)
{
  return self->account;
}

const char *
dy_connection_get_identity_tooltip (DyConnection *self)
{
  return self->identity_tooltip;
}

static void
identity_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  DdbBackend *backend = dy_connection_get_backend_internal (source, &error);
  DyIdentity *identity = backend != NULL ? dy_identity_fetch (backend, cancellable, &error) : NULL;

  if (identity == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, identity, (GDestroyNotify) dy_identity_free);
}

static void
identity_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyConnection *self = DY_CONNECTION (source);
  g_autoptr (GError) error = NULL;
  g_autoptr (DyIdentity) identity = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_pointer (&self->identity, g_free);
  g_clear_pointer (&self->identity_tooltip, g_free);
  g_clear_pointer (&self->account, g_free);
  if (identity != NULL)
    {
      self->account = g_strdup (identity->account);
      self->identity = dy_identity_describe (identity);
      if (identity->arn != NULL)
        self->identity_tooltip = g_strdup (identity->arn);
      else
        /* TRANSLATORS: tooltip of "identity unknown": STS (GetCallerIdentity) did not answer */
        self->identity_tooltip = g_strdup (_("STS did not say who these credentials belong to "
                                             "(a local endpoint, or STS is not reachable)."));
    }
  dy_connection_notify_identity (self);
}

void
dy_connection_refresh_identity (DyConnection *self)
{
  g_autoptr (GTask) task = NULL;

  if (self->kind != DY_CONNECTION_PROFILE)
    return;
  if (self->identity_cancellable != NULL)
    g_cancellable_cancel (self->identity_cancellable);
  g_clear_object (&self->identity_cancellable);
  self->identity_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->identity_cancellable, identity_done, NULL);
  g_task_set_source_tag (task, dy_connection_refresh_identity);
  g_task_run_in_thread (task, identity_thread);
}

void
dy_connection_ensure_tables (DyConnection *self)
{
  if (!self->requested)
    dy_connection_refresh_tables (self);
}
