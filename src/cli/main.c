/* main.c: dynoscope-cli, the scriptable face of Dynoscope: global options, then one command. */
#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "cli/base-cmd.h"
#include "cli/call.h"
#include "cli/codegen-cmd.h"
#include "cli/eval.h"
#include "cli/export.h"
#include "cli/exports-cmd.h"
#include "cli/import.h"
#include "cli/compare-cmd.h"
#include "cli/keys-cmd.h"
#include "cli/model-cmd.h"
#include "cli/s3-cmd.h"
#include "cli/serve.h"
#include "cli/snapshot-pull.h"
#include "cli/sql-cmd.h"
#include "cli/sso-cmd.h"
#include "cli/stage-file-cmd.h"
#include "cli/staging-cmd.h"
#include "cli/target.h"
#include "cli/whoami-cmd.h"
#include "core/i18n.h"
#include "core/malloc-init.h"
#include "net/hash.h"

typedef struct {
  const char *name;
  const char *usage;       /* synopsis after "dynoscope-cli " */
  const char *description; /* N_() marked */
  /* Commands on a database or an endpoint (through the backend seam). */
  int (*run_target) (const CliTarget *target, int argc, char **argv);
  int (*run_db) (const CliTarget *target, int argc, char **argv); /* on a database only */
  int (*run) (int argc, char **argv);                             /* commands without one */
} CliCommand;

static gboolean
asks_for_help (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--") == 0)
        break;
      if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0
          || strcmp (argv[i], "-?") == 0 || g_str_has_prefix (argv[i], "--help-"))
        return TRUE;
    }
  return FALSE;
}

/* `snapshot base` or `snapshot pull`. */
static int
snapshot_main (const CliTarget *target, int argc, char **argv)
{
  if (argc >= 2 && strcmp (argv[1], "pull") == 0)
    return cli_snapshot_pull_main (target->db_path, target->read_only, argc, argv);
  return cli_snapshot_base_main (target->db_path, target->read_only, argc, argv);
}

/* `serve`: not with --read-only, as the server answers writes (its own --help still shows). */
static int
serve_main (const CliTarget *target, int argc, char **argv)
{
  if (target->read_only && !asks_for_help (argc, argv))
    {
      fprintf (stderr, "dynoscope-cli serve: %s\n",
               _ ("a database cannot be served read-only yet: serve answers writes; run it "
                  "without --read-only (and without DYNOSCOPE_READ_ONLY)"));
      return 2;
    }
  return cli_serve_main (target->db_path, argc, argv);
}

static const CliCommand commands[] = {
  { "call", "[--db PATH | --endpoint URL] call OPERATION [REQUEST_JSON | -]",
    N_ ("Send one DynamoDB API request to the database or the endpoint and print the response"),
    cli_call_main, NULL, NULL },
  { "import", "[--db PATH | --endpoint URL] import --table NAME [OPTION…] SOURCE",
    N_ ("Create a table from a snapshot (S3 export, DynamoDB JSON lines, JSON, CSV) in the "
        "database (all or nothing) or on the endpoint (not atomic)"),
    cli_import_main, NULL, NULL },
  { "export", "[--db PATH | --endpoint URL] export --table NAME [OPTION…] DEST",
    N_ ("Write a table to a snapshot (DynamoDB JSON lines, JSON, CSV, S3 export layout) from the "
        "database or the endpoint"),
    cli_export_main, NULL, NULL },
  { "snapshot",
    "--db PATH snapshot base --table NAME [EXPORT]\n           dynoscope-cli --db PATH snapshot "
    "pull --table T --from-endpoint URL [--from-table T2] [--segments N]",
    N_ ("Record an export as the base of a snapshot table, or print its base and how many items "
        "were edited since; or copy a live table of an endpoint into the database as a snapshot "
        "whose base is that live table"),
    NULL, snapshot_main, NULL },
  { "serve",
    "--db PATH serve [--host HOST] [--port PORT] [--auth KEYID:SECRET[:TOKEN] …] "
    "[--auth-file PATH] [--export-dir DIR | --export-s3]",
    N_ ("Answer DynamoDB's API over HTTP from the database, as a local endpoint"), NULL, serve_main,
    NULL },
  { "exports",
    "[--db PATH | --endpoint URL] exports list [--table T]\n           dynoscope-cli "
    "[--db PATH | --endpoint URL] exports describe EXPORT_ARN\n           dynoscope-cli "
    "[--db PATH | --endpoint URL] exports start --table T --bucket B [--format json|ion] "
    "[--time TIME | --incremental --from TIME [--to TIME]] [--wait]\n           dynoscope-cli "
    "[--db PATH | --endpoint URL] exports pitr --table T [--enable | --disable]",
    N_ ("A live table's exports to S3: list them, describe one, start one (full or incremental, "
        "DynamoDB JSON or Amazon Ion) and wait for it, and show or switch the point-in-time "
        "recovery they need"),
    cli_exports_main, NULL, NULL },
  { "s3",
    "[--profile P] [--region R] s3 put s3://BUCKET/KEY FILE\n           dynoscope-cli "
    "[--profile P] [--region R] s3 ls s3://BUCKET[/PREFIX]",
    N_ ("Write a file to an S3 object, or list a bucket's objects, with the profile's "
        "credentials and S3 endpoint (AWS_ENDPOINT_URL_S3)"),
    cli_s3_main, NULL, NULL },
  { "codegen",
    "[--endpoint URL] [--profile P] [--region R] codegen --lang LANG OPERATION [REQUEST_JSON | -]",
    N_ ("Print a request as a program for the AWS CLI, Python, JavaScript, Java, Go or Rust"),
    cli_codegen_main, NULL, NULL },
  { "sql",
    "[--db PATH | --endpoint URL] sql [--format table|jsonl|csv] [--explain] [--stats] "
    "'SELECT …'",
    N_ ("Run SQL (JOIN, GROUP BY, window functions, json1) over the tables and indexes, "
        "reading them with Query where the key allows and Scan otherwise"),
    cli_sql_main, NULL, NULL },
  { "keys",
    "[--db PATH | --endpoint URL] keys --table T [--index I] [--sample N] [--rate RCU:WCU] "
    "[--json | --code LANG [--code-endpoint URL]]",
    N_ ("The partition-key health of a table or index: distribution, heaviest partitions, "
        "sharded families, partitions a rate would overload, and advice"),
    cli_keys_main, NULL, NULL },
  { "compare",
    "[--db PATH | --endpoint URL] compare --table T (--with-db PATH | --with-endpoint URL | "
    "--with-export PATH [--with-incremental PATH …]) [--with-table T2] [--base PATH] "
    "[--exclude PATH …] [--json] "
    "[--stage [--staging PATH]]",
    N_ ("Compare a table with one of another database or endpoint or an export, item by item "
        "and attribute by attribute, three-way from a base; stage the push of the edits made "
        "here (exit 1 when they differ)"),
    cli_compare_main, NULL, NULL },
  { "sso", "[--profile NAME] sso login [--no-browser] [--sso-session NAME]",
    N_ ("Sign in to IAM Identity Center (SSO) for the profile with a code approved in a "
        "browser, as \"aws sso login --use-device-code\"; the token is cached where the AWS "
        "CLI finds it"),
    cli_sso_main, NULL, NULL },
  { "eval", "eval [OPTION…] [FILE…]",
    N_ ("Evaluate DynamoDB expressions over items in DynamoDB JSON lines"), NULL, NULL,
    cli_eval_main },
  { "model",
    "model check MODEL.json\n           dynoscope-cli model estimate MODEL.json [--rate PATTERN=N] "
    "[--price NAME=VALUE] [--json]\n           dynoscope-cli CONNECTION model apply MODEL.json "
    "[--items N]\n           dynoscope-cli CONNECTION model infer --table T",
    N_ ("Key designs (NoSQL Workbench models): check one against its access patterns (each one "
        "request, keys that cannot collide, sort and fit; exit 1 when anything is flagged), "
        "estimate its item sizes, capacity and monthly cost, create its tables on a connection "
        "with its sample or generated items, or infer one from a table's items"),
    cli_model_main, NULL, NULL },
  { "whoami", "[--profile P] [--region R] whoami [--json]",
    N_ ("Show who the profile's credentials belong to (STS GetCallerIdentity), where they came "
        "from and when they expire"),
    cli_whoami_main, NULL, NULL },
  CLI_STAGING_COMMANDS,
  CLI_STAGE_FILE_COMMAND,
};

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n\n",
           _ ("Usage: dynoscope-cli [--db PATH | --endpoint URL] [--profile NAME] [--region R] "
              "[--read-only] COMMAND [OPTION…]"));
  fprintf (out, "%s\n", _ ("Global options:"));
  fprintf (out, "  %-20s %s\n", "--db PATH",
           _ ("The database file (created if missing); needed by the commands on a database"));
  fprintf (out, "  %-20s %s\n", "--endpoint URL",
           _ ("A DynamoDB endpoint (DynamoDB Local, dynalite, dynoscope-cli serve…) instead of "
              "a database"));
  fprintf (out, "  %-20s %s\n", "--profile NAME",
           _ ("The AWS profile for the credentials, region and endpoint (default: "
              "AWS_PROFILE, else \"default\")"));
  fprintf (out, "  %-20s %s\n", "--region R", _ ("The AWS region (default: the profile's)"));
  fprintf (out, "  %-20s %s\n", "--ca-bundle FILE",
           _ ("Trust the CAs in this PEM file (default: AWS_CA_BUNDLE, the profile's "
              "ca_bundle, else the system's)"));
  fprintf (out, "  %-20s %s\n", "--read-only",
           _ ("Refuse every write (PutItem, PartiQL INSERT, DeleteTable, commit, import…) "
              "before anything is sent, with exit status 1; reads work as usual. "
              "DYNOSCOPE_READ_ONLY=1 does the same"));
  fprintf (out, "  %-20s %s\n", "",
           _ ("Without --db, call talks to --endpoint, else to the profile's endpoint, else to "
              "the region's DynamoDB endpoint on AWS."));
  fprintf (out, "  %-20s %s\n", "-h, --help", _ ("Show this help"));
  fprintf (out, "  %-20s %s\n\n", "--version", _ ("Show the version"));
  fprintf (out, "%s\n", _ ("Commands:"));
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-8s %s\n           dynoscope-cli %s\n", commands[i].name,
             _ (commands[i].description), commands[i].usage);
  fprintf (out, "\n%s\n  %s\n", _ ("Run 'dynoscope-cli COMMAND --help' for a command's options, "
                                   "for example:"),
           "dynoscope-cli call --help");
}

/* "--name VALUE" or "--name=VALUE": TRUE (and *VALUE set, *I advanced) when ARGV[*I] is NAME;
 * *BAD when the value is missing or empty. */
static gboolean
option_value (int argc, char **argv, int *i, const char *name, const char **value, gboolean *bad)
{
  const char *arg = argv[*i];
  gsize len = strlen (name);

  if (strcmp (arg, name) == 0)
    {
      if (*i + 1 >= argc)
        *bad = TRUE;
      else
        *value = argv[++*i];
    }
  else if (strncmp (arg, name, len) == 0 && arg[len] == '=')
    *value = arg + len + 1;
  else
    return FALSE;
  if (*value != NULL && **value == '\0')
    *bad = TRUE;
  return TRUE;
}

/* DYNOSCOPE_READ_ONLY: 1, true or yes turn read-only mode on; unset, empty, 0, false or no
 * leave it off. FALSE (and a message printed) for any other value. */
static gboolean
read_only_from_environment (gboolean *read_only)
{
  static const char *const on[] = { "1", "true", "yes" };
  static const char *const off[] = { "", "0", "false", "no" };
  const char *value = g_getenv ("DYNOSCOPE_READ_ONLY");

  *read_only = FALSE;
  if (value == NULL)
    return TRUE;
  for (gsize k = 0; k < G_N_ELEMENTS (on); k++)
    if (g_ascii_strcasecmp (value, on[k]) == 0)
      {
        *read_only = TRUE;
        return TRUE;
      }
  for (gsize k = 0; k < G_N_ELEMENTS (off); k++)
    if (g_ascii_strcasecmp (value, off[k]) == 0)
      return TRUE;
  fprintf (stderr, _ ("dynoscope-cli: DYNOSCOPE_READ_ONLY is “%s”: it must be 1 (read-only) or "
                      "0\n"),
           value);
  return FALSE;
}

int
main (int argc, char **argv)
{
  CliTarget target = { 0 };
  gboolean read_only_env = FALSE;
  int i = 1;

  ddb_malloc_init ();
  ddb_i18n_init ();

  /* Global options come before the command, so that a command's own options never clash. */
  for (; i < argc && argv[i][0] == '-'; i++)
    {
      static const struct {
        const char *name;
        const char *missing; /* N_() marked */
        gsize offset;
      } valued[] = {
        { "--db", N_ ("--db needs a PATH"), G_STRUCT_OFFSET (CliTarget, db_path) },
        { "--endpoint", N_ ("--endpoint needs a URL"), G_STRUCT_OFFSET (CliTarget, endpoint_url) },
        { "--profile", N_ ("--profile needs a NAME"), G_STRUCT_OFFSET (CliTarget, profile) },
        { "--region", N_ ("--region needs a region name"), G_STRUCT_OFFSET (CliTarget, region) },
        { "--ca-bundle", N_ ("--ca-bundle needs a FILE"),
          G_STRUCT_OFFSET (CliTarget, ca_bundle) },
      };
      const char *arg = argv[i];
      gboolean matched = FALSE;

      if (strcmp (arg, "--help") == 0 || strcmp (arg, "-h") == 0)
        {
          print_usage (stdout);
          return 0;
        }
      if (strcmp (arg, "--read-only") == 0)
        {
          target.read_only = TRUE;
          continue;
        }
      if (strcmp (arg, "--version") == 0)
        {
#ifdef DYNOSCOPE_DEVELOPMENT
          printf ("dynoscope-cli %s (development build)\n", PACKAGE_VERSION);
#else
          printf ("dynoscope-cli %s\n", PACKAGE_VERSION);
#endif
          return 0;
        }
      for (gsize o = 0; o < G_N_ELEMENTS (valued) && !matched; o++)
        {
          const char **slot = G_STRUCT_MEMBER_P (&target, valued[o].offset);
          gboolean bad = FALSE;

          if (option_value (argc, argv, &i, valued[o].name, slot, &bad))
            {
              if (bad)
                {
                  fprintf (stderr, "dynoscope-cli: %s\n", _ (valued[o].missing));
                  return 2;
                }
              matched = TRUE;
            }
        }
      if (!matched)
        {
          fprintf (stderr, _ ("dynoscope-cli: unknown option “%s”\n"), arg);
          print_usage (stderr);
          return 2;
        }
    }

  /* After the options, so that --help and --version work whatever the environment says. */
  if (!read_only_from_environment (&read_only_env))
    return 2;
  target.read_only = target.read_only || read_only_env;

  if (target.db_path != NULL
      && (target.endpoint_url != NULL || target.profile != NULL || target.region != NULL
          || target.ca_bundle != NULL))
    {
      fprintf (stderr, "dynoscope-cli: %s\n",
               _ ("--db cannot be used with --endpoint, --profile, --region or --ca-bundle: a "
                  "command talks either to a database or to an endpoint"));
      return 2;
    }

  if (i >= argc)
    {
      print_usage (stderr);
      return 2;
    }
  if (strcmp (argv[i], "help") == 0)
    {
      print_usage (stdout);
      return 0;
    }

  /* The secret variables out of the process environment (read through ddb_environ_getenv and
   * ddb_environ_get): GIO copies the environment to open a browser and frees the copy unwiped.
   * But for serve, whose own programs (the lean server, `s3 put`) inherit them. */
  if (strcmp (argv[i], "serve") != 0)
    ddb_environ_hide_secrets ();

  for (gsize c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      const CliCommand *cmd = &commands[c];

      if (strcmp (argv[i], cmd->name) != 0)
        continue;
      if (cmd->run != NULL)
        return cmd->run (argc - i, argv + i);
      if (cmd->run_target != NULL)
        return cmd->run_target (&target, argc - i, argv + i);
      if (cli_target_is_remote (&target) && !asks_for_help (argc - i, argv + i))
        {
          if (target.endpoint_url != NULL || target.profile != NULL || target.region != NULL
              || target.ca_bundle != NULL)
            fprintf (stderr,
                     _ ("dynoscope-cli %s: works on a database (--db PATH) only for now, not on "
                        "an endpoint\n"),
                     cmd->name);
          else
            fprintf (stderr,
                     _ ("dynoscope-cli %s: no database: give one with --db PATH before the "
                        "command\n"),
                     cmd->name);
          fprintf (stderr, "%s: dynoscope-cli %s\n", _ ("Usage"), cmd->usage);
          return 2;
        }
      return cmd->run_db (&target, argc - i, argv + i);
    }

  fprintf (stderr, _ ("dynoscope-cli: unknown command “%s”\n"), argv[i]);
  print_usage (stderr);
  return 2;
}
