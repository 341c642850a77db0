// Scan Codegen.Other-2 on http://127.0.0.1:8000 (profile dev, region eu-west-1)
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
            ScanRequest request = ScanRequest.builder()
                .tableName("Codegen.Other-2")
                .filterExpression("attribute_type(v, :m) OR v = :e")
                .expressionAttributeValues(Map.ofEntries(
                    Map.entry(":m", AttributeValue.builder().s("L").build()),
                    Map.entry(":e", AttributeValue.builder().s("").build())
                ))
                .build();
            // Each call reads at most 1 MB (or Limit items): follow LastEvaluatedKey to the end.
            while (true) {
                ScanResponse response = client.scan(request);
                response.items().forEach(System.out::println);
                if (!response.hasLastEvaluatedKey()) {
                    break;
                }
                request = request.toBuilder().exclusiveStartKey(response.lastEvaluatedKey()).build();
            }
        }
    }
}
