/* awsconfig.h: the AWS shared config and credentials files (~/.aws/config, ~/.aws/credentials),
 * read as the AWS CLI v2 reads them: Python's configparser rules (sections, `key = value` or
 * `key: value`, full-line # and ; comments, indented continuation lines, nested `key =` blocks),
 * `[profile x]` and `[services x]` sections in the config file, the credentials file merged over
 * it. Also the error domain shared by the credential chain and endpoint resolution. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DDB_AWS_ERROR (ddb_aws_error_quark ())

typedef enum {
  DDB_AWS_ERROR_CONFIG_PARSE,         /* "Unable to parse config file: PATH" */
  DDB_AWS_ERROR_PROFILE_NOT_FOUND,    /* "The config profile (x) could not be found" */
  DDB_AWS_ERROR_INVALID_CONFIG,       /* missing source_profile, loops, missing services section */
  DDB_AWS_ERROR_PARTIAL_CREDENTIALS,  /* "Partial credentials found in env, missing: ..." */
  DDB_AWS_ERROR_NO_CREDENTIALS,       /* "Unable to locate credentials..." */
  DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL, /* credential_process or STS failed */
  DDB_AWS_ERROR_UNSUPPORTED,          /* a setting Dynoscope does not implement */
  DDB_AWS_ERROR_INVALID_REGION,   /* "Provided region_name 'x' doesn't match a supported format." */
  DDB_AWS_ERROR_NO_REGION,        /* "You must specify a region." */
  DDB_AWS_ERROR_INVALID_ENDPOINT, /* "Invalid endpoint: URL" */
  DDB_AWS_ERROR_SIGN_IN_REQUIRED, /* an SSO or `aws login` session expired beyond refresh: the
                                   * message names the profile and the command to sign in */
} DdbAwsErrorCode;

GQuark ddb_aws_error_quark (void);

/* ---- One INI file, parsed as botocore's raw_config_parse does ---- */

typedef struct _DdbIniFile DdbIniFile;

/* Parses TEXT (LEN bytes, or -1 if NUL-terminated). PATH only names the file in errors. Errors
 * (DDB_AWS_ERROR_CONFIG_PARSE) name the path and line number, never the line's text. */
DdbIniFile *ddb_ini_file_parse (const char *text, gssize len, const char *path, GError **error);

/* Reads and parses PATH. A missing file (or one that is not a regular file) is
 * G_FILE_ERROR_NOENT, which callers treat as an empty file, as the CLI does. */
DdbIniFile *ddb_ini_file_load (const char *path, GError **error);

void ddb_ini_file_free (DdbIniFile *ini);

/* Section names in file order ([DEFAULT] is not a section: its keys are inherited by all). */
const char *const *ddb_ini_file_get_sections (DdbIniFile *ini);
gboolean ddb_ini_file_has_section (DdbIniFile *ini, const char *section);
/* Whether KEY (lower-cased when parsed) is set in SECTION, as a value or as a nested block. */
gboolean ddb_ini_file_has_key (DdbIniFile *ini, const char *section, const char *key);
/* The plain value of KEY, or NULL if unset or if it is a nested block. */
const char *ddb_ini_file_get (DdbIniFile *ini, const char *section, const char *key);
/* SUBKEY (case kept) of the nested block KEY, or NULL. */
const char *ddb_ini_file_get_nested (DdbIniFile *ini, const char *section, const char *key,
                                     const char *subkey);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbIniFile, ddb_ini_file_free)

/* ---- The environment ---- */

/* ENVP is a NULL-terminated "NAME=value" array, or NULL for the process environment. Every
 * function here takes one so that callers and tests can resolve against an environment of their
 * own. Returns NULL if unset. */
const char *ddb_aws_getenv (const char *const *envp, const char *name);

/* Expands $VAR / ${VAR} (left as is when unset) then a leading ~ (HOME), as os.path.expandvars
 * and os.path.expanduser do for AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE. */
char *ddb_aws_expand_path (const char *path, const char *const *envp);

/* AWS_CONFIG_FILE or ~/.aws/config; AWS_SHARED_CREDENTIALS_FILE or ~/.aws/credentials. */
char *ddb_aws_config_file_path (const char *const *envp);
char *ddb_aws_credentials_file_path (const char *const *envp);

/* ---- Both files as one profile map (botocore's session.full_config) ---- */

typedef struct _DdbAwsConfig DdbAwsConfig;

/* Loads the files the environment names. Missing files are empty; unreadable or malformed ones
 * are errors. */
DdbAwsConfig *ddb_aws_config_load (const char *const *envp, GError **error);
/* Either path may be NULL (no such file). */
DdbAwsConfig *ddb_aws_config_load_files (const char *config_path, const char *credentials_path,
                                         GError **error);
DdbAwsConfig *ddb_aws_config_ref (DdbAwsConfig *config);
void ddb_aws_config_unref (DdbAwsConfig *config);

const char *ddb_aws_config_get_config_path (DdbAwsConfig *config);
const char *ddb_aws_config_get_credentials_path (DdbAwsConfig *config);

/* A profile exists if the config file has [default] / [profile NAME], or the credentials file
 * has [NAME]. */
gboolean ddb_aws_config_has_profile (DdbAwsConfig *config, const char *profile);
/* Profile names, sorted; free with g_strfreev. */
char **ddb_aws_config_list_profiles (DdbAwsConfig *config);

/* Merged view: the credentials file's value if it sets KEY for PROFILE, else the config file's. */
gboolean ddb_aws_config_has (DdbAwsConfig *config, const char *profile, const char *key);
const char *ddb_aws_config_get (DdbAwsConfig *config, const char *profile, const char *key);

typedef enum {
  DDB_AWS_FILE_CONFIG,
  DDB_AWS_FILE_CREDENTIALS,
} DdbAwsFile;

/* One file only: the credentials file's [PROFILE], or the config file's profile PROFILE. */
gboolean ddb_aws_config_file_has (DdbAwsConfig *config, DdbAwsFile file, const char *profile,
                                  const char *key);
const char *ddb_aws_config_file_get (DdbAwsConfig *config, DdbAwsFile file, const char *profile,
                                     const char *key);

/* SUBKEY of the nested block KEY in PROFILE (the credentials file's, else the config file's),
 * e.g. "addressing_style" of the profile's `s3 =` block; NULL if unset. */
const char *ddb_aws_config_get_nested (DdbAwsConfig *config, const char *profile, const char *key,
                                       const char *subkey);

/* The config file's [services NAME] section. */
gboolean ddb_aws_config_has_services (DdbAwsConfig *config, const char *name);
/* KEY (e.g. "endpoint_url") of the nested block SERVICE (e.g. "dynamodb") in [services NAME]. */
const char *ddb_aws_config_get_service (DdbAwsConfig *config, const char *name, const char *service,
                                        const char *key);

/* The config file's [sso-session NAME] section (the last one naming NAME, as botocore's
 * build_profile_map keeps it): a new table of its plain values (key -> value), or NULL when
 * there is none. */
GHashTable *ddb_aws_config_get_sso_session (DdbAwsConfig *config, const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbAwsConfig, ddb_aws_config_unref)

/* Splits a command line as Python's shlex.split does (POSIX mode, no comments): the CLI's
 * compat_shell_split for credential_process, and for `[profile "a b"]` section names. */
char **ddb_aws_shell_split (const char *line, GError **error);

G_END_DECLS
