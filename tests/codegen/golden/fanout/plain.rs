// Query Orders once per suffix, :pk = TENANT#bigco#01 … TENANT#bigco#10 (10 Queries) on http://127.0.0.1:8000 (profile dev, region eu-west-1)
// Cargo.toml: aws-config, aws-sdk-dynamodb and tokio (features "full").
use aws_config::{BehaviorVersion, Region};
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = aws_config::defaults(BehaviorVersion::latest())
        .profile_name("dev")
        .region(Region::new("eu-west-1"))
        .endpoint_url("http://127.0.0.1:8000")
        .load()
        .await;
    let client = Client::new(&config);
    let request = client.query()
        .table_name("Orders")
        .key_condition_expression("#pk = :pk")
        .expression_attribute_names("#pk", "TenantShard")
        .expression_attribute_values(":pk", AttributeValue::S("TENANT#bigco#01".to_string()));
    let placeholder = ":pk";
    let prefix = "TENANT#bigco#";
    // The shards' Queries in parallel; their items merged in suffix order, each shard's in the
    // order its Query returns them (by the sort key).
    let mut tasks = Vec::new();
    for n in 1u64..=10u64 {
        let shard = request
            .clone()
            .expression_attribute_values(placeholder, AttributeValue::S(format!("{prefix}{n:02}")));
        tasks.push(tokio::spawn(async move {
            // Each call reads at most 1 MB (or Limit items): follow LastEvaluatedKey to the end.
            let mut items = Vec::new();
            let mut start_key = None;
            loop {
                let output = shard
                    .clone()
                    .set_exclusive_start_key(start_key)
                    .send()
                    .await
                    .map_err(aws_sdk_dynamodb::Error::from)?;
                items.extend(output.items().iter().cloned());
                start_key = output.last_evaluated_key().cloned();
                if start_key.is_none() {
                    break;
                }
            }
            Ok::<_, aws_sdk_dynamodb::Error>(items)
        }));
    }
    for task in tasks {
        for item in task.await?? {
            println!("{item:?}");
        }
    }
    Ok(())
}
