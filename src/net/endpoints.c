/* endpoints.c: region and endpoint resolution, as botocore's config providers and endpoint
 * rules (partitions.json, each service's endpoint-rule-set-1.json) have them for DynamoDB,
 * DynamoDB Streams, STS, the SSO portal, SSO-OIDC and sign-in, FIPS and dual-stack included. */
#include "net/endpoints.h"

#include <string.h>

gboolean
ddb_aws_region_is_valid (const char *region)
{
  gsize n = strlen (region);
  gboolean all_digits = TRUE;

  /* ^(?![0-9]+$)(?!-)[a-zA-Z0-9-]{,63}(?<!-)$ */
  if (n == 0 || n > 63 || region[0] == '-' || region[n - 1] == '-')
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      if (!g_ascii_isalnum (region[i]) && region[i] != '-')
        return FALSE;
      if (!g_ascii_isdigit (region[i]))
        all_digits = FALSE;
    }
  return !all_digits;
}

/* REGION matches ^PREFIX\-\w+\-\d+$. */
static gboolean
in_partition (const char *region, const char *prefix)
{
  gsize plen = strlen (prefix);
  const char *rest, *dash;

  if (strncmp (region, prefix, plen) != 0 || region[plen] != '-')
    return FALSE;
  rest = region + plen + 1;
  dash = strchr (rest, '-');
  if (dash == NULL || dash == rest)
    return FALSE;
  for (const char *p = rest; p < dash; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;
  if (dash[1] == '\0')
    return FALSE;
  for (const char *p = dash + 1; *p; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

typedef struct {
  const char *prefix; /* the region's first labels; NULL: the aws partition */
  const char *name;
  const char *suffix;
  const char *dualstack_suffix;
} Partition;

/* partitions.json: each partition's region pattern, DNS suffix and dual-stack DNS suffix. */
static const Partition partitions[] = {
  { "cn", "aws-cn", "amazonaws.com.cn", "api.amazonwebservices.com.cn" },
  { "us-gov", "aws-us-gov", "amazonaws.com", "api.aws" },
  { "us-iso", "aws-iso", "c2s.ic.gov", "api.aws.ic.gov" },
  { "us-isob", "aws-iso-b", "sc2s.sgov.gov", "api.aws.scloud" },
  { "eu-isoe", "aws-iso-e", "cloud.adc-e.uk", "api.cloud-aws.adc-e.uk" },
  { "us-isof", "aws-iso-f", "csp.hci.ic.gov", "api.aws.hci.ic.gov" },
  { "eusc-de", "aws-eusc", "amazonaws.eu", "api.amazonwebservices.eu" },
};
static const Partition aws_partition = { NULL, "aws", "amazonaws.com", "api.aws" };

static const Partition *
partition_of (const char *region)
{
  for (guint i = 0; i < G_N_ELEMENTS (partitions); i++)
    if (in_partition (region, partitions[i].prefix))
      return &partitions[i];
  return &aws_partition;
}

const char *
ddb_aws_region_dns_suffix (const char *region)
{
  return partition_of (region)->suffix;
}

const char *
ddb_aws_region_dualstack_suffix (const char *region)
{
  return partition_of (region)->dualstack_suffix;
}

static gboolean
config_true (const char *value)
{
  return value != NULL && g_ascii_strcasecmp (value, "true") == 0;
}

void
ddb_aws_endpoint_variants (DdbAwsConfig *config, const char *profile, const char *const *envp,
                           gboolean *fips, gboolean *dualstack)
{
  const char *f = ddb_aws_getenv (envp, "AWS_USE_FIPS_ENDPOINT");
  const char *d = ddb_aws_getenv (envp, "AWS_USE_DUALSTACK_ENDPOINT");

  if (f == NULL && config != NULL && profile != NULL)
    f = ddb_aws_config_get (config, profile, "use_fips_endpoint");
  if (d == NULL && config != NULL && profile != NULL)
    d = ddb_aws_config_get (config, profile, "use_dualstack_endpoint");
  *fips = config_true (f);
  *dualstack = config_true (d);
}

char *
ddb_aws_variant_endpoint (const char *prefix, const char *region, gboolean fips,
                          gboolean dualstack, GError **error)
{
  const Partition *p;
  const char *suffix;
  gboolean big3;

  if (strcmp (prefix, "sts") == 0 && !fips && !dualstack
      && (region == NULL || strcmp (region, "aws-global") == 0))
    return g_strdup ("https://sts.amazonaws.com");
  if (region == NULL)
    {
      if (fips || dualstack)
        g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                     "Invalid Configuration: FIPS and dual-stack endpoints need a region");
      else
        g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_NO_REGION,
                     "You must specify a region. You can also configure your region by running "
                     "\"aws configure\".");
      return NULL;
    }
  if (strcmp (prefix, "dynamodb") == 0 && strcmp (region, "local") == 0)
    {
      if (fips || dualstack)
        {
          g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                       "Invalid Configuration: %s and local endpoint are not supported",
                       fips ? "FIPS" : "Dualstack");
          return NULL;
        }
      return g_strdup ("http://localhost:8000");
    }

  p = partition_of (region);
  suffix = dualstack ? p->dualstack_suffix : p->suffix;
  big3 = strcmp (p->name, "aws") == 0 || strcmp (p->name, "aws-cn") == 0
         || strcmp (p->name, "aws-us-gov") == 0;

  if (strcmp (prefix, "signin") == 0 && !fips && !dualstack && big3)
    {
      const char *host = strcmp (p->name, "aws") == 0      ? "signin.aws.amazon.com"
                         : strcmp (p->name, "aws-cn") == 0 ? "signin.amazonaws.cn"
                                                            : "signin.amazonaws-us-gov.com";

      return g_strdup_printf ("https://%s.%s", region, host);
    }
  if (strcmp (prefix, "streams.dynamodb") == 0 && dualstack && big3)
    return g_strdup_printf ("https://streams-dynamodb%s.%s.%s", fips ? "-fips" : "", region,
                            suffix);
  /* GovCloud's endpoints are FIPS endpoints already (sign-in's are not). */
  if (fips && !dualstack && strcmp (p->name, "aws-us-gov") == 0
      && strcmp (prefix, "signin") != 0)
    fips = FALSE;
  return g_strdup_printf ("https://%s%s.%s.%s", prefix, fips ? "-fips" : "", region, suffix);
}

char *
ddb_aws_service_endpoint (DdbAwsConfig *config, const char *profile, const char *const *envp,
                          const char *prefix, const char *region, GError **error)
{
  gboolean fips, dualstack;

  ddb_aws_endpoint_variants (config, profile, envp, &fips, &dualstack);
  return ddb_aws_variant_endpoint (prefix, region, fips, dualstack, error);
}

char *
ddb_aws_standard_endpoint (const char *service, const char *region)
{
  if (strcmp (service, "dynamodb") == 0 && strcmp (region, "local") == 0)
    return g_strdup ("http://localhost:8000");
  return g_strdup_printf ("https://%s.%s.%s", service, region, ddb_aws_region_dns_suffix (region));
}

char *
ddb_aws_streams_endpoint (const char *dynamodb_url, const char *region)
{
  g_autofree char *standard = NULL;
  gsize len = strlen (dynamodb_url);

  if (region == NULL || strcmp (region, "local") == 0)
    return g_strdup (dynamodb_url);
  standard = ddb_aws_standard_endpoint ("dynamodb", region);
  if (len > 0 && dynamodb_url[len - 1] == '/')
    len--;
  if (len == strlen (standard) && g_ascii_strncasecmp (dynamodb_url, standard, len) == 0)
    return ddb_aws_standard_endpoint ("streams.dynamodb", region);
  return g_strdup (dynamodb_url);
}

const char *
ddb_aws_signing_region (const char *service, const char *region)
{
  if (strcmp (service, "dynamodb") == 0 && strcmp (region, "local") == 0)
    return "us-east-1";
  return region;
}

char *
ddb_aws_sts_endpoint (const char *region)
{
  if (region == NULL)
    return g_strdup ("https://sts.amazonaws.com");
  return ddb_aws_standard_endpoint ("sts", region);
}

static gboolean
valid_hostname (const char *host)
{
  g_auto (GStrv) labels = NULL;
  g_autofree char *h = g_strdup (host);
  gsize n = strlen (h);

  /* An IPv6 literal (g_uri_parse has checked its brackets). */
  if (strchr (h, ':') != NULL)
    return TRUE;
  if (n > 0 && h[n - 1] == '.')
    h[--n] = '\0';
  if (n == 0 || n > 255)
    return FALSE;
  labels = g_strsplit (h, ".", -1);
  for (guint i = 0; labels[i] != NULL; i++)
    {
      gsize len = strlen (labels[i]);

      if (len == 0 || len > 63 || labels[i][0] == '-' || labels[i][len - 1] == '-')
        return FALSE;
      for (gsize j = 0; j < len; j++)
        if (!g_ascii_isalnum (labels[i][j]) && labels[i][j] != '-')
          return FALSE;
    }
  return TRUE;
}

gboolean
ddb_aws_check_endpoint_url (const char *url, GError **error)
{
  g_autoptr (GUri) uri = NULL;
  const char *scheme;

  if (strpbrk (url, "\t\r\n") == NULL)
    uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  if (uri != NULL)
    scheme = g_uri_get_scheme (uri);
  if (uri == NULL || g_uri_get_host (uri) == NULL
      || (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
      || !valid_hostname (g_uri_get_host (uri)))
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_ENDPOINT, "Invalid endpoint: %s",
                   url);
      return FALSE;
    }
  return TRUE;
}

static const char *
nonempty (const char *s)
{
  return s != NULL && s[0] != '\0' ? s : NULL;
}

gboolean
ddb_aws_resolve_region (DdbAwsConfig *config, const char *profile, const char *cli_region,
                        const char *const *envp, char **region, GError **error)
{
  const char *r = nonempty (cli_region);

  if (r == NULL)
    r = nonempty (ddb_aws_getenv (envp, "AWS_REGION"));
  if (r == NULL)
    r = nonempty (ddb_aws_getenv (envp, "AWS_DEFAULT_REGION"));
  if (r == NULL && config != NULL && profile != NULL)
    r = nonempty (ddb_aws_config_get (config, profile, "region"));
  *region = NULL;
  if (r == NULL)
    return TRUE;
  if (!ddb_aws_region_is_valid (r))
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_REGION,
                   "Provided region_name '%s' doesn't match a supported format.", r);
      return FALSE;
    }
  *region = g_strdup (r);
  return TRUE;
}

/* "DynamoDB" -> "DYNAMODB" (environment) or "dynamodb" (services section): spaces become
 * underscores. */
static char *
transform_service_id (const char *service_id, gboolean upper)
{
  char *s = upper ? g_ascii_strup (service_id, -1) : g_ascii_strdown (service_id, -1);

  g_strdelimit (s, " ", '_');
  return s;
}

gboolean
ddb_aws_configured_endpoint (DdbAwsConfig *config, const char *profile, const char *service_id,
                             const char *const *envp, char **url, GError **error)
{
  const char *ignore = ddb_aws_getenv (envp, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS");
  g_autofree char *env_id = transform_service_id (service_id, TRUE);
  g_autofree char *env_name = g_strconcat ("AWS_ENDPOINT_URL_", env_id, NULL);
  const char *found;

  *url = NULL;
  /* The environment variable, when set at all, overrides the profile's setting. */
  if (ignore == NULL && config != NULL && profile != NULL)
    ignore = ddb_aws_config_get (config, profile, "ignore_configured_endpoint_urls");
  if (ignore != NULL && g_ascii_strcasecmp (ignore, "true") == 0)
    return TRUE;

  found = nonempty (ddb_aws_getenv (envp, env_name));
  if (found == NULL)
    found = nonempty (ddb_aws_getenv (envp, "AWS_ENDPOINT_URL"));
  if (found == NULL && config != NULL && profile != NULL)
    {
      const char *services = ddb_aws_config_get (config, profile, "services");

      if (ddb_aws_config_has (config, profile, "services"))
        {
          g_autofree char *key = transform_service_id (service_id, FALSE);

          if (services == NULL || !ddb_aws_config_has_services (config, services))
            {
              g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                           "The profile is configured to use the services section but the "
                           "\"%s\" services configuration does not exist.",
                           services != NULL ? services : "");
              return FALSE;
            }
          found = nonempty (ddb_aws_config_get_service (config, services, key, "endpoint_url"));
        }
      if (found == NULL)
        found = nonempty (ddb_aws_config_get (config, profile, "endpoint_url"));
    }
  if (found == NULL)
    return TRUE;
  if (!ddb_aws_check_endpoint_url (found, error))
    return FALSE;
  *url = g_strdup (found);
  return TRUE;
}
