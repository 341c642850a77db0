// Query Codegen on http://127.0.0.1:8000 (profile dev, region eu-west-1)
// Needs software.amazon.awssdk:dynamodb (the AWS SDK for Java v2) on the class path.
import java.net.URI;
import java.util.Base64;
import java.util.List;
import java.util.Map;
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
                .tableName("Codegen")
                .keyConditionExpression("#pk = :pk AND #sk BETWEEN :lo AND :hi")
                .expressionAttributeNames(Map.ofEntries(
                    Map.entry("#pk", "pk"),
                    Map.entry("#sk", "sk")
                ))
                .expressionAttributeValues(Map.ofEntries(
                    Map.entry(":pk", AttributeValue.builder().s("p#3").build()),
                    Map.entry(":lo", AttributeValue.builder().n("0").build()),
                    Map.entry(":hi", AttributeValue.builder()
                        .n("12345678901234567890123456789012345678")
                        .build())
                ))
                .scanIndexForward(false)
                .limit(1)
                .build();
            // Each call reads at most 1 MB (or Limit items): follow LastEvaluatedKey to the end.
            while (true) {
                QueryResponse response = client.query(request);
                response.items().forEach(System.out::println);
                if (!response.hasLastEvaluatedKey()) {
                    break;
                }
                request = request.toBuilder().exclusiveStartKey(response.lastEvaluatedKey()).build();
            }
        }
    }
}
