// Query Orders once per suffix, :pk = TENANT#bigco#01 … TENANT#bigco#10 (10 Queries) on http://127.0.0.1:8000 (profile dev, region eu-west-1)
// Needs software.amazon.awssdk:dynamodb (the AWS SDK for Java v2) on the class path.
import java.net.URI;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.*;

public class DynamoDbRequest {
    public static void main(String[] args) throws InterruptedException {
        try (DynamoDbClient client = DynamoDbClient.builder()
                .region(Region.of("eu-west-1"))
                .credentialsProvider(ProfileCredentialsProvider.create("dev"))
                .endpointOverride(URI.create("http://127.0.0.1:8000"))
                .build()) {
            QueryRequest request = QueryRequest.builder()
                .tableName("Orders")
                .keyConditionExpression("#pk = :pk")
                .expressionAttributeNames(Map.ofEntries(Map.entry("#pk", "TenantShard")))
                .expressionAttributeValues(Map.ofEntries(
                    Map.entry(":pk", AttributeValue.builder().s("TENANT#bigco#01").build())
                ))
                .build();
            String placeholder = ":pk";
            String prefix = "TENANT#bigco#";
            List<String> suffixes = LongStream.rangeClosed(1L, 10L)
                    .mapToObj(n -> String.format("%02d", n))
                    .collect(Collectors.toList());
            // The shards' Queries in parallel; their items merged in suffix order, each shard's in the
            // order its Query returns them (by the sort key).
            List<List<Map<String, AttributeValue>>> shards = suffixes.parallelStream()
                    .map(suffix -> {
                        Map<String, AttributeValue> values = new HashMap<>(request.expressionAttributeValues());
                        values.put(placeholder, AttributeValue.fromS(prefix + suffix));
                        QueryRequest shard = request.toBuilder().expressionAttributeValues(values).build();
                        List<Map<String, AttributeValue>> items = new ArrayList<>();
                        // Each call reads at most 1 MB (or Limit items): follow LastEvaluatedKey to the end.
                        while (true) {
                            QueryResponse response = client.query(shard);
                            items.addAll(response.items());
                            if (!response.hasLastEvaluatedKey()) {
                                return items;
                            }
                            shard = shard.toBuilder().exclusiveStartKey(response.lastEvaluatedKey()).build();
                        }
                    })
                    .collect(Collectors.toList());
            shards.forEach(items -> items.forEach(System.out::println));
        }
    }
}
