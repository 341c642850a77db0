/* endpoints.h: which region and which URL a client talks to, resolved as the AWS CLI v2 does:
 * --region, AWS_REGION, AWS_DEFAULT_REGION, the profile's region; --endpoint-url, then the
 * configured endpoints (AWS_ENDPOINT_URL_<SERVICE>, AWS_ENDPOINT_URL, the profile's services
 * section, the profile's endpoint_url) unless AWS_IGNORE_CONFIGURED_ENDPOINT_URLS, then the
 * region's standard endpoint in its partition (amazonaws.com, amazonaws.com.cn, ...), its FIPS or
 * dual-stack variant when use_fips_endpoint / use_dualstack_endpoint ask for one (botocore's
 * endpoint rule sets, data/<service>/.../endpoint-rule-set-1.json). */
#pragma once

#include "net/awsconfig.h"

G_BEGIN_DECLS

/* A region must be a DNS label (botocore's validate_region_name). */
gboolean ddb_aws_region_is_valid (const char *region);

/* The DNS suffix of REGION's partition: "amazonaws.com", "amazonaws.com.cn" for cn-*,
 * "c2s.ic.gov" for us-iso-*, ...; regions of no known partition are in the aws partition. */
const char *ddb_aws_region_dns_suffix (const char *region);

/* https://SERVICE.REGION.SUFFIX; for DynamoDB's pseudo-region "local", http://localhost:8000.
 * SERVICE is the endpoint prefix ("dynamodb", "sts"). */
char *ddb_aws_standard_endpoint (const char *service, const char *region);

/* The region to sign with for the standard endpoint of REGION: REGION itself, except DynamoDB's
 * "local", which signs as us-east-1. */
const char *ddb_aws_signing_region (const char *service, const char *region);

/* Where the DynamoDB Streams API of a client talking to DYNAMODB_URL is: the region's
 * streams.dynamodb endpoint when DYNAMODB_URL is the region's standard DynamoDB endpoint (AWS
 * answers Streams on a host of its own), else DYNAMODB_URL itself (DynamoDB Local, serve and
 * other local endpoints answer both APIs on one URL). */
char *ddb_aws_streams_endpoint (const char *dynamodb_url, const char *region);

/* STS's regional endpoint (the CLI v2 default), or the global https://sts.amazonaws.com when
 * REGION is NULL. */
char *ddb_aws_sts_endpoint (const char *region);

/* The DNS suffix of REGION's partition for dual-stack (IPv4 and IPv6) endpoints: "api.aws",
 * "api.amazonwebservices.com.cn", ... */
const char *ddb_aws_region_dualstack_suffix (const char *region);

/* Whether FIPS and dual-stack endpoints are asked for: AWS_USE_FIPS_ENDPOINT /
 * AWS_USE_DUALSTACK_ENDPOINT when set (to anything), else PROFILE's use_fips_endpoint /
 * use_dualstack_endpoint in CONFIG; "true" (any case) means yes. CONFIG and PROFILE may be
 * NULL. */
void ddb_aws_endpoint_variants (DdbAwsConfig *config, const char *profile,
                                const char *const *envp, gboolean *fips, gboolean *dualstack);

/* The standard endpoint of the service with endpoint prefix PREFIX ("dynamodb",
 * "streams.dynamodb", "sts", "portal.sso", "oidc", "signin") in REGION, in the variant asked
 * for, as AWS's endpoint rules have it: PREFIX-fips.REGION.SUFFIX for FIPS (but the plain
 * host in aws-us-gov, whose endpoints are FIPS already, except sign-in), the dual-stack suffix
 * for dual-stack (streams-dynamodb[-fips] in aws, aws-cn and aws-us-gov), sign-in's
 * REGION.signin.aws.amazon.com-style hosts, STS's global https://sts.amazonaws.com for REGION
 * NULL or "aws-global", DynamoDB's "local". Errors (DDB_AWS_ERROR_INVALID_CONFIG): FIPS or
 * dual-stack with DynamoDB's "local" or without a region; DDB_AWS_ERROR_NO_REGION: another
 * service without a region. */
char *ddb_aws_variant_endpoint (const char *prefix, const char *region, gboolean fips,
                                gboolean dualstack, GError **error);

/* ddb_aws_variant_endpoint in the variant that CONFIG, PROFILE and ENVP ask for
 * (ddb_aws_endpoint_variants). A configured endpoint URL wins over this (as in botocore, which
 * then turns FIPS and dual-stack off): the caller checks ddb_aws_configured_endpoint first. */
char *ddb_aws_service_endpoint (DdbAwsConfig *config, const char *profile,
                                const char *const *envp, const char *prefix, const char *region,
                                GError **error);

/* A usable endpoint URL: http or https with a valid host name (botocore's is_valid_uri).
 * Error: "Invalid endpoint: URL". */
gboolean ddb_aws_check_endpoint_url (const char *url, GError **error);

/* --region (CLI_REGION), AWS_REGION, AWS_DEFAULT_REGION, then PROFILE's region in CONFIG
 * (either file). Empty values count as unset. Sets *REGION to NULL when none is configured;
 * errors (DDB_AWS_ERROR_INVALID_REGION) when the one found is not a valid region name. */
gboolean ddb_aws_resolve_region (DdbAwsConfig *config, const char *profile, const char *cli_region,
                                 const char *const *envp, char **region, GError **error);

/* The endpoint configured for SERVICE_ID (the SDK service id, "DynamoDB", "STS"): unless
 * AWS_IGNORE_CONFIGURED_ENDPOINT_URLS (or the profile's ignore_configured_endpoint_urls) is
 * true, AWS_ENDPOINT_URL_<ID>, AWS_ENDPOINT_URL, the services section named by the profile's
 * `services` (key <id>, nested endpoint_url), then the profile's endpoint_url. Sets *URL to
 * NULL when none is configured. Errors: a profile naming a missing services section
 * (DDB_AWS_ERROR_INVALID_CONFIG), an invalid URL (DDB_AWS_ERROR_INVALID_ENDPOINT). */
gboolean ddb_aws_configured_endpoint (DdbAwsConfig *config, const char *profile,
                                      const char *service_id, const char *const *envp, char **url,
                                      GError **error);

G_END_DECLS
