/* target.c: the database or endpoint a command talks to. */
#include <string.h>

#include "cli/target.h"
#include "cli/mfa-prompt.h"
#include "exports/s3-target.h"

gboolean
cli_target_is_remote (const CliTarget *target)
{
  return target->db_path == NULL;
}

DdbBackend *
cli_target_open (const CliTarget *target, gboolean *config_error, GError **error)
{
  DdbClientOptions options = { 0 };
  GError *local = NULL;
  DdbBackend *backend;

  *config_error = FALSE;
  if (!cli_target_is_remote (target))
    {
      if (target->read_only && strcmp (target->db_path, ":memory:") != 0
          && !g_file_test (target->db_path, G_FILE_TEST_EXISTS))
        {
          g_autofree char *what = g_strdup_printf ("creating %s", target->db_path);

          ddb_backend_set_read_only_error (error, what);
          return NULL;
        }
      backend = ddb_backend_open_database (target->db_path, error);
      if (backend != NULL)
        {
          /* `exports start` on the database writes to S3 with the global options' session. */
          DdbS3Options s3 = { .profile = target->profile,
                              .region = target->region,
                              .ca_bundle = target->ca_bundle,
                              .mfa_prompt = cli_mfa_prompt };

          ddb_backend_set_read_only (backend, target->read_only);
          ddb_s3_set_export_target (ddb_backend_get_engine (backend), &s3);
        }
      return backend;
    }
  options.profile = target->profile;
  options.region = target->region;
  options.endpoint_url = target->endpoint_url;
  options.ca_bundle = target->ca_bundle;
  /* A role with mfa_serial asks for its code on the terminal. */
  options.mfa_prompt = cli_mfa_prompt;
  backend = ddb_backend_open_remote (&options, &local);
  if (backend == NULL)
    {
      *config_error = local->domain == DDB_AWS_ERROR || local->domain == DDB_HTTP_ERROR;
      g_propagate_error (error, local);
    }
  else
    ddb_backend_set_read_only (backend, target->read_only);
  return backend;
}
