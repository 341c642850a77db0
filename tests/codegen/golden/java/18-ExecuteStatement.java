// ExecuteStatement on http://127.0.0.1:8000 (profile dev, region eu-west-1)
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
            ExecuteStatementRequest request = ExecuteStatementRequest.builder()
                .statement("SELECT * FROM \"Codegen\" WHERE pk = ? AND sk = ?")
                .parameters(List.of(
                    AttributeValue.builder().s("p#1").build(),
                    AttributeValue.builder().n("12345678901234567890123456789012345678").build()
                ))
                .consistentRead(true)
                .limit(5)
                .returnConsumedCapacity("TOTAL")
                .build();
            // A SELECT reads at most 1 MB (or Limit items) a call: follow NextToken to the end.
            while (true) {
                ExecuteStatementResponse response = client.executeStatement(request);
                System.out.println(response);
                if (response.nextToken() == null) {
                    break;
                }
                request = request.toBuilder().nextToken(response.nextToken()).build();
            }
        }
    }
}
