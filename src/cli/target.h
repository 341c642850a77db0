/* target.h: what a command talks to, from the global options: a database file (--db) or a
 * remote endpoint (--endpoint, --profile, --region, --ca-bundle; with none of them, the
 * profile's endpoint or its region's standard one), and whether it is read-only. Opened only once a command has checked
 * its arguments, so that a usage error or --help creates no database and reads no profile. */
#pragma once

#include "backend/backend.h"

typedef struct {
  const char *db_path;      /* --db, or NULL: remote */
  const char *endpoint_url; /* --endpoint */
  const char *profile;      /* --profile */
  const char *region;       /* --region */
  const char *ca_bundle;    /* --ca-bundle */
  gboolean read_only;       /* --read-only (or DYNOSCOPE_READ_ONLY): every write refused */
} CliTarget;

/* Whether the target is a remote endpoint rather than a database. */
gboolean cli_target_is_remote (const CliTarget *target);

/* Opens the target, read-only (ddb_backend_set_read_only) with --read-only; a read-only target
 * does not create a missing database file. *CONFIG_ERROR is set to TRUE when the failure is in the configuration (no
 * region, unknown profile, invalid endpoint, malformed config file) rather than in opening. */
DdbBackend *cli_target_open (const CliTarget *target, gboolean *config_error, GError **error);
